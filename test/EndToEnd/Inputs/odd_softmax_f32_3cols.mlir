// odd_softmax_f32_3cols.mlir - an f32 row softmax on 97 rows of 3 columns
// (narrower than a lane), dealt out cyclically over a [64, 1] grid that
// does not divide them: tiles 0..32 take two rows, 33..63 one.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 96 >= 0, d1 >= 0, -d1 + 2 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 2 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @softmax_kernel(%input_ptr: index, %output_ptr: index, %n_rows: index) attributes {grid = [64, 1]} {
    %tid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %cG = arith.constant 64 : index
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %X = ktdp.construct_memory_view %input_ptr, sizes: [97, 3], strides: [3, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<97x3xf32>
    %Y = ktdp.construct_memory_view %output_ptr, sizes: [97, 3], strides: [3, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<97x3xf32>
    scf.for %r = %tid to %n_rows step %cG : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<97x3xf32> -> !ktdp.access_tile<1x3xindex>
      %x = ktdp.load %tx : <1x3xindex> -> tensor<1x3xf32>
      %max_init = tensor.splat %ninf : tensor<1xf32>
      %max = linalg.reduce { arith.maxnumf } ins(%x : tensor<1x3xf32>) outs(%max_init : tensor<1xf32>) dimensions = [1]
      %m = tensor.extract %max[%c0] : tensor<1xf32>
      %mb = tensor.splat %m : tensor<1x3xf32>
      %shifted = arith.subf %x, %mb : tensor<1x3xf32>
      %e = math.exp %shifted : tensor<1x3xf32>
      %sum_init = tensor.splat %zero : tensor<1xf32>
      %sum = linalg.reduce { arith.addf } ins(%e : tensor<1x3xf32>) outs(%sum_init : tensor<1xf32>) dimensions = [1]
      %s = tensor.extract %sum[%c0] : tensor<1xf32>
      %sb = tensor.splat %s : tensor<1x3xf32>
      %y = arith.divf %e, %sb : tensor<1x3xf32>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<97x3xf32> -> !ktdp.access_tile<1x3xindex>
      ktdp.store %y, %ty : tensor<1x3xf32>, <1x3xindex>
      scf.yield
    }
    return
  }
}

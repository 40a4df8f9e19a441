// odd_softmax_bf16_1151.mlir - a bf16 row softmax on rows of 1151 columns
// (wider than any shipped device's lanes, not a multiple of them), 3 rows
// dealt out cyclically over a [2, 1] grid (tile 0 takes rows 0 and 2).
// Y[r, :] = exp(X[r, :] - max X[r, :]) / sum exp(...), bf16 throughout.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 1150 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 1150 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @softmax_kernel(%input_ptr: index, %output_ptr: index, %n_rows: index) attributes {grid = [2, 1]} {
    %tid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %cG = arith.constant 2 : index
    %ninf = arith.constant 0xFF80 : bf16
    %zero = arith.constant 0.0 : bf16
    %X = ktdp.construct_memory_view %input_ptr, sizes: [3, 1151], strides: [1151, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<3x1151xbf16>
    %Y = ktdp.construct_memory_view %output_ptr, sizes: [3, 1151], strides: [1151, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<3x1151xbf16>
    scf.for %r = %tid to %n_rows step %cG : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<3x1151xbf16> -> !ktdp.access_tile<1x1151xindex>
      %x = ktdp.load %tx : <1x1151xindex> -> tensor<1x1151xbf16>
      %max_init = tensor.splat %ninf : tensor<1xbf16>
      %max = linalg.reduce { arith.maxnumf } ins(%x : tensor<1x1151xbf16>) outs(%max_init : tensor<1xbf16>) dimensions = [1]
      %m = tensor.extract %max[%c0] : tensor<1xbf16>
      %mb = tensor.splat %m : tensor<1x1151xbf16>
      %shifted = arith.subf %x, %mb : tensor<1x1151xbf16>
      %e = math.exp %shifted : tensor<1x1151xbf16>
      %sum_init = tensor.splat %zero : tensor<1xbf16>
      %sum = linalg.reduce { arith.addf } ins(%e : tensor<1x1151xbf16>) outs(%sum_init : tensor<1xbf16>) dimensions = [1]
      %s = tensor.extract %sum[%c0] : tensor<1xbf16>
      %sb = tensor.splat %s : tensor<1x1151xbf16>
      %y = arith.divf %e, %sb : tensor<1x1151xbf16>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<3x1151xbf16> -> !ktdp.access_tile<1x1151xindex>
      ktdp.store %y, %ty : tensor<1x1151xbf16>, <1x1151xindex>
      scf.yield
    }
    return
  }
}

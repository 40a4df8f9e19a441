// combo_extract_inner_loop.mlir - an inner loop carrying a row's sum of its
// first four elements, read with tensor.extract at the loop's column from
// the row loaded outside it. 64x128 f16 rows cyclic over a [32, 1] grid.
//
// Computes, for r < 64, j < 128 (f16, summed in order):
//   Y[r, j] = ((X[r, 0] + X[r, 1]) + X[r, 2]) + X[r, 3]
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @extract_inner_loop_kernel(%x_ptr: index,   // X: 64x128 f16 (input)
                   %y_ptr: index) attributes {grid = [32, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f16
    %ninf = arith.constant 0xFC00 : f16
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    scf.for %r = %pid to %c64 step %c32 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %c4 = arith.constant 4 : index
      %zt = arith.constant dense<0.0> : tensor<1x128xf16>
      %y = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc = %zt) -> (tensor<1x128xf16>) {
        %v = tensor.extract %x[%c0, %j] : tensor<1x128xf16>
        %vv = tensor.splat %v : tensor<1x128xf16>
        %a2 = arith.addf %acc, %vv : tensor<1x128xf16>
        scf.yield %a2 : tensor<1x128xf16>
      }
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
    }
    return
  }
}

// row_ends_scale.mlir - each row of 64x128 f16 shifted by its first
// element and scaled by its last, read with tensor.extract from the loaded
// row (Triton's `x - x[:, 0:1]` lowered to one element). Rows cyclic over
// a [32, 1] grid.
//
// Computes, for r < 64, j < 128 (f16, each op rounded):
//   Y[r, j] = (X[r, j] - X[r, 0]) * X[r, 127]

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @row_ends_scale_kernel(%x_ptr: index,   // X: 64x128 f16 (input)
                                   %y_ptr: index)   // Y: 64x128 f16 (output)
      attributes {grid = [32, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c127 = arith.constant 127 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    scf.for %r = %pid to %c64 step %c32 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %first = tensor.extract %x[%c0, %c0] : tensor<1x128xf16>
      %last = tensor.extract %x[%c0, %c127] : tensor<1x128xf16>
      %fv = tensor.splat %first : tensor<1x128xf16>
      %lv = tensor.splat %last : tensor<1x128xf16>
      %d = arith.subf %x, %fv : tensor<1x128xf16>
      %y = arith.mulf %d, %lv : tensor<1x128xf16>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
    }
    return
  }
}

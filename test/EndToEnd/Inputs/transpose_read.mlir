// transpose_read.mlir - a transposed (column-major) read: X is a 64x128
// f16 matrix stored column-major (X[i, j] at i + 64*j), read through a view
// with strides [1, 64]; Y = 2 * X stored row-major. A 4x128 block per tile
// on a [16, 1] grid.
//
// Computes, for i < 64, j < 128, f16:
//   Y[i, j] = X[i, j] + X[i, j]            (one rounding)

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @transpose_read_kernel(%x_ptr: index,   // X: 64x128 f16, column-major (input)
                                   %y_ptr: index)   // Y: 64x128 f16, row-major (output)
      attributes {grid = [16, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c4 = arith.constant 4 : index
    %r0 = arith.muli %pid, %c4 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [1, 64] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16, strided<[1, 64]>>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16, strided<[1, 64]>> -> !ktdp.access_tile<4x128xindex>
    %x = ktdp.load %tx : <4x128xindex> -> tensor<4x128xf16>
    %y = arith.addf %x, %x : tensor<4x128xf16>
    %ty = ktdp.construct_access_tile %Y[%r0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
    ktdp.store %y, %ty : tensor<4x128xf16>, <4x128xindex>
    return
  }
}

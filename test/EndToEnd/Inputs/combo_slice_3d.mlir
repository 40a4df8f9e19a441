// combo_slice_3d.mlir - 3-D tiles: each point of a [2, 4] grid loads a
// 2x4x128 f16 block of X (4 batches x 16 positions x 128) and stores the
// sum of its two 64-wide halves, sliced from the block, into Y.
//
// Computes, for b < 4, s < 16, j < 64 (f16):
//   Y[b, s, j] = X[b, s, j] + X[b, s, 64 + j]
#x_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 127 >= 0)>
#y_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#xblk = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 127 >= 0)>
#yblk = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module {
  func.func @slice_3d_kernel(%x_ptr: index,   // X: 4x16x128 f16 (input)
                             %y_ptr: index)   // Y: 4x16x64 f16 (output)
      attributes {grid = [2, 4]} {
    %pb, %ps = ktdp.get_compute_tile_id : index, index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %b = arith.muli %pb, %c2 : index
    %s = arith.muli %ps, %c4 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [4, 16, 128], strides: [2048, 128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x16x128xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 16, 64], strides: [1024, 64, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<4x16x64xf16>
    %tx = ktdp.construct_access_tile %X[%b, %s, 0] {access_tile_set = #xblk, access_tile_order = #id3} : memref<4x16x128xf16> -> !ktdp.access_tile<2x4x128xindex>
    %x = ktdp.load %tx : <2x4x128xindex> -> tensor<2x4x128xf16>
    %l = tensor.extract_slice %x[0, 0, 0] [2, 4, 64] [1, 1, 1] : tensor<2x4x128xf16> to tensor<2x4x64xf16>
    %r = tensor.extract_slice %x[0, 0, 64] [2, 4, 64] [1, 1, 1] : tensor<2x4x128xf16> to tensor<2x4x64xf16>
    %y = arith.addf %l, %r : tensor<2x4x64xf16>
    %ty = ktdp.construct_access_tile %Y[%b, %s, 0] {access_tile_set = #yblk, access_tile_order = #id3} : memref<4x16x64xf16> -> !ktdp.access_tile<2x4x64xindex>
    ktdp.store %y, %ty : tensor<2x4x64xf16>, <2x4x64xindex>
    return
  }
}

// combo_swap_inserts.mlir - each 8x128 f16 block of a 100-row X is stored
// with its halves swapped and the new left half doubled, assembled with
// tensor.insert_slice into a tensor.empty; the last tile's block is
// masked. Grid [13, 1] with one tile id.
//
// Computes, for r < 100, j < 64 (f16):
//   Y[r, j] = X[r, 64 + j] * 2;   Y[r, 64 + j] = X[r, j]
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @swap_inserts_kernel(%x_ptr: index,   // X: 100x128 f16 (input)
                                 %y_ptr: index)   // Y: 100x128 f16 (output)
      attributes {grid = [13, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c8 = arith.constant 8 : index
    %row = arith.muli %pid, %c8 : index
    %two = arith.constant dense<2.0> : tensor<8x64xf16>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [100, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<100x128xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [100, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<100x128xf16>
    %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<100x128xf16> -> !ktdp.access_tile<8x128xindex>
    %x = ktdp.load %tx : <8x128xindex> -> tensor<8x128xf16>
    %l = tensor.extract_slice %x[0, 0] [8, 64] [1, 1] : tensor<8x128xf16> to tensor<8x64xf16>
    %r = tensor.extract_slice %x[0, 64] [8, 64] [1, 1] : tensor<8x128xf16> to tensor<8x64xf16>
    %r2 = arith.mulf %r, %two : tensor<8x64xf16>
    %e = tensor.empty() : tensor<8x128xf16>
    %y0 = tensor.insert_slice %r2 into %e[0, 0] [8, 64] [1, 1] : tensor<8x64xf16> into tensor<8x128xf16>
    %y = tensor.insert_slice %l into %y0[0, 64] [8, 64] [1, 1] : tensor<8x64xf16> into tensor<8x128xf16>
    %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<100x128xf16> -> !ktdp.access_tile<8x128xindex>
    ktdp.store %y, %ty : tensor<8x128xf16>, <8x128xindex>
    return
  }
}

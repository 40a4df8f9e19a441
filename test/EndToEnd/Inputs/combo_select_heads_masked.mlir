// combo_select_heads_masked.mlir - an arith.select of whole tensors by the
// tile's parity picks one of two head slices of a scaled 8x256 block of
// Q (100 rows: the last tile's block is masked). Grid [13].
//
// Computes, for r < 100, j < 128 (t = r / 8, f16):
//   K[r, j] = t even ? Q[r, j] * 0.125 : Q[r, 128 + j] * 0.125
#q = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#k = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#head = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @select_heads_kernel(%q_ptr: index,   // Q: 100x256 f16 (input)
                                 %k_ptr: index)   // K: 100x128 f16 (output)
      attributes {grid = [13]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %row = arith.muli %pid, %c8 : index
    %scale = arith.constant dense<0.125> : tensor<8x256xf16>
    %Q = ktdp.construct_memory_view %q_ptr, sizes: [100, 256], strides: [256, 1] {coordinate_set = #q, memory_space = #ktdp.memory_space<global>} : memref<100x256xf16>
    %K = ktdp.construct_memory_view %k_ptr, sizes: [100, 128], strides: [128, 1] {coordinate_set = #k, memory_space = #ktdp.memory_space<global>} : memref<100x128xf16>
    %tq = ktdp.construct_access_tile %Q[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<100x256xf16> -> !ktdp.access_tile<8x256xindex>
    %qb = ktdp.load %tq : <8x256xindex> -> tensor<8x256xf16>
    %scaled = arith.mulf %qb, %scale : tensor<8x256xf16>
    %h0 = tensor.extract_slice %scaled[0, 0] [8, 128] [1, 1] : tensor<8x256xf16> to tensor<8x128xf16>
    %h1 = tensor.extract_slice %scaled[0, 128] [8, 128] [1, 1] : tensor<8x256xf16> to tensor<8x128xf16>
    %par = arith.remui %pid, %c2 : index
    %even = arith.cmpi eq, %par, %c0 : index
    %h = arith.select %even, %h0, %h1 : tensor<8x128xf16>
    %tk = ktdp.construct_access_tile %K[%row, 0] {access_tile_set = #head, access_tile_order = #id2} : memref<100x128xf16> -> !ktdp.access_tile<8x128xindex>
    ktdp.store %h, %tk : tensor<8x128xf16>, <8x128xindex>
    return
  }
}

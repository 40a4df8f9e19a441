// head_loop_slice.mlir - each of 8 tiles loads an 8x256 block of Q (two
// 128-wide heads side by side) and loops over the heads, storing head h's
// columns, scaled by 0.125, into K[h]: the slice's column offset is the
// loop's h * 128, known only at run time.
//
// For 0 <= h < 2, 0 <= r < 64, 0 <= j < 128: K[h * 64 + r, j] =
// f16(Q[r, 128 h + j] * 0.125).
// Arguments: Q 64x256 f16 (input), K 128x128 f16 (output).
#q = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#k = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#head = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @head_loop(%q_ptr: index, %k_ptr: index) attributes {grid = [8]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %row = arith.muli %pid, %c8 : index
    %scale = arith.constant dense<0.125> : tensor<8x128xf16>
    %Q = ktdp.construct_memory_view %q_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #q, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %K = ktdp.construct_memory_view %k_ptr, sizes: [128, 128], strides: [128, 1] {coordinate_set = #k, memory_space = #ktdp.memory_space<global>} : memref<128x128xf16>
    %tq = ktdp.construct_access_tile %Q[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<8x256xindex>
    %qb = ktdp.load %tq : <8x256xindex> -> tensor<8x256xf16>
    scf.for %h = %c0 to %c2 step %c1 {
      %col = arith.muli %h, %c128 : index
      %base = arith.muli %h, %c64 : index
      %krow = arith.addi %base, %row : index
      %qh = tensor.extract_slice %qb[0, %col] [8, 128] [1, 1] : tensor<8x256xf16> to tensor<8x128xf16>
      %kh = arith.mulf %qh, %scale : tensor<8x128xf16>
      %tk = ktdp.construct_access_tile %K[%krow, 0] {access_tile_set = #head, access_tile_order = #id2} : memref<128x128xf16> -> !ktdp.access_tile<8x128xindex>
      ktdp.store %kh, %tk : tensor<8x128xf16>, <8x128xindex>
    }
    return
  }
}

// A 16x192 f16 tensor held as two 16x96 column halves at their own
// pointers, exponentiated in 64-column blocks (one per tile, block 1
// straddling the cut) into one plain 16x192 tensor: each part's copy of the
// load and the exp stores into the part's box of Y (a view at y + 96 with
// Y's strides for the second half), masked to the block's columns there.
//
// Computes, for r < 16, c < 192: Y[r, c] = f16(exp(X[r, c])).
#h0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 95 >= 0)>
#h1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 - 96 >= 0, -d1 + 191 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 191 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @to_plain(%x0: index, %x1: index, %y: index) attributes {grid = [3]} {
  %id = ktdp.get_compute_tile_id : index
  %c64 = arith.constant 64 : index
  %X0 = ktdp.construct_memory_view %x0, sizes: [16, 96], strides: [96, 1] {coordinate_set = #h0, memory_space = #ktdp.memory_space<global>} : memref<16x96xf16>
  %X1 = ktdp.construct_memory_view %x1, sizes: [16, 96], strides: [96, 1] {coordinate_set = #h1, memory_space = #ktdp.memory_space<global>} : memref<16x96xf16>
  %X = ktdp.construct_distributed_memory_view(%X0, %X1 : memref<16x96xf16>, memref<16x96xf16>) : memref<16x192xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [16, 192], strides: [192, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<16x192xf16>
  %col = arith.muli %id, %c64 : index
  %tx = ktdp.construct_access_tile %X[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x192xf16> -> !ktdp.access_tile<16x64xindex>
  %ty = ktdp.construct_access_tile %Y[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x192xf16> -> !ktdp.access_tile<16x64xindex>
  %x = ktdp.load %tx : <16x64xindex> -> tensor<16x64xf16>
  %e = math.exp %x : tensor<16x64xf16>
  ktdp.store %e, %ty : tensor<16x64xf16>, <16x64xindex>
  return
}

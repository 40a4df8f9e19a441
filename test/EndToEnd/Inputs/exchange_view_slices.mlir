// exchange_view_slices.mlir - slices loaded through the distributed view
// itself (EndToEnd/distributed-exchange.test; the pass-level case is
// ForwardScratchpadParts/view-loads.mlir's @view_slices).
//
// Grid [4], D 16x16 over four 4x16 row-block parts (part k in tile k's
// scratchpad at element 512). Tile t stores A[4t : 4t + 4, :] through D into
// its own part, then loads D[4((t + 1) mod 4) + 2, 8], 2x8 (a slice of what
// tile (t + 1) mod 4 stored: a copy, reloaded from A on the writer) into
// B[4t, 0], and D[4t, 8], 4x8 (a slice of its own store: a reload of A, no
// copy) into B[4t, 8]. So B[4t + i, j] = A[4((t + 1) mod 4) + 2 + i, 8 + j]
// for i < 2, j < 8; B[4t + i, 8 + j] = A[4t + i, 8 + j] for i < 4, j < 8;
// the rest of B stays zero.
// Arguments: %a A 16x16 f16 (input), %b B 16x16 f16 (output).
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part2 = affine_set<(d0, d1) : (d0 - 8 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part3 = affine_set<(d0, d1) : (d0 - 12 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#rows4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#blk28 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#blk48 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @view_slices(%a: index, %b: index) attributes {grid = [4]} {
  %id = ktdp.get_compute_tile_id : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %row0 = arith.muli %id, %c4 : index
  %next = arith.addi %id, %c1 : index
  %neighbour = arith.remui %next, %c4 : index
  %nrow0 = arith.muli %neighbour, %c4 : index
  %sp = arith.constant 512 : index
  %A = ktdp.construct_memory_view %a, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %B = ktdp.construct_memory_view %b, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %P0 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<4x16xf16>
  %P1 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<4x16xf16>
  %P2 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part2, memory_space = #ktdp.memory_space<ct_local, ct_id = 2>} : memref<4x16xf16>
  %P3 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part3, memory_space = #ktdp.memory_space<ct_local, ct_id = 3>} : memref<4x16xf16>
  %D = ktdp.construct_distributed_memory_view(%P0, %P1, %P2, %P3 : memref<4x16xf16>, memref<4x16xf16>, memref<4x16xf16>, memref<4x16xf16>) : memref<16x16xf16>
  %ta = ktdp.construct_access_tile %A[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %td = ktdp.construct_access_tile %D[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %block = ktdp.load %ta : <4x16xindex> -> tensor<4x16xf16>
  ktdp.store %block, %td : tensor<4x16xf16>, <4x16xindex>
  %nrow2 = arith.addi %nrow0, %c2 : index
  %tn = ktdp.construct_access_tile %D[%nrow2, 8] {access_tile_set = #blk28, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<2x8xindex>
  %tb = ktdp.construct_access_tile %B[%row0, 0] {access_tile_set = #blk28, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<2x8xindex>
  %theirs = ktdp.load %tn : <2x8xindex> -> tensor<2x8xf16>
  ktdp.store %theirs, %tb : tensor<2x8xf16>, <2x8xindex>
  %to = ktdp.construct_access_tile %D[%row0, 8] {access_tile_set = #blk48, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x8xindex>
  %tc = ktdp.construct_access_tile %B[%row0, 8] {access_tile_set = #blk48, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x8xindex>
  %mine = ktdp.load %to : <4x8xindex> -> tensor<4x8xf16>
  ktdp.store %mine, %tc : tensor<4x8xf16>, <4x8xindex>
  return
}

// exchange_slice.mlir - a tile reads a slice of what another tile stored
// into a scratchpad part (EndToEnd/distributed-exchange.test).
//
// Grid [2]. D is a 16x16 distributed view over two ct_local parts at
// scratchpad element 512: part 0 (tile 0) holds columns 0-7, part 1 (tile
// 1) columns 8-15, each laid out 16x8. Tile t loads A[8t : 8t + 8, :] and
// stores it through D at [8t, 0] (half into each scratchpad), then reads
// L1[8 - 8t, 0], 8x8 (tile 1's scratchpad in its local coordinates, rows
// 8(1 - t)..): the right half of the rows tile 1 - t stored. It stores that
// to B[8t, 8]. So B[8t + i, 8 + j] = A[8(1 - t) + i, 8 + j]; the rest of B
// stays zero.
// Arguments: %a A 16x16 f16 (input), %b B 16x16 f16 (output).
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 - 8 >= 0, -d1 + 15 >= 0)>
#local = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#rows8 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#sq8 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @other_tiles_rows(%a: index, %b: index) attributes {grid = [2]} {
  %id = ktdp.get_compute_tile_id : index
  %c8 = arith.constant 8 : index
  %row0 = arith.muli %id, %c8 : index
  %other = arith.subi %c8, %row0 : index
  %sp = arith.constant 512 : index
  %A = ktdp.construct_memory_view %a, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %B = ktdp.construct_memory_view %b, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %P0 = ktdp.construct_memory_view %sp, sizes: [16, 8], strides: [8, 1] {coordinate_set = #part0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<16x8xf16>
  %P1 = ktdp.construct_memory_view %sp, sizes: [16, 8], strides: [8, 1] {coordinate_set = #part1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<16x8xf16>
  %D = ktdp.construct_distributed_memory_view(%P0, %P1 : memref<16x8xf16>, memref<16x8xf16>) : memref<16x16xf16>
  %ta = ktdp.construct_access_tile %A[%row0, 0] {access_tile_set = #rows8, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<8x16xindex>
  %td = ktdp.construct_access_tile %D[%row0, 0] {access_tile_set = #rows8, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<8x16xindex>
  %rows = ktdp.load %ta : <8x16xindex> -> tensor<8x16xf16>
  ktdp.store %rows, %td : tensor<8x16xf16>, <8x16xindex>
  %L1 = ktdp.construct_memory_view %sp, sizes: [16, 8], strides: [8, 1] {coordinate_set = #local, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<16x8xf16>
  %tl1 = ktdp.construct_access_tile %L1[%other, 0] {access_tile_set = #sq8, access_tile_order = #id2} : memref<16x8xf16> -> !ktdp.access_tile<8x8xindex>
  %tb1 = ktdp.construct_access_tile %B[%row0, 8] {access_tile_set = #sq8, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<8x8xindex>
  %v1 = ktdp.load %tl1 : <8x8xindex> -> tensor<8x8xf16>
  ktdp.store %v1, %tb1 : tensor<8x8xf16>, <8x8xindex>
  return
}

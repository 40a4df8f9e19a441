// exchange_view.mlir - a tile loads, through the distributed view itself,
// the part another tile stored (EndToEnd/distributed-exchange.test).
//
// Grid [4]. D is a 16x16 distributed view over four ct_local parts at
// scratchpad element 512: part k (tile k's scratchpad) holds rows
// 4k..4k + 3, laid out 4x16. Tile t loads A[4t : 4t + 4, :] and stores it
// through D at [4t, 0] (its own part), then loads D[4((t + 1) mod 4), 0],
// 4x16 (global coordinates: the part tile (t + 1) mod 4 stored), and stores
// that to B[4t, 0]. So B[4t + i, j] = A[4((t + 1) mod 4) + i, j]: A's row
// blocks rotated up by one.
// Arguments: %a A 16x16 f16 (input), %b B 16x16 f16 (output).
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part2 = affine_set<(d0, d1) : (d0 - 8 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part3 = affine_set<(d0, d1) : (d0 - 12 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#rows4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @exchange_view(%a: index, %b: index) attributes {grid = [4]} {
  %id = ktdp.get_compute_tile_id : index
  %c1 = arith.constant 1 : index
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
  %tn = ktdp.construct_access_tile %D[%nrow0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %tb = ktdp.construct_access_tile %B[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %received = ktdp.load %tn : <4x16xindex> -> tensor<4x16xf16>
  ktdp.store %received, %tb : tensor<4x16xf16>, <4x16xindex>
  return
}

// RUN: ktflow-opt %s -split-input-file --ktdf-forward-scratchpad-parts | FileCheck %s
// RUN: ktflow-opt %s -split-input-file --ktdf-forward-scratchpad-parts --ktdf-lower-inter-tile | FileCheck %s --check-prefix=COPY

// Reads of scratchpad parts another tile wrote become copies between the
// tiles: tile t stores its 4x16 block of A through D into part
// (t + 1) mod 4 (tile (t + 1) mod 4's scratchpad), then reads its own
// scratchpad (a ct_local view without ct_id). On every tile the read box
// is exactly what tile (t + 3) mod 4 stored, before the read, so the store
// becomes a produce of the block after it and the read a consume whose
// producer for consumer c is (c + 3) mod 4 (the pass fits b = sources[0] =
// 3 and a = sources[1] - sources[0] = -3 = 1 mod 4, then checks each c).
// ktdf-lower-inter-tile then copies tile 3's block to tile 0, 0's to 1, ...

// CHECK-DAG: #[[EVERY:.*]] = affine_set<(d0)[s0] : (d0 >= 0, -d0 + 3 >= 0, s0 == 0)>
// CHECK-DAG: #[[SHIFT:.*]] = affine_set<(d0)[s0] : (d0 - (s0 + 3) mod 4 == 0)>
// CHECK-LABEL: func.func @exchange
// CHECK-NOT: ct_local
// CHECK: %[[BLOCK:.*]] = ktdp.load
// CHECK-NOT: ktdp.store
// CHECK: %[[F:.*]] = ktdp.inter_tile_produce producer_tiles_per_group = #[[EVERY]]
// CHECK-NEXT: ^bb0(%{{.*}}: index):
// CHECK-NEXT: ktdp.yield_partial %[[BLOCK]] : tensor<4x16xf16>
// CHECK: %[[V:.*]] = ktdp.inter_tile_consume(%[[F]]) consumer_tiles_per_group = #[[EVERY]], producer_dependency_per_consumer = #[[SHIFT]]
// CHECK-NEXT: ktdp.store %[[V]], %{{.*}} : tensor<4x16xf16>
// CHECK-NOT: ct_local

// COPY: ktdf.tile_copy %{{.*}}, %{{.*}} {sources = array<i64: 3, 0, 1, 2>}

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part2 = affine_set<(d0, d1) : (d0 - 8 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part3 = affine_set<(d0, d1) : (d0 - 12 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#rows4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @exchange(%a: index, %b: index) attributes {grid = [4]} {
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
  %td = ktdp.construct_access_tile %D[%nrow0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %block = ktdp.load %ta : <4x16xindex> -> tensor<4x16xf16>
  ktdp.store %block, %td : tensor<4x16xf16>, <4x16xindex>
  %L = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #rows4, memory_space = #ktdp.memory_space<ct_local>} : memref<4x16xf16>
  %tl = ktdp.construct_access_tile %L[0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<4x16xf16> -> !ktdp.access_tile<4x16xindex>
  %tb = ktdp.construct_access_tile %B[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %received = ktdp.load %tl : <4x16xindex> -> tensor<4x16xf16>
  ktdp.store %received, %tb : tensor<4x16xf16>, <4x16xindex>
  return
}

// -----

// A slice of another tile's store: on a grid of 2, tile t stores its rows
// A[8t : 8t + 8, :] through D (column halves in tiles 0 and 1), then reads
// the right half of the rows tile 1 - t stored, through a view of tile 1's
// scratchpad: the box at offset (0, 8) of tile 1 - t's 8x16 store. The
// producer sends that slice, reloaded from A at its own anchor plus the
// offset (A is never written), so tile c receives A[8(1 - c), 8], 8x8.

// CHECK-LABEL: func.func @other_tiles_rows
// CHECK: %[[ROW0:.*]] = arith.muli
// CHECK: ktdp.inter_tile_produce
// CHECK-NEXT: ^bb0(%{{.*}}: index):
// CHECK-NEXT: %[[T:.*]] = ktdp.construct_access_tile %{{.*}}[%[[ROW0]], 8] {access_tile_order = #{{.*}}, access_tile_set = #{{.*}}} : memref<16x16xf16> -> !ktdp.access_tile<8x8xindex>
// CHECK-NEXT: %[[S:.*]] = ktdp.load %[[T]] : <8x8xindex> -> tensor<8x8xf16>
// CHECK-NEXT: ktdp.yield_partial %[[S]] : tensor<8x8xf16>
// CHECK: ktdp.inter_tile_consume
// CHECK-NOT: ct_local

// COPY-LABEL: func.func @other_tiles_rows
// COPY: ktdf.tile_copy %{{.*}}, %{{.*}} {sources = array<i64: 1, 0>}
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

// -----

// The exchange, but every tile reads part 2 (a view naming tile 2), which
// tile 1 stored: a broadcast of tile 1's block, sources (1, 1, 1, 1), so
// a = 0, b = 1: the producer set is the tiles b + gcd(0, 4) k, tile 1 alone.

// CHECK-DAG: #[[ONE:.*]] = affine_set<(d0)[s0] : (d0 >= 0, -d0 + 3 >= 0, s0 == 0, (d0 + 3) mod 4 == 0)>
// CHECK-DAG: #[[FROM1:.*]] = affine_set<(d0)[s0] : (d0 - 1 == 0)>
// CHECK-LABEL: func.func @broadcast
// CHECK: ktdp.inter_tile_produce producer_tiles_per_group = #[[ONE]]
// CHECK: ktdp.inter_tile_consume(%{{.*}}) consumer_tiles_per_group = #{{.*}}, producer_dependency_per_consumer = #[[FROM1]]

// COPY-LABEL: func.func @broadcast
// COPY: ktdf.tile_copy %{{.*}}, %{{.*}} {sources = array<i64: 1, 1, 1, 1>, stored_locally}
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part2 = affine_set<(d0, d1) : (d0 - 8 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part3 = affine_set<(d0, d1) : (d0 - 12 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#rows4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @broadcast(%a: index, %b: index) attributes {grid = [4]} {
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
  %td = ktdp.construct_access_tile %D[%nrow0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %block = ktdp.load %ta : <4x16xindex> -> tensor<4x16xf16>
  ktdp.store %block, %td : tensor<4x16xf16>, <4x16xindex>
  %L = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #rows4, memory_space = #ktdp.memory_space<ct_local, ct_id = 2>} : memref<4x16xf16>
  %tl = ktdp.construct_access_tile %L[0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<4x16xf16> -> !ktdp.access_tile<4x16xindex>
  %tb = ktdp.construct_access_tile %B[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %received = ktdp.load %tl : <4x16xindex> -> tensor<4x16xf16>
  ktdp.store %received, %tb : tensor<4x16xf16>, <4x16xindex>
  return
}

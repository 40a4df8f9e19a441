// RUN: ktflow-opt %s -split-input-file --ktdf-forward-scratchpad-parts | FileCheck %s
// RUN: ktflow-opt %s -split-input-file --ktdf-forward-scratchpad-parts --ktdf-lower-inter-tile | FileCheck %s --check-prefix=COPY

// Loads through the distributed view itself (global coordinates): on a
// grid of 4, D's part k holds rows 4k..4k + 3 in tile k's scratchpad, and
// tile t stores its rows A[4t : 4t + 4, :] through D into its own part.
// Tile t then loads D[4((t + 1) mod 4), 0], 4x16: the whole part tile
// (t + 1) mod 4 stored, so the store becomes a produce of the block and the
// load a consume whose producer for consumer c is (c + 1) mod 4 (b =
// sources[0] = 1, a = sources[1] - b = 1).

// CHECK-DAG: #[[EVERY:.*]] = affine_set<(d0)[s0] : (d0 >= 0, -d0 + 3 >= 0, s0 == 0)>
// CHECK-DAG: #[[NEXT:.*]] = affine_set<(d0)[s0] : (d0 - (s0 + 1) mod 4 == 0)>
// CHECK-LABEL: func.func @view_shift
// CHECK-NOT: ct_local
// CHECK: %[[BLOCK:.*]] = ktdp.load
// CHECK-NOT: ktdp.store
// CHECK: %[[F:.*]] = ktdp.inter_tile_produce producer_tiles_per_group = #[[EVERY]]
// CHECK-NEXT: ^bb0(%{{.*}}: index):
// CHECK-NEXT: ktdp.yield_partial %[[BLOCK]] : tensor<4x16xf16>
// CHECK: %[[V:.*]] = ktdp.inter_tile_consume(%[[F]]) consumer_tiles_per_group = #[[EVERY]], producer_dependency_per_consumer = #[[NEXT]]
// CHECK-NEXT: ktdp.store %[[V]], %{{.*}} : tensor<4x16xf16>
// CHECK-NOT: ct_local
// CHECK-NOT: construct_distributed_memory_view

// COPY-LABEL: func.func @view_shift
// COPY: ktdf.tile_copy %{{.*}}, %{{.*}} {sources = array<i64: 1, 2, 3, 0>}
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part2 = affine_set<(d0, d1) : (d0 - 8 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part3 = affine_set<(d0, d1) : (d0 - 12 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#rows4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @view_shift(%a: index, %b: index) attributes {grid = [4]} {
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
  %tn = ktdp.construct_access_tile %D[%nrow0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %tb = ktdp.construct_access_tile %B[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %received = ktdp.load %tn : <4x16xindex> -> tensor<4x16xf16>
  ktdp.store %received, %tb : tensor<4x16xf16>, <4x16xindex>
  return
}

// -----

// Slices, through the view: tile t loads D[4((t + 1) mod 4) + 2, 8], 2x8,
// the box at offset (2, 8) of what tile (t + 1) mod 4 stored: the producer
// sends that slice reloaded from A at its own anchor plus the offset (A is
// never written). And it loads D[4t, 8], 4x8, in its own part: what it
// stored itself at offset (0, 8), a reload of A[4t, 8] with no copy.

// CHECK-LABEL: func.func @view_slices
// CHECK: %[[ROW0:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK: ktdp.inter_tile_produce
// CHECK-NEXT: ^bb0(%{{.*}}: index):
// CHECK-NEXT: %[[T:.*]] = ktdp.construct_access_tile %[[A:.*]][%[[ROW0]] + 2, 8] {access_tile_order = #{{.*}}, access_tile_set = #{{.*}}} : memref<16x16xf16> -> !ktdp.access_tile<2x8xindex>
// CHECK-NEXT: %[[S:.*]] = ktdp.load %[[T]] : <2x8xindex> -> tensor<2x8xf16>
// CHECK-NEXT: ktdp.yield_partial %[[S]] : tensor<2x8xf16>
// CHECK: %[[V:.*]] = ktdp.inter_tile_consume
// CHECK-NEXT: ktdp.store %[[V]], %{{.*}} : tensor<2x8xf16>
// CHECK: %[[OWN:.*]] = ktdp.construct_access_tile %[[A]][%[[ROW0]], 8] {access_tile_order = #{{.*}}, access_tile_set = #{{.*}}} : memref<16x16xf16> -> !ktdp.access_tile<4x8xindex>
// CHECK-NEXT: %[[M:.*]] = ktdp.load %[[OWN]] : <4x8xindex> -> tensor<4x8xf16>
// CHECK-NEXT: ktdp.store %[[M]], %{{.*}} : tensor<4x8xf16>
// CHECK-NOT: inter_tile
// CHECK-NOT: ct_local

// COPY-LABEL: func.func @view_slices
// COPY: ktdf.tile_copy %{{.*}}, %{{.*}} {sources = array<i64: 1, 2, 3, 0>}
// COPY-NOT: tile_copy
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

// -----

// A box straddling two parts (grid [2], D's part k rows 4k..4k + 3): every
// tile loads D's rows 2..5 and stores them to B[4t, 0]. The box is cut at
// the parts' boundary, row 2 of it: its rows 0..1 are rows 2..3 of tile 0's
// store (offset 2) and its rows 2..3 rows 0..1 of tile 1's (offset 0), both
// slices reloaded from A on the writer. Each piece is a copy from one
// producer (tile 0 sends the first to tile 1 and keeps its own; tile 1 the
// second), stored into its rows of B's tile: rows 4t.. and 4t + 2...

// CHECK-DAG: #[[FROM0:.*]] = affine_set<(d0)[s0] : (d0 == 0)>
// CHECK-DAG: #[[FROM1:.*]] = affine_set<(d0)[s0] : (d0 - 1 == 0)>
// CHECK-LABEL: func.func @straddles
// CHECK: %[[ROW0:.*]] = arith.muli
// CHECK: %[[A:.*]] = ktdp.construct_memory_view %arg0
// CHECK: %[[B:.*]] = ktdp.construct_memory_view %arg1
// CHECK-NOT: ktdp.store
// CHECK: %[[F1:.*]] = ktdp.inter_tile_produce
// CHECK: ktdp.construct_access_tile %[[A]][%[[ROW0]], 0] {{.*}} -> !ktdp.access_tile<2x16xindex>
// CHECK: %[[F0:.*]] = ktdp.inter_tile_produce
// CHECK: ktdp.construct_access_tile %[[A]][%[[ROW0]] + 2, 0] {{.*}} -> !ktdp.access_tile<2x16xindex>
// CHECK: %[[TOP:.*]] = ktdp.inter_tile_consume(%[[F0]]) {{.*}} producer_dependency_per_consumer = #[[FROM0]] {{.*}} -> tensor<2x16xf16>
// CHECK: %[[BOTTOM:.*]] = ktdp.inter_tile_consume(%[[F1]]) {{.*}} producer_dependency_per_consumer = #[[FROM1]] {{.*}} -> tensor<2x16xf16>
// CHECK: %[[T0:.*]] = ktdp.construct_access_tile %[[B]][%[[ROW0]], 0] {{.*}} -> !ktdp.access_tile<2x16xindex>
// CHECK-NEXT: ktdp.store %[[TOP]], %[[T0]] : tensor<2x16xf16>
// CHECK-NEXT: %[[T1:.*]] = ktdp.construct_access_tile %[[B]][%[[ROW0]] + 2, 0] {{.*}} -> !ktdp.access_tile<2x16xindex>
// CHECK-NEXT: ktdp.store %[[BOTTOM]], %[[T1]] : tensor<2x16xf16>
// CHECK-NOT: ktdp.store
// CHECK-NOT: ct_local

// COPY-LABEL: func.func @straddles
// COPY: ktdf.tile_copy %{{.*}}, %{{.*}} {sources = array<i64: 0, 0>, stored_locally}
// COPY: ktdf.tile_copy %{{.*}}, %{{.*}} {sources = array<i64: 1, 1>, stored_locally}
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#rows4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @straddles(%a: index, %b: index) attributes {grid = [2]} {
  %id = ktdp.get_compute_tile_id : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %row0 = arith.muli %id, %c4 : index
  %sp = arith.constant 512 : index
  %A = ktdp.construct_memory_view %a, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %B = ktdp.construct_memory_view %b, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %P0 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<4x16xf16>
  %P1 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<4x16xf16>
  %D = ktdp.construct_distributed_memory_view(%P0, %P1 : memref<4x16xf16>, memref<4x16xf16>) : memref<8x16xf16>
  %ta = ktdp.construct_access_tile %A[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %td = ktdp.construct_access_tile %D[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<8x16xf16> -> !ktdp.access_tile<4x16xindex>
  %tb = ktdp.construct_access_tile %B[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %block = ktdp.load %ta : <4x16xindex> -> tensor<4x16xf16>
  ktdp.store %block, %td : tensor<4x16xf16>, <4x16xindex>
  %t2 = ktdp.construct_access_tile %D[%c2, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<8x16xf16> -> !ktdp.access_tile<4x16xindex>
  %v = ktdp.load %t2 : <4x16xindex> -> tensor<4x16xf16>
  ktdp.store %v, %tb : tensor<4x16xf16>, <4x16xindex>
  return
}

// -----

// The same straddling load computed with before its store: each piece is
// scaled by a splat constant (remade at the piece's shape) and added to
// itself into a tensor.empty of its shape, then stored into its box of B.
// CHECK-LABEL: func.func @straddles_computed
// CHECK: %[[TOP:.*]] = ktdp.inter_tile_consume({{.*}} -> tensor<2x16xf16>
// CHECK: %[[BOTTOM:.*]] = ktdp.inter_tile_consume({{.*}} -> tensor<2x16xf16>
// CHECK-DAG: %[[HALF0:.*]] = arith.constant dense<5.000000e-01> : tensor<2x16xf16>
// CHECK-DAG: %[[S0:.*]] = arith.mulf %[[TOP]], %[[HALF0]] : tensor<2x16xf16>
// CHECK-DAG: %[[S1:.*]] = arith.mulf %[[BOTTOM]], %{{.*}} : tensor<2x16xf16>
// CHECK-DAG: %[[E0:.*]] = tensor.empty() : tensor<2x16xf16>
// CHECK-DAG: %[[W0:.*]] = linalg.add ins(%[[S0]], %[[TOP]] : tensor<2x16xf16>, tensor<2x16xf16>) outs(%[[E0]] : tensor<2x16xf16>) -> tensor<2x16xf16>
// CHECK-DAG: %[[W1:.*]] = linalg.add ins(%[[S1]], %[[BOTTOM]] : {{.*}}) -> tensor<2x16xf16>
// CHECK-DAG: ktdp.store %[[W0]], %{{.*}} : tensor<2x16xf16>
// CHECK-DAG: ktdp.store %[[W1]], %{{.*}} : tensor<2x16xf16>
// CHECK-NOT: tensor<4x16xf16>, <4x16xindex>
// CHECK: return
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#rows4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @straddles_computed(%a: index, %b: index) attributes {grid = [2]} {
  %id = ktdp.get_compute_tile_id : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %row0 = arith.muli %id, %c4 : index
  %sp = arith.constant 512 : index
  %A = ktdp.construct_memory_view %a, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %B = ktdp.construct_memory_view %b, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %P0 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<4x16xf16>
  %P1 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<4x16xf16>
  %D = ktdp.construct_distributed_memory_view(%P0, %P1 : memref<4x16xf16>, memref<4x16xf16>) : memref<8x16xf16>
  %ta = ktdp.construct_access_tile %A[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %td = ktdp.construct_access_tile %D[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<8x16xf16> -> !ktdp.access_tile<4x16xindex>
  %tb = ktdp.construct_access_tile %B[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %block = ktdp.load %ta : <4x16xindex> -> tensor<4x16xf16>
  ktdp.store %block, %td : tensor<4x16xf16>, <4x16xindex>
  %t2 = ktdp.construct_access_tile %D[%c2, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<8x16xf16> -> !ktdp.access_tile<4x16xindex>
  %v = ktdp.load %t2 : <4x16xindex> -> tensor<4x16xf16>
  %half = arith.constant dense<5.000000e-01> : tensor<4x16xf16>
  %s = arith.mulf %v, %half : tensor<4x16xf16>
  %e = tensor.empty() : tensor<4x16xf16>
  %w = linalg.add ins(%s, %v : tensor<4x16xf16>, tensor<4x16xf16>) outs(%e : tensor<4x16xf16>) -> tensor<4x16xf16>
  ktdp.store %w, %tb : tensor<4x16xf16>, <4x16xindex>
  return
}


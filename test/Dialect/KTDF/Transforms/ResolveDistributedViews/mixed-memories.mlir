// RUN: ktflow-opt %s -split-input-file --ktdf-forward-scratchpad-parts --ktdf-resolve-distributed-views | FileCheck %s

// Distributed views whose parts live in several memories (the field
// guide's §1b.6, realworld/lx_mixed_copy.mlir at a smaller size): rows
// 0..3 in device memory (X's first rows), rows 4..7 in tile 0's scratchpad,
// column-major, rows 8..15 in tile 1's. Each tile fills its own part in
// 4-row blocks (tile 0's second block, at row 16, lies past the view), then
// loads the whole view into its copy of Y. ktdf-forward-scratchpad-parts
// cuts the load at the parts' boundaries and at the stored blocks': the
// rows in device memory are a load of the part in its local coordinates
// (its box moved to the origin), each scratchpad block a copy from the
// tile that stored it; the pieces are stored into Y at their offsets. No
// scratchpad is written, so the column-major layout never reaches the
// device; ktdf-resolve-distributed-views finds no distributed view left.
#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#y = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#g = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#l0 = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#l1 = affine_set<(d0, d1) : (d0 - 8 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @mixed_copy
// CHECK-NOT: ct_local
// CHECK: %[[G:.*]] = ktdp.construct_memory_view %arg0, sizes: [4, 8], strides: [8, 1]
// CHECK-SAME: coordinate_set = #[[BOX4:set[0-9]*]]
// CHECK: %[[B1:.*]] = ktdp.load {{.*}} -> tensor<4x8xf16>
// CHECK: %[[B2:.*]] = ktdp.load {{.*}} -> tensor<4x8xf16>
// CHECK: %[[P1:.*]] = ktdp.inter_tile_produce producer_tiles_per_group = #[[TILE1:set[0-9]*]]
// CHECK-NEXT: ^bb0
// CHECK-NEXT: ktdp.yield_partial %[[B1]]
// CHECK: %[[P0:.*]] = ktdp.inter_tile_produce producer_tiles_per_group = #[[TILE0:set[0-9]*]]
// CHECK-NEXT: ^bb0
// CHECK-NEXT: ktdp.yield_partial %[[B1]]
// CHECK: %[[P2:.*]] = ktdp.inter_tile_produce producer_tiles_per_group = #[[TILE1]]
// CHECK-NEXT: ^bb0
// CHECK-NEXT: ktdp.yield_partial %[[B2]]
// CHECK: %[[TG:.*]] = ktdp.construct_access_tile %[[G]][%c0, %c0] {{.*}} -> !ktdp.access_tile<4x8xindex>
// CHECK: %[[VG:.*]] = ktdp.load %[[TG]] : <4x8xindex> -> tensor<4x8xf16>
// CHECK-DAG: %[[V0:.*]] = ktdp.inter_tile_consume(%[[P0]])
// CHECK-DAG: %[[V1:.*]] = ktdp.inter_tile_consume(%[[P1]])
// CHECK-DAG: %[[V2:.*]] = ktdp.inter_tile_consume(%[[P2]])
// CHECK: %[[Y0:.*]] = arith.muli %{{.*}}, %c16
// CHECK: %[[TY:.*]] = ktdp.construct_access_tile %{{.*}}[%[[Y0]], %c0] {{.*}} -> !ktdp.access_tile<4x8xindex>
// CHECK: ktdp.store %[[VG]], %[[TY]]
// CHECK: ktdp.construct_access_tile %{{.*}}[%[[Y0]] + 4, %c0]
// CHECK: ktdp.store %[[V0]]
// CHECK: ktdp.construct_access_tile %{{.*}}[%[[Y0]] + 8, %c0]
// CHECK: ktdp.store %[[V1]]
// CHECK: ktdp.construct_access_tile %{{.*}}[%[[Y0]] + 12, %c0]
// CHECK: ktdp.store %[[V2]]
// CHECK-NOT: ktdp.store
// CHECK-NOT: construct_distributed_memory_view
func.func @mixed_copy(%x: index, %y: index) attributes {grid = [2]} {
  %id = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  %lx0 = arith.constant 256 : index
  %lx1 = arith.constant 512 : index
  %X = ktdp.construct_memory_view %x, sizes: [16, 8], strides: [8, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<16x8xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [32, 8], strides: [8, 1] {coordinate_set = #y, memory_space = #ktdp.memory_space<global>} : memref<32x8xf16>
  %G = ktdp.construct_memory_view %x, sizes: [4, 8], strides: [8, 1] {coordinate_set = #g, memory_space = #ktdp.memory_space<global>} : memref<4x8xf16>
  %L0 = ktdp.construct_memory_view %lx0, sizes: [4, 8], strides: [1, 8] {coordinate_set = #l0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<4x8xf16, strided<[1, 8]>>
  %L1 = ktdp.construct_memory_view %lx1, sizes: [8, 8], strides: [8, 1] {coordinate_set = #l1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<8x8xf16>
  %D = ktdp.construct_distributed_memory_view(%G, %L0, %L1 : memref<4x8xf16>, memref<4x8xf16, strided<[1, 8]>>, memref<8x8xf16>) : memref<16x8xf16>
  %t4 = arith.muli %id, %c4 : index
  %r1 = arith.addi %c4, %t4 : index
  %r2 = arith.subi %c16, %t4 : index
  %tx1 = ktdp.construct_access_tile %X[%r1, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x8xf16> -> !ktdp.access_tile<4x8xindex>
  %tx2 = ktdp.construct_access_tile %X[%c12, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x8xf16> -> !ktdp.access_tile<4x8xindex>
  %td1 = ktdp.construct_access_tile %D[%r1, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x8xf16> -> !ktdp.access_tile<4x8xindex>
  %td2 = ktdp.construct_access_tile %D[%r2, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x8xf16> -> !ktdp.access_tile<4x8xindex>
  %b1 = ktdp.load %tx1 : <4x8xindex> -> tensor<4x8xf16>
  %b2 = ktdp.load %tx2 : <4x8xindex> -> tensor<4x8xf16>
  ktdp.store %b1, %td1 : tensor<4x8xf16>, <4x8xindex>
  ktdp.store %b2, %td2 : tensor<4x8xf16>, <4x8xindex>
  %t = ktdp.construct_access_tile %D[%c0, %c0] {access_tile_set = #all, access_tile_order = #id2} : memref<16x8xf16> -> !ktdp.access_tile<16x8xindex>
  %v = ktdp.load %t : <16x8xindex> -> tensor<16x8xf16>
  %y0 = arith.muli %id, %c16 : index
  %ty = ktdp.construct_access_tile %Y[%y0, %c0] {access_tile_set = #all, access_tile_order = #id2} : memref<32x8xf16> -> !ktdp.access_tile<16x8xindex>
  ktdp.store %v, %ty : tensor<16x8xf16>, <16x8xindex>
  return
}

// -----

// A part in device memory that does not start at the origin: rows 0..3 in
// the scratchpad, rows 4..7 at x + 32 (X's rows 4..7). A load lying in it
// becomes a load of it at its anchor minus 4; a load straddling both parts
// reads rows 2..3 as a slice of the stored block (reloaded from X, where
// the block came from) and rows 4..5 from the part at local row 0.
#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#top = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#bottom = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @device_part_moved
// CHECK: %[[X:.*]] = ktdp.construct_memory_view %arg0, sizes: [8, 8]
// CHECK: %[[G:.*]] = ktdp.construct_memory_view %{{.*}}, sizes: [4, 8], strides: [8, 1] {coordinate_set = #[[BOX:set[0-9]*]], memory_space = #ktdp.memory_space<global>}
// CHECK: %[[TG:.*]] = ktdp.construct_access_tile %[[G]][%c4 - 4, 0] {access_tile_order = #map, access_tile_set = #[[BOX]]} : memref<4x8xf16> -> !ktdp.access_tile<4x8xindex>
// CHECK: %[[VG:.*]] = ktdp.load %[[TG]] : <4x8xindex> -> tensor<4x8xf16>
// CHECK: ktdp.store %[[VG]]
// CHECK: %[[TS:.*]] = ktdp.construct_access_tile %[[X]][2, 0] {{.*}} -> !ktdp.access_tile<2x8xindex>
// CHECK: %[[VS:.*]] = ktdp.load %[[TS]] : <2x8xindex> -> tensor<2x8xf16>
// CHECK: %[[TP:.*]] = ktdp.construct_access_tile %[[G]][%c2 - 2, 0] {{.*}} -> !ktdp.access_tile<2x8xindex>
// CHECK: %[[VP:.*]] = ktdp.load %[[TP]] : <2x8xindex> -> tensor<2x8xf16>
// CHECK: ktdp.store %[[VS]]
// CHECK: ktdp.store %[[VP]]
// CHECK-NOT: ktdp.store
func.func @device_part_moved(%x: index, %y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %xb = arith.addi %x, %c32 : index
  %X = ktdp.construct_memory_view %x, sizes: [8, 8], strides: [8, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<8x8xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [8, 8], strides: [8, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<8x8xf16>
  %L = ktdp.construct_memory_view %c0, sizes: [4, 8], strides: [8, 1] {coordinate_set = #top, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<4x8xf16>
  %G = ktdp.construct_memory_view %xb, sizes: [4, 8], strides: [8, 1] {coordinate_set = #bottom, memory_space = #ktdp.memory_space<global>} : memref<4x8xf16>
  %D = ktdp.construct_distributed_memory_view(%L, %G : memref<4x8xf16>, memref<4x8xf16>) : memref<8x8xf16>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<8x8xf16> -> !ktdp.access_tile<4x8xindex>
  %td = ktdp.construct_access_tile %D[0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<8x8xf16> -> !ktdp.access_tile<4x8xindex>
  %b = ktdp.load %tx : <4x8xindex> -> tensor<4x8xf16>
  ktdp.store %b, %td : tensor<4x8xf16>, <4x8xindex>
  %tlow = ktdp.construct_access_tile %D[%c4, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<8x8xf16> -> !ktdp.access_tile<4x8xindex>
  %low = ktdp.load %tlow : <4x8xindex> -> tensor<4x8xf16>
  %ty0 = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<8x8xf16> -> !ktdp.access_tile<4x8xindex>
  ktdp.store %low, %ty0 : tensor<4x8xf16>, <4x8xindex>
  %tmid = ktdp.construct_access_tile %D[%c2, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<8x8xf16> -> !ktdp.access_tile<4x8xindex>
  %mid = ktdp.load %tmid : <4x8xindex> -> tensor<4x8xf16>
  %ty1 = ktdp.construct_access_tile %Y[4, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<8x8xf16> -> !ktdp.access_tile<4x8xindex>
  ktdp.store %mid, %ty1 : tensor<4x8xf16>, <4x8xindex>
  return
}

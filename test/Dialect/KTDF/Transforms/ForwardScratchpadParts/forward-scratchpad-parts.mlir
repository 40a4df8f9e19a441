// RUN: ktflow-opt %s --ktdf-forward-scratchpad-parts -split-input-file --allow-unregistered-dialect | FileCheck %s

// distributed_copy at 16x16 on two tiles. Part k (tile k's scratchpad at
// element 512, 16x8) holds global columns [8k, 8k + 8). Tile t stores
// A[8t : 8t + 8, :] through D at [8t, 0] and reads L_k[8t, 0] (8x8, local
// coordinates), which is D[8t, 8k]: the element A[8t + i, 8k + j] it
// stored itself, and no other tile's store (rows 8t' + [0, 8), t' != t)
// touches it. Each read becomes a load of A at [8t, 8k]; the store through
// D, the views of the scratchpads and the distributed view are gone.

// CHECK-LABEL: func.func @column_parts
// CHECK-SAME:    (%[[A:[^:]*]]: index, %[[B:[^:]*]]: index)
// CHECK-NOT:     ct_local
// CHECK:         %[[ROW:.*]] = arith.muli
// CHECK:         %[[VA:.*]] = ktdp.construct_memory_view %[[A]]
// CHECK:         %[[VB:.*]] = ktdp.construct_memory_view %[[B]]
// CHECK-NOT:     ct_local
// CHECK:         %[[T0:.*]] = ktdp.construct_access_tile %[[VA]][%[[ROW]], 0] {{.*}} -> !ktdp.access_tile<8x8xindex>
// CHECK:         %[[V0:.*]] = ktdp.load %[[T0]] : <8x8xindex> -> tensor<8x8xf16>
// CHECK:         %[[T1:.*]] = ktdp.construct_access_tile %[[VA]][%[[ROW]], 8] {{.*}} -> !ktdp.access_tile<8x8xindex>
// CHECK:         %[[V1:.*]] = ktdp.load %[[T1]] : <8x8xindex> -> tensor<8x8xf16>
// CHECK-NOT:     ktdp.load
// CHECK:         ktdp.store %[[V0]], %{{.*}} : tensor<8x8xf16>
// CHECK:         ktdp.store %[[V1]], %{{.*}} : tensor<8x8xf16>
// CHECK-NOT:     ktdp.store
// CHECK:         return
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 - 8 >= 0, -d1 + 15 >= 0)>
#local = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#rows8 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#sq8 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @column_parts(%a: index, %b: index) attributes {grid = [2]} {
  %id = ktdp.get_compute_tile_id : index
  %c8 = arith.constant 8 : index
  %row0 = arith.muli %id, %c8 : index
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
  %L0 = ktdp.construct_memory_view %sp, sizes: [16, 8], strides: [8, 1] {coordinate_set = #local, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<16x8xf16>
  %L1 = ktdp.construct_memory_view %sp, sizes: [16, 8], strides: [8, 1] {coordinate_set = #local, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<16x8xf16>
  %tl0 = ktdp.construct_access_tile %L0[%row0, 0] {access_tile_set = #sq8, access_tile_order = #id2} : memref<16x8xf16> -> !ktdp.access_tile<8x8xindex>
  %tl1 = ktdp.construct_access_tile %L1[%row0, 0] {access_tile_set = #sq8, access_tile_order = #id2} : memref<16x8xf16> -> !ktdp.access_tile<8x8xindex>
  %tb0 = ktdp.construct_access_tile %B[%row0, 0] {access_tile_set = #sq8, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<8x8xindex>
  %tb1 = ktdp.construct_access_tile %B[%row0, 8] {access_tile_set = #sq8, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<8x8xindex>
  %v0 = ktdp.load %tl0 : <8x8xindex> -> tensor<8x8xf16>
  %v1 = ktdp.load %tl1 : <8x8xindex> -> tensor<8x8xf16>
  ktdp.store %v0, %tb0 : tensor<8x8xf16>, <8x8xindex>
  ktdp.store %v1, %tb1 : tensor<8x8xf16>, <8x8xindex>
  return
}

// -----

// One tile, two parts in its own scratchpad (elements 0 and 64), rows
// [0, 8) and [8, 16) of a 16x8 view. The tile stores a computed 8x8 tensor
// at D[8, 0], all of part 1, and reads part 1 whole through L1: the load is
// the stored tensor itself.

// CHECK-LABEL: func.func @whole_tile
// CHECK:         %[[V:.*]] = "test.compute"()
// CHECK-NOT:     ktdp.store
// CHECK-NOT:     ktdp.load
// CHECK:         "test.use"(%[[V]])
#p0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#p1 = affine_set<(d0, d1) : (d0 - 8 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#sq8 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @whole_tile() attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %P0 = ktdp.construct_memory_view %c0, sizes: [8, 8], strides: [8, 1] {coordinate_set = #p0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<8x8xf16>
  %P1 = ktdp.construct_memory_view %c64, sizes: [8, 8], strides: [8, 1] {coordinate_set = #p1, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<8x8xf16>
  %D = ktdp.construct_distributed_memory_view(%P0, %P1 : memref<8x8xf16>, memref<8x8xf16>) : memref<16x8xf16>
  %td = ktdp.construct_access_tile %D[8, 0] {access_tile_set = #sq8, access_tile_order = #id2} : memref<16x8xf16> -> !ktdp.access_tile<8x8xindex>
  %v = "test.compute"() : () -> tensor<8x8xf16>
  ktdp.store %v, %td : tensor<8x8xf16>, <8x8xindex>
  %L1 = ktdp.construct_memory_view %c64, sizes: [8, 8], strides: [8, 1] {coordinate_set = #sq8, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<8x8xf16>
  %tl1 = ktdp.construct_access_tile %L1[0, 0] {access_tile_set = #sq8, access_tile_order = #id2} : memref<8x8xf16> -> !ktdp.access_tile<8x8xindex>
  %r = ktdp.load %tl1 : <8x8xindex> -> tensor<8x8xf16>
  "test.use"(%r) : (tensor<8x8xf16>) -> ()
  return
}

// -----

// Row-block parts on four tiles; tile t stores its 4x16 block of A into its
// own part through D and reads it back through its own scratchpad (a
// ct_local view without ct_id: part t on tile t). The read is the stored
// tensor itself: no copy, no scratchpad.

// CHECK-LABEL: func.func @own_part
// CHECK-NOT:     ct_local
// CHECK:         %[[V:.*]] = ktdp.load %{{.*}} : <4x16xindex> -> tensor<4x16xf16>
// CHECK-NOT:     ktdp.load
// CHECK-NOT:     inter_tile
// CHECK:         ktdp.store %[[V]], %{{.*}} : tensor<4x16xf16>
// CHECK-NOT:     ktdp.store
// CHECK:         return
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part2 = affine_set<(d0, d1) : (d0 - 8 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part3 = affine_set<(d0, d1) : (d0 - 12 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#rows4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @own_part(%a: index, %b: index) attributes {grid = [4]} {
  %id = ktdp.get_compute_tile_id : index
  %c4 = arith.constant 4 : index
  %row0 = arith.muli %id, %c4 : index
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
  %L = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #rows4, memory_space = #ktdp.memory_space<ct_local>} : memref<4x16xf16>
  %tl = ktdp.construct_access_tile %L[0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<4x16xf16> -> !ktdp.access_tile<4x16xindex>
  %tb = ktdp.construct_access_tile %B[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %received = ktdp.load %tl : <4x16xindex> -> tensor<4x16xf16>
  ktdp.store %received, %tb : tensor<4x16xf16>, <4x16xindex>
  return
}

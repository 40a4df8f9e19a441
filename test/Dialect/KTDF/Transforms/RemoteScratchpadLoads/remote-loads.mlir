// RUN: ktflow-opt %s --ktdf-remote-scratchpad-loads -split-input-file | FileCheck %s

// Every tile stores its row into its own scratchpad at element 0, then
// reads tile 2's and tile 0's through views naming them: each load becomes
// the consume, by the four tiles, of the stored row produced by the tile
// the view names, produced right after the store. The views of other
// tiles' scratchpads are gone; the own store stays.

#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[OWNER0:.*]] = affine_set<(d0)[s0] : (d0 == 0, s0 == 0)>
// CHECK-DAG: #[[OWNER2:.*]] = affine_set<(d0)[s0] : (d0 - 2 == 0, s0 == 0)>
// CHECK-DAG: #[[ALL4:.*]] = affine_set<(d0)[s0] : (d0 >= 0, -d0 + 3 >= 0, s0 == 0)>
// CHECK-LABEL: func.func @two_owners
// CHECK-NOT: ct_id
// CHECK: %[[X:.*]] = ktdp.load
// CHECK: ktdp.store %[[X]], %{{.*}} : tensor<1x64xf16>
// CHECK: %[[F0:.*]] = ktdp.inter_tile_produce producer_tiles_per_group = #[[OWNER0]]
// CHECK: ktdp.yield_partial %[[X]]
// CHECK: %[[F2:.*]] = ktdp.inter_tile_produce producer_tiles_per_group = #[[OWNER2]]
// CHECK: ktdp.yield_partial %[[X]]
// CHECK: %[[A:.*]] = ktdp.inter_tile_consume(%[[F2]]) consumer_tiles_per_group = #[[ALL4]]
// CHECK: %[[B:.*]] = ktdp.inter_tile_consume(%[[F0]]) consumer_tiles_per_group = #[[ALL4]]
// CHECK: arith.addf %[[A]], %[[B]]
// CHECK-NOT: ct_id
func.func @two_owners(%x: index, %y: index) attributes {grid = [4]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %X = ktdp.construct_memory_view %x, sizes: [4, 64], strides: [64, 1] {memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [4, 64], strides: [64, 1] {memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %tx = ktdp.construct_access_tile %X[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
  %row = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  %own = ktdp.construct_memory_view %c0, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local>} : memref<1x64xf16>
  %town = ktdp.construct_access_tile %own[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %row, %town : tensor<1x64xf16>, <1x64xindex>
  %of2 = ktdp.construct_memory_view %c0, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local, ct_id = 2>} : memref<1x64xf16>
  %of0 = ktdp.construct_memory_view %c0, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<1x64xf16>
  %t2 = ktdp.construct_access_tile %of2[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %t0 = ktdp.construct_access_tile %of0[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %a = ktdp.load %t2 : <1x64xindex> -> tensor<1x64xf16>
  %b = ktdp.load %t0 : <1x64xindex> -> tensor<1x64xf16>
  %s = arith.addf %a, %b : tensor<1x64xf16>
  %ty = ktdp.construct_access_tile %Y[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %s, %ty : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

// A load of another tile's scratchpad in a loop is left as it is
// (ktdf-check-supported refuses it, see CheckSupported/remote-scratchpad.mlir).

#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: inter_tile
// CHECK: scf.for
// CHECK: ktdp.load %{{.*}} : <1x64xindex> -> tensor<1x64xf16>
func.func @left_alone(%x: index, %y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %X = ktdp.construct_memory_view %x, sizes: [1, 64], strides: [64, 1] {memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %row = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  %own = ktdp.construct_memory_view %c0, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local>} : memref<1x64xf16>
  %town = ktdp.construct_access_tile %own[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %row, %town : tensor<1x64xf16>, <1x64xindex>
  %of1 = ktdp.construct_memory_view %c0, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<1x64xf16>
  %t1 = ktdp.construct_access_tile %of1[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %Y = ktdp.construct_memory_view %y, sizes: [1, 64], strides: [64, 1] {memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  scf.for %i = %c0 to %c2 step %c1 {
    %a = ktdp.load %t1 : <1x64xindex> -> tensor<1x64xf16>
    ktdp.store %a, %ty : tensor<1x64xf16>, <1x64xindex>
  }
  return
}

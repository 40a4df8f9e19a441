// RUN: ktflow-opt %s --ktdf-forward-scratchpad-parts --ktdf-resolve-distributed-views | FileCheck %s

// A load through a distributed view of parts nothing in the kernel writes
// (the field guide's §1b.6 kernel as written, realworld/lx_resident_copy.mlir
// at a smaller size): the parts hold what was there before the kernel. Both
// tiles read elements 16..111, which straddle tile 0's part (0..63) and tile
// 1's (64..127) at 4096 in their scratchpads. Each piece is loaded by the
// part's tile from its own scratchpad, in the part's local coordinates (16
// in tile 0's part, 0 in tile 1's), and copied to both tiles; the pieces
// are joined in the store.
// CHECK-DAG: #[[EVEN:.+]] = affine_set<(d0)[s0] : (d0 >= 0, -d0 + 1 >= 0, s0 == 0, d0 mod 2 == 0)>
// CHECK-DAG: #[[ODD:.+]] = affine_set<(d0)[s0] : (d0 >= 0, -d0 + 1 >= 0, s0 == 0, (d0 + 1) mod 2 == 0)>
// CHECK-DAG: #[[ALL:.+]] = affine_set<(d0)[s0] : (d0 >= 0, -d0 + 1 >= 0, s0 == 0)>
// CHECK-DAG: #[[FROM0:.+]] = affine_set<(d0)[s0] : (d0 == 0)>
// CHECK-DAG: #[[FROM1:.+]] = affine_set<(d0)[s0] : (d0 - 1 == 0)>
// CHECK-LABEL: func.func @resident_parts
// CHECK: %[[OWN0:.+]] = ktdp.construct_memory_view %{{.+}}, sizes: [64], strides: [1] {{.+}} memory_space = #ktdp.memory_space<ct_local>}
// CHECK: %[[OWN1:.+]] = ktdp.construct_memory_view %{{.+}}, sizes: [64], strides: [1] {{.+}} memory_space = #ktdp.memory_space<ct_local>}
// CHECK: %[[OUT:.+]] = ktdp.construct_memory_view {{.+}}memory_space = #ktdp.memory_space<global>}
// CHECK: %[[F0:.+]] = ktdp.inter_tile_produce producer_tiles_per_group = #[[EVEN]]
// CHECK: ktdp.construct_access_tile %[[OWN0]][16]
// CHECK: %[[A:.+]] = ktdp.inter_tile_consume(%[[F0]]) consumer_tiles_per_group = #[[ALL]], producer_dependency_per_consumer = #[[FROM0]]
// CHECK: %[[F1:.+]] = ktdp.inter_tile_produce producer_tiles_per_group = #[[ODD]]
// CHECK: ktdp.construct_access_tile %[[OWN1]][0]
// CHECK: %[[B:.+]] = ktdp.inter_tile_consume(%[[F1]]) consumer_tiles_per_group = #[[ALL]], producer_dependency_per_consumer = #[[FROM1]]
// CHECK: %[[T0:.+]] = ktdp.construct_access_tile %[[OUT]][0]
// CHECK: ktdp.store %[[A]], %[[T0]] : tensor<48xf16>
// CHECK: %[[T1:.+]] = ktdp.construct_access_tile %[[OUT]][48]
// CHECK: ktdp.store %[[B]], %[[T1]] : tensor<48xf16>
// CHECK-NOT: ktdp.load
// CHECK: return
#p0 = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#p1 = affine_set<(d0) : (d0 - 64 >= 0, -d0 + 127 >= 0)>
#t = affine_set<(d0) : (d0 >= 0, -d0 + 95 >= 0)>
#o = affine_set<(d0) : (d0 >= 0, -d0 + 95 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @resident_parts() attributes {grid = [2]} {
  %sp = arith.constant 4096 : index
  %out = arith.constant 0 : index
  %P0 = ktdp.construct_memory_view %sp, sizes: [64], strides: [1] {coordinate_set = #p0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<64xf16>
  %P1 = ktdp.construct_memory_view %sp, sizes: [64], strides: [1] {coordinate_set = #p1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<64xf16>
  %D = ktdp.construct_distributed_memory_view(%P0, %P1 : memref<64xf16>, memref<64xf16>) : memref<128xf16>
  %O = ktdp.construct_memory_view %out, sizes: [96], strides: [1] {coordinate_set = #o, memory_space = #ktdp.memory_space<global>} : memref<96xf16>
  %t = ktdp.construct_access_tile %D[16] {access_tile_set = #t, access_tile_order = #id1} : memref<128xf16> -> !ktdp.access_tile<96xindex>
  %v = ktdp.load %t : <96xindex> -> tensor<96xf16>
  %to = ktdp.construct_access_tile %O[0] {access_tile_set = #o, access_tile_order = #id1} : memref<96xf16> -> !ktdp.access_tile<96xindex>
  ktdp.store %v, %to : tensor<96xf16>, <96xindex>
  return
}

// RUN: ktflow-opt %s | ktflow-opt | FileCheck %s
// RUN: ktflow-opt %s --verify-roundtrip | FileCheck %s

// One round-trip per ktdp op. Declarative ops take the full or the stripped
// ktdp type spelling and print the stripped one.

#set1 = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>

// CHECK-LABEL: func.func @compute_tile_ids
func.func @compute_tile_ids() {
  // CHECK: ktdp.get_compute_tile_id : index
  %0 = ktdp.get_compute_tile_id : index
  // CHECK: %{{.+}}:2 = ktdp.get_compute_tile_id : index, index
  %1:2 = ktdp.get_compute_tile_id : index, index
  // CHECK: ktdp.get_compute_tile_id {tag = 1 : i64} : index
  %2 = ktdp.get_compute_tile_id {tag = 1} : index
  return
}

// CHECK-LABEL: func.func @memory_views
// CHECK-SAME: (%[[A:[^:]+]]: index, %[[N:[^:]+]]: index, %[[S:[^:]+]]: index)
func.func @memory_views(%a: index, %n: index, %s: index) {
  // CHECK: ktdp.construct_memory_view %[[A]], sizes: [%[[N]], 64], strides: [%[[S]], 1] {coordinate_set = #{{.+}}, memory_space = #ktdp.memory_space<global>} : memref<?x64xf32>
  %0 = ktdp.construct_memory_view %a,
         sizes: [%n, 64], strides: [%s, 1] {
    memory_space = #ktdp.memory_space<global>,
    coordinate_set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
  } : memref<?x64xf32>
  // CHECK: ktdp.construct_memory_view %[[A]], sizes: [], strides: [] {{.+}} : memref<f32>
  %1 = ktdp.construct_memory_view %a, sizes: [], strides: [] {
    coordinate_set = affine_set<() : (0 == 0)>, memory_space = #ktdp.memory_space<ct_local>
  } : memref<f32>
  // CHECK: ktdp.construct_distributed_memory_view(%{{.+}} : memref<?x64xf32>) : memref<?x64xf32>
  %2 = ktdp.construct_distributed_memory_view(%0 : memref<?x64xf32>) : memref<?x64xf32>
  return
}

// CHECK-LABEL: func.func @tiles
func.func @tiles(%m: memref<64xf32>, %idx: memref<64xi32>, %i: index) {
  // CHECK: %[[T:.+]] = ktdp.construct_access_tile %{{.+}}[%{{.+}}] {access_tile_order = #{{.+}}, access_tile_set = #{{.+}}} : memref<64xf32> -> !ktdp.access_tile<64xindex>
  %t = ktdp.construct_access_tile %m[%i] {access_tile_set = #set1, access_tile_order = #id1}
       : memref<64xf32> -> !ktdp.access_tile<64xindex>
  // CHECK: %[[U:.+]] = ktdp.construct_indirect_access_tile intermediate_variables(%[[V:.+]]) %{{.+}}[ind(%{{.+}}[%[[V]]])] {variables_space_order = #{{.+}}, variables_space_set = #{{.+}}} : memref<64xf32>, memref<64xi32> -> !ktdp.access_tile<64xindex>
  %u = ktdp.construct_indirect_access_tile intermediate_variables(%v) %m[ind(%idx[%v])] {variables_space_set = #set1, variables_space_order = #id1}
       : memref<64xf32>, memref<64xi32> -> !ktdp.access_tile<64xindex>
  // CHECK: %[[X:.+]] = ktdp.load %[[T]] : <64xindex> -> tensor<64xf32>
  %x = ktdp.load %t : !ktdp.access_tile<64xindex> -> tensor<64xf32>
  // CHECK: %[[Y:.+]] = ktdp.load %[[U]] : <64xindex> -> tensor<64xf32>
  %y = ktdp.load %u : <64xindex> -> tensor<64xf32>
  // CHECK: ktdp.store %[[X]], %[[U]] : tensor<64xf32>, <64xindex>
  ktdp.store %x, %u : tensor<64xf32>, <64xindex>
  // CHECK: ktdp.store %[[Y]], %[[T]] {nontemporal} : tensor<64xf32>, <64xindex>
  ktdp.store %y, %t {nontemporal} : tensor<64xf32>, !ktdp.access_tile<64xindex>
  return
}

// CHECK-LABEL: func.func @runtime_arg_extract
func.func @runtime_arg_extract(%r: !ktdp.runtime_arg<index, granularity=3, upperbound=300>, %q: !ktdp.runtime_arg<i32>) {
  // CHECK: ktdp.runtime_arg_extract value from %{{.+}} : <index, granularity=3, upperbound=300> -> index
  %0 = ktdp.runtime_arg_extract value from %r : !ktdp.runtime_arg<index, granularity=3, upperbound=300> -> index
  // CHECK: ktdp.runtime_arg_extract granularity from %{{.+}} : <index, granularity=3, upperbound=300> -> index
  %1 = ktdp.runtime_arg_extract granularity from %r : <index, granularity=3, upperbound=300> -> index
  // CHECK: ktdp.runtime_arg_extract upperbound from %{{.+}} : <index, granularity=3, upperbound=300> -> index
  %2 = ktdp.runtime_arg_extract upperbound from %r : <index, upperbound=300, granularity=3> -> index
  // CHECK: ktdp.runtime_arg_extract value from %{{.+}} : <i32> -> i32
  %3 = ktdp.runtime_arg_extract value from %q : !ktdp.runtime_arg<i32> -> i32
  return
}

// CHECK-LABEL: func.func @inter_tile
func.func @inter_tile(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) attributes {grid = [2]} {
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  // CHECK: ktdp.inter_tile_produce producer_tiles_per_group = #{{.+}} -> <(tensor<4xf32>), groups = #{{.+}}> {
  // CHECK: ktdp.yield_partial %{{.+}} : tensor<4xf32>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i == 0)>
       -> !ktdp.tile_future<(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<4xf32>
  }
  // CHECK: ktdp.inter_tile_consume(%{{.+}}) consumer_tiles_per_group = #{{.+}} : <(tensor<4xf32>), groups = #{{.+}}> -> tensor<4xf32>
  %c = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i >= 0, -i + 1 >= 0)>
       : !ktdp.tile_future<(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<4xf32>
  %f2 = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i >= 0, -i + 1 >= 0)>
       -> <(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %c : tensor<4xf32>
  }
  // CHECK: ktdp.inter_tile_reduce(%{{.+}}) consumer_tiles_per_group = #{{.+}}, identity(%{{.+}} : tensor<4xf32>) : <(tensor<4xf32>), groups = #{{.+}}> -> tensor<4xf32> {
  // CHECK: ktdp.yield_reduced %{{.+}} : tensor<4xf32>
  %r = ktdp.inter_tile_reduce(%f2) consumer_tiles_per_group = affine_set<(i)[g] : (i >= 0, -i + 1 >= 0)>, identity(%zero : tensor<4xf32>)
       : <(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<4xf32> {
  ^bb0(%l: tensor<4xf32>, %rr: tensor<4xf32>):
    %s = arith.addf %l, %rr : tensor<4xf32>
    ktdp.yield_reduced %s : tensor<4xf32>
  }
  return %c, %r : tensor<4xf32>, tensor<4xf32>
}

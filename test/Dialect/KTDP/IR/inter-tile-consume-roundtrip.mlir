// RUN: ktflow-opt %s | ktflow-opt | FileCheck %s
// RUN: ktflow-opt %s --verify-roundtrip | FileCheck %s

// inter_tile_produce + inter_tile_consume: a broadcast, eight groups, two
// partial roles, routing with a `(p)[c]` dependency set and a butterfly
// with a `(p)[c, g]` one. Future types are printed stripped.

#one_group = affine_set<(g) : (g == 0)>
#eight_groups = affine_set<(g) : (g >= 0, -g + 7 >= 0)>
#tile0 = affine_set<(i)[g] : (i == 0)>
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>

// CHECK-LABEL: func.func @broadcast
func.func @broadcast(%x: tensor<1x64xf16>) -> tensor<1x64xf16> attributes {grid = [4]} {
  // CHECK: %[[F:.+]] = ktdp.inter_tile_produce producer_tiles_per_group = #{{.+}} -> <(tensor<1x64xf16>), groups = #{{.+}}> {
  // CHECK-NEXT: ^bb0(%{{.+}}: index):
  // CHECK-NEXT: ktdp.yield_partial %{{.+}} : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #tile0
       -> !ktdp.tile_future<(tensor<1x64xf16>), groups = #one_group> {
  ^bb0(%gid: index):
    ktdp.yield_partial %x : tensor<1x64xf16>
  }
  // CHECK: ktdp.inter_tile_consume(%[[F]]) consumer_tiles_per_group = #{{.+}} : <(tensor<1x64xf16>), groups = #{{.+}}> -> tensor<1x64xf16>
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #all4
       : !ktdp.tile_future<(tensor<1x64xf16>), groups = #one_group> -> tensor<1x64xf16>
  return %r : tensor<1x64xf16>
}

// Eight groups of four tiles each: tile 4g broadcasts to tiles 4g..4g+3.
// CHECK-LABEL: func.func @eight_groups
func.func @eight_groups(%x: tensor<1x64xf16>) -> tensor<1x64xf16> attributes {grid = [32]} {
  // CHECK: ktdp.inter_tile_produce producer_tiles_per_group = #[[P8:.+]] -> <(tensor<1x64xf16>), groups = #{{.+}}>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g == 0)>
       -> <(tensor<1x64xf16>), groups = #eight_groups> {
  ^bb0(%gid: index):
    ktdp.yield_partial %x : tensor<1x64xf16>
  }
  // CHECK: ktdp.inter_tile_consume(%{{.+}}) consumer_tiles_per_group = #{{.+}} :
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
       : <(tensor<1x64xf16>), groups = #eight_groups> -> tensor<1x64xf16>
  return %r : tensor<1x64xf16>
}

// Two partial roles (values and their indices) travel together.
// CHECK-LABEL: func.func @two_roles
func.func @two_roles(%v: tensor<1x8xf32>, %i: tensor<1x8xi32>) -> (tensor<1x8xf32>, tensor<1x8xi32>) attributes {grid = [4]} {
  // CHECK: ktdp.yield_partial %{{.+}}, %{{.+}} : tensor<1x8xf32>, tensor<1x8xi32>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #tile0
       -> <(tensor<1x8xf32>, tensor<1x8xi32>), groups = #one_group> {
  ^bb0(%gid: index):
    ktdp.yield_partial %v, %i : tensor<1x8xf32>, tensor<1x8xi32>
  }
  // CHECK: %{{.+}}:2 = ktdp.inter_tile_consume(%{{.+}}) consumer_tiles_per_group = #{{.+}} : <(tensor<1x8xf32>, tensor<1x8xi32>), groups = #{{.+}}> -> tensor<1x8xf32>, tensor<1x8xi32>
  %r:2 = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #all4
       : <(tensor<1x8xf32>, tensor<1x8xi32>), groups = #one_group> -> tensor<1x8xf32>, tensor<1x8xi32>
  return %r#0, %r#1 : tensor<1x8xf32>, tensor<1x8xi32>
}

// Routing: every tile sends to its right neighbour; consumer c depends on
// producer (c + 3) mod 4 only.
// CHECK-LABEL: func.func @routing
func.func @routing(%x: tensor<1x64xf16>) -> tensor<1x64xf16> attributes {grid = [4]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
       -> <(tensor<1x64xf16>), groups = #one_group> {
  ^bb0(%gid: index):
    ktdp.yield_partial %x : tensor<1x64xf16>
  }
  // CHECK: ktdp.inter_tile_consume(%{{.+}}) consumer_tiles_per_group = #{{.+}}, producer_dependency_per_consumer = #[[DEP:.+]] :
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #all4,
         producer_dependency_per_consumer = affine_set<(p)[c] : (p - (c + 3) mod 4 == 0)>
       : <(tensor<1x64xf16>), groups = #one_group> -> tensor<1x64xf16>
  return %r : tensor<1x64xf16>
}

// Butterfly exchange in two groups of four: in group g consumer c reads from
// c xor 1, written with the group symbol as `(p)[c, g]`.
// CHECK-LABEL: func.func @butterfly
func.func @butterfly(%x: tensor<1x64xf16>) -> tensor<1x64xf16> attributes {grid = [8]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
       -> <(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %x : tensor<1x64xf16>
  }
  // CHECK: producer_dependency_per_consumer = #{{.+}} : <(tensor<1x64xf16>), groups = #{{.+}}> -> tensor<1x64xf16>
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>,
         producer_dependency_per_consumer = affine_set<(p)[c, g] : (p - 4 * g >= 0, -p + 4 * g + 3 >= 0, p - c - 1 + (c mod 2) * 2 == 0)>
       : <(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1x64xf16>
  return %r : tensor<1x64xf16>
}

// RUN: ktflow-opt %s > %t.ref
// RUN: ktflow-opt %s --ktir-check-legality > %t.out
// RUN: diff %t.ref %t.out
// RUN: ktflow-opt %s --ktir-check-legality | FileCheck %s

// Legal inter-tile communication: broadcast, point-to-point routing with a
// dependency set, all-reduce, reduce-to-one, and group-wise variants with
// `(p)[c, g]` dependencies. Sets are enumerated over the kernel's grid, or
// over their own bounds when the kernel has none.

#one = affine_set<(g) : (g == 0)>
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>

// CHECK-LABEL: func.func @broadcast
func.func @broadcast(%x: tensor<8xf32>) -> tensor<8xf32> attributes {grid = [4]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i == 0)>
       -> <(tensor<8xf32>), groups = #one> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<8xf32>
  }
  // CHECK: ktdp.inter_tile_consume
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #all4
       : <(tensor<8xf32>), groups = #one> -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// Without a grid the sets are enumerated over their own bounds.
// CHECK-LABEL: func.func @broadcast_no_grid
func.func @broadcast_no_grid(%x: tensor<8xf32>) -> tensor<8xf32> {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i == 0)>
       -> <(tensor<8xf32>), groups = #one> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<8xf32>
  }
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #all4
       : <(tensor<8xf32>), groups = #one> -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// Ring shift: every tile produces, consumer c receives from (c + 3) mod 4.
// CHECK-LABEL: func.func @ring_shift
func.func @ring_shift(%x: tensor<8xf32>) -> tensor<8xf32> attributes {grid = [4]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
       -> <(tensor<8xf32>), groups = #one> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<8xf32>
  }
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #all4,
         producer_dependency_per_consumer = affine_set<(p)[c] : (p - (c + 3) mod 4 == 0)>
       : <(tensor<8xf32>), groups = #one> -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// CHECK-LABEL: func.func @all_reduce
func.func @all_reduce(%x: tensor<8xf32>, %z: tensor<8xf32>) -> tensor<8xf32> attributes {grid = [4]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
       -> <(tensor<8xf32>), groups = #one> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<8xf32>
  }
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%z : tensor<8xf32>)
       : <(tensor<8xf32>), groups = #one> -> tensor<8xf32> {
  ^bb0(%l: tensor<8xf32>, %rr: tensor<8xf32>):
    %s = arith.addf %l, %rr : tensor<8xf32>
    ktdp.yield_reduced %s : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// CHECK-LABEL: func.func @reduce_to_one
func.func @reduce_to_one(%x: tensor<8xf32>, %z: tensor<8xf32>) -> tensor<8xf32> attributes {grid = [4]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
       -> <(tensor<8xf32>), groups = #one> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<8xf32>
  }
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i - 2 == 0)>, identity(%z : tensor<8xf32>)
       : <(tensor<8xf32>), groups = #one> -> tensor<8xf32> {
  ^bb0(%l: tensor<8xf32>, %rr: tensor<8xf32>):
    %s = arith.maximumf %l, %rr : tensor<8xf32>
    ktdp.yield_reduced %s : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// Four groups of two tiles {2g, 2g + 1} that swap: consumer c of group g
// reads its partner p = 4g + 1 - c.
// CHECK-LABEL: func.func @pairwise_swap
func.func @pairwise_swap(%x: tensor<8xf32>) -> tensor<8xf32> attributes {grid = [8]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - 2 * g >= 0, -i + 2 * g + 1 >= 0)>
       -> <(tensor<8xf32>), groups = affine_set<(g) : (g >= 0, -g + 3 >= 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<8xf32>
  }
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i - 2 * g >= 0, -i + 2 * g + 1 >= 0)>,
         producer_dependency_per_consumer = affine_set<(p)[c, g] : (p + c - 4 * g - 1 == 0)>
       : <(tensor<8xf32>), groups = affine_set<(g) : (g >= 0, -g + 3 >= 0)>> -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// A reduce with a dependency set: each consumer combines a subset.
// CHECK-LABEL: func.func @reduce_partial_dependency
func.func @reduce_partial_dependency(%x: tensor<8xf32>, %z: tensor<8xf32>) -> tensor<8xf32> attributes {grid = [4]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
       -> <(tensor<8xf32>), groups = #one> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<8xf32>
  }
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4,
         producer_dependency_per_consumer = affine_set<(p)[c] : (c - p >= 0)>, identity(%z : tensor<8xf32>)
       : <(tensor<8xf32>), groups = #one> -> tensor<8xf32> {
  ^bb0(%l: tensor<8xf32>, %rr: tensor<8xf32>):
    %s = arith.addf %l, %rr : tensor<8xf32>
    ktdp.yield_reduced %s : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

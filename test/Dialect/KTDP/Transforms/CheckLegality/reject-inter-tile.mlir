// RUN: ktflow-opt %s --ktir-check-legality -split-input-file -verify-diagnostics

// The cross-op rules of inter-tile communication.

#one = affine_set<(g) : (g == 0)>
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>

func.func @used_twice(%x: tensor<8xf32>) attributes {grid = [4]} {
  // expected-error @+1 {{'ktdp.inter_tile_produce' op future result must have exactly one use, but has 2}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i == 0)>
       -> <(tensor<8xf32>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<8xf32>
  }
  %a = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>
       : <(tensor<8xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<8xf32>
  %b = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>
       : <(tensor<8xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<8xf32>
  return
}

// -----

func.func @unused(%x: tensor<8xf32>) attributes {grid = [4]} {
  // expected-error @+1 {{'ktdp.inter_tile_produce' op future result must have exactly one use, but has 0}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i == 0)>
       -> <(tensor<8xf32>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<8xf32>
  }
  return
}

// -----

// The future cannot leave the function.
func.func @returned(%x: tensor<8xf32>) -> !ktdp.tile_future<(tensor<8xf32>), groups = affine_set<(g) : (g == 0)>> attributes {grid = [4]} {
  // expected-note @+1 {{future produced here}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i == 0)>
       -> <(tensor<8xf32>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<8xf32>
  }
  // expected-error @+1 {{'func.return' op cannot use a !ktdp.tile_future; only ktdp.inter_tile_consume and ktdp.inter_tile_reduce may deliver it}}
  return %f : !ktdp.tile_future<(tensor<8xf32>), groups = affine_set<(g) : (g == 0)>>
}

// -----

func.func @reduce_consumers_not_producers(%x: tensor<8xf32>, %z: tensor<8xf32>) attributes {grid = [8]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>
       -> <(tensor<8xf32>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<8xf32>
  }
  // expected-error @+1 {{'ktdp.inter_tile_reduce' op consumer_tiles_per_group for group 0 {0, 1, 2, 3, 4} is not a subset of producer_tiles_per_group {0, 1, 2, 3}}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i >= 0, -i + 4 >= 0)>, identity(%z : tensor<8xf32>)
       : <(tensor<8xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<8xf32> {
  ^bb0(%l: tensor<8xf32>, %rr: tensor<8xf32>):
    ktdp.yield_reduced %l : tensor<8xf32>
  }
  return
}

// -----

func.func @reduce_to_subset(%x: tensor<8xf32>, %z: tensor<8xf32>) attributes {grid = [4]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>
       -> <(tensor<8xf32>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<8xf32>
  }
  // expected-error @+1 {{'ktdp.inter_tile_reduce' op reduce-to-subset is unsupported; only all-reduce and reduce-to-one are supported (group 0 has 2 consumers and 4 producers)}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i >= 0, -i + 1 >= 0)>, identity(%z : tensor<8xf32>)
       : <(tensor<8xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<8xf32> {
  ^bb0(%l: tensor<8xf32>, %rr: tensor<8xf32>):
    ktdp.yield_reduced %l : tensor<8xf32>
  }
  return
}

// -----

func.func @consume_without_dependency(%x: tensor<8xf32>) attributes {grid = [4]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i >= 0, -i + 1 >= 0)>
       -> <(tensor<8xf32>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<8xf32>
  }
  // expected-error @+1 {{'ktdp.inter_tile_consume' op group 0 has 2 producers; inter_tile_consume needs producer_dependency_per_consumer to choose each consumer's source}}
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>
       : <(tensor<8xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<8xf32>
  return
}

// -----

func.func @consumer_with_two_sources(%x: tensor<8xf32>) attributes {grid = [4]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>
       -> <(tensor<8xf32>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<8xf32>
  }
  // Consumer c depends on p = c and p = c + 1: tiles 1 and 2 (and 0) have
  // two sources each; the first is reported.
  // expected-error @+1 {{'ktdp.inter_tile_consume' op consumer tile 0 of group 0 must have exactly one source, but has 2 {0, 1}}}
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>,
         producer_dependency_per_consumer = affine_set<(p)[c] : (p - c >= 0, -p + c + 1 >= 0)>
       : <(tensor<8xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<8xf32>
  return
}

// -----

func.func @consumer_without_source(%x: tensor<8xf32>) attributes {grid = [4]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>
       -> <(tensor<8xf32>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<8xf32>
  }
  // Consumer c reads from c + 1: tile 3 has no producer 4.
  // expected-error @+1 {{'ktdp.inter_tile_consume' op consumer tile 3 of group 0 must have exactly one source, but has 0 {}}}
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>,
         producer_dependency_per_consumer = affine_set<(p)[c] : (p - c - 1 == 0)>
       : <(tensor<8xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<8xf32>
  return
}

// -----

func.func @uncovered_producer(%x: tensor<8xf32>, %z: tensor<8xf32>) attributes {grid = [4]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i >= 0, -i + 1 >= 0)>
       -> <(tensor<8xf32>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<8xf32>
  }
  // Both consumers read from producer 0; producer 1's value goes nowhere.
  // expected-error @+1 {{'ktdp.inter_tile_consume' op producer tile 1 of group 0 is not covered by any consumer's dependency}}
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i >= 0, -i + 1 >= 0)>,
         producer_dependency_per_consumer = affine_set<(p)[c] : (p == 0)>
       : <(tensor<8xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<8xf32>
  return
}

// -----

func.func @uncovered_producer_in_reduce(%x: tensor<8xf32>, %z: tensor<8xf32>) attributes {grid = [4]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>
       -> <(tensor<8xf32>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<8xf32>
  }
  // The single consumer combines only the even producers; the first
  // uncovered one is reported.
  // expected-error @+1 {{'ktdp.inter_tile_reduce' op producer tile 1 of group 0 is not covered by any consumer's dependency}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i == 0)>,
         producer_dependency_per_consumer = affine_set<(p)[c] : (p mod 2 == 0)>, identity(%z : tensor<8xf32>)
       : <(tensor<8xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<8xf32> {
  ^bb0(%l: tensor<8xf32>, %rr: tensor<8xf32>):
    ktdp.yield_reduced %l : tensor<8xf32>
  }
  return
}

// -----

// Group-wise rule: the second of two groups is the broken one.
func.func @second_group(%x: tensor<8xf32>) attributes {grid = [8]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
       -> <(tensor<8xf32>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<8xf32>
  }
  // Consumer 3g: tile 0 reduces group 0, but tile 3 is not in group 1.
  // expected-error @+1 {{'ktdp.inter_tile_reduce' op consumer_tiles_per_group for group 1 {3} is not a subset of producer_tiles_per_group {4, 5, 6, 7}}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i - 3 * g == 0)>, identity(%x : tensor<8xf32>)
       : <(tensor<8xf32>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<8xf32> {
  ^bb0(%l: tensor<8xf32>, %rr: tensor<8xf32>):
    ktdp.yield_reduced %l : tensor<8xf32>
  }
  return
}

// -----

// Disjointness of producer groups is checked by the op verifier, so it also
// fires before the pass runs.
func.func @producer_groups_overlap(%x: tensor<8xf32>) attributes {grid = [8]} {
  // expected-error @+1 {{'ktdp.inter_tile_produce' op producer_tiles_per_group for groups 0 and 1 are not disjoint}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - 2 * g >= 0, -i + 2 * g + 3 >= 0)>
       -> <(tensor<8xf32>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<8xf32>
  }
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i - 2 * g == 0)>
       : <(tensor<8xf32>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<8xf32>
  return
}

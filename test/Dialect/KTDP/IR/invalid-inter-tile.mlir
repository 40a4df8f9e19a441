// RUN: ktflow-opt %s -split-input-file -verify-diagnostics

// Verifier messages of inter_tile_produce, inter_tile_consume,
// inter_tile_reduce, yield_partial and yield_reduced. Cross-op rules are
// in ../Transforms/CheckLegality/.

func.func @producer_set_dims(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ktdp.inter_tile_produce' op `producer_tiles_per_group` must have exactly one dimension (the tile id i), but has 2}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i, j)[g] : (i == 0, j == 0)>
       -> <(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %x : tensor<4xf32>
  }
  return
}

// -----

func.func @producer_set_symbols(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ktdp.inter_tile_produce' op `producer_tiles_per_group` must have exactly one symbol (the group index g), but has 0}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i) : (i == 0)>
       -> <(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %x : tensor<4xf32>
  }
  return
}

// -----

func.func @producers_not_disjoint(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ktdp.inter_tile_produce' op producer_tiles_per_group for groups 0 and 1 are not disjoint}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>
       -> <(tensor<4xf32>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %x : tensor<4xf32>
  }
  return
}

// -----

func.func @producers_overlap_late(%x: tensor<4xf32>) {
  // Groups of three tiles at stride two: groups 0 and 1 share tile 2.
  // expected-error @+1 {{'ktdp.inter_tile_produce' op producer_tiles_per_group for groups 0 and 1 are not disjoint}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - 2 * g >= 0, -i + 2 * g + 2 >= 0)>
       -> <(tensor<4xf32>), groups = affine_set<(g) : (g >= 0, -g + 3 >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %x : tensor<4xf32>
  }
  return
}

// -----

func.func @producer_region_args(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ktdp.inter_tile_produce' op producer region must take a single `index` group-id argument}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i == 0)>
       -> <(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index, %other: index):
    ktdp.yield_partial %x : tensor<4xf32>
  }
  return
}

// -----

func.func @producer_region_arg_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ktdp.inter_tile_produce' op producer region must take a single `index` group-id argument}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i == 0)>
       -> <(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: i32):
    ktdp.yield_partial %x : tensor<4xf32>
  }
  return
}

// -----

func.func @yield_partial_count(%x: tensor<4xf32>) {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i == 0)>
       -> <(tensor<4xf32>, tensor<4xf32>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    // expected-error @+1 {{'ktdp.yield_partial' op yield_partial yields 1 values but the future carries 2 partial type(s)}}
    ktdp.yield_partial %x : tensor<4xf32>
  }
  return
}

// -----

func.func @yield_partial_type(%x: tensor<4xf16>) {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i == 0)>
       -> <(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    // expected-error @+1 {{'ktdp.yield_partial' op yield_partial operand #0 type 'tensor<4xf16>' does not match future partial type 'tensor<4xf32>'}}
    ktdp.yield_partial %x : tensor<4xf16>
  }
  return
}

// -----

func.func @yield_partial_outside(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ktdp.yield_partial' op expects parent op 'ktdp.inter_tile_produce'}}
  ktdp.yield_partial %x : tensor<4xf32>
  return
}

// -----

func.func @yield_reduced_outside(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ktdp.yield_reduced' op expects parent op 'ktdp.inter_tile_reduce'}}
  ktdp.yield_reduced %x : tensor<4xf32>
  return
}

// -----

func.func @partial_not_tensor(%x: tensor<4xf32>) {
  // expected-error @+2 {{invalid kind of type specified: expected builtin.tensor, but found 'memref<4xf32>'}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i == 0)>
       -> <(memref<4xf32>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %x : tensor<4xf32>
  }
  return
}

// -----

func.func @consumer_set_dims(%f: !ktdp.tile_future<(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>>) {
  // expected-error @+1 {{'ktdp.inter_tile_consume' op `consumer_tiles_per_group` must have exactly one dimension (the tile id i), but has 0}}
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<()[g] : (g == 0)>
       : <(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<4xf32>
  return
}

// -----

func.func @consumer_set_symbols(%f: !ktdp.tile_future<(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>>) {
  // expected-error @+1 {{'ktdp.inter_tile_consume' op `consumer_tiles_per_group` must have exactly one symbol (the group index g), but has 2}}
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i)[g, h] : (i == 0)>
       : <(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<4xf32>
  return
}

// -----

func.func @dependency_dims(%f: !ktdp.tile_future<(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>>) {
  // expected-error @+1 {{'ktdp.inter_tile_consume' op `producer_dependency_per_consumer` must have exactly one dimension (the producer p), but has 2}}
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i == 0)>,
         producer_dependency_per_consumer = affine_set<(p, q)[c] : (p - c == 0, q == 0)>
       : <(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<4xf32>
  return
}

// -----

func.func @dependency_three_symbols(%f: !ktdp.tile_future<(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>>) {
  // expected-error @+1 {{'ktdp.inter_tile_consume' op `producer_dependency_per_consumer` must have one or two symbols ([c] or [c, g]), but has 3}}
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i == 0)>,
         producer_dependency_per_consumer = affine_set<(p)[c, g, x] : (p - c == 0)>
       : <(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<4xf32>
  return
}

// -----

func.func @dependency_no_symbols(%f: !ktdp.tile_future<(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>>) {
  // expected-error @+1 {{'ktdp.inter_tile_consume' op `producer_dependency_per_consumer` must have one or two symbols ([c] or [c, g]), but has 0}}
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i == 0)>,
         producer_dependency_per_consumer = affine_set<(p) : (p == 0)>
       : <(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<4xf32>
  return
}

// -----

func.func @consume_result_types(%f: !ktdp.tile_future<(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>>) {
  // expected-error @+1 {{'ktdp.inter_tile_consume' op result types must match future partial types}}
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i == 0)>
       : <(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<8xf32>
  return
}

// -----

func.func @consume_result_count(%f: !ktdp.tile_future<(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>>) {
  // expected-error @+1 {{'ktdp.inter_tile_consume' op result types must match future partial types}}
  %r:2 = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i == 0)>
       : <(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<4xf32>, tensor<4xf32>
  return
}

// -----

// expected-note @+1 {{prior use here}}
func.func @consume_not_a_future(%x: tensor<4xf32>) {
  // expected-error @+1 {{use of value '%x' expects different type than prior uses}}
  %r = ktdp.inter_tile_consume(%x) consumer_tiles_per_group = affine_set<(i)[g] : (i == 0)>
       : <(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<4xf32>
  return
}

// -----

func.func @reduce_consumer_symbols(%f: !ktdp.tile_future<(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>>, %z: tensor<4xf32>) {
  // expected-error @+1 {{'ktdp.inter_tile_reduce' op `consumer_tiles_per_group` must have exactly one symbol (the group index g), but has 0}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i) : (i == 0)>, identity(%z : tensor<4xf32>)
       : <(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<4xf32> {
  ^bb0(%l: tensor<4xf32>, %rr: tensor<4xf32>):
    ktdp.yield_reduced %l : tensor<4xf32>
  }
  return
}

// -----

func.func @reduce_dependency_symbols(%f: !ktdp.tile_future<(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>>, %z: tensor<4xf32>) {
  // expected-error @+1 {{'ktdp.inter_tile_reduce' op `producer_dependency_per_consumer` must have one or two symbols ([c] or [c, g]), but has 3}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i == 0)>,
         producer_dependency_per_consumer = affine_set<(p)[a, b, c] : (p == 0)>, identity(%z : tensor<4xf32>)
       : <(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<4xf32> {
  ^bb0(%l: tensor<4xf32>, %rr: tensor<4xf32>):
    ktdp.yield_reduced %l : tensor<4xf32>
  }
  return
}

// -----

func.func @reduce_result_types(%f: !ktdp.tile_future<(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>>, %z: tensor<4xf16>) {
  // expected-error @+1 {{'ktdp.inter_tile_reduce' op result #0 type 'tensor<4xf16>' must be the partial type 'tensor<4xf32>' or a reshape of it (same element type and static number of elements)}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i == 0)>, identity(%z : tensor<4xf16>)
       : <(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<4xf16> {
  ^bb0(%l: tensor<4xf32>, %rr: tensor<4xf32>):
    ktdp.yield_reduced %l : tensor<4xf32>
  }
  return
}

// -----

func.func @reduce_identity_types(%f: !ktdp.tile_future<(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>>, %z: tensor<4xf16>) {
  // expected-error @+1 {{'ktdp.inter_tile_reduce' op identity types must match the future's partial types}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i == 0)>, identity(%z : tensor<4xf16>)
       : <(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<4xf32> {
  ^bb0(%l: tensor<4xf32>, %rr: tensor<4xf32>):
    ktdp.yield_reduced %l : tensor<4xf32>
  }
  return
}

// -----

func.func @reduce_missing_identity(%f: !ktdp.tile_future<(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>>) {
  // expected-error @+1 {{'ktdp.inter_tile_reduce' op identity types must match the future's partial types}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i == 0)>, identity()
       : <(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<4xf32> {
  ^bb0(%l: tensor<4xf32>, %rr: tensor<4xf32>):
    ktdp.yield_reduced %l : tensor<4xf32>
  }
  return
}

// -----

func.func @reducer_arg_count(%f: !ktdp.tile_future<(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>>, %z: tensor<4xf32>) {
  // expected-error @+1 {{'ktdp.inter_tile_reduce' op reducer region must take 2 arguments, got 1}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i == 0)>, identity(%z : tensor<4xf32>)
       : <(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<4xf32> {
  ^bb0(%l: tensor<4xf32>):
    ktdp.yield_reduced %l : tensor<4xf32>
  }
  return
}

// -----

func.func @reducer_arg_types(%f: !ktdp.tile_future<(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>>, %z: tensor<4xf32>) {
  // expected-error @+1 {{'ktdp.inter_tile_reduce' op reducer region argument pair #0 must both have partial type 'tensor<4xf32>'}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i == 0)>, identity(%z : tensor<4xf32>)
       : <(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<4xf32> {
  ^bb0(%l: tensor<4xf32>, %rr: tensor<4xf16>):
    ktdp.yield_reduced %l : tensor<4xf32>
  }
  return
}

// -----

func.func @yield_reduced_count(%f: !ktdp.tile_future<(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>>, %z: tensor<4xf32>) {
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i == 0)>, identity(%z : tensor<4xf32>)
       : <(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<4xf32> {
  ^bb0(%l: tensor<4xf32>, %rr: tensor<4xf32>):
    // expected-error @+1 {{'ktdp.yield_reduced' op yield_reduced yields 2 values but the future carries 1 partial type(s)}}
    ktdp.yield_reduced %l, %rr : tensor<4xf32>, tensor<4xf32>
  }
  return
}

// -----

func.func @yield_reduced_type(%f: !ktdp.tile_future<(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>>, %z: tensor<4xf32>, %h: tensor<4xf16>) {
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i == 0)>, identity(%z : tensor<4xf32>)
       : <(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<4xf32> {
  ^bb0(%l: tensor<4xf32>, %rr: tensor<4xf32>):
    // expected-error @+1 {{'ktdp.yield_reduced' op yield_reduced operand #0 type 'tensor<4xf16>' does not match future partial type 'tensor<4xf32>'}}
    ktdp.yield_reduced %h : tensor<4xf16>
  }
  return
}

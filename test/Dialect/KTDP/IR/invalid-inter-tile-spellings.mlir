// RUN: ktflow-opt %s -split-input-file -verify-diagnostics

// Errors in the real-world spellings of the inter-tile ops (see
// inter-tile-spellings.mlir): a leading `: T` that disagrees with the
// future, reduce results that are not a reshape of the partial type, and
// malformed `!ktdp.tile_future<...>` types, including ones whose inline
// groups set holds `>=` (parsed by the op itself).

func.func @leading_type_mismatch(%v: tensor<1x64xf16>) {
  // expected-error @+2 {{the partial types before '->' (tensor<1x32xf16>) must match the future's partial types (tensor<1x64xf16>)}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>
         : tensor<1x32xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %v : tensor<1x64xf16>
  }
  return
}

// -----

func.func @leading_type_count(%v: tensor<1x64xf16>) {
  // expected-error @+2 {{the partial types before '->' (tensor<1x64xf16>, tensor<1x64xf16>) must match the future's partial types (tensor<1x64xf16>)}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>
         : (tensor<1x64xf16>, tensor<1x64xf16>) -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g >= 0, -g >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %v : tensor<1x64xf16>
  }
  return
}

// -----

func.func @reduce_result_count_differs(%f: !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>>, %z: tensor<1x64xf16>) {
  // expected-error @+1 {{'ktdp.inter_tile_reduce' op result #0 type 'tensor<32xf16>' must be the partial type 'tensor<1x64xf16>' or a reshape of it (same element type and static number of elements)}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i == 0)>, identity(%z : tensor<1x64xf16>)
         : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<32xf16> {
  ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
    ktdp.yield_reduced %a : tensor<1x64xf16>
  }
  return
}

// -----

func.func @reduce_result_element_type(%f: !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>>, %z: tensor<1x64xf16>) {
  // expected-error @+1 {{'ktdp.inter_tile_reduce' op result #0 type 'tensor<64xf32>' must be the partial type 'tensor<1x64xf16>' or a reshape of it}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i == 0)>, identity(%z : tensor<1x64xf16>)
         : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<64xf32> {
  ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
    ktdp.yield_reduced %a : tensor<1x64xf16>
  }
  return
}

// -----

func.func @reduce_result_dynamic(%f: !ktdp.tile_future<tensor<?x64xf16>, groups = affine_set<(g) : (g == 0)>>, %z: tensor<?x64xf16>) {
  // expected-error @+1 {{'ktdp.inter_tile_reduce' op result #0 type 'tensor<64xf16>' must be the partial type 'tensor<?x64xf16>' or a reshape of it}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i == 0)>, identity(%z : tensor<?x64xf16>)
         : <tensor<?x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<64xf16> {
  ^bb0(%a: tensor<?x64xf16>, %b: tensor<?x64xf16>):
    ktdp.yield_reduced %a : tensor<?x64xf16>
  }
  return
}

// -----

func.func @reduce_result_count(%f: !ktdp.tile_future<tensor<4xf32>, groups = affine_set<(g) : (g == 0)>>, %z: tensor<4xf32>) {
  // expected-error @+1 {{'ktdp.inter_tile_reduce' op returns 2 result(s) but the future carries 1 partial type(s)}}
  %r:2 = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i == 0)>, identity(%z : tensor<4xf32>)
         : <tensor<4xf32>, groups = affine_set<(g) : (g == 0)>> -> tensor<4xf32>, tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    ktdp.yield_reduced %a : tensor<4xf32>
  }
  return
}

// -----

// The identity is a partial, not a result: a rank-reduced identity is an
// error.
func.func @identity_is_result_type(%f: !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>>, %z: tensor<64xf16>) {
  // expected-error @+1 {{'ktdp.inter_tile_reduce' op identity types must match the future's partial types}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i == 0)>, identity(%z : tensor<64xf16>)
         : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<64xf16> {
  ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
    ktdp.yield_reduced %a : tensor<1x64xf16>
  }
  return
}

// -----

// Malformed future types inside the ops, with and without `>=`.
func.func @future_missing_comma(%v: tensor<4xf32>) {
  // expected-error @+2 {{expected ','}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i == 0)>
         : tensor<4xf32> -> !ktdp.tile_future<tensor<4xf32> groups = affine_set<(g) : (g >= 0, -g >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %v : tensor<4xf32>
  }
  return
}

// -----

func.func @future_wrong_keyword(%v: tensor<4xf32>) {
  // expected-error @+2 {{expected 'groups'}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i == 0)>
         -> !ktdp.tile_future<(tensor<4xf32>), group = affine_set<(g) : (g >= 0, -g >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %v : tensor<4xf32>
  }
  return
}

// -----

func.func @future_partial_not_tensor(%v: tensor<4xf32>) {
  // expected-error @+2 {{invalid kind of type specified: expected builtin.tensor, but found 'memref<4xf32>'}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i == 0)>
         -> !ktdp.tile_future<memref<4xf32>, groups = affine_set<(g) : (g >= 0, -g >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %v : tensor<4xf32>
  }
  return
}

// -----

func.func @future_unclosed(%v: tensor<4xf32>) {
  // expected-error @+2 {{expected '>'}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i == 0)>
         -> !ktdp.tile_future<tensor<4xf32>, groups = affine_set<(g) : (g >= 0, -g >= 0)> {
  ^bb0(%gid: index):
    ktdp.yield_partial %v : tensor<4xf32>
  }
  return
}

// -----

func.func @future_groups_symbol(%f: !ktdp.tile_future<tensor<4xf32>, groups = affine_set<(g) : (g == 0)>>, %z: tensor<4xf32>) {
  // expected-error @+1 {{tile_future `groups` must have no symbols}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i == 0)>, identity(%z : tensor<4xf32>)
         : !ktdp.tile_future<tensor<4xf32>, groups = affine_set<(g)[s] : (g >= 0, s - g >= 0)>> -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    ktdp.yield_reduced %a : tensor<4xf32>
  }
  return
}

// -----

// A future without `>=` goes through MLIR's type parser: its errors are
// reported as they are.
func.func @future_no_inequality_bad_partial(%v: tensor<4xf32>) {
  // expected-error @+2 {{invalid kind of type specified: expected builtin.tensor, but found 'index'}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i == 0)>
         -> !ktdp.tile_future<index, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %v : tensor<4xf32>
  }
  return
}

// -----

func.func @not_a_future(%v: tensor<4xf32>) {
  // expected-error @+2 {{invalid kind of type specified: expected ktdp.tile_future, but found '!ktdp.access_tile<4xindex>'}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i == 0)>
         -> !ktdp.access_tile<4xindex> {
  ^bb0(%gid: index):
    ktdp.yield_partial %v : tensor<4xf32>
  }
  return
}

// RUN: ktflow-opt %s -split-input-file -verify-diagnostics

// Parser and verifier messages of !ktdp.access_tile, !ktdp.runtime_arg and
// !ktdp.tile_future.

// expected-error @+1 {{tile element type must be 'index', but got: 'f16'}}
func.func @tile_element_type(%t: !ktdp.access_tile<32x64xf16>) {
  return
}

// -----

// expected-error @+1 {{expected non-function type}}
func.func @tile_missing_element_type(%t: !ktdp.access_tile<32x>) {
  return
}

// -----

// expected-error @+1 {{runtime_arg granularity must be positive, but got: 0}}
func.func @granularity_zero(%r: !ktdp.runtime_arg<index, granularity=0>) {
  return
}

// -----

// expected-error @+1 {{runtime_arg upperbound must be positive, but got: -1}}
func.func @upperbound_negative(%r: !ktdp.runtime_arg<index, upperbound=-1>) {
  return
}

// -----

// expected-error @+1 {{runtime_arg underlying type must be a builtin type (index, integer, or float), but got: 'tensor<4xf32>'}}
func.func @underlying_tensor(%r: !ktdp.runtime_arg<tensor<4xf32>>) {
  return
}

// -----

// expected-error @+1 {{duplicate 'granularity' keyword}}
func.func @duplicate_keyword(%r: !ktdp.runtime_arg<index, granularity=2, granularity=4>) {
  return
}

// -----

// expected-error @+1 {{expected 'granularity' or 'upperbound' keyword}}
func.func @unknown_keyword(%r: !ktdp.runtime_arg<index, alignment=4>) {
  return
}

// -----

// expected-error @+1 {{expected '='}}
func.func @missing_equal(%r: !ktdp.runtime_arg<index, granularity 4>) {
  return
}

// -----

// expected-error @+2 {{invalid kind of type specified: expected builtin.tensor, but found 'index'}}
func.func @future_partial_not_tensor(
    %f: !ktdp.tile_future<(index), groups = affine_set<(g) : (g == 0)>>) {
  return
}

// -----

// expected-error @+2 {{invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'}}
func.func @future_partial_unranked(
    %f: !ktdp.tile_future<(tensor<*xf32>), groups = affine_set<(g) : (g == 0)>>) {
  return
}

// -----

// expected-error @+1 {{tile_future must carry at least one partial type}}
func.func @future_no_partials(%f: !ktdp.tile_future<(), groups = affine_set<(g) : (g == 0)>>) {
  return
}

// -----

// expected-error @+1 {{tile_future `groups` must have exactly one dimension (g)}}
func.func @future_groups_2d(%f: !ktdp.tile_future<(tensor<4xf32>), groups = affine_set<(g, h) : (g == 0, h == 0)>>) {
  return
}

// -----

// expected-error @+1 {{tile_future `groups` must have exactly one dimension (g)}}
func.func @future_groups_0d(%f: !ktdp.tile_future<(tensor<4xf32>), groups = affine_set<() : (0 == 0)>>) {
  return
}

// -----

// expected-error @+1 {{tile_future `groups` must have no symbols}}
func.func @future_groups_symbol(%f: !ktdp.tile_future<(tensor<4xf32>), groups = affine_set<(g)[s] : (g - s == 0)>>) {
  return
}

// -----

// expected-error @+1 {{expected ','}}
func.func @future_missing_groups(%f: !ktdp.tile_future<(tensor<4xf32>)>) {
  return
}

// -----

// A limitation of MLIR's lexer, not of ktdp: inside the full `!ktdp.`
// spelling the `>` of `>=` ends the type. Use an alias (#set); the
// inter-tile ops read their own future type and accept it inline (see
// inter-tile-spellings.mlir).
// expected-error @+1 {{unbalanced '(' character in pretty dialect name}}
func.func @future_inline_inequality(%f: !ktdp.tile_future<(tensor<4xf32>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>>) {
  return
}

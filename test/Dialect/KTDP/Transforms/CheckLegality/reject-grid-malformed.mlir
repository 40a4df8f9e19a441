// RUN: ktflow-opt %s --ktir-check-legality -split-input-file -verify-diagnostics

// A `grid` attribute must be a non-empty list of positive integers.

// expected-error @+1 {{`grid` must have at least one dimension}}
func.func @empty() attributes {grid = []} {
  return
}

// -----

// expected-error @+1 {{`grid` extents must be positive, but got 0}}
func.func @zero() attributes {grid = [32, 0]} {
  return
}

// -----

// expected-error @+1 {{`grid` extents must be positive, but got -4}}
func.func @negative() attributes {grid = array<i64: -4>} {
  return
}

// -----

// expected-error @+1 {{`grid` must be a list of integers, but has 1.000000e+00 : f32}}
func.func @float() attributes {grid = [1.0 : f32]} {
  return
}

// -----

// expected-error @+1 {{`grid` must be a list of integers, but has [1]}}
func.func @nested_list() attributes {grid = [[1]]} {
  return
}

// -----

// expected-error @+1 {{`grid` must be a list of integers such as [32] or [32, 1], but got "32"}}
func.func @string() attributes {grid = "32"} {
  return
}

// -----

// expected-error @+1 {{`grid` must be a list of integers such as [32] or [32, 1], but got 32 : i64}}
func.func @scalar() attributes {grid = 32} {
  return
}

// -----

// The number of tiles must fit in 64 bits.
// expected-error @+1 {{`grid` has more compute tiles than fit in 64 bits}}
func.func @overflow() attributes {grid = [4294967296, 4294967296]} {
  return
}

// -----

// A malformed grid is reported once, not again for each tile id.
// expected-error @+1 {{`grid` extents must be positive, but got 0}}
func.func @with_ids() attributes {grid = [0]} {
  %0 = ktdp.get_compute_tile_id : index
  return
}

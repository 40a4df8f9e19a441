// RUN: ktflow-opt %s --ktdf-check-supported -split-input-file -verify-diagnostics

// Index arithmetic in a linalg.generic body (IndexIdioms.h): linalg.index,
// captured index values with a known range and constants, combined by
// addi, subi, muli and compared by cmpi, which the compute unit computes
// exactly in f32 (every value at most 2^24 in magnitude; unsigned
// comparisons of values that are not negative). A causal mask:
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @causal(%s: tensor<16x32xf32>) -> tensor<16x32xf32> attributes {grid = [2]} {
  %pid = ktdp.get_compute_tile_id : index
  %c16 = arith.constant 16 : index
  %q0 = arith.muli %pid, %c16 : index
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %m = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) {
    ^bb0(%v: f32, %o: f32):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %qi = arith.addi %q0, %i : index
      %visible = arith.cmpi ule, %j, %qi : index
      %r = arith.select %visible, %v, %ninf : f32
      linalg.yield %r : f32
  } -> tensor<16x32xf32>
  return %m : tensor<16x32xf32>
}

// -----

// An unsigned comparison of a value that may be negative.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @unsigned_negative(%s: tensor<16x32xf32>) -> tensor<16x32xf32> attributes {grid = [1]} {
  %c8 = arith.constant 8 : index
  %e = tensor.empty() : tensor<16x32xf32>
  %m = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) {
    ^bb0(%v: f32, %o: f32):
      %i = linalg.index 0 : index
      %d = arith.subi %i, %c8 : index
      // expected-error @+1 {{an unsigned comparison of index values that may be negative is not supported (the unit compares coordinates in f32)}}
      %lt = arith.cmpi ult, %d, %c8 : index
      %r = arith.select %lt, %v, %o : f32
      linalg.yield %r : f32
  } -> tensor<16x32xf32>
  return %m : tensor<16x32xf32>
}

// -----

// Index arithmetic other than addi, subi, muli and cmpi.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @division(%s: tensor<16x32xf32>) -> tensor<16x32xf32> attributes {grid = [1]} {
  %c4 = arith.constant 4 : index
  %e = tensor.empty() : tensor<16x32xf32>
  %m = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) {
    ^bb0(%v: f32, %o: f32):
      %j = linalg.index 1 : index
      // expected-error @+1 {{'arith.divui' on index values in a linalg body is not supported by the scheduler yet (only linalg.index, addi, subi, muli and cmpi, which the unit computes in f32)}}
      %q = arith.divui %j, %c4 : index
      %z = arith.cmpi eq, %q, %c4 : index
      %r = arith.select %z, %v, %o : f32
      linalg.yield %r : f32
  } -> tensor<16x32xf32>
  return %m : tensor<16x32xf32>
}

// -----

// A captured index value without a known range (a plain index argument).
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @unbounded(%s: tensor<16x32xf32>, %start: index) -> tensor<16x32xf32> attributes {grid = [1]} {
  %e = tensor.empty() : tensor<16x32xf32>
  %m = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) {
    ^bb0(%v: f32, %o: f32):
      %j = linalg.index 1 : index
      // expected-error @+1 {{an index value of this body has no known range}}
      %lt = arith.cmpi slt, %j, %start : index
      %r = arith.select %lt, %v, %o : f32
      linalg.yield %r : f32
  } -> tensor<16x32xf32>
  return %m : tensor<16x32xf32>
}

// -----

// A product of coordinates and a large constant past 2^24.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @too_large(%s: tensor<16x32xf32>) -> tensor<16x32xf32> attributes {grid = [1]} {
  %big = arith.constant 1048576 : index
  %e = tensor.empty() : tensor<16x32xf32>
  %m = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) {
    ^bb0(%v: f32, %o: f32):
      %j = linalg.index 1 : index
      // expected-error @+1 {{an index value of this body may exceed 2^24 in magnitude (the unit computes coordinates in f32)}}
      %p = arith.muli %j, %big : index
      %lt = arith.cmpi slt, %p, %big : index
      %r = arith.select %lt, %v, %o : f32
      linalg.yield %r : f32
  } -> tensor<16x32xf32>
  return %m : tensor<16x32xf32>
}

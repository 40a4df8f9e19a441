// RUN: ktflow-opt %s | ktflow-opt | FileCheck %s
// RUN: ktflow-opt %s --verify-roundtrip | FileCheck %s

// The spellings of inter_tile_produce / consume / reduce that real-world
// kernels use, each printed back in the canonical form
// `-> <(T), groups = ...>` / `: <(T), groups = ...> -> R`:
//   * produce with a trailing functional type `: T -> !ktdp.tile_future<...>`;
//   * partial types bare or parenthesised inside the future type;
//   * inline `groups` sets containing `>=` inside the `!ktdp.`-prefixed type;
//   * a reduce result that reshapes the partial type (1x64 -> 64);
//   * the stripped ODS spelling `-> <(T), groups = ...>`.

// Defined and never used, as some kernels do: not an error.
#unused_groups = affine_set<(g) : (g == 0)>
#single_group = affine_set<(g) : (g == 0)>
#grpA = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
#rows = affine_set<(i)[g] : (i - 2 * g >= 0, -i + 2 * g + 1 >= 0)>

// CHECK-DAG: #[[GRPA:.+]] = affine_set<(d0)[s0] : (d0 - s0 * 4 >= 0, -d0 + s0 * 4 + 3 >= 0)>
// CHECK-DAG: #[[ONE:.+]] = affine_set<(d0) : (d0 == 0)>
// CHECK-DAG: #[[TWO:.+]] = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>

// The all-reduce of §1a.3: bare partial, prefixed future, rank-reduced
// result.
// CHECK-LABEL: func.func @trailing_functional_type
func.func @trailing_functional_type(%v: tensor<1x64xf16>) -> tensor<64xf16> attributes {grid = [4]} {
  %z = arith.constant dense<0.0> : tensor<1x64xf16>
  // CHECK: %[[F:.+]] = ktdp.inter_tile_produce producer_tiles_per_group = #[[GRPA]] -> <(tensor<1x64xf16>), groups = #[[ONE]]> {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #grpA
         : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>>
  {
  ^bb0(%gid: index):
    ktdp.yield_partial %v : tensor<1x64xf16>
  }
  // CHECK: ktdp.inter_tile_reduce(%[[F]]) consumer_tiles_per_group = #[[GRPA]], identity(%{{.+}} : tensor<1x64xf16>) : <(tensor<1x64xf16>), groups = #[[ONE]]> -> tensor<64xf16> {
  // CHECK-NEXT: ^bb0(%{{.+}}: tensor<1x64xf16>, %{{.+}}: tensor<1x64xf16>):
  // CHECK: ktdp.yield_reduced %{{.+}} : tensor<1x64xf16>
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #grpA, identity(%z : tensor<1x64xf16>)
         : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<64xf16>
  { ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
    %e = tensor.empty() : tensor<1x64xf16>
    %s = linalg.add ins(%a, %b : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
    ktdp.yield_reduced %s : tensor<1x64xf16> }
  return %r : tensor<64xf16>
}

// Inline groups with `>=` inside the prefixed type, partials parenthesised.
// CHECK-LABEL: func.func @inline_inequalities
func.func @inline_inequalities(%v: tensor<1xf16>) -> tensor<1xf16> attributes {grid = [2, 2]} {
  %z = arith.constant dense<0.0> : tensor<1xf16>
  // CHECK: ktdp.inter_tile_produce producer_tiles_per_group = #{{.+}} -> <(tensor<1xf16>), groups = #[[TWO]]> {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #rows
         : tensor<1xf16> -> !ktdp.tile_future<(tensor<1xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %v : tensor<1xf16>
  }
  // CHECK: ktdp.inter_tile_reduce(%{{.+}}) consumer_tiles_per_group = #{{.+}}, identity(%{{.+}} : tensor<1xf16>) : <(tensor<1xf16>), groups = #[[TWO]]> -> tensor<1xf16> {
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #rows, identity(%z : tensor<1xf16>)
         : !ktdp.tile_future<tensor<1xf16>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1xf16> {
  ^bb0(%a: tensor<1xf16>, %b: tensor<1xf16>):
    %s = arith.addf %a, %b : tensor<1xf16>
    ktdp.yield_reduced %s : tensor<1xf16>
  }
  return %r : tensor<1xf16>
}

// The stripped ODS spelling the 2x2 RMSNorm kernel uses, and its bare
// variant.
// CHECK-LABEL: func.func @stripped
func.func @stripped(%v: tensor<1xf16>) -> tensor<1xf16> attributes {grid = [2, 2]} {
  %z = arith.constant dense<0.0> : tensor<1xf16>
  // CHECK: ktdp.inter_tile_produce producer_tiles_per_group = #{{.+}} -> <(tensor<1xf16>), groups = #[[TWO]]> {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #rows
         -> <(tensor<1xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %v : tensor<1xf16>
  }
  // CHECK: ktdp.inter_tile_reduce(%{{.+}}) consumer_tiles_per_group = #{{.+}}, identity(%{{.+}} : tensor<1xf16>) : <(tensor<1xf16>), groups = #[[TWO]]> -> tensor<1xf16> {
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #rows, identity(%z : tensor<1xf16>)
         : <tensor<1xf16>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1xf16> {
  ^bb0(%a: tensor<1xf16>, %b: tensor<1xf16>):
    %s = arith.addf %a, %b : tensor<1xf16>
    ktdp.yield_reduced %s : tensor<1xf16>
  }
  return %r : tensor<1xf16>
}

// A parenthesised leading list, two bare partials, and a consume with the
// prefixed future.
// CHECK-LABEL: func.func @two_partials
func.func @two_partials(%v: tensor<1x1xf32>, %i: tensor<1x1xi32>) -> (tensor<1x1xf32>, tensor<1x1xi32>) attributes {grid = [4]} {
  // CHECK: ktdp.inter_tile_produce producer_tiles_per_group = #{{.+}} -> <(tensor<1x1xf32>, tensor<1x1xi32>), groups = #[[TWO]]> {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #rows
         : (tensor<1x1xf32>, tensor<1x1xi32>) -> !ktdp.tile_future<tensor<1x1xf32>, tensor<1x1xi32>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %v, %i : tensor<1x1xf32>, tensor<1x1xi32>
  }
  // CHECK: ktdp.inter_tile_consume(%{{.+}}) consumer_tiles_per_group = #{{.+}}, producer_dependency_per_consumer = #{{.+}} : <(tensor<1x1xf32>, tensor<1x1xi32>), groups = #[[TWO]]> -> tensor<1x1xf32>, tensor<1x1xi32>
  %c:2 = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #rows,
           producer_dependency_per_consumer = affine_set<(p)[c, g] : (p - c == 0)>
         : !ktdp.tile_future<tensor<1x1xf32>, tensor<1x1xi32>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1x1xf32>, tensor<1x1xi32>
  return %c#0, %c#1 : tensor<1x1xf32>, tensor<1x1xi32>
}

// A bare partial type in a future written outside an op (groups set by
// alias, as MLIR's type scanner requires there).
// CHECK-LABEL: func.func @bare_argument
// CHECK-SAME: !ktdp.tile_future<(tensor<4xf32>), groups = #[[ONE]]>
func.func @bare_argument(%f: !ktdp.tile_future<tensor<4xf32>, groups = #single_group>) {
  return
}

// RUN: ktflow-opt %s | ktflow-opt | FileCheck %s
// RUN: ktflow-opt %s --verify-roundtrip | FileCheck %s
// RUN: ktflow-opt %s -mlir-print-op-generic -mlir-print-local-scope | FileCheck %s --check-prefix=GENERIC

// The `intermediate_variables(...)` / `ind(...)` grammar of
// construct_indirect_access_tile. Subscript maps range over the canonical
// domain (captured variables..., intermediate variables...), which the
// GENERIC run checks.

#vset = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>

// CHECK-LABEL: func.func @mixed_direct_indirect
// CHECK-SAME: (%[[X:.+]]: memref<64x64xf16>, %[[IDX:.+]]: memref<8xi32>)
// GENERIC-LABEL: sym_name = "mixed_direct_indirect"
func.func @mixed_direct_indirect(%X: memref<64x64xf16>, %Idx: memref<8xi32>) {
  // CHECK: ktdp.construct_indirect_access_tile intermediate_variables(%[[A:.+]], %[[B:.+]]) %[[X]][ind(%[[IDX]][%[[A]]]), (%[[B]])] {variables_space_order = #{{.+}}, variables_space_set = #{{.+}}} : memref<64x64xf16>, memref<8xi32> -> !ktdp.access_tile<8x16xindex>
  // GENERIC: operandSegmentSizes = array<i32: 1, 1, 0, 0>, per_dim_subscript_kinds = [true, false], per_dim_subscript_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>]
  %0 = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %X[ind(%Idx[%i]), (%j)] {
    variables_space_set = #vset,
    variables_space_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<64x64xf16>, memref<8xi32> -> !ktdp.access_tile<8x16xindex>
  // The transposed order turns the 8x16 space into a 16x8 tile.
  // CHECK: ktdp.construct_indirect_access_tile intermediate_variables(%[[A:.+]], %[[B:.+]]) %[[X]][ind(%[[IDX]][%[[A]]]), (%[[B]])] {variables_space_order = #[[TR:.+]], variables_space_set = #{{.+}}} : memref<64x64xf16>, memref<8xi32> -> !ktdp.access_tile<16x8xindex>
  %1 = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %X[ind(%Idx[%i]), (%j)] {
    variables_space_set = #vset,
    variables_space_order = affine_map<(d0, d1) -> (d1, d0)>
  } : memref<64x64xf16>, memref<8xi32> -> !ktdp.access_tile<16x8xindex>
  // An indirect subscript on the inner dimension.
  // CHECK: %[[X]][(%[[A:.+]]), ind(%[[IDX]][%[[B:.+]] floordiv 2])]
  %2 = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %X[(%i), ind(%Idx[%j floordiv 2])] {
    variables_space_set = #vset,
    variables_space_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<64x64xf16>, memref<8xi32> -> !ktdp.access_tile<8x16xindex>
  return
}

// CHECK-LABEL: func.func @floordiv_mod
func.func @floordiv_mod(%X: memref<64x64xf16>, %Idx: memref<8x4xi32>) {
  // CHECK: ind(%{{.+}}[%[[A:.+]], %[[B:.+]] floordiv 4]), (%[[B]] mod 4)]
  // GENERIC: per_dim_subscript_maps = [affine_map<(d0, d1) -> (d0, d1 floordiv 4)>, affine_map<(d0, d1) -> (d1 mod 4)>]
  %0 = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %X[ind(%Idx[%i, %j floordiv 4]), (%j mod 4)] {
    variables_space_set = #vset,
    variables_space_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<64x64xf16>, memref<8x4xi32> -> !ktdp.access_tile<8x16xindex>
  return
}

// Two indirect dimensions read two different index views; the types after
// the colon list them in subscript order.
// CHECK-LABEL: func.func @two_index_views
// CHECK-SAME: (%[[X:.+]]: memref<64x64xf16>, %[[I1:.+]]: memref<8x16xi32>, %[[I2:.+]]: memref<8x16xi64>)
func.func @two_index_views(%X: memref<64x64xf16>, %Idx1: memref<8x16xi32>, %Idx2: memref<8x16xi64>) {
  // CHECK: %[[X]][ind(%[[I1]][%[[A:.+]], %[[B:.+]]]), ind(%[[I2]][%[[A]], %[[B]]])] {{.+}} : memref<64x64xf16>, memref<8x16xi32>, memref<8x16xi64> -> !ktdp.access_tile<8x16xindex>
  // GENERIC: operandSegmentSizes = array<i32: 1, 2, 0, 0>, per_dim_subscript_kinds = [true, true]
  %0 = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k) %X[ind(%Idx1[%m, %k]), ind(%Idx2[%m, %k])] {
    variables_space_set = #vset,
    variables_space_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<64x64xf16>, memref<8x16xi32>, memref<8x16xi64> -> !ktdp.access_tile<8x16xindex>
  return
}

// A name that is not an intermediate variable is captured from the
// enclosing scope and becomes the first dimension of every subscript map.
// CHECK-LABEL: func.func @captured_variable
// CHECK-SAME: %[[OFF:[^:]+]]: index
func.func @captured_variable(%X: memref<64x64xf16>, %Idx: memref<8xi32>, %offset: index) {
  // CHECK: ind(%{{.+}}[%[[A:.+]]]), (%[[OFF]] + %[[B:.+]])]
  // GENERIC: operandSegmentSizes = array<i32: 1, 1, 1, 0>, per_dim_subscript_kinds = [true, false], per_dim_subscript_maps = [affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0 + d2)>]
  %0 = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %X[ind(%Idx[%i]), (%j + %offset)] {
    variables_space_set = #vset,
    variables_space_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<64x64xf16>, memref<8xi32> -> !ktdp.access_tile<8x16xindex>
  return
}

// No intermediate variables: a 0-D tile of one element.
// CHECK-LABEL: func.func @empty_variable_space
func.func @empty_variable_space(%X: memref<64x64xf16>, %Idx: memref<8xi32>, %p: index) {
  // CHECK: ktdp.construct_indirect_access_tile intermediate_variables() %{{.+}}[ind(%{{.+}}[%[[P:.+]]]), (%[[P]])] {{.+}} -> !ktdp.access_tile<index>
  // GENERIC: per_dim_subscript_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], variables_space_order = affine_map<() -> ()>, variables_space_set = affine_set<() : (0 == 0)>
  %0 = ktdp.construct_indirect_access_tile intermediate_variables() %X[ind(%Idx[%p]), (%p)] {
    variables_space_set = affine_set<() : ()>,
    variables_space_order = affine_map<() -> ()>
  } : memref<64x64xf16>, memref<8xi32> -> !ktdp.access_tile<index>
  return
}

// A dynamic number of rows bound through `symbols(...)`.
// CHECK-LABEL: func.func @symbols
// CHECK-SAME: %[[N:[^:]+]]: index)
func.func @symbols(%X: memref<?x64xf16>, %Idx: memref<?xi32>, %n: index) {
  // CHECK: (%{{.+}})] symbols(%[[N]]) {{.+}} : memref<?x64xf16>, memref<?xi32> -> !ktdp.access_tile<?x64xindex>
  // GENERIC: operandSegmentSizes = array<i32: 1, 1, 0, 1>
  %0 = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c) %X[ind(%Idx[%r]), (%c)] symbols(%n) {
    variables_space_set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    variables_space_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<?x64xf16>, memref<?xi32> -> !ktdp.access_tile<?x64xindex>
  return
}

// Only direct subscripts, over a tensor base: no index-view types.
// CHECK-LABEL: func.func @direct_only
func.func @direct_only(%T: tensor<64x64xf16>) {
  // CHECK: ktdp.construct_indirect_access_tile intermediate_variables(%[[A:.+]], %[[B:.+]]) %{{.+}}[(%[[B]]), (%[[A]] * 2)] {{.+}} : tensor<64x64xf16> -> !ktdp.access_tile<8x16xindex>
  %0 = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %T[(%j), (%i * 2)] {
    variables_space_set = #vset,
    variables_space_order = affine_map<(d0, d1) -> (d0, d1)>
  } : tensor<64x64xf16> -> !ktdp.access_tile<8x16xindex>
  return
}

// RUN: ktflow-opt %s -split-input-file -verify-diagnostics

// Parser and verifier messages of ktdp.construct_indirect_access_tile. The
// verifier's checks of the canonical subscript maps are reached through
// the generic form.

func.func @missing_keyword(%X: memref<64xf16>) {
  // expected-error @+2 {{expected 'intermediate_variables'}}
  // expected-error @+1 {{error parsing intermediate_variables}}
  %0 = ktdp.construct_indirect_access_tile variables(%i) %X[(%i)] {variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>, variables_space_order = affine_map<(d0) -> (d0)>} : memref<64xf16> -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @typed_variable(%X: memref<64xf16>) {
  // expected-error @+2 {{expected ')'}}
  // expected-error @+1 {{error parsing intermediate_variables}}
  %0 = ktdp.construct_indirect_access_tile intermediate_variables(%i : index) %X[(%i)] {variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>, variables_space_order = affine_map<(d0) -> (d0)>} : memref<64xf16> -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @duplicate_variable(%X: memref<64x64xf16>) {
  // expected-error @+1 {{intermediate variable '%i' is declared twice}}
  %0 = ktdp.construct_indirect_access_tile intermediate_variables(%i, %i) %X[(%i), (%i)] {variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>, variables_space_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<64x64xf16> -> !ktdp.access_tile<8x16xindex>
  return
}

// -----

// A bare SSA name is not a subscript; the RFC pseudo-syntax `%X[%IDX[%m]]`
// is rejected the same way.
func.func @bare_subscript(%X: memref<64xf16>) {
  // expected-error @+1 {{unexpected token in subscript list, expected 'ind', '(', or ']'}}
  %0 = ktdp.construct_indirect_access_tile intermediate_variables(%i) %X[%i] {variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>, variables_space_order = affine_map<(d0) -> (d0)>} : memref<64xf16> -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @symbol_in_direct_subscript(%X: memref<64xf16>, %s: index) {
  // expected-error @+1 {{error canonicalizing subscripts: symbol() is not allowed in a subscript}}
  %0 = ktdp.construct_indirect_access_tile intermediate_variables(%i) %X[(%i + symbol(%s))] {variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>, variables_space_order = affine_map<(d0) -> (d0)>} : memref<64xf16> -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @symbol_in_indirect_subscript(%X: memref<64xf16>, %Idx: memref<8xi32>, %s: index) {
  // expected-error @+1 {{error canonicalizing subscripts: symbol() is not allowed in a subscript}}
  %0 = ktdp.construct_indirect_access_tile intermediate_variables(%i) %X[ind(%Idx[symbol(%s)])] {variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>, variables_space_order = affine_map<(d0) -> (d0)>} : memref<64xf16>, memref<8xi32> -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @two_exprs_in_direct_subscript(%X: memref<64x64xf16>) {
  // expected-error @+1 {{expected ')'}}
  %0 = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %X[(%i, %j)] {variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>, variables_space_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<64x64xf16> -> !ktdp.access_tile<8x16xindex>
  return
}

// -----

func.func @missing_comma(%X: memref<64x64xf16>) {
  // expected-error @+1 {{expected ']'}}
  %0 = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %X[(%i) (%j)] {variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>, variables_space_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<64x64xf16> -> !ktdp.access_tile<8x16xindex>
  return
}

// -----

func.func @missing_set(%X: memref<64xf16>) {
  // expected-error @+1 {{variables_space_set is missing in the operation}}
  %0 = ktdp.construct_indirect_access_tile intermediate_variables(%i) %X[(%i)] {variables_space_order = affine_map<(d0) -> (d0)>} : memref<64xf16> -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @missing_order(%X: memref<64xf16>) {
  // expected-error @+1 {{variables_space_order is missing in the operation}}
  %0 = ktdp.construct_indirect_access_tile intermediate_variables(%i) %X[(%i)] {variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>} : memref<64xf16> -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @missing_symbols(%X: memref<64xf16>) {
  // expected-error @+1 {{variables_space_set has 1 symbols but got 0 symbol operands}}
  %0 = ktdp.construct_indirect_access_tile intermediate_variables(%i) %X[(%i)] {variables_space_set = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 >= 0)>, variables_space_order = affine_map<(d0) -> (d0)>} : memref<64xf16> -> !ktdp.access_tile<?xindex>
  return
}

// -----

func.func @missing_index_view_type(%X: memref<64xf16>, %Idx: memref<8xi32>) {
  // expected-error @+1 {{expected 2 types (base + 1 indirect memrefs), but got 1}}
  %0 = ktdp.construct_indirect_access_tile intermediate_variables(%i) %X[ind(%Idx[%i])] {variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>, variables_space_order = affine_map<(d0) -> (d0)>} : memref<64xf16> -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @undefined_captured(%X: memref<64xf16>) {
  // expected-error @+1 {{use of undeclared SSA value name}}
  %0 = ktdp.construct_indirect_access_tile intermediate_variables(%i) %X[(%i + %nope)] {variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>, variables_space_order = affine_map<(d0) -> (d0)>} : memref<64xf16> -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @index_view_type_mismatch(%X: memref<64xf16>, %Idx: memref<8xi32>) {
  // expected-error @+3 {{use of value '%Idx' expects different type than prior uses: 'memref<8xi64>' vs 'memref<8xi32>'}}
  // expected-note @-2 {{prior use here}}
  // expected-error @+1 {{error resolving operands}}
  %0 = ktdp.construct_indirect_access_tile intermediate_variables(%i) %X[ind(%Idx[%i])] {variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>, variables_space_order = affine_map<(d0) -> (d0)>} : memref<64xf16>, memref<8xi64> -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @too_few_variables(%X: memref<64x64xf16>) {
  // expected-error @+1 {{'ktdp.construct_indirect_access_tile' op number of intermediate variables (1) must match variables_space_set dimensions (2)}}
  %0 = ktdp.construct_indirect_access_tile intermediate_variables(%i) %X[(%i), (%i)] {variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>, variables_space_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<64x64xf16> -> !ktdp.access_tile<8x16xindex>
  return
}

// -----

func.func @subscripts_vs_base_rank(%X: memref<64x64xf16>) {
  // expected-error @+1 {{'ktdp.construct_indirect_access_tile' op number of subscripts (1) must match base rank (2)}}
  %0 = ktdp.construct_indirect_access_tile intermediate_variables(%i) %X[(%i)] {variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>, variables_space_order = affine_map<(d0) -> (d0)>} : memref<64x64xf16> -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @index_view_rank(%X: memref<64xf16>, %Idx: memref<8xi32>) {
  // expected-error @+1 {{'ktdp.construct_indirect_access_tile' op indirect subscript map for dimension 0 produces 2 results, but indirect memref has rank 1}}
  %0 = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %X[ind(%Idx[%i, %j])] {variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>, variables_space_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<64xf16>, memref<8xi32> -> !ktdp.access_tile<8x16xindex>
  return
}

// -----

func.func @result_rank(%X: memref<64xf16>) {
  // expected-error @+1 {{'ktdp.construct_indirect_access_tile' op result type rank (2) must match variables_space_set dimensions (1)}}
  %0 = ktdp.construct_indirect_access_tile intermediate_variables(%i) %X[(%i)] {variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>, variables_space_order = affine_map<(d0) -> (d0)>} : memref<64xf16> -> !ktdp.access_tile<8x1xindex>
  return
}

// -----

func.func @unranked_tensor_base(%X: tensor<*xf16>) {
  // expected-error @+1 {{'ktdp.construct_indirect_access_tile' op base must be a ranked memref or tensor type}}
  %0 = ktdp.construct_indirect_access_tile intermediate_variables(%i) %X[(%i)] {variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>, variables_space_order = affine_map<(d0) -> (d0)>} : tensor<*xf16> -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @generic_set_vs_order(%X: memref<64xf16>) {
  // expected-error @+1 {{'ktdp.construct_indirect_access_tile' op variables_space_set dimensions (1) must match variables_space_order inputs (2)}}
  %0 = "ktdp.construct_indirect_access_tile"(%X) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>,
      per_dim_subscript_kinds = [false], per_dim_subscript_maps = [affine_map<(d0) -> (d0)>],
      variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>, variables_space_order = affine_map<(d0, d1) -> (d0, d1)>}> ({
  ^bb0(%i: index):
    "ktdp.region_terminator"() : () -> ()
  }) : (memref<64xf16>) -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @generic_order_not_square(%X: memref<64xf16>) {
  // expected-error @+1 {{'ktdp.construct_indirect_access_tile' op variables_space_order must have equal number of inputs (1) and outputs (2)}}
  %0 = "ktdp.construct_indirect_access_tile"(%X) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>,
      per_dim_subscript_kinds = [false], per_dim_subscript_maps = [affine_map<(d0) -> (d0)>],
      variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>, variables_space_order = affine_map<(d0) -> (d0, d0)>}> ({
  ^bb0(%i: index):
    "ktdp.region_terminator"() : () -> ()
  }) : (memref<64xf16>) -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @generic_symbols(%X: memref<64xf16>, %s: index) {
  // expected-error @+1 {{'ktdp.construct_indirect_access_tile' op variables_space_set has 0 symbols but got 1 symbol operands}}
  %0 = "ktdp.construct_indirect_access_tile"(%X, %s) <{operandSegmentSizes = array<i32: 1, 0, 0, 1>,
      per_dim_subscript_kinds = [false], per_dim_subscript_maps = [affine_map<(d0) -> (d0)>],
      variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>, variables_space_order = affine_map<(d0) -> (d0)>}> ({
  ^bb0(%i: index):
    "ktdp.region_terminator"() : () -> ()
  }) : (memref<64xf16>, index) -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @generic_kinds_vs_maps(%X: memref<64xf16>) {
  // expected-error @+1 {{'ktdp.construct_indirect_access_tile' op per_dim_subscript_kinds size (2) must match per_dim_subscript_maps size (1)}}
  %0 = "ktdp.construct_indirect_access_tile"(%X) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>,
      per_dim_subscript_kinds = [false, false], per_dim_subscript_maps = [affine_map<(d0) -> (d0)>],
      variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>, variables_space_order = affine_map<(d0) -> (d0)>}> ({
  ^bb0(%i: index):
    "ktdp.region_terminator"() : () -> ()
  }) : (memref<64xf16>) -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @generic_kinds_not_bool(%X: memref<64xf16>) {
  // expected-error @+1 {{'ktdp.construct_indirect_access_tile' op attribute 'per_dim_subscript_kinds' failed to satisfy constraint: per-dimension indirect flags}}
  %0 = "ktdp.construct_indirect_access_tile"(%X) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>,
      per_dim_subscript_kinds = [1 : i64], per_dim_subscript_maps = [affine_map<(d0) -> (d0)>],
      variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>, variables_space_order = affine_map<(d0) -> (d0)>}> ({
  ^bb0(%i: index):
    "ktdp.region_terminator"() : () -> ()
  }) : (memref<64xf16>) -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @generic_indirect_count(%X: memref<64xf16>, %Idx: memref<8xi32>) {
  // expected-error @+1 {{'ktdp.construct_indirect_access_tile' op number of indirect dimensions (0) must match number of indirect memrefs (1)}}
  %0 = "ktdp.construct_indirect_access_tile"(%X, %Idx) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>,
      per_dim_subscript_kinds = [false], per_dim_subscript_maps = [affine_map<(d0) -> (d0)>],
      variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>, variables_space_order = affine_map<(d0) -> (d0)>}> ({
  ^bb0(%i: index):
    "ktdp.region_terminator"() : () -> ()
  }) : (memref<64xf16>, memref<8xi32>) -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @generic_indirect_without_view(%X: memref<64xf16>) {
  // expected-error @+1 {{'ktdp.construct_indirect_access_tile' op number of indirect dimensions (1) must match number of indirect memrefs (0)}}
  %0 = "ktdp.construct_indirect_access_tile"(%X) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>,
      per_dim_subscript_kinds = [true], per_dim_subscript_maps = [affine_map<(d0) -> (d0)>],
      variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>, variables_space_order = affine_map<(d0) -> (d0)>}> ({
  ^bb0(%i: index):
    "ktdp.region_terminator"() : () -> ()
  }) : (memref<64xf16>) -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @generic_map_domain(%X: memref<64xf16>) {
  // expected-error @+1 {{'ktdp.construct_indirect_access_tile' op subscript map for dimension 0 has 2 dimensions, but expected 1 (captured_variables + intermediate_variables)}}
  %0 = "ktdp.construct_indirect_access_tile"(%X) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>,
      per_dim_subscript_kinds = [false], per_dim_subscript_maps = [affine_map<(d0, d1) -> (d0)>],
      variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>, variables_space_order = affine_map<(d0) -> (d0)>}> ({
  ^bb0(%i: index):
    "ktdp.region_terminator"() : () -> ()
  }) : (memref<64xf16>) -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @generic_direct_results(%X: memref<64xf16>) {
  // expected-error @+1 {{'ktdp.construct_indirect_access_tile' op direct subscript map for dimension 0 must produce exactly 1 result, but produces 2}}
  %0 = "ktdp.construct_indirect_access_tile"(%X) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>,
      per_dim_subscript_kinds = [false], per_dim_subscript_maps = [affine_map<(d0) -> (d0, d0)>],
      variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>, variables_space_order = affine_map<(d0) -> (d0)>}> ({
  ^bb0(%i: index):
    "ktdp.region_terminator"() : () -> ()
  }) : (memref<64xf16>) -> !ktdp.access_tile<8xindex>
  return
}

// -----

// The custom syntax prints neither the variables' types nor the body, so
// the verifier rejects what printing would lose.
func.func @generic_variable_type(%X: memref<64xf16>) {
  // expected-error @+1 {{'ktdp.construct_indirect_access_tile' op intermediate variable #0 must have type 'index', but has 'f32'}}
  %0 = "ktdp.construct_indirect_access_tile"(%X) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>,
      per_dim_subscript_kinds = [false], per_dim_subscript_maps = [affine_map<(d0) -> (d0)>],
      variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>, variables_space_order = affine_map<(d0) -> (d0)>}> ({
  ^bb0(%i: f32):
    "ktdp.region_terminator"() : () -> ()
  }) : (memref<64xf16>) -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @generic_body_ops(%X: memref<64xf16>) {
  // expected-error @+1 {{'ktdp.construct_indirect_access_tile' op body must contain only the implicit ktdp.region_terminator}}
  %0 = "ktdp.construct_indirect_access_tile"(%X) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>,
      per_dim_subscript_kinds = [false], per_dim_subscript_maps = [affine_map<(d0) -> (d0)>],
      variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>, variables_space_order = affine_map<(d0) -> (d0)>}> ({
  ^bb0(%i: index):
    %c0 = arith.constant 0 : index
    "ktdp.region_terminator"() : () -> ()
  }) : (memref<64xf16>) -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @generic_no_block(%X: memref<64xf16>) {
  // expected-error @+1 {{'ktdp.construct_indirect_access_tile' op region #0 ('body') failed to verify constraint: region with 1 blocks}}
  %0 = "ktdp.construct_indirect_access_tile"(%X) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>,
      per_dim_subscript_kinds = [false], per_dim_subscript_maps = [affine_map<(d0) -> (d0)>],
      variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>, variables_space_order = affine_map<(d0) -> (d0)>}> ({
  }) : (memref<64xf16>) -> !ktdp.access_tile<8xindex>
  return
}

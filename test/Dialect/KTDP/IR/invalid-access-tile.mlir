// RUN: ktflow-opt %s -split-input-file -verify-diagnostics

// Parser and verifier messages of ktdp.construct_access_tile. The parser
// checks the attributes against the brackets before the verifier runs, so
// the verifier's own messages are reached through the generic form.

func.func @missing_set(%m: memref<64x64xf16>) {
  // expected-error @+1 {{Access tile set is missing in the operation}}
  %0 = ktdp.construct_access_tile %m[0, 0] {
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<64x64xf16> -> !ktdp.access_tile<4x4xindex>
  return
}

// -----

func.func @missing_order(%m: memref<64x64xf16>) {
  // expected-error @+1 {{Access tile order is missing in the operation}}
  %0 = ktdp.construct_access_tile %m[0, 0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0)>
  } : memref<64x64xf16> -> !ktdp.access_tile<4x4xindex>
  return
}

// -----

func.func @set_vs_brackets(%m: memref<64x64xf16>, %i: index) {
  // expected-error @+1 {{Access tile set and Base input dimensions should match}}
  %0 = ktdp.construct_access_tile %m[%i] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<64x64xf16> -> !ktdp.access_tile<4x4xindex>
  return
}

// -----

func.func @missing_symbols(%m: memref<64x64xf16>) {
  // expected-error @+1 {{access_tile_set has 1 symbols but got 0 symbol operands}}
  %0 = ktdp.construct_access_tile %m[0, 0] {
    access_tile_set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 >= 0, d1 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<64x64xf16> -> !ktdp.access_tile<?x4xindex>
  return
}

// -----

func.func @extra_symbols(%m: memref<64x64xf16>, %s: index) {
  // expected-error @+1 {{access_tile_set has 0 symbols but got 2 symbol operands}}
  %0 = ktdp.construct_access_tile %m[0, 0] symbols(%s, %s) {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<64x64xf16> -> !ktdp.access_tile<4x4xindex>
  return
}

// -----

func.func @order_not_square(%m: memref<64x64xf16>) {
  // expected-error @+1 {{Number of input dimensions and output dimensions in the access tile order should match}}
  %0 = ktdp.construct_access_tile %m[0, 0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0)>
  } : memref<64x64xf16> -> !ktdp.access_tile<4x4xindex>
  return
}

// -----

func.func @order_vs_set(%m: memref<64x64xf16>) {
  // expected-error @+1 {{Number of dimensions in the access tile order and access tile set must match!}}
  %0 = ktdp.construct_access_tile %m[0, 0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0)>,
    access_tile_order = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
  } : memref<64x64xf16> -> !ktdp.access_tile<4x4xindex>
  return
}

// -----

func.func @result_rank(%m: memref<64x64xf16>) {
  // expected-error @+1 {{'ktdp.construct_access_tile' op result type rank (1) must match access_tile_set dimensions (2)}}
  %0 = ktdp.construct_access_tile %m[0, 0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<64x64xf16> -> !ktdp.access_tile<16xindex>
  return
}

// -----

// The custom syntax needs the full result type.
func.func @stripped_result_type(%m: memref<64x64xf16>) {
  // expected-error @+4 {{expected non-function type}}
  %0 = ktdp.construct_access_tile %m[0, 0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<64x64xf16> -> <4x4xindex>
  return
}

// -----

func.func @result_not_a_tile(%m: memref<64x64xf16>) {
  // expected-error @+1 {{'ktdp.construct_access_tile' op result #0 must be}}
  %0 = ktdp.construct_access_tile %m[0, 0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<64x64xf16> -> tensor<4x4xindex>
  return
}

// -----

func.func @undefined_anchor(%m: memref<64x64xf16>) {
  // expected-error @+1 {{use of undeclared SSA value name}}
  %0 = ktdp.construct_access_tile %m[%nope, 0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<64x64xf16> -> !ktdp.access_tile<4x4xindex>
  return
}

// -----

func.func @non_affine_anchor(%m: memref<64x64xf16>, %i: index, %j: index) {
  // expected-error @+1 {{non-affine expression}}
  %0 = ktdp.construct_access_tile %m[%i * %j, 0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<64x64xf16> -> !ktdp.access_tile<4x4xindex>
  return
}

// -----

func.func @base_not_shaped(%i: index) {
  // expected-error @+1 {{'ktdp.construct_access_tile' op operand #0 must be memref of any type values or tensor of any type values, but got 'index'}}
  %0 = ktdp.construct_access_tile %i[0] {
    access_tile_set = affine_set<(d0) : (d0 >= 0)>,
    access_tile_order = affine_map<(d0) -> (d0)>
  } : index -> !ktdp.access_tile<4xindex>
  return
}

// -----

func.func @generic_set_vs_base_map(%m: memref<64x64xf16>, %i: index) {
  // expected-error @+1 {{'ktdp.construct_access_tile' op access_tile_set dimensions (2) must match base_map dims (1)}}
  %0 = "ktdp.construct_access_tile"(%m, %i) <{operandSegmentSizes = array<i32: 1, 1, 0>,
      base_map = affine_map<(d0) -> (d0)>,
      access_tile_set = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d0, d1)>}> : (memref<64x64xf16>, index) -> !ktdp.access_tile<4x4xindex>
  return
}

// -----

func.func @generic_base_map_operands(%m: memref<64x64xf16>, %i: index) {
  // expected-error @+1 {{'ktdp.construct_access_tile' op base_map expects 2 operands but got 1}}
  %0 = "ktdp.construct_access_tile"(%m, %i) <{operandSegmentSizes = array<i32: 1, 1, 0>,
      base_map = affine_map<(d0, d1) -> (d0, d1)>,
      access_tile_set = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d0, d1)>}> : (memref<64x64xf16>, index) -> !ktdp.access_tile<4x4xindex>
  return
}

// -----

func.func @generic_symbols(%m: memref<64x64xf16>, %i: index) {
  // expected-error @+1 {{'ktdp.construct_access_tile' op access_tile_set has 0 symbols but got 1 symbol operands}}
  %0 = "ktdp.construct_access_tile"(%m, %i) <{operandSegmentSizes = array<i32: 1, 0, 1>,
      base_map = affine_map<() -> (0, 0)>,
      access_tile_set = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d0, d1)>}> : (memref<64x64xf16>, index) -> !ktdp.access_tile<4x4xindex>
  return
}

// -----

func.func @generic_order_not_square(%m: memref<64x64xf16>) {
  // expected-error @+1 {{'ktdp.construct_access_tile' op access_tile_order must have equal number of inputs (2) and outputs (1)}}
  %0 = "ktdp.construct_access_tile"(%m) <{operandSegmentSizes = array<i32: 1, 0, 0>,
      base_map = affine_map<() -> (0, 0)>,
      access_tile_set = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d1)>}> : (memref<64x64xf16>) -> !ktdp.access_tile<4x4xindex>
  return
}

// -----

func.func @generic_order_vs_set(%m: memref<64x64xf16>) {
  // expected-error @+1 {{'ktdp.construct_access_tile' op access_tile_order dimensions (1) must match access_tile_set dimensions (2)}}
  %0 = "ktdp.construct_access_tile"(%m) <{operandSegmentSizes = array<i32: 1, 0, 0>,
      base_map = affine_map<() -> (0, 0)>,
      access_tile_set = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0)>,
      access_tile_order = affine_map<(d0) -> (d0)>}> : (memref<64x64xf16>) -> !ktdp.access_tile<4x4xindex>
  return
}

// -----

func.func @generic_missing_base_map(%m: memref<64x64xf16>) {
  // expected-error @+1 {{'ktdp.construct_access_tile' op requires attribute 'base_map'}}
  %0 = "ktdp.construct_access_tile"(%m) <{operandSegmentSizes = array<i32: 1, 0, 0>,
      access_tile_set = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d0, d1)>}> : (memref<64x64xf16>) -> !ktdp.access_tile<4x4xindex>
  return
}

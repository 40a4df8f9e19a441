// RUN: ktflow-opt %s -split-input-file -verify-diagnostics

// Verifier messages of get_compute_tile_id, the memory views, load/store
// and runtime_arg_extract. Access tiles, inter-tile ops and types have
// their own invalid-*.mlir files.

func.func @no_tile_id() {
  // expected-error @+1 {{'ktdp.get_compute_tile_id' op must return at least one index (num tile-grid dims >= 1)}}
  "ktdp.get_compute_tile_id"() : () -> ()
  return
}

// -----

func.func @tile_id_not_index() {
  // expected-error @+1 {{'ktdp.get_compute_tile_id' op result #0 must be variadic of index, but got 'i32'}}
  %0 = ktdp.get_compute_tile_id : i32
  return
}

// -----

func.func @view_sizes_strides_length(%a: index) {
  // expected-error @+1 {{'ktdp.construct_memory_view' op static_sizes and static_strides must have equal length}}
  %0 = ktdp.construct_memory_view %a, sizes: [4, 4], strides: [1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0)>,
    memory_space = #ktdp.memory_space<global>} : memref<4x4xf32>
  return
}

// -----

func.func @view_dynamic_sizes(%a: index) {
  // expected-error @+1 {{'ktdp.construct_memory_view' op number of dynamic size operands does not match kDynamic entries in static_sizes}}
  %0 = "ktdp.construct_memory_view"(%a) <{operandSegmentSizes = array<i32: 1, 0, 0>,
      static_sizes = array<i64: -9223372036854775808, 4>, static_strides = array<i64: 4, 1>,
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0)>,
      memory_space = #ktdp.memory_space<global>}> : (index) -> memref<?x4xf32>
  return
}

// -----

func.func @view_dynamic_strides(%a: index) {
  // expected-error @+1 {{'ktdp.construct_memory_view' op number of dynamic stride operands does not match kDynamic entries in static_strides}}
  %0 = "ktdp.construct_memory_view"(%a, %a) <{operandSegmentSizes = array<i32: 1, 0, 1>,
      static_sizes = array<i64: 4, 4>, static_strides = array<i64: 4, 1>,
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0)>,
      memory_space = #ktdp.memory_space<global>}> : (index, index) -> memref<4x4xf32>
  return
}

// -----

func.func @view_rank(%a: index) {
  // expected-error @+1 {{'ktdp.construct_memory_view' op result memref rank does not match sizes/strides length}}
  %0 = ktdp.construct_memory_view %a, sizes: [96, 64], strides: [64, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0)>,
    memory_space = #ktdp.spyre_memory_space<HBM>} : memref<96x64x2xf16>
  return
}

// -----

func.func @view_negative_size(%a: index) {
  // expected-error @+1 {{'ktdp.construct_memory_view' op size #1 must be non-negative, but got -4}}
  %0 = ktdp.construct_memory_view %a, sizes: [4, -4], strides: [4, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0)>,
    memory_space = #ktdp.memory_space<global>} : memref<4x4xf32>
  return
}

// -----

func.func @view_size_disagrees_with_type(%a: index) {
  // expected-error @+1 {{'ktdp.construct_memory_view' op size #1 is 8 but the result type 'memref<2x4x4xf16>' has 4 in that dimension}}
  %0 = ktdp.construct_memory_view %a, sizes: [2, 8, 16], strides: [128, 16, 1] {
    memory_space = #ktdp.memory_space<global>} : memref<2x4x4xf16>
  return
}

// -----

// A dynamic dimension of the type takes any static size.
func.func @view_static_size_dynamic_type(%a: index) {
  %0 = ktdp.construct_memory_view %a, sizes: [2, 8], strides: [8, 1] {
    memory_space = #ktdp.memory_space<global>} : memref<2x?xf16>
  // expected-error @+1 {{'ktdp.construct_memory_view' op size #0 must be non-negative, but got -1}}
  %1 = ktdp.construct_memory_view %a, sizes: [-1, 8], strides: [8, 1] {
    memory_space = #ktdp.memory_space<global>} : memref<?x8xf16>
  return
}

// -----

func.func @view_not_memref(%a: index) {
  // expected-error @+3 {{invalid kind of type specified: expected builtin.memref, but found 'tensor<4xf32>'}}
  %0 = ktdp.construct_memory_view %a, sizes: [4], strides: [1] {
    coordinate_set = affine_set<(d0) : (d0 >= 0)>,
    memory_space = #ktdp.memory_space<global>} : tensor<4xf32>
  return
}

// -----

// The custom syntax defaults a missing coordinate_set to the box of the
// sizes (see view-default-coordinate-set.mlir); the generic form does not.
func.func @view_missing_coordinate_set(%a: index) {
  // expected-error @+1 {{'ktdp.construct_memory_view' op requires attribute 'coordinate_set'}}
  %0 = "ktdp.construct_memory_view"(%a) <{memory_space = #ktdp.memory_space<global>, operandSegmentSizes = array<i32: 1, 0, 0>, static_sizes = array<i64: 4>, static_strides = array<i64: 1>}> : (index) -> memref<4xf32>
  return
}

// -----

func.func @distributed_element_type(%a: memref<32x64xf16>, %b: memref<32x64xf32>) {
  // expected-error @+1 {{'ktdp.construct_distributed_memory_view' op all input memrefs must have the same element type as the result}}
  %0 = ktdp.construct_distributed_memory_view(%a, %b : memref<32x64xf16>, memref<32x64xf32>) : memref<64x64xf16>
  return
}

// -----

func.func @distributed_rank(%a: memref<32x64xf16>, %b: memref<2048xf16>) {
  // expected-error @+1 {{'ktdp.construct_distributed_memory_view' op all input memrefs must have the same rank as the result}}
  %0 = ktdp.construct_distributed_memory_view(%a, %b : memref<32x64xf16>, memref<2048xf16>) : memref<64x64xf16>
  return
}

// -----

func.func @distributed_tensor_input(%a: tensor<32x64xf16>) {
  // expected-error @+1 {{'ktdp.construct_distributed_memory_view' op operand #0 must be variadic of memref of any type values, but got 'tensor<32x64xf16>'}}
  %0 = ktdp.construct_distributed_memory_view(%a : tensor<32x64xf16>) : memref<64x64xf16>
  return
}

// -----

func.func @load_shape(%t: !ktdp.access_tile<32x64xindex>) {
  // expected-error @+1 {{'ktdp.load' op access tile shape must match result tensor shape}}
  %0 = ktdp.load %t : !ktdp.access_tile<32x64xindex> -> tensor<64x32xf16>
  return
}

// -----

func.func @load_rank(%t: !ktdp.access_tile<2048xindex>) {
  // expected-error @+1 {{'ktdp.load' op access tile shape must match result tensor shape}}
  %0 = ktdp.load %t : <2048xindex> -> tensor<32x64xf16>
  return
}

// -----

func.func @load_unranked(%t: !ktdp.access_tile<32x64xindex>) {
  // expected-error @+1 {{'ktdp.load' op result must be a ranked tensor}}
  %0 = ktdp.load %t : !ktdp.access_tile<32x64xindex> -> tensor<*xf16>
  return
}

// -----

// The operand type is parsed as an access tile in either spelling.
func.func @load_not_a_tile(%m: memref<4xf16>) {
  // expected-error @+1 {{expected '<'}}
  %0 = ktdp.load %m : memref<4xf16> -> tensor<4xf16>
  return
}

// -----

func.func @store_shape(%v: tensor<32x64xf16>, %t: !ktdp.access_tile<32x32xindex>) {
  // expected-error @+1 {{'ktdp.store' op data tile shape must match access tile shape}}
  ktdp.store %v, %t : tensor<32x64xf16>, !ktdp.access_tile<32x32xindex>
  return
}

// -----

func.func @store_unranked(%v: tensor<*xf16>, %t: !ktdp.access_tile<32x32xindex>) {
  // expected-error @+1 {{'ktdp.store' op data_tile must be a ranked tensor}}
  ktdp.store %v, %t : tensor<*xf16>, <32x32xindex>
  return
}

// -----

func.func @extract_value_type(%r: !ktdp.runtime_arg<index>) {
  // expected-error @+1 {{'ktdp.runtime_arg_extract' op result type ('i32') must match runtime_arg underlying type ('index') when extracting value}}
  %0 = ktdp.runtime_arg_extract value from %r : !ktdp.runtime_arg<index> -> i32
  return
}

// -----

func.func @extract_missing_granularity(%r: !ktdp.runtime_arg<index, upperbound=300>) {
  // expected-error @+1 {{'ktdp.runtime_arg_extract' op cannot extract granularity from runtime_arg that doesn't have one}}
  %0 = ktdp.runtime_arg_extract granularity from %r : !ktdp.runtime_arg<index, upperbound=300> -> index
  return
}

// -----

func.func @extract_missing_upperbound(%r: !ktdp.runtime_arg<index, granularity=3>) {
  // expected-error @+1 {{'ktdp.runtime_arg_extract' op cannot extract upperbound from runtime_arg that doesn't have one}}
  %0 = ktdp.runtime_arg_extract upperbound from %r : !ktdp.runtime_arg<index, granularity=3> -> index
  return
}

// -----

func.func @extract_granularity_type(%r: !ktdp.runtime_arg<i32, granularity=3>) {
  // expected-error @+1 {{'ktdp.runtime_arg_extract' op result type must be index when extracting granularity, but got 'i32'}}
  %0 = ktdp.runtime_arg_extract granularity from %r : !ktdp.runtime_arg<i32, granularity=3> -> i32
  return
}

// -----

func.func @extract_upperbound_type(%r: !ktdp.runtime_arg<i32, upperbound=3>) {
  // expected-error @+1 {{'ktdp.runtime_arg_extract' op result type must be index when extracting upperbound, but got 'i64'}}
  %0 = ktdp.runtime_arg_extract upperbound from %r : !ktdp.runtime_arg<i32, upperbound=3> -> i64
  return
}

// -----

func.func @extract_unknown_kind(%r: !ktdp.runtime_arg<index>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [value, granularity, upperbound]}}
  %0 = ktdp.runtime_arg_extract size from %r : !ktdp.runtime_arg<index> -> index
  return
}

// -----

func.func @region_terminator_outside() {
  // expected-error @+1 {{'ktdp.region_terminator' op expects parent op 'ktdp.construct_indirect_access_tile'}}
  ktdp.region_terminator
}

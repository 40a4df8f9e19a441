// RUN: ktflow-opt %s --ktir-check-legality -split-input-file -verify-diagnostics

// A load result or stored tensor must have the element type of the view the
// access tile reads or writes.

func.func @load(%a: index) {
  // expected-note @+1 {{view defined here}}
  %v = ktdp.construct_memory_view %a, sizes: [64], strides: [1] {
    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>,
    memory_space = #ktdp.spyre_memory_space<HBM>} : memref<64xf16>
  %t = ktdp.construct_access_tile %v[0] {
    access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>,
    access_tile_order = affine_map<(d0) -> (d0)>} : memref<64xf16> -> !ktdp.access_tile<64xindex>
  // expected-error @+1 {{'ktdp.load' op loads 'f32' elements through a view of 'f16' elements}}
  %x = ktdp.load %t : !ktdp.access_tile<64xindex> -> tensor<64xf32>
  return
}

// -----

// expected-note @+1 {{view defined here}}
func.func @store(%v: memref<64xi32>, %x: tensor<64xi64>) {
  %t = ktdp.construct_access_tile %v[0] {
    access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>,
    access_tile_order = affine_map<(d0) -> (d0)>} : memref<64xi32> -> !ktdp.access_tile<64xindex>
  // expected-error @+1 {{'ktdp.store' op stores 'i64' elements through a view of 'i32' elements}}
  ktdp.store %x, %t : tensor<64xi64>, !ktdp.access_tile<64xindex>
  return
}

// -----

// The element type of the index view does not matter; that of the base does.
// expected-note @+1 {{view defined here}}
func.func @indirect(%X: memref<64xf16>, %Idx: memref<8xi32>) {
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%i) %X[ind(%Idx[%i])] {
    variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>,
    variables_space_order = affine_map<(d0) -> (d0)>} : memref<64xf16>, memref<8xi32> -> !ktdp.access_tile<8xindex>
  // expected-error @+1 {{'ktdp.load' op loads 'i32' elements through a view of 'f16' elements}}
  %x = ktdp.load %t : !ktdp.access_tile<8xindex> -> tensor<8xi32>
  return
}

// -----

func.func @distributed(%a: memref<32xf16>, %b: memref<32xf16>, %x: tensor<64xbf16>) {
  // expected-note @+1 {{view defined here}}
  %d = ktdp.construct_distributed_memory_view(%a, %b : memref<32xf16>, memref<32xf16>) : memref<64xf16>
  %t = ktdp.construct_access_tile %d[0] {
    access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>,
    access_tile_order = affine_map<(d0) -> (d0)>} : memref<64xf16> -> !ktdp.access_tile<64xindex>
  // expected-error @+1 {{'ktdp.store' op stores 'bf16' elements through a view of 'f16' elements}}
  ktdp.store %x, %t : tensor<64xbf16>, !ktdp.access_tile<64xindex>
  return
}

// RUN: ktflow-opt %s --ktir-check-legality -split-input-file -verify-diagnostics

// An access tile over a box-shaped set must have the box's extents in the
// order given by its order map.

func.func @identity(%m: memref<64x64xf16>) {
  // expected-error @+1 {{'ktdp.construct_access_tile' op access tile dimension 0 has extent 32 but access_tile_set dimension d0 spans 16 points}}
  %0 = ktdp.construct_access_tile %m[0, 0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<64x64xf16> -> !ktdp.access_tile<32x16xindex>
  return
}

// -----

// The reference construct-access-tile test types a transposed 16x32 set as
// 16x32; the tile is 32x16.
func.func @transposed(%m: memref<64x64xf16>) {
  // expected-error @+1 {{'ktdp.construct_access_tile' op access tile dimension 0 has extent 16 but access_tile_set dimension d1 spans 32 points}}
  %0 = ktdp.construct_access_tile %m[0, 0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d1, d0)>} : memref<64x64xf16> -> !ktdp.access_tile<16x32xindex>
  return
}

// -----

func.func @static_dim_next_to_symbolic(%m: memref<?x64xf16>, %n: index) {
  // expected-error @+1 {{'ktdp.construct_access_tile' op access tile dimension 1 has extent 32 but access_tile_set dimension d1 spans 64 points}}
  %0 = ktdp.construct_access_tile %m[0, 0] symbols(%n) {
    access_tile_set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<?x64xf16> -> !ktdp.access_tile<?x32xindex>
  return
}

// -----

func.func @empty_set(%m: memref<64xf16>) {
  // expected-error @+1 {{'ktdp.construct_access_tile' op access tile dimension 0 has extent 4 but access_tile_set dimension d0 spans 0 points}}
  %0 = ktdp.construct_access_tile %m[0] {
    access_tile_set = affine_set<(d0) : (d0 - 4 >= 0, -d0 + 2 >= 0)>,
    access_tile_order = affine_map<(d0) -> (d0)>} : memref<64xf16> -> !ktdp.access_tile<4xindex>
  return
}

// -----

func.func @indirect(%X: memref<64x64xf16>, %Idx: memref<8xi32>) {
  // expected-error @+1 {{'ktdp.construct_indirect_access_tile' op access tile dimension 0 has extent 8 but variables_space_set dimension d1 spans 16 points}}
  %0 = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %X[ind(%Idx[%i]), (%j)] {
    variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>,
    variables_space_order = affine_map<(d0, d1) -> (d1, d0)>} : memref<64x64xf16>, memref<8xi32> -> !ktdp.access_tile<8x16xindex>
  return
}

// -----

// The op verifier only checks the order map's arity; the pass requires a
// permutation.
func.func @repeated_dim(%m: memref<64x64xf16>) {
  // expected-error @+1 {{'ktdp.construct_access_tile' op order map affine_map<(d0, d1) -> (d0, d0)> is not a permutation of the set dimensions}}
  %0 = ktdp.construct_access_tile %m[0, 0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d0)>} : memref<64x64xf16> -> !ktdp.access_tile<16x16xindex>
  return
}

// -----

func.func @expression_in_order(%m: memref<64x64xf16>) {
  // expected-error @+1 {{'ktdp.construct_access_tile' op order map affine_map<(d0, d1) -> (d0 + d1, d1)> must be a permutation of the set dimensions}}
  %0 = ktdp.construct_access_tile %m[0, 0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0 + d1, d1)>} : memref<64x64xf16> -> !ktdp.access_tile<16x32xindex>
  return
}

// -----

// Every bad tile of a module is reported.
func.func @several(%m: memref<64x64xf16>) {
  // expected-error @+1 {{access tile dimension 1 has extent 63}}
  %0 = ktdp.construct_access_tile %m[0, 0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<64x64xf16> -> !ktdp.access_tile<3x63xindex>
  // expected-error @+1 {{access tile dimension 0 has extent 4}}
  %1 = ktdp.construct_access_tile %m[0, 0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<64x64xf16> -> !ktdp.access_tile<4x64xindex>
  return
}

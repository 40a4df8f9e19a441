// RUN: ktflow-opt %s > %t.ref
// RUN: ktflow-opt %s --ktir-check-legality > %t.out
// RUN: diff %t.ref %t.out
// RUN: ktflow-opt %s --ktir-check-legality | FileCheck %s

// Access tiles whose extents agree with their box-shaped set, permuted by
// the order; dimensions bounded by symbols may be anything; non-box sets
// are not checked.

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#box = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>

// CHECK-LABEL: func.func @boxes
func.func @boxes(%m: memref<64x64xf16>, %i: index) {
  // CHECK: -> !ktdp.access_tile<16x32xindex>
  %0 = ktdp.construct_access_tile %m[%i, 0] {access_tile_set = #box, access_tile_order = #id}
       : memref<64x64xf16> -> !ktdp.access_tile<16x32xindex>
  // The transposed order turns the 16x32 box into a 32x16 tile.
  // CHECK: -> !ktdp.access_tile<32x16xindex>
  %1 = ktdp.construct_access_tile %m[%i, 0] {access_tile_set = #box, access_tile_order = #tr}
       : memref<64x64xf16> -> !ktdp.access_tile<32x16xindex>
  // Equalities and a box that does not start at zero.
  // CHECK: -> !ktdp.access_tile<1x8xindex>
  %2 = ktdp.construct_access_tile %m[0, 0] {
    access_tile_set = affine_set<(d0, d1) : (d0 - 3 == 0, d1 - 8 >= 0, -d1 + 15 >= 0)>,
    access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<1x8xindex>
  // A dynamic tile extent over a static set is accepted.
  // CHECK: -> !ktdp.access_tile<?x32xindex>
  %3 = ktdp.construct_access_tile %m[%i, 0] {access_tile_set = #box, access_tile_order = #id}
       : memref<64x64xf16> -> !ktdp.access_tile<?x32xindex>
  // Rank 3 with a rotation.
  %v = memref.alloc() : memref<4x8x16xf32>
  // CHECK: -> !ktdp.access_tile<16x4x8xindex>
  %4 = ktdp.construct_access_tile %v[0, 0, 0] {
    access_tile_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 15 >= 0)>,
    access_tile_order = affine_map<(d0, d1, d2) -> (d2, d0, d1)>} : memref<4x8x16xf32> -> !ktdp.access_tile<16x4x8xindex>
  return
}

// CHECK-LABEL: func.func @symbolic
func.func @symbolic(%m: memref<?x64xf16>, %n: index) {
  // The row extent depends on s0: any static tile extent is accepted there
  // (the reference basic-runtime-arg test types it 32), the column extent is
  // still checked.
  // CHECK: -> !ktdp.access_tile<32x64xindex>
  %0 = ktdp.construct_access_tile %m[0, 0] symbols(%n) {
    access_tile_set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    access_tile_order = #id} : memref<?x64xf16> -> !ktdp.access_tile<32x64xindex>
  // A symbol caps a dimension that also has a constant bound: still free.
  // CHECK: -> !ktdp.access_tile<?x64xindex>
  %1 = ktdp.construct_access_tile %m[0, 0] symbols(%n) {
    access_tile_set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 7 >= 0, -d0 + s0 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    access_tile_order = #id} : memref<?x64xf16> -> !ktdp.access_tile<?x64xindex>
  return
}

// CHECK-LABEL: func.func @not_boxes
func.func @not_boxes(%m: memref<64x64xf16>) {
  // A triangle (d1 <= d0) is not a box: how its points pack into the tile is
  // unspecified, so the extents are not checked.
  // CHECK: -> !ktdp.access_tile<7x3xindex>
  %0 = ktdp.construct_access_tile %m[0, 0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, d0 - d1 >= 0)>,
    access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<7x3xindex>
  // A skewed band.
  // CHECK: -> !ktdp.access_tile<4x4xindex>
  %1 = ktdp.construct_access_tile %m[0, 0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 - d0 >= 0, -d1 + d0 + 3 >= 0)>,
    access_tile_order = #tr} : memref<64x64xf16> -> !ktdp.access_tile<4x4xindex>
  return
}

// CHECK-LABEL: func.func @indirect
func.func @indirect(%X: memref<64x64xf16>, %Idx: memref<8xi32>) {
  // CHECK: -> !ktdp.access_tile<16x8xindex>
  %0 = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %X[ind(%Idx[%i]), (%j)] {
    variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>,
    variables_space_order = #tr} : memref<64x64xf16>, memref<8xi32> -> !ktdp.access_tile<16x8xindex>
  // CHECK: -> !ktdp.access_tile<index>
  %1 = ktdp.construct_indirect_access_tile intermediate_variables() %X[ind(%Idx[3]), (0)] {
    variables_space_set = affine_set<() : (0 == 0)>,
    variables_space_order = affine_map<() -> ()>} : memref<64x64xf16>, memref<8xi32> -> !ktdp.access_tile<index>
  return
}

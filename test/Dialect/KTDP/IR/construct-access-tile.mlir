// RUN: ktflow-opt %s | ktflow-opt | FileCheck %s
// RUN: ktflow-opt %s --verify-roundtrip | FileCheck %s

// The bracket of construct_access_tile holds affine expressions of SSA ids;
// the order map fixes the tile shape; `symbols(...)` binds the set's symbols.

// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[TR:.+]] = affine_map<(d0, d1) -> (d1, d0)>

// CHECK-LABEL: func.func @anchors
// CHECK-SAME: (%[[M:.+]]: memref<64x64xf16>, %[[I:.+]]: index, %[[J:.+]]: index)
func.func @anchors(%m: memref<64x64xf16>, %i: index, %j: index) {
  // CHECK: ktdp.construct_access_tile %[[M]][%[[I]] * 2, %[[J]] + 4] {access_tile_order = #[[ID]], access_tile_set = #{{.+}}} : memref<64x64xf16> -> !ktdp.access_tile<16x32xindex>
  %0 = ktdp.construct_access_tile %m[%i * 2, %j + 4] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<64x64xf16> -> !ktdp.access_tile<16x32xindex>
  // CHECK: ktdp.construct_access_tile %[[M]][%[[I]] floordiv 2, %[[J]] mod 8]
  %1 = ktdp.construct_access_tile %m[%i floordiv 2, %j mod 8] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<64x64xf16> -> !ktdp.access_tile<16x32xindex>
  // CHECK: ktdp.construct_access_tile %[[M]][%[[I]] ceildiv 4, %[[I]] + %[[J]] * 3]
  %2 = ktdp.construct_access_tile %m[%i ceildiv 4, %i + %j * 3] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<64x64xf16> -> !ktdp.access_tile<16x32xindex>
  // Inputs may give the attributes in either order.
  // CHECK: ktdp.construct_access_tile %[[M]][0, %[[J]]] {access_tile_order = #[[ID]]
  %3 = ktdp.construct_access_tile %m[0, %j] {
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)>,
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
  } : memref<64x64xf16> -> !ktdp.access_tile<16x32xindex>
  return
}

// Identity vs transposed order over the same 16x32 set. As in the
// reference test, the identity tile is typed 32x16 and the transposed one
// 16x32: the op verifier checks only the rank (the legality pass checks
// extents).
// CHECK-LABEL: func.func @orders
func.func @orders(%m: memref<64x64xf16>) {
  // CHECK: {access_tile_order = #[[ID]], access_tile_set = #{{.+}}} : memref<64x64xf16> -> !ktdp.access_tile<32x16xindex>
  %0 = ktdp.construct_access_tile %m[0, 0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<64x64xf16> -> !ktdp.access_tile<32x16xindex>
  // CHECK: {access_tile_order = #[[TR]], access_tile_set = #{{.+}}} : memref<64x64xf16> -> !ktdp.access_tile<16x32xindex>
  %1 = ktdp.construct_access_tile %m[0, 0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d1, d0)>
  } : memref<64x64xf16> -> !ktdp.access_tile<16x32xindex>
  return
}

// CHECK-LABEL: func.func @symbols
// CHECK-SAME: (%[[M:.+]]: memref<?x?xf16>, %[[S:.+]]: index, %[[R:.+]]: index, %[[C:.+]]: index)
func.func @symbols(%m: memref<?x?xf16>, %s: index, %r: index, %c: index) {
  // CHECK: ktdp.construct_access_tile %[[M]][0, 0] symbols(%[[S]]) {{.+}} -> !ktdp.access_tile<?x64xindex>
  %0 = ktdp.construct_access_tile %m[0, 0] symbols(%s) {
    access_tile_set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<?x?xf16> -> !ktdp.access_tile<?x64xindex>
  // CHECK: ktdp.construct_access_tile %[[M]][%[[S]], 0] symbols(%[[R]], %[[C]]) {{.+}} -> !ktdp.access_tile<?x?xindex>
  %1 = ktdp.construct_access_tile %m[%s, 0] symbols(%r, %c) {
    access_tile_set = affine_set<(d0, d1)[s0, s1] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + s1 - 1 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<?x?xf16> -> !ktdp.access_tile<?x?xindex>
  return
}

// The base may be a tensor, and a 1-D or 3-D view.
// CHECK-LABEL: func.func @bases
func.func @bases(%t: tensor<8x64xf32>, %v: memref<4x8x16xf32>, %i: index) {
  // CHECK: ktdp.construct_access_tile %{{.+}}[%{{.+}}, 0] {{.+}} : tensor<8x64xf32> -> !ktdp.access_tile<1x64xindex>
  %0 = ktdp.construct_access_tile %t[%i, 0] {
    access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
  } : tensor<8x64xf32> -> !ktdp.access_tile<1x64xindex>
  // CHECK: ktdp.construct_access_tile %{{.+}}[0, %{{.+}}, 0] {{.+}} : memref<4x8x16xf32> -> !ktdp.access_tile<4x2x16xindex>
  %1 = ktdp.construct_access_tile %v[0, %i, 0] {
    access_tile_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 1 >= 0, d2 >= 0, -d2 + 15 >= 0)>,
    access_tile_order = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
  } : memref<4x8x16xf32> -> !ktdp.access_tile<4x2x16xindex>
  return
}

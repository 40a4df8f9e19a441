// RUN: ktflow-opt %s | ktflow-opt | FileCheck %s
// RUN: ktflow-opt %s --ktir-check-legality | FileCheck %s

// The `grid` attribute in every published spelling. The legality pass
// accepts each one with as many tile ids as grid dimensions. (A `grid` on a
// nested builtin.module, as in the multi-module fusion design, is rejected
// by MLIR itself: module attributes need a dialect prefix.)

// CHECK-LABEL: func.func @grid_1d
// CHECK-SAME: attributes {grid = [32]}
func.func @grid_1d() attributes {grid = [32]} {
  // CHECK: ktdp.get_compute_tile_id : index
  %id = ktdp.get_compute_tile_id : index
  return
}

// CHECK-LABEL: func.func @grid_2d
// CHECK-SAME: attributes {grid = [32, 1]}
func.func @grid_2d() attributes {grid = [32, 1]} {
  // CHECK: %{{.+}}:2 = ktdp.get_compute_tile_id : index, index
  %id:2 = ktdp.get_compute_tile_id : index, index
  return
}

// CHECK-LABEL: func.func @grid_3d
// CHECK-SAME: attributes {grid = [2, 1, 1]}
func.func @grid_3d() attributes {grid = [2, 1, 1]} {
  // CHECK: %{{.+}}:3 = ktdp.get_compute_tile_id : index, index, index
  %id:3 = ktdp.get_compute_tile_id : index, index, index
  return
}

// CHECK-LABEL: func.func @grid_typed
// CHECK-SAME: attributes {grid = [1 : index]}
func.func @grid_typed() attributes {grid = [1 : index]} {
  %id = ktdp.get_compute_tile_id : index
  return
}

// CHECK-LABEL: func.func @grid_dense_array
// CHECK-SAME: attributes {grid = array<i64: 4, 2>}
func.func @grid_dense_array() attributes {grid = array<i64: 4, 2>} {
  %id:2 = ktdp.get_compute_tile_id : index, index
  return
}

// Without a grid, a kernel runs on one tile and any rank is accepted.
// CHECK-LABEL: func.func @no_grid
func.func @no_grid() {
  %id:2 = ktdp.get_compute_tile_id : index, index
  return
}

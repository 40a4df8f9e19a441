// RUN: ktflow-opt %s > %t.ref
// RUN: ktflow-opt %s --ktir-check-legality > %t.out
// RUN: diff %t.ref %t.out
// RUN: ktflow-opt %s --ktir-check-legality | FileCheck %s

// get_compute_tile_id returns one index per grid dimension, for every
// published grid spelling; a kernel without a grid may use any rank. The
// pass leaves the IR unchanged.

// CHECK-LABEL: func.func @one_d
func.func @one_d() attributes {grid = [32]} {
  // CHECK: ktdp.get_compute_tile_id : index
  %0 = ktdp.get_compute_tile_id : index
  return
}

// CHECK-LABEL: func.func @two_d
func.func @two_d() attributes {grid = [32, 1]} {
  // CHECK: ktdp.get_compute_tile_id : index, index
  %0:2 = ktdp.get_compute_tile_id : index, index
  // Several calls in one kernel all see the same grid.
  scf.execute_region {
    %1:2 = ktdp.get_compute_tile_id : index, index
    scf.yield
  }
  return
}

// CHECK-LABEL: func.func @three_d
func.func @three_d() attributes {grid = [2, 1, 1]} {
  %0:3 = ktdp.get_compute_tile_id : index, index, index
  return
}

// CHECK-LABEL: func.func @typed
func.func @typed() attributes {grid = [1 : index]} {
  %0 = ktdp.get_compute_tile_id : index
  return
}

// CHECK-LABEL: func.func @dense
func.func @dense() attributes {grid = dense<[4, 2]> : tensor<2xi64>} {
  %0:2 = ktdp.get_compute_tile_id : index, index
  return
}

// CHECK-LABEL: func.func @no_grid
func.func @no_grid() {
  %0:3 = ktdp.get_compute_tile_id : index, index, index
  return
}

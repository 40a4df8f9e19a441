// RUN: ktflow-opt %s > %t.ref
// RUN: ktflow-opt %s --ktir-check-legality > %t.out
// RUN: diff %t.ref %t.out
// RUN: ktflow-opt %s --ktir-check-legality | FileCheck %s

// get_compute_tile_id returns one index per grid dimension, or fewer (the
// leading coordinates, x first), for every published grid spelling; a
// kernel without a grid may use any rank. The pass leaves the IR unchanged.

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

// The real-world spellings: one id under [N, 1] and [N, 1, 1] grids (the
// linear tile id), one id under [2, 16] (x only) and two under [4, 2, 2].
// CHECK-LABEL: func.func @fewer_ids_n_by_1
func.func @fewer_ids_n_by_1(%p: index) attributes {grid = [32, 1]} {
  // CHECK: ktdp.get_compute_tile_id : index
  %t = ktdp.get_compute_tile_id : index      // one id, grid rank 2
  return
}

// CHECK-LABEL: func.func @fewer_ids_3d
func.func @fewer_ids_3d(%p: index) attributes { grid = [16, 1, 1] } {
  %t = ktdp.get_compute_tile_id : index
  return
}

// CHECK-LABEL: func.func @fewer_ids_wide
func.func @fewer_ids_wide() attributes {grid = [2, 16]} {
  %x = ktdp.get_compute_tile_id : index
  return
}

// CHECK-LABEL: func.func @two_of_three
func.func @two_of_three() attributes {grid = [4, 2, 2]} {
  // CHECK: ktdp.get_compute_tile_id : index, index
  %x, %y = ktdp.get_compute_tile_id : index, index
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

// RUN: ktflow-opt %s --ktir-check-legality -split-input-file -verify-diagnostics

// get_compute_tile_id returns at most one index per dimension of the grid
// (fewer give the leading coordinates, see accept-grid.mlir).

// expected-note @+1 {{grid declared here}}
func.func @too_many_ids() attributes {grid = [32]} {
  // expected-error @+1 {{'ktdp.get_compute_tile_id' op returns 2 tile id(s) but the kernel grid [32] has rank 1}}
  %0:2 = ktdp.get_compute_tile_id : index, index
  return
}

// -----

// expected-note @+1 {{grid declared here}}
func.func @too_many_for_3d() attributes {grid = [2, 1, 1]} {
  // expected-error @+1 {{'ktdp.get_compute_tile_id' op returns 4 tile id(s) but the kernel grid [2, 1, 1] has rank 3}}
  %0:4 = ktdp.get_compute_tile_id : index, index, index, index
  return
}

// -----

// Every offending op of the module is reported, not only the first.
// expected-note @+1 {{grid declared here}}
func.func @first(%c: i1) attributes {grid = [4, 4]} {
  scf.if %c {
    // expected-error @+1 {{returns 3 tile id(s)}}
    %1:3 = ktdp.get_compute_tile_id : index, index, index
  }
  return
}
// expected-note @+1 {{grid declared here}}
func.func @second() attributes {grid = [4]} {
  // expected-error @+1 {{returns 2 tile id(s)}}
  %0, %1 = ktdp.get_compute_tile_id : index, index
  return
}

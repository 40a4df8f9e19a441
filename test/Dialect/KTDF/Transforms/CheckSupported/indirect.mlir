// RUN: ktflow-opt %s --ktdf-check-supported -split-input-file -verify-diagnostics

// Indirect access tiles (gathers and scatters, IndirectTiles.h) the
// scheduler moves as index-gated DMAs: a row gather whose index subscript
// captures the tile's row origin, and whose run starts at a scalar
// argument's column (clamped at run time), is accepted; so are a 2-index
// gather and a page-table subscript with floordiv/mod.
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#i = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#v = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @row_gather(%tp: index, %ip: index, %start: index) attributes {grid = [2]} {
  %g = ktdp.get_compute_tile_id : index
  %c16 = arith.constant 16 : index
  %r0 = arith.muli %g, %c16 : index
  %T = ktdp.construct_memory_view %tp, sizes: [64, 128], strides: [128, 1] {coordinate_set = #t, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %I = ktdp.construct_memory_view %ip, sizes: [32], strides: [1] {coordinate_set = #i, memory_space = #ktdp.memory_space<global>} : memref<32xi64>
  %rows = ktdp.construct_indirect_access_tile intermediate_variables(%d0, %d1) %T[ind(%I[%r0 + %d0]), (%start + %d1)] {variables_space_set = #v, variables_space_order = #id2} : memref<64x128xf16>, memref<32xi64> -> !ktdp.access_tile<16x32xindex>
  return
}

// -----

#x = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#p = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#v = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @paged(%xp: index, %pp: index) attributes {grid = [2]} {
  %b = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %xp, sizes: [16, 16, 64], strides: [1024, 64, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<16x16x64xf16>
  %P = ktdp.construct_memory_view %pp, sizes: [2, 4], strides: [4, 1] {coordinate_set = #p, memory_space = #ktdp.memory_space<global>} : memref<2x4xi32>
  %t = ktdp.construct_indirect_access_tile intermediate_variables(%t, %d) %X[ind(%P[%b, (%t floordiv 16)]), (%t mod 16), (%d)] {variables_space_set = #v, variables_space_order = #id2} : memref<16x16x64xf16>, memref<2x4xi32> -> !ktdp.access_tile<64x64xindex>
  return
}

// -----

// A permuted variable order (a transposed gather) is accepted when its
// rows stay inside the view (strided DMAs into the permuted buffer), and
// refused when a row may leave it (a runtime column offset: the clamp does
// not split a strided DMA).
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#i = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#v = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#swap = affine_map<(d0, d1) -> (d1, d0)>
func.func @permuted(%tp: index, %ip: index, %col: index) attributes {grid = [1]} {
  %T = ktdp.construct_memory_view %tp, sizes: [64, 32], strides: [32, 1] {coordinate_set = #t, memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
  %I = ktdp.construct_memory_view %ip, sizes: [16], strides: [1] {coordinate_set = #i, memory_space = #ktdp.memory_space<global>} : memref<16xi32>
  %rows = ktdp.construct_indirect_access_tile intermediate_variables(%d0, %d1) %T[ind(%I[%d0]), (%d1)] {variables_space_set = #v, variables_space_order = #swap} : memref<64x32xf16>, memref<16xi32> -> !ktdp.access_tile<32x16xindex>
  // expected-error @+1 {{the scheduler cannot move this indirect access tile yet: an indirect access tile with a permuted variables_space_order whose rows may leave the view}}
  %shifted = ktdp.construct_indirect_access_tile intermediate_variables(%d0, %d1) %T[ind(%I[%d0]), (%col + %d1)] {variables_space_set = #v, variables_space_order = #swap} : memref<64x32xf16>, memref<16xi32> -> !ktdp.access_tile<32x16xindex>
  return
}

// -----

// An index subscript that may read past its index view: tile 1 reads
// indices 16 to 31 of a 24-index view.
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#i = affine_set<(d0) : (d0 >= 0, -d0 + 23 >= 0)>
#v = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @index_leaves(%tp: index, %ip: index) attributes {grid = [2]} {
  %g = ktdp.get_compute_tile_id : index
  %c16 = arith.constant 16 : index
  %r0 = arith.muli %g, %c16 : index
  %T = ktdp.construct_memory_view %tp, sizes: [64, 32], strides: [32, 1] {coordinate_set = #t, memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
  %I = ktdp.construct_memory_view %ip, sizes: [24], strides: [1] {coordinate_set = #i, memory_space = #ktdp.memory_space<global>} : memref<24xi32>
  // expected-error @+1 {{subscript 0 of the index view of dimension 0 may lie outside [0, 24) (it ranges over [0, 31])}}
  %rows = ktdp.construct_indirect_access_tile intermediate_variables(%d0, %d1) %T[ind(%I[%r0 + %d0]), (%d1)] {variables_space_set = #v, variables_space_order = #id2} : memref<64x32xf16>, memref<24xi32> -> !ktdp.access_tile<16x32xindex>
  return
}

// -----

// A direct coordinate other than a run's start whose range is unknown
// (only a run is clamped at run time).
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#i = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#v = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @direct_unknown(%tp: index, %ip: index, %row: index) attributes {grid = [1]} {
  %T = ktdp.construct_memory_view %tp, sizes: [64, 32], strides: [32, 1] {coordinate_set = #t, memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
  %I = ktdp.construct_memory_view %ip, sizes: [32], strides: [1] {coordinate_set = #i, memory_space = #ktdp.memory_space<global>} : memref<32xi32>
  // expected-error @+1 {{the direct subscript of dimension 0 has no known range (captured values must follow from tile ids, loop bounds and constants)}}
  %cols = ktdp.construct_indirect_access_tile intermediate_variables(%d0, %d1) %T[(%row + %d0), ind(%I[%d1])] {variables_space_set = #v, variables_space_order = #id2} : memref<64x32xf16>, memref<32xi32> -> !ktdp.access_tile<16x32xindex>
  return
}

// -----

// A gather from a scratchpad view.
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#i = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#v = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @local_base(%ip: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %T = ktdp.construct_memory_view %c0, sizes: [64, 32], strides: [32, 1] {coordinate_set = #t, memory_space = #ktdp.memory_space<ct_local>} : memref<64x32xf16>
  %I = ktdp.construct_memory_view %ip, sizes: [16], strides: [1] {coordinate_set = #i, memory_space = #ktdp.memory_space<global>} : memref<16xi32>
  // expected-error @+1 {{the scheduler cannot move this indirect access tile yet: the tile's base is in a scratchpad (ct_local)}}
  %rows = ktdp.construct_indirect_access_tile intermediate_variables(%d0, %d1) %T[ind(%I[%d0]), (%d1)] {variables_space_set = #v, variables_space_order = #id2} : memref<64x32xf16>, memref<16xi32> -> !ktdp.access_tile<16x32xindex>
  return
}

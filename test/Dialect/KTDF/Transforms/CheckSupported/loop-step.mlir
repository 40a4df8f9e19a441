// RUN: ktflow-opt %s --ktdf-check-supported -split-input-file -verify-diagnostics

// The last value of a loop's induction variable is its last step below the
// upper bound: a tile as tall (wide) as the step stays inside its view.

#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#four = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @fits(%s: index, %x: index) attributes {grid = [4]} {
  %id = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %first = arith.muli %id, %c16 : index
  %S = ktdp.construct_memory_view %s, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf32>
  %X = ktdp.construct_memory_view %x, sizes: [64, 128], strides: [128, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x128xf32>
  scf.for %i = %c0 to %c16 step %c4 {
    %ts = ktdp.construct_access_tile %S[%first + %i] {access_tile_set = #four, access_tile_order = #id1} : memref<64xf32> -> !ktdp.access_tile<4xindex>
    scf.for %j = %c0 to %c128 step %c64 {
      %tx = ktdp.construct_access_tile %X[%first + %i, %j] {access_tile_set = #half, access_tile_order = #id2} : memref<64x128xf32> -> !ktdp.access_tile<4x64xindex>
    }
  }
  return
}

// -----

// A loop whose last step starts at 13 (1, 5, 9, 13): a 4-element tile at
// 48 + 13 ends at 64, one past the view. In device memory the DMA would
// mask it; a scratchpad view must hold the whole tile.
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#four = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @past_last_step() attributes {grid = [4]} {
  %id = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %first = arith.muli %id, %c16 : index
  %S = ktdp.construct_memory_view %c0, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<ct_local>} : memref<64xf32>
  scf.for %i = %c1 to %c16 step %c4 {
    // expected-error @+1 {{the access tile may leave its scratchpad view along dimension 0}}
    %ts = ktdp.construct_access_tile %S[%first + %i] {access_tile_set = #four, access_tile_order = #id1} : memref<64xf32> -> !ktdp.access_tile<4xindex>
  }
  return
}

// -----

// A loop over a window of constant width at a varying start (RoPE's
// `%s0 = %begin to %begin + 16 step 8`): its last step starts 8 past the
// start, so an 8-element tile at 16 * id + %s0 ends at 63, inside. One more
// element of width (17) adds a step at 16 past the start: past the view.
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#eight = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @window_of_constant_width() attributes {grid = [4]} {
  %id = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c17 = arith.constant 17 : index
  %begin = arith.muli %id, %c16 : index
  %end = arith.addi %begin, %c16 : index
  %end17 = arith.addi %c17, %begin : index
  %S = ktdp.construct_memory_view %c0, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<ct_local>} : memref<64xf32>
  scf.for %i = %begin to %end step %c8 {
    %ts = ktdp.construct_access_tile %S[%i] {access_tile_set = #eight, access_tile_order = #id1} : memref<64xf32> -> !ktdp.access_tile<8xindex>
  }
  scf.for %i = %begin to %end17 step %c8 {
    // expected-error @+1 {{the access tile may leave its scratchpad view along dimension 0}}
    %ts = ktdp.construct_access_tile %S[%i] {access_tile_set = #eight, access_tile_order = #id1} : memref<64xf32> -> !ktdp.access_tile<8xindex>
  }
  return
}

// RUN: ktflow-opt %s --ktdf-check-supported -split-input-file -verify-diagnostics

// A view holds the coordinates of its coordinate_set within its sizes; the
// reference interpreter masks every other one (loads read 0, stores skip
// it). The scheduler masks the coordinates outside the view along every
// dimension of a tile in device memory (masked-coordinates.mlir checks that
// no stored element depends on them); a scratchpad tile must provably stay
// inside, or the kernel is refused here.

// The shipped add.mlir with the column bound of its set lowered to 62: the
// tiles' last column is masked.
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 62 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @set_tighter_than_columns(%x: index) attributes {grid = [32]} {
  %id = ktdp.get_compute_tile_id : index
  %c3 = arith.constant 3 : index
  %row = arith.muli %id, %c3 : index
  %X = ktdp.construct_memory_view %x, sizes: [96, 64], strides: [64, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
  %t = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #t, access_tile_order = #id} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
  return
}

// -----

// A 1-d view holding 62 of its 64 elements: the last tile's last two are
// masked.
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 61 >= 0)>
#four = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @set_tighter_than_1d_size(%s: index) attributes {grid = [16]} {
  %id = ktdp.get_compute_tile_id : index
  %c4 = arith.constant 4 : index
  %r0 = arith.muli %id, %c4 : index
  %S = ktdp.construct_memory_view %s, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %t = ktdp.construct_access_tile %S[%r0] {access_tile_set = #four, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<4xindex>
  return
}

// -----

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
// Tiles starting one row before their view: the DMA masks row -1 too.
func.func @starts_before_the_view(%x: index) attributes {grid = [16]} {
  %id = ktdp.get_compute_tile_id : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %r = arith.muli %id, %c4 : index
  %r0 = arith.subi %r, %c1 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %t = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #t, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<4x64xindex>
  return
}

// -----

#tri = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, d0 - d1 >= 0)>
func.func @non_box_view(%x: index) attributes {grid = [1]} {
  // expected-error @+1 {{memory views whose coordinate set is not a box}}
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #tri, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  return
}

// -----

#sym = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @set_symbols_without_sizes(%x: index) attributes {grid = [1]} {
  // expected-error @+1 {{the view's coordinate set has more symbols than the view has dynamic sizes}}
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #sym, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  return
}

// -----

// Rows 32 elements apart in a 64-column view overlap: the stores of two
// grid points write the same elements in no fixed order. Loading through
// such a view is fine.
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @aliasing_store_view(%x: index, %y: index) attributes {grid = [32]} {
  %id = ktdp.get_compute_tile_id : index
  %c3 = arith.constant 3 : index
  %row = arith.muli %id, %c3 : index
  %X = ktdp.construct_memory_view %x, sizes: [96, 64], strides: [32, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [96, 64], strides: [32, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
  %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #t, access_tile_order = #id} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
  %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #t, access_tile_order = #id} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
  %v = ktdp.load %tx : <3x64xindex> -> tensor<3x64xf16>
  // expected-error @+1 {{stores through a view whose strides may map two of its coordinates to the same element are not supported}}
  ktdp.store %v, %ty : tensor<3x64xf16>, <3x64xindex>
  return
}

// -----

#lx = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @scratchpad_rows(%i: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c6 = arith.constant 6 : index
  %L = ktdp.construct_memory_view %c0, sizes: [8, 64], strides: [64, 1] {coordinate_set = #lx, memory_space = #ktdp.memory_space<ct_local>} : memref<8x64xf16>
  // expected-error @+1 {{the access tile may leave its scratchpad view along dimension 0}}
  %t = ktdp.construct_access_tile %L[%c6, 0] {access_tile_set = #t, access_tile_order = #id} : memref<8x64xf16> -> !ktdp.access_tile<4x64xindex>
  return
}

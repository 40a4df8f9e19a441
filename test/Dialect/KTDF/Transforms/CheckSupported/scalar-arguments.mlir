// RUN: ktflow-opt %s --ktdf-check-supported -split-input-file -verify-diagnostics

// Plain integer and index kernel arguments that no memory view starts at
// are launch-time scalars, like !ktdp.runtime_arg ones: loop bounds and
// steps, anchors and dynamic view sizes may come from them. What the
// scheduler cannot prove about them (here: that %r stays below 64) is
// masked, so nothing is refused.

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// Cyclic rows: a loop from the tile id to a scalar argument, stepping by
// another.
func.func @cyclic_rows(%x: index, %y: index, %n_rows: index, %step: index) attributes {grid = [32, 1]} {
  %tid = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  scf.for %r = %tid to %n_rows step %step {
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
    %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
    %v = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %w = arith.addf %v, %v : tensor<1x128xf16>
    ktdp.store %w, %ty : tensor<1x128xf16>, <1x128xindex>
  }
  return
}

// -----

#upto_n = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>
#block = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
// A dynamic view size from an i32 argument through index_cast; blocks at
// pid * 256 in a loop up to ceil(n / 256), the last one masked.
func.func @dynamic_size(%x: index, %y: index, %n_i32: i32) attributes {grid = [4, 1]} {
  %pid = ktdp.get_compute_tile_id : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  %n = arith.index_cast %n_i32 : i32 to index
  %blocks = arith.ceildivui %n, %c256 : index
  %X = ktdp.construct_memory_view %x, sizes: [%n], strides: [1] {coordinate_set = #upto_n, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
  %Y = ktdp.construct_memory_view %y, sizes: [%n], strides: [1] {coordinate_set = #upto_n, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
  scf.for %b = %pid to %blocks step %c4 {
    %o = arith.muli %b, %c256 : index
    %tx = ktdp.construct_access_tile %X[%o] {access_tile_set = #block, access_tile_order = #id1} : memref<?xf32> -> !ktdp.access_tile<256xindex>
    %ty = ktdp.construct_access_tile %Y[%o] {access_tile_set = #block, access_tile_order = #id1} : memref<?xf32> -> !ktdp.access_tile<256xindex>
    %v = ktdp.load %tx : <256xindex> -> tensor<256xf32>
    ktdp.store %v, %ty : tensor<256xf32>, <256xindex>
  }
  return
}

// -----

#upto_n = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>
func.func @computed_size(%x: index, %n: index) attributes {grid = [1]} {
  %c2 = arith.constant 2 : index
  %m = arith.muli %n, %c2 : index
  // expected-error @+1 {{a dynamic view size must be a scalar kernel argument (an integer, index or !ktdp.runtime_arg argument, possibly through arith.index_cast)}}
  %X = ktdp.construct_memory_view %x, sizes: [%m], strides: [1] {coordinate_set = #upto_n, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
  return
}

// -----

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#win = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// A plain scalar may be negative: a window at column %start may start
// before the view or end past it; both ends are masked, and the scaled
// window is stored at the same coordinates.
func.func @window_at_scalar(%x: index, %y: index, %start: index) attributes {grid = [64]} {
  %r = ktdp.get_compute_tile_id : index
  %two = arith.constant dense<2.0> : tensor<1x64xf16>
  %X = ktdp.construct_memory_view %x, sizes: [64, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %tx = ktdp.construct_access_tile %X[%r, %start] {access_tile_set = #win, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x64xindex>
  %ty = ktdp.construct_access_tile %Y[%r, %start] {access_tile_set = #win, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x64xindex>
  %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  %w = arith.mulf %v, %two : tensor<1x64xf16>
  ktdp.store %w, %ty : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#win = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// Shifted by a scalar on the way (the indexed gather's `%start + d`): the
// columns the load masks are stored as 0, by the reference and by the
// scheduler (the DMA lowering zeroes them in the buffer). Accepted.
func.func @shifted_by_scalar(%x: index, %y: index, %start: index) attributes {grid = [64]} {
  %r = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %tx = ktdp.construct_access_tile %X[%r, %start] {access_tile_set = #win, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x64xindex>
  %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #win, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x64xindex>
  %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  ktdp.store %v, %ty : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

// A run-time row stride: accepted when it is the size after it (rows of n
// elements n apart; stores through the view cannot collide), refused when
// it is another value (rows of n elements s apart may overlap).
#cols = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + s0 - 1 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @runtime_row_stride(%x: index, %y: index, %n: index, %s: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, %n], strides: [%n, 1] {coordinate_set = #cols, memory_space = #ktdp.memory_space<global>} : memref<64x?xf16>
  // expected-error @+1 {{dynamic view strides must be the sizes after them: a view with dynamic sizes or strides must be row-major, each stride the product of the sizes after it}}
  %Y = ktdp.construct_memory_view %y, sizes: [64, %n], strides: [%s, 1] {coordinate_set = #cols, memory_space = #ktdp.memory_space<global>} : memref<64x?xf16>
  %tx = ktdp.construct_access_tile %X[%c0, %c0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x?xf16> -> !ktdp.access_tile<64x64xindex>
  %ty = ktdp.construct_access_tile %Y[%c0, %c0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x?xf16> -> !ktdp.access_tile<64x64xindex>
  %v = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
  // expected-error @+1 {{stores through a view whose strides may map two of its coordinates to the same element are not supported}}
  ktdp.store %v, %ty : tensor<64x64xf16>, <64x64xindex>
  ktdp.store %v, %tx : tensor<64x64xf16>, <64x64xindex>
  return
}

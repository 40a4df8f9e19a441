// RUN: ktflow-opt %s --ktdf-check-supported -split-input-file -verify-diagnostics

// Tiles in device memory may leave their view along any dimension: the DMA
// transfers mask the coordinates past the end of the view, and a load
// leaves them undefined where the reference reads 0. That is exact only
// when no stored element depends on a masked coordinate (masked-rows.mlir
// has the cases of the rows of 2-d tiles).

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// A row's maximum extracted and splat back over the same row: a masked row
// only reaches its own store, which skips it.
func.func @row_broadcast(%x: index, %y: index, %n: index) attributes {grid = [32, 1]} {
  %tid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %ninf = arith.constant 0xFC00 : f16
  %X = ktdp.construct_memory_view %x, sizes: [64, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  scf.for %r = %tid to %n step %c32 {
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
    %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
    %v = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %i = tensor.splat %ninf : tensor<1xf16>
    %mx = linalg.reduce { arith.maxnumf } ins(%v : tensor<1x128xf16>) outs(%i : tensor<1xf16>) dimensions = [1]
    %m = tensor.extract %mx[%c0] : tensor<1xf16>
    %mb = tensor.splat %m : tensor<1x128xf16>
    %d = arith.subf %v, %mb : tensor<1x128xf16>
    ktdp.store %d, %ty : tensor<1x128xf16>, <1x128xindex>
  }
  return
}

// -----

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#four = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// A row's maximum (rows 8 t, masked from t = 8 on) spread over four rows
// of the output: those rows would get the value of a masked row.
func.func @row_spread(%x: index, %y: index) attributes {grid = [16]} {
  %tid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %r8 = arith.muli %tid, %c8 : index
  %ninf = arith.constant 0xFC00 : f16
  %X = ktdp.construct_memory_view %x, sizes: [64, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %r4 = arith.muli %tid, %c4 : index
  %ty = ktdp.construct_access_tile %Y[%r4, 0] {access_tile_set = #four, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
  %tx = ktdp.construct_access_tile %X[%r8, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
  // expected-error @+1 {{rows of this load may lie outside its view's coordinate_set; the scheduler masks them by not loading them, so they must not reach a stored element, but 'tensor.splat' spreads one of its rows over others}}
  %v = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
  %i = tensor.splat %ninf : tensor<1xf16>
  %mx = linalg.reduce { arith.maxnumf } ins(%v : tensor<1x128xf16>) outs(%i : tensor<1xf16>) dimensions = [1]
  %m = tensor.extract %mx[%c0] : tensor<1xf16>
  // expected-note @+1 {{here}}
  %mb = tensor.splat %m : tensor<4x128xf16>
  ktdp.store %mb, %ty : tensor<4x128xf16>, <4x128xindex>
  return
}

// -----

#upto_n = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>
#block = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
// Elements of 1-d tiles past a dynamic size: stored at the same elements
// of an equally long view (accepted), or one block further (refused).
func.func @elements(%x: index, %y: index, %z: index, %n: i32) attributes {grid = [4]} {
  %pid = ktdp.get_compute_tile_id : index
  %c256 = arith.constant 256 : index
  %nn = arith.index_cast %n : i32 to index
  %o = arith.muli %pid, %c256 : index
  %o2 = arith.addi %o, %c256 : index
  %X = ktdp.construct_memory_view %x, sizes: [%nn], strides: [1] {coordinate_set = #upto_n, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
  %Y = ktdp.construct_memory_view %y, sizes: [%nn], strides: [1] {coordinate_set = #upto_n, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
  %Z = ktdp.construct_memory_view %z, sizes: [%nn], strides: [1] {coordinate_set = #upto_n, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
  %tx = ktdp.construct_access_tile %X[%o] {access_tile_set = #block, access_tile_order = #id1} : memref<?xf32> -> !ktdp.access_tile<256xindex>
  %ty = ktdp.construct_access_tile %Y[%o] {access_tile_set = #block, access_tile_order = #id1} : memref<?xf32> -> !ktdp.access_tile<256xindex>
  %tz = ktdp.construct_access_tile %Z[%o2] {access_tile_set = #block, access_tile_order = #id1} : memref<?xf32> -> !ktdp.access_tile<256xindex>
  // expected-error @+1 {{elements of this load may lie outside its view's coordinate_set; the scheduler masks them by not loading them, so they must not reach a stored element, but it is stored through a tile whose elements are not those of the load}}
  %v = ktdp.load %tx : <256xindex> -> tensor<256xf32>
  %w = arith.mulf %v, %v : tensor<256xf32>
  ktdp.store %w, %ty : tensor<256xf32>, <256xindex>
  // expected-note @+1 {{here}}
  ktdp.store %w, %tz : tensor<256xf32>, <256xindex>
  return
}

// -----

#x126 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 125 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// Views holding 126 of their 128 columns: the tiles' last two columns are
// masked. An element-wise result stored through the same tiles is exact
// (accepted); a row sum would fold the masked columns (refused).
func.func @columns(%x: index, %y: index) attributes {grid = [32]} {
  %id = ktdp.get_compute_tile_id : index
  %c2 = arith.constant 2 : index
  %r = arith.muli %id, %c2 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x126, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x126, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #t, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<2x128xindex>
  %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #t, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<2x128xindex>
  %v = ktdp.load %tx : <2x128xindex> -> tensor<2x128xf16>
  %w = arith.addf %v, %v : tensor<2x128xf16>
  ktdp.store %w, %ty : tensor<2x128xf16>, <2x128xindex>
  return
}

// -----

#x126 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 125 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @column_sums(%x: index, %y: index) attributes {grid = [32]} {
  %id = ktdp.get_compute_tile_id : index
  %c2 = arith.constant 2 : index
  %r = arith.muli %id, %c2 : index
  %zero = arith.constant 0.0 : f16
  %X = ktdp.construct_memory_view %x, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x126, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #t, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<2x128xindex>
  %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #t, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<2x128xindex>
  // expected-error @+1 {{columns of this load may lie outside its view's coordinate_set; the scheduler masks them by not loading them, so they must not reach a stored element, but 'linalg.reduce' reduces across its columns}}
  %v = ktdp.load %tx : <2x128xindex> -> tensor<2x128xf16>
  %e = tensor.empty() : tensor<2xf16>
  %i = linalg.fill ins(%zero : f16) outs(%e : tensor<2xf16>) -> tensor<2xf16>
  // expected-note @+1 {{here}}
  %s = linalg.reduce { arith.addf } ins(%v : tensor<2x128xf16>) outs(%i : tensor<2xf16>) dimensions = [1]
  %e2 = tensor.empty() : tensor<2x128xf16>
  %sb = linalg.broadcast ins(%s : tensor<2xf16>) outs(%e2 : tensor<2x128xf16>) dimensions = [1]
  ktdp.store %sb, %ty : tensor<2x128xf16>, <2x128xindex>
  return
}

// -----

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// Per-row sums of masked rows stored one element per row, at the row's
// index of a view holding as many rows: accepted.
func.func @per_row_sums(%x: index, %s: index, %n: index) attributes {grid = [8, 1]} {
  %tid = ktdp.get_compute_tile_id : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f16
  %X = ktdp.construct_memory_view %x, sizes: [64, 256], strides: [256, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
  %S = ktdp.construct_memory_view %s, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  scf.for %r = %tid to %n step %c8 {
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x256xindex>
    %ts = ktdp.construct_access_tile %S[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<1xindex>
    %v = ktdp.load %tx : <1x256xindex> -> tensor<1x256xf16>
    %i = tensor.splat %zero : tensor<1xf16>
    %sum = linalg.reduce { arith.addf } ins(%v : tensor<1x256xf16>) outs(%i : tensor<1xf16>) dimensions = [1]
    ktdp.store %sum, %ts : tensor<1xf16>, <1xindex>
  }
  return
}

// -----

#all = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 9 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#t = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// A 3-d tile masked along its two leading dimensions: stored through the
// same coordinates, accepted.
func.func @three_d(%x: index, %y: index) attributes {grid = [2, 3]} {
  %a, %b = ktdp.get_compute_tile_id : index, index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %i = arith.muli %a, %c2 : index
  %j = arith.muli %b, %c4 : index
  %X = ktdp.construct_memory_view %x, sizes: [3, 10, 64], strides: [640, 64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<3x10x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [3, 10, 64], strides: [640, 64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<3x10x64xf16>
  %tx = ktdp.construct_access_tile %X[%i, %j, 0] {access_tile_set = #t, access_tile_order = #id3} : memref<3x10x64xf16> -> !ktdp.access_tile<2x4x64xindex>
  %ty = ktdp.construct_access_tile %Y[%i, %j, 0] {access_tile_set = #t, access_tile_order = #id3} : memref<3x10x64xf16> -> !ktdp.access_tile<2x4x64xindex>
  %v = ktdp.load %tx : <2x4x64xindex> -> tensor<2x4x64xf16>
  %w = arith.addf %v, %v : tensor<2x4x64xf16>
  ktdp.store %w, %ty : tensor<2x4x64xf16>, <2x4x64xindex>
  return
}

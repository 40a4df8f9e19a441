// RUN: ktflow-opt %s --ktdf-check-supported -split-input-file -verify-diagnostics

// Stores that two executions (grid points, loop iterations) make to the same
// elements of a view, with values that may differ: nothing orders them on
// the device. Where every loop bound, branch and anchor follows from tile
// ids and constants, every execution is enumerated; the first two
// footprints that meet inside the view are reported, naming both.

// Row windows of 17 rows per grid point, in 8-row tiles: grid point 0's
// last tile (rows 16..23) meets grid point 1's first (rows 17..24).
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @windows(%x: index, %y: index) attributes {grid = [3]} {
  %p = ktdp.get_compute_tile_id : index
  %c8 = arith.constant 8 : index
  %c17 = arith.constant 17 : index
  %b = arith.muli %p, %c17 : index
  %e = arith.addi %b, %c17 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x16xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x16xf16>
  scf.for %r = %b to %e step %c8 {
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #blk, access_tile_order = #id} : memref<64x16xf16> -> !ktdp.access_tile<8x16xindex>
    %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #blk, access_tile_order = #id} : memref<64x16xf16> -> !ktdp.access_tile<8x16xindex>
    %v = ktdp.load %tx : <8x16xindex> -> tensor<8x16xf16>
    // expected-error @+1 {{stores of different grid points write the same elements, which the scheduler does not order (what the memory keeps would depend on timing): grid point (0), loop value 16 and grid point (1), loop value 17 both write element [17, 0] of the view}}
    ktdp.store %v, %ty : tensor<8x16xf16>, <8x16xindex>
  }
  return
}

// -----

// The same windows of 16 rows are disjoint: accepted.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @disjoint_windows(%x: index, %y: index) attributes {grid = [4]} {
  %p = ktdp.get_compute_tile_id : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %b = arith.muli %p, %c16 : index
  %e = arith.addi %b, %c16 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x16xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x16xf16>
  scf.for %r = %b to %e step %c8 {
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #blk, access_tile_order = #id} : memref<64x16xf16> -> !ktdp.access_tile<8x16xindex>
    %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #blk, access_tile_order = #id} : memref<64x16xf16> -> !ktdp.access_tile<8x16xindex>
    %v = ktdp.load %tx : <8x16xindex> -> tensor<8x16xf16>
    ktdp.store %v, %ty : tensor<8x16xf16>, <8x16xindex>
  }
  return
}

// -----

// The row-kernel mutant: origin [0, %r] instead of [%r, 0]. With constant
// loop bounds, rows 0 and 1 (grid points 0 and 1) both write row 0 from
// column 1 on (the columns past 15 are masked).
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 15 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @row_origin_swapped(%x: index, %y: index) attributes {grid = [4, 1]} {
  %t = ktdp.get_compute_tile_id : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %X = ktdp.construct_memory_view %x, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  scf.for %r = %t to %c16 step %c4 {
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id} : memref<16x16xf16> -> !ktdp.access_tile<1x16xindex>
    %ty = ktdp.construct_access_tile %Y[0, %r] {access_tile_set = #row, access_tile_order = #id} : memref<16x16xf16> -> !ktdp.access_tile<1x16xindex>
    %v = ktdp.load %tx : <1x16xindex> -> tensor<1x16xf16>
    // expected-error @+1 {{stores of different grid points write the same elements, which the scheduler does not order (what the memory keeps would depend on timing): grid point (0, 0), loop value 0 and grid point (1, 0), loop value 1 both write element [0, 1] of the view}}
    ktdp.store %v, %ty : tensor<1x16xf16>, <1x16xindex>
  }
  return
}

// -----

// The same with the loop running to a runtime scalar: which rows run is not
// known before the launch, so the check cannot decide and accepts (the
// simulator reports the race if the stores meet).
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 15 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @runtime_bound(%x: index, %y: index, %n: index) attributes {grid = [4, 1]} {
  %t = ktdp.get_compute_tile_id : index
  %c4 = arith.constant 4 : index
  %X = ktdp.construct_memory_view %x, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  scf.for %r = %t to %n step %c4 {
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id} : memref<16x16xf16> -> !ktdp.access_tile<1x16xindex>
    %ty = ktdp.construct_access_tile %Y[0, %r] {access_tile_set = #row, access_tile_order = #id} : memref<16x16xf16> -> !ktdp.access_tile<1x16xindex>
    %v = ktdp.load %tx : <1x16xindex> -> tensor<1x16xf16>
    ktdp.store %v, %ty : tensor<1x16xf16>, <1x16xindex>
  }
  return
}

// -----

// Iterations of one grid point that store different rows into one row.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 15 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @iterations(%x: index, %y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %X = ktdp.construct_memory_view %x, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  scf.for %r = %c0 to %c16 step %c1 {
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id} : memref<16x16xf16> -> !ktdp.access_tile<1x16xindex>
    %ty = ktdp.construct_access_tile %Y[3, 0] {access_tile_set = #row, access_tile_order = #id} : memref<16x16xf16> -> !ktdp.access_tile<1x16xindex>
    %v = ktdp.load %tx : <1x16xindex> -> tensor<1x16xf16>
    // expected-error @+1 {{stores of different loop iterations write the same elements, which the scheduler does not order (what the memory keeps would depend on timing): grid point (0), loop value 0 and grid point (0), loop value 1 both write element [3, 0] of the view}}
    ktdp.store %v, %ty : tensor<1x16xf16>, <1x16xindex>
  }
  return
}

// -----

// Every grid point stores the same value to the same tile (a kernel that
// ignores its tile id, or a result every tile computes alike): the writes
// agree, accepted. A store only tile 0 makes is one writer.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 15 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @same_values(%x: index, %y: index, %z: index) attributes {grid = [4]} {
  %t = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %X = ktdp.construct_memory_view %x, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %Z = ktdp.construct_memory_view %z, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #row, access_tile_order = #id} : memref<16x16xf16> -> !ktdp.access_tile<1x16xindex>
  %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #row, access_tile_order = #id} : memref<16x16xf16> -> !ktdp.access_tile<1x16xindex>
  %tz = ktdp.construct_access_tile %Z[0, 0] {access_tile_set = #row, access_tile_order = #id} : memref<16x16xf16> -> !ktdp.access_tile<1x16xindex>
  %v = ktdp.load %tx : <1x16xindex> -> tensor<1x16xf16>
  ktdp.store %v, %ty : tensor<1x16xf16>, <1x16xindex>
  %first = arith.cmpi eq, %t, %c0 : index
  scf.if %first {
    %txt = ktdp.construct_access_tile %X[%t, 0] {access_tile_set = #row, access_tile_order = #id} : memref<16x16xf16> -> !ktdp.access_tile<1x16xindex>
    %w = ktdp.load %txt : <1x16xindex> -> tensor<1x16xf16>
    ktdp.store %w, %tz : tensor<1x16xf16>, <1x16xindex>
  }
  return
}

// -----

// Two stores of one grid point that meet: rows 0..7 and 4..11.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @two_stores(%x: index, %y: index) attributes {grid = [1]} {
  %X = ktdp.construct_memory_view %x, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #blk, access_tile_order = #id} : memref<16x16xf16> -> !ktdp.access_tile<8x16xindex>
  %ta = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #blk, access_tile_order = #id} : memref<16x16xf16> -> !ktdp.access_tile<8x16xindex>
  %tb = ktdp.construct_access_tile %Y[4, 0] {access_tile_set = #blk, access_tile_order = #id} : memref<16x16xf16> -> !ktdp.access_tile<8x16xindex>
  %v = ktdp.load %tx : <8x16xindex> -> tensor<8x16xf16>
  %w = arith.addf %v, %v : tensor<8x16xf16>
  // expected-note @+1 {{the other store}}
  ktdp.store %v, %ta : tensor<8x16xf16>, <8x16xindex>
  // expected-error @+1 {{two stores of one execution write the same elements, which the scheduler does not order (what the memory keeps would depend on timing): grid point (0) and grid point (0) both write element [4, 0] of the view}}
  ktdp.store %w, %tb : tensor<8x16xf16>, <8x16xindex>
  return
}

// -----

// 2^32 grid points, of which the 65536 with x = 0 store different rows of X
// to one row of Y: a race, but the second writer, (0, 1), comes after 65536
// points, so the enumeration stops at its budget (undecided, accepted: the
// simulator would report it) instead of visiting 2^32 points.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 15 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @huge_grid(%x: index, %y: index) attributes {grid = [65536, 65536]} {
  %t:2 = ktdp.get_compute_tile_id : index, index
  %c0 = arith.constant 0 : index
  %X = ktdp.construct_memory_view %x, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %first = arith.cmpi eq, %t#0, %c0 : index
  scf.if %first {
    %tx = ktdp.construct_access_tile %X[%t#1, 0] {access_tile_set = #row, access_tile_order = #id} : memref<16x16xf16> -> !ktdp.access_tile<1x16xindex>
    %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #row, access_tile_order = #id} : memref<16x16xf16> -> !ktdp.access_tile<1x16xindex>
    %v = ktdp.load %tx : <1x16xindex> -> tensor<1x16xf16>
    ktdp.store %v, %ty : tensor<1x16xf16>, <1x16xindex>
  }
  return
}

// Dense tiles at the edges of views on the compiled tier (docs/cpu-jit.md):
// tiles that lie inside their view as a whole and tiles that are partly
// masked by the view's coordinate_set, in ranks 1 to 3. Outputs must be the
// interpreter's bit for bit. (A fast path that skips the per-element guards
// of tiles wholly in bounds must keep these equal.)
//
// A 10x20 view walked in 4x8 tiles over a [3, 3] grid: tiles (0..1, 0..1)
// lie inside; the others reach rows 10, 11 or columns 20..23,
// outside the coordinate_set, which are masked (loads read 0, stores skip).
// The coordinate_set also drops the elements past its diagonal
// d0 + d1 = 20, so the tile (1, 1), inside the sizes, has its corner
// (7, 15) masked.
// RUN: rm -rf %t && mkdir -p %t
// RUN: ktflow interp %s --func edges --seed 3 --engine=interp > %t/edges.interp
// RUN: ktflow interp %s --func edges --seed 3 --engine=jit > %t/edges.jit 2> %t/edges.note
// RUN: diff %t/edges.interp %t/edges.jit
// RUN: FileCheck %s --check-prefix=JIT --input-file=%t/edges.note
// JIT: engine: jit
// JIT-NOT: rerun in order
//
// Rank 1 and rank 3 tiles.
// RUN: ktflow interp %s --func line --seed 3 --engine=interp > %t/line.interp
// RUN: ktflow interp %s --func line --seed 3 --engine=jit > %t/line.jit 2> %t/line.note
// RUN: diff %t/line.interp %t/line.jit
// RUN: FileCheck %s --check-prefix=JIT --input-file=%t/line.note
// RUN: ktflow interp %s --func cube --seed 3 --engine=interp > %t/cube.interp
// RUN: ktflow interp %s --func cube --seed 3 --engine=jit > %t/cube.jit 2> %t/cube.note
// RUN: diff %t/cube.interp %t/cube.jit
// RUN: FileCheck %s --check-prefix=JIT --input-file=%t/cube.note
//
// Tiles anchored at loop induction variables: the loops whose tiles all lie
// inside the view on every tile of the grid are proved so when compiling
// (no guarded nest; an error if the check failed), those whose last
// iteration crosses the view's edge must keep the guarded nest: their tiles
// are partly masked, and the run must stay on the jit.
// RUN: ktflow interp %s --func loop_rows --seed 3 --engine=interp > %t/loop.interp
// RUN: ktflow interp %s --func loop_rows --seed 3 --engine=jit > %t/loop.jit 2> %t/loop.note
// RUN: diff %t/loop.interp %t/loop.jit
// RUN: FileCheck %s --check-prefix=JIT --input-file=%t/loop.note
//
// A tile inside the coordinate_set but past the view's sizes is the
// interpreter's error, which the tier reports too.
// RUN: not ktflow interp %s --func past_sizes 2>&1 | FileCheck %s --check-prefix=SIZES
// SIZES: note: engine: interp (jit: an access outside a view's sizes or outside its tensor)
// SIZES: error: 'ktdp.load' op tile 2: coordinate (10, 0) is in the coordinate_set of a view but outside its sizes (10, 20)

#view = affine_set<(d0, d1) : (d0 >= 0, -d0 + 9 >= 0, d1 >= 0, -d1 + 19 >= 0, -d0 - d1 + 20 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#line = affine_set<(d0) : (d0 >= 0, -d0 + 39 >= 0)>
#line8 = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#cube = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 4 >= 0)>
#cube_tile = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 1 >= 0, d2 >= 0, -d2 + 4 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#box = affine_set<(d0, d1) : (d0 >= 0, -d0 + 9 >= 0, d1 >= 0, -d1 + 19 >= 0)>
#small = affine_set<(d0, d1) : (d0 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 19 >= 0)>
module {
  func.func @edges(%x: index, %y: index) attributes {grid = [3, 3]} {
    %i, %j = ktdp.get_compute_tile_id : index, index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %X = ktdp.construct_memory_view %x, sizes: [10, 20], strides: [20, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<10x20xf32>
    %Y = ktdp.construct_memory_view %y, sizes: [10, 20], strides: [20, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<10x20xf32>
    %r = arith.muli %i, %c4 : index
    %c = arith.muli %j, %c8 : index
    %t = ktdp.construct_access_tile %X[%r, %c] {access_tile_set = #tile, access_tile_order = #id2} : memref<10x20xf32> -> !ktdp.access_tile<4x8xindex>
    %v = ktdp.load %t : <4x8xindex> -> tensor<4x8xf32>
    %w = arith.addf %v, %v : tensor<4x8xf32>
    %u = ktdp.construct_access_tile %Y[%r, %c] {access_tile_set = #tile, access_tile_order = #id2} : memref<10x20xf32> -> !ktdp.access_tile<4x8xindex>
    ktdp.store %w, %u : tensor<4x8xf32>, <4x8xindex>
    return
  }

  // A 40-element line in tiles of 8: the last tile reaches 40..47, masked.
  func.func @line(%a: index, %b: index) attributes {grid = [6]} {
    %id = ktdp.get_compute_tile_id : index
    %c8 = arith.constant 8 : index
    %A = ktdp.construct_memory_view %a, sizes: [40], strides: [1] {coordinate_set = #line, memory_space = #ktdp.memory_space<global>} : memref<40xf32>
    %B = ktdp.construct_memory_view %b, sizes: [40], strides: [1] {coordinate_set = #line, memory_space = #ktdp.memory_space<global>} : memref<40xf32>
    %o = arith.muli %id, %c8 : index
    %ta = ktdp.construct_access_tile %A[%o] {access_tile_set = #line8, access_tile_order = #id1} : memref<40xf32> -> !ktdp.access_tile<8xindex>
    %va = ktdp.load %ta : <8xindex> -> tensor<8xf32>
    %tb = ktdp.construct_access_tile %B[%o] {access_tile_set = #line8, access_tile_order = #id1} : memref<40xf32> -> !ktdp.access_tile<8xindex>
    ktdp.store %va, %tb : tensor<8xf32>, <8xindex>
    return
  }

  // A 2x4x5 cube in 2x2x5 tiles: tiles 2..5 lie outside, masked.
  func.func @cube(%p: index, %q: index) attributes {grid = [6]} {
    %id = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %P = ktdp.construct_memory_view %p, sizes: [2, 4, 5], strides: [20, 5, 1] {coordinate_set = #cube, memory_space = #ktdp.memory_space<global>} : memref<2x4x5xf32>
    %Q = ktdp.construct_memory_view %q, sizes: [2, 4, 5], strides: [20, 5, 1] {coordinate_set = #cube, memory_space = #ktdp.memory_space<global>} : memref<2x4x5xf32>
    %k = arith.muli %id, %c2 : index
    %tp = ktdp.construct_access_tile %P[%c0, %k, %c0] {access_tile_set = #cube_tile, access_tile_order = #id3} : memref<2x4x5xf32> -> !ktdp.access_tile<2x2x5xindex>
    %vp = ktdp.load %tp : <2x2x5xindex> -> tensor<2x2x5xf32>
    %tq = ktdp.construct_access_tile %Q[%c0, %k, %c0] {access_tile_set = #cube_tile, access_tile_order = #id3} : memref<2x4x5xf32> -> !ktdp.access_tile<2x2x5xindex>
    ktdp.store %vp, %tq : tensor<2x2x5xf32>, <2x2x5xindex>
    return
  }

  // A 10x20 box in 4x8 tiles at columns 8j, rows from loops: 0, 4, 8 (to a
  // constant bound; rows 10 and 11 masked), 2j + 4k for 4k < 9 (rows 10-13
  // of tile 1 masked) and for 4k < 6 (inside on both tiles).
  func.func @loop_rows(%x: index, %y: index, %z: index, %w: index) attributes {grid = [2]} {
    %j = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c6 = arith.constant 6 : index
    %c8 = arith.constant 8 : index
    %c9 = arith.constant 9 : index
    %c10 = arith.constant 10 : index
    %X = ktdp.construct_memory_view %x, sizes: [10, 20], strides: [20, 1] {coordinate_set = #box, memory_space = #ktdp.memory_space<global>} : memref<10x20xf32>
    %Y = ktdp.construct_memory_view %y, sizes: [10, 20], strides: [20, 1] {coordinate_set = #box, memory_space = #ktdp.memory_space<global>} : memref<10x20xf32>
    %Z = ktdp.construct_memory_view %z, sizes: [10, 20], strides: [20, 1] {coordinate_set = #box, memory_space = #ktdp.memory_space<global>} : memref<10x20xf32>
    %W = ktdp.construct_memory_view %w, sizes: [10, 20], strides: [20, 1] {coordinate_set = #box, memory_space = #ktdp.memory_space<global>} : memref<10x20xf32>
    %c = arith.muli %j, %c8 : index
    %a = arith.muli %j, %c2 : index
    %a9 = arith.addi %a, %c9 : index
    %a6 = arith.addi %c6, %a : index
    scf.for %r = %c0 to %c10 step %c4 {
      %t = ktdp.construct_access_tile %X[%r, %c] {access_tile_set = #tile, access_tile_order = #id2} : memref<10x20xf32> -> !ktdp.access_tile<4x8xindex>
      %v = ktdp.load %t : <4x8xindex> -> tensor<4x8xf32>
      %u = ktdp.construct_access_tile %Y[%r, %c] {access_tile_set = #tile, access_tile_order = #id2} : memref<10x20xf32> -> !ktdp.access_tile<4x8xindex>
      ktdp.store %v, %u : tensor<4x8xf32>, <4x8xindex>
    }
    scf.for %r = %a to %a9 step %c4 {
      %t = ktdp.construct_access_tile %X[%r, %c] {access_tile_set = #tile, access_tile_order = #id2} : memref<10x20xf32> -> !ktdp.access_tile<4x8xindex>
      %v = ktdp.load %t : <4x8xindex> -> tensor<4x8xf32>
      %u = ktdp.construct_access_tile %Z[%r, %c] {access_tile_set = #tile, access_tile_order = #id2} : memref<10x20xf32> -> !ktdp.access_tile<4x8xindex>
      ktdp.store %v, %u : tensor<4x8xf32>, <4x8xindex>
    }
    scf.for %r = %a to %a6 step %c4 {
      %t = ktdp.construct_access_tile %X[%r, %c] {access_tile_set = #tile, access_tile_order = #id2} : memref<10x20xf32> -> !ktdp.access_tile<4x8xindex>
      %v = ktdp.load %t : <4x8xindex> -> tensor<4x8xf32>
      %u = ktdp.construct_access_tile %W[%r, %c] {access_tile_set = #tile, access_tile_order = #id2} : memref<10x20xf32> -> !ktdp.access_tile<4x8xindex>
      ktdp.store %v, %u : tensor<4x8xf32>, <4x8xindex>
    }
    return
  }

  // Rows 10 and 11 of the view are in its coordinate_set but past its sizes.
  func.func @past_sizes(%x: index, %y: index) attributes {grid = [3]} {
    %i = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %X = ktdp.construct_memory_view %x, sizes: [10, 20], strides: [20, 1] {coordinate_set = #small, memory_space = #ktdp.memory_space<global>} : memref<10x20xf32>
    %Y = ktdp.construct_memory_view %y, sizes: [10, 20], strides: [20, 1] {coordinate_set = #small, memory_space = #ktdp.memory_space<global>} : memref<10x20xf32>
    %r = arith.muli %i, %c4 : index
    %t = ktdp.construct_access_tile %X[%r, %c0] {access_tile_set = #tile, access_tile_order = #id2} : memref<10x20xf32> -> !ktdp.access_tile<4x8xindex>
    %v = ktdp.load %t : <4x8xindex> -> tensor<4x8xf32>
    %u = ktdp.construct_access_tile %Y[%r, %c0] {access_tile_set = #tile, access_tile_order = #id2} : memref<10x20xf32> -> !ktdp.access_tile<4x8xindex>
    ktdp.store %v, %u : tensor<4x8xf32>, <4x8xindex>
    return
  }
}

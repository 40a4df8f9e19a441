// Scratchpads and tiles that load what other tiles store, on the compiled
// tier (docs/cpu-jit.md). Each tile's scratchpad starts as zeros; a view
// in ct_local without a tile id is the executing tile's. Where one tile
// may load what another stores, the tiles take turns as the interpreter's
// coroutines do (docs/interpreter.md §2: each yields before every load),
// so loads see the same stores. The output lines, whose checksums cover
// every bit, must be the interpreter's.
//
// RUN: rm -rf %t && mkdir -p %t
// A ring through a tensor both loaded and stored: tile t stores row t of
// s, then loads row t + 1 (mod 4). Every tile yields before that load, so
// tile t + 1 has stored its row by then (run one after the other, tiles
// 0-2 would read s's initial values): y is x's rows rotated, with x's (and
// s's) statistics.
// RUN: ktflow interp %s --func ring --seed 9 --engine=interp > %t/ring.interp
// RUN: ktflow interp %s --func ring --seed 9 --engine=jit > %t/ring.jit 2> %t/ring.note
// RUN: diff %t/ring.interp %t/ring.jit
// RUN: FileCheck %s --check-prefix=JIT --input-file=%t/ring.note
// RUN: FileCheck %s --check-prefix=RING --input-file=%t/ring.jit
// JIT: engine: jit
// RING: s: shape=4x16 dtype=f16 [[STATS:min=[^ ]* max=[^ ]* mean=[^ ]*]] checksum
// RING: y: shape=4x16 dtype=f16 [[STATS]] checksum
//
// Each tile stages its row in its own scratchpad and reads it back twice,
// once through a view at an offset (zeros where nothing was stored).
// RUN: ktflow interp %s --func own_scratchpad --seed 9 --engine=interp > %t/own.interp
// RUN: ktflow interp %s --func own_scratchpad --seed 9 --engine=jit > %t/own.jit 2> %t/own.note
// RUN: diff %t/own.interp %t/own.jit
// RUN: FileCheck %s --check-prefix=JIT --input-file=%t/own.note
//
// A scratchpad view past the 2 MiB capacity is the interpreter's error:
// the tier notices it and the interpreter reports it at the op.
// RUN: not ktflow interp %s --func overflow 2>&1 | FileCheck %s --check-prefix=OVERFLOW
// OVERFLOW: engine: interp (jit: an access outside a view's sizes or outside its tensor)
// OVERFLOW: error: {{.*}}scratchpad overflow

#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 15 >= 0)>
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @ring(%x: index, %s: index, %y: index) attributes {grid = [4]} {
    %t = ktdp.get_compute_tile_id : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %t1 = arith.addi %t, %c1 : index
    %next = arith.remui %t1, %c4 : index
    %X = ktdp.construct_memory_view %x, sizes: [4, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<4x16xf16>
    %S = ktdp.construct_memory_view %s, sizes: [4, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<4x16xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [4, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<4x16xf16>
    %tx = ktdp.construct_access_tile %X[%t, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<4x16xf16> -> !ktdp.access_tile<1x16xindex>
    %ts = ktdp.construct_access_tile %S[%t, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<4x16xf16> -> !ktdp.access_tile<1x16xindex>
    %tn = ktdp.construct_access_tile %S[%next, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<4x16xf16> -> !ktdp.access_tile<1x16xindex>
    %ty = ktdp.construct_access_tile %Y[%t, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<4x16xf16> -> !ktdp.access_tile<1x16xindex>
    %v = ktdp.load %tx : <1x16xindex> -> tensor<1x16xf16>
    ktdp.store %v, %ts : tensor<1x16xf16>, <1x16xindex>
    %w = ktdp.load %tn : <1x16xindex> -> tensor<1x16xf16>
    ktdp.store %w, %ty : tensor<1x16xf16>, <1x16xindex>
    return
  }

  func.func @own_scratchpad(%x: index, %y: index, %z: index) attributes {grid = [4]} {
    %t = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %X = ktdp.construct_memory_view %x, sizes: [4, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<4x16xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [4, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<4x16xf16>
    %Z = ktdp.construct_memory_view %z, sizes: [4, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<4x16xf16>
    %L = ktdp.construct_memory_view %c0, sizes: [16], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<ct_local>} : memref<16xf16>
    %L8 = ktdp.construct_memory_view %c8, sizes: [16], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<ct_local>} : memref<16xf16>
    %tx = ktdp.construct_access_tile %X[%t, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<4x16xf16> -> !ktdp.access_tile<1x16xindex>
    %tl = ktdp.construct_access_tile %L[0] {access_tile_set = #vec, access_tile_order = #id1} : memref<16xf16> -> !ktdp.access_tile<16xindex>
    %tl8 = ktdp.construct_access_tile %L8[0] {access_tile_set = #vec, access_tile_order = #id1} : memref<16xf16> -> !ktdp.access_tile<16xindex>
    %ty = ktdp.construct_access_tile %Y[%t, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<4x16xf16> -> !ktdp.access_tile<1x16xindex>
    %tz = ktdp.construct_access_tile %Z[%t, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<4x16xf16> -> !ktdp.access_tile<1x16xindex>
    %v = ktdp.load %tx : <1x16xindex> -> tensor<1x16xf16>
    %flat = tensor.collapse_shape %v [[0, 1]] : tensor<1x16xf16> into tensor<16xf16>
    ktdp.store %flat, %tl : tensor<16xf16>, <16xindex>
    %a = ktdp.load %tl : <16xindex> -> tensor<16xf16>
    %b = ktdp.load %tl8 : <16xindex> -> tensor<16xf16>
    %a2 = tensor.expand_shape %a [[0, 1]] output_shape [1, 16] : tensor<16xf16> into tensor<1x16xf16>
    %b2 = tensor.expand_shape %b [[0, 1]] output_shape [1, 16] : tensor<16xf16> into tensor<1x16xf16>
    ktdp.store %a2, %ty : tensor<1x16xf16>, <1x16xindex>
    ktdp.store %b2, %tz : tensor<1x16xf16>, <1x16xindex>
    return
  }

  func.func @overflow(%x: index) attributes {grid = [1]} {
    %c0 = arith.constant 1048570 : index
    %X = ktdp.construct_memory_view %x, sizes: [16], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
    %L = ktdp.construct_memory_view %c0, sizes: [16], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<ct_local>} : memref<16xf16>
    %tx = ktdp.construct_access_tile %X[0] {access_tile_set = #vec, access_tile_order = #id1} : memref<16xf16> -> !ktdp.access_tile<16xindex>
    %tl = ktdp.construct_access_tile %L[0] {access_tile_set = #vec, access_tile_order = #id1} : memref<16xf16> -> !ktdp.access_tile<16xindex>
    %v = ktdp.load %tx : <16xindex> -> tensor<16xf16>
    ktdp.store %v, %tl : tensor<16xf16>, <16xindex>
    return
  }
}

// Literal-address memory on the compiled tier (docs/cpu-jit.md): each
// region the interpreter forms (docs/interpreter.md §3) is a buffer of its
// own, starting as zeros or its `@ADDR` input and reported as `@ADDR`;
// outputs must be the interpreter's bit for bit.
//
// Two tiles scale f16 rows at @0 by an i32 table at @64 (f16 addresses
// count f16 elements, i32 ones i32 elements: bytes [0, 128) and [256, 288)
// are disjoint) and store them at @512 beside an argument output.
// RUN: rm -rf %t && mkdir -p %t
// RUN: ktflow interp %s --func scale --seed 2 --input @0=random --input @64=range:1:5 --output @512=%t/out.interp.npy --engine=interp > %t/scale.interp
// RUN: ktflow interp %s --func scale --seed 2 --input @0=random --input @64=range:1:5 --output @512=%t/out.jit.npy --engine=jit > %t/scale.jit 2> %t/scale.note
// RUN: diff %t/scale.interp %t/scale.jit
// RUN: cmp %t/out.interp.npy %t/out.jit.npy
// RUN: FileCheck %s --check-prefix=SCALE --input-file=%t/scale.jit
// RUN: FileCheck %s --check-prefix=JIT --input-file=%t/scale.note
// The region at the literal address comes first, as in the interpreter.
// SCALE: @512: shape=2x32 dtype=f16
// SCALE-NEXT: y: shape=2x32 dtype=f16
// JIT: engine: jit
//
// Without inputs literal memory is zeros on both engines.
// RUN: ktflow interp %s --func scale --seed 2 --engine=jit | FileCheck %s --check-prefix=ZEROS
// ZEROS: @512: shape=2x32 dtype=f16 min=0 max=0 mean=0
//
// Views of two element types over the same bytes read each other's stores
// reinterpreted in the interpreter: not lowered yet, so auto runs the
// interpreter.
// RUN: ktflow interp %s --func overlap 2>&1 | FileCheck %s --check-prefix=OVERLAP
// OVERLAP: engine: interp (jit: not lowerable: views at literal addresses 0 and 4 overlap (not lowered yet))
//
// So is a view at a literal address built in a loop (the interpreter binds
// it only if the loop runs).
// RUN: ktflow interp %s --func in_loop 2>&1 | FileCheck %s --check-prefix=LOOP
// LOOP: engine: interp (jit: not lowerable: a view at literal address 0 built inside a loop or branch (not lowered yet))

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#two = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#one = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#v16 = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @scale(%y: index) attributes {grid = [2]} {
    %t = ktdp.get_compute_tile_id : index
    %a0 = arith.constant 0 : index
    %a64 = arith.constant 64 : index
    %a512 = arith.constant 512 : index
    %X = ktdp.construct_memory_view %a0, sizes: [2, 32], strides: [32, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<2x32xf16>
    %S = ktdp.construct_memory_view %a64, sizes: [2], strides: [1] {coordinate_set = #two, memory_space = #ktdp.memory_space<global>} : memref<2xi32>
    %O = ktdp.construct_memory_view %a512, sizes: [2, 32], strides: [32, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<2x32xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [2, 32], strides: [32, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<2x32xf16>
    %tx = ktdp.construct_access_tile %X[%t, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<2x32xf16> -> !ktdp.access_tile<1x32xindex>
    %ts = ktdp.construct_access_tile %S[%t] {access_tile_set = #one, access_tile_order = #id1} : memref<2xi32> -> !ktdp.access_tile<1xindex>
    %x = ktdp.load %tx : <1x32xindex> -> tensor<1x32xf16>
    %s = ktdp.load %ts : <1xindex> -> tensor<1xi32>
    %c0 = arith.constant 0 : index
    %si = tensor.extract %s[%c0] : tensor<1xi32>
    %sf = arith.sitofp %si : i32 to f16
    %sv = tensor.splat %sf : tensor<1x32xf16>
    %r = arith.mulf %x, %sv : tensor<1x32xf16>
    %to = ktdp.construct_access_tile %O[%t, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<2x32xf16> -> !ktdp.access_tile<1x32xindex>
    ktdp.store %r, %to : tensor<1x32xf16>, <1x32xindex>
    %ty = ktdp.construct_access_tile %Y[%t, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<2x32xf16> -> !ktdp.access_tile<1x32xindex>
    ktdp.store %x, %ty : tensor<1x32xf16>, <1x32xindex>
    return
  }

  // f16 elements [0, 16) are bytes [0, 32), i32 elements [4, 20) bytes
  // [16, 80): they overlap in bytes [16, 32).
  func.func @overlap() {
    %a0 = arith.constant 0 : index
    %a4 = arith.constant 4 : index
    %H = ktdp.construct_memory_view %a0, sizes: [16], strides: [1] {coordinate_set = #v16, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
    %W = ktdp.construct_memory_view %a4, sizes: [16], strides: [1] {coordinate_set = #v16, memory_space = #ktdp.memory_space<global>} : memref<16xi32>
    %th = ktdp.construct_access_tile %H[0] {access_tile_set = #v16, access_tile_order = #id1} : memref<16xf16> -> !ktdp.access_tile<16xindex>
    %tw = ktdp.construct_access_tile %W[0] {access_tile_set = #v16, access_tile_order = #id1} : memref<16xi32> -> !ktdp.access_tile<16xindex>
    %w = ktdp.load %tw : <16xindex> -> tensor<16xi32>
    %h = arith.sitofp %w : tensor<16xi32> to tensor<16xf16>
    ktdp.store %h, %th : tensor<16xf16>, <16xindex>
    return
  }

  func.func @in_loop() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    scf.for %i = %c0 to %c2 step %c1 {
      %H = ktdp.construct_memory_view %c0, sizes: [16], strides: [1] {coordinate_set = #v16, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
      %th = ktdp.construct_access_tile %H[0] {access_tile_set = #v16, access_tile_order = #id1} : memref<16xf16> -> !ktdp.access_tile<16xindex>
      %h = ktdp.load %th : <16xindex> -> tensor<16xf16>
      %d = arith.addf %h, %h : tensor<16xf16>
      ktdp.store %d, %th : tensor<16xf16>, <16xindex>
    }
    return
  }
}

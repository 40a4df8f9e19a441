// `--output` writes a .npy file that `--input` reads back: run the kernel,
// save C, then feed C as A of a second run (A + B with B = 0.25).
//
// RUN: rm -f %t.c.npy %t.a.npy
// RUN: ktflow interp %s --func add --input a=value:1.5 --input b=value:2.25 --output c=%t.c.npy --output a=%t.a.npy > %t.first
// RUN: FileCheck %s --check-prefix=FIRST < %t.first
// FIRST: c: shape=8x4 dtype=f16 min=3.75 max=3.75 mean=3.75 checksum=0x{{[0-9a-f]+}}
// RUN: ktflow interp %s --func add --input a=%t.c.npy --input b=value:0.25 | FileCheck %s --check-prefix=SECOND
// SECOND: c: shape=8x4 dtype=f16 min=4 max=4 mean=4
//
// The file holds exactly the printed tensor: reading it back and adding
// zeros reproduces the line, checksum included.
// RUN: ktflow interp %s --func add --input a=%t.c.npy --input b=zeros > %t.same
// RUN: diff %t.first %t.same
//
// An input (not an output) can be written too.
// RUN: ktflow interp %s --func add --input a=%t.a.npy --input b=zeros | FileCheck %s --check-prefix=A
// A: c: shape=8x4 dtype=f16 min=1.5 max=1.5 mean=1.5
//
// A file whose dtype differs from the views is a type mismatch.
// RUN: sh -c 'ktflow interp %s --func add_f32 --input a=%t.c.npy; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: npy-roundtrip.mlir:[[@LINE+33]]:10: error: 'ktdp.construct_memory_view' op tile 0: type mismatch: a view of element type f32 addresses 'a', which holds f16
// DTYPE: exit=1
//
// A file with fewer elements than the view needs: coordinates outside memory.
// RUN: ktflow interp %s --func half --input a=value:1 --output a=%t.half.npy
// RUN: sh -c 'ktflow interp %s --func add --input a=%t.half.npy --input b=zeros; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: npy-roundtrip.mlir:[[@LINE+18]]:10: error: 'ktdp.load' op tile 2: coordinates (4, 0) to (5, 3) map to elements [16, 23] of 'a', outside its 16 elements
// SHORT: exit=1

#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @add(%a: index, %b: index, %c: index) attributes {grid = [4]} {
    %id = ktdp.get_compute_tile_id : index
    %c2 = arith.constant 2 : index
    %row = arith.muli %id, %c2 : index
    %A = ktdp.construct_memory_view %a, sizes: [8, 4], strides: [4, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<8x4xf16>
    %B = ktdp.construct_memory_view %b, sizes: [8, 4], strides: [4, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<8x4xf16>
    %C = ktdp.construct_memory_view %c, sizes: [8, 4], strides: [4, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<8x4xf16>
    %ta = ktdp.construct_access_tile %A[%row, 0] {access_tile_set = #tile, access_tile_order = #map} : memref<8x4xf16> -> !ktdp.access_tile<2x4xindex>
    %tb = ktdp.construct_access_tile %B[%row, 0] {access_tile_set = #tile, access_tile_order = #map} : memref<8x4xf16> -> !ktdp.access_tile<2x4xindex>
    %tc = ktdp.construct_access_tile %C[%row, 0] {access_tile_set = #tile, access_tile_order = #map} : memref<8x4xf16> -> !ktdp.access_tile<2x4xindex>
    %x = ktdp.load %ta : !ktdp.access_tile<2x4xindex> -> tensor<2x4xf16>
    %y = ktdp.load %tb : !ktdp.access_tile<2x4xindex> -> tensor<2x4xf16>
    %z = arith.addf %x, %y : tensor<2x4xf16>
    ktdp.store %z, %tc : tensor<2x4xf16>, !ktdp.access_tile<2x4xindex>
    return
  }

  func.func @add_f32(%a: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %A = ktdp.construct_memory_view %a, sizes: [8, 4], strides: [4, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<8x4xf32>
    %ta = ktdp.construct_access_tile %A[%c0, 0] {access_tile_set = #tile, access_tile_order = #map} : memref<8x4xf32> -> !ktdp.access_tile<2x4xindex>
    %x = ktdp.load %ta : !ktdp.access_tile<2x4xindex> -> tensor<2x4xf32>
    return
  }

  // Writes a 4x4 tensor: half of what @add reads.
  func.func @half(%a: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %A = ktdp.construct_memory_view %a, sizes: [4, 4], strides: [4, 1] {coordinate_set = #half, memory_space = #ktdp.memory_space<global>} : memref<4x4xf16>
    %ta = ktdp.construct_access_tile %A[%c0, 0] {access_tile_set = #half, access_tile_order = #map} : memref<4x4xf16> -> !ktdp.access_tile<4x4xindex>
    %x = ktdp.load %ta : !ktdp.access_tile<4x4xindex> -> tensor<4x4xf16>
    ktdp.store %x, %ta : tensor<4x4xf16>, !ktdp.access_tile<4x4xindex>
    return
  }
}

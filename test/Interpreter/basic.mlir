// `ktflow interp` prints one line per output tensor (name, shape, dtype,
// min/max/mean, checksum of the .npy payload); inputs come from specs.
//
// C = A + B with A = 1.5 and B = 2.25 everywhere: every C element is 3.75.
// RUN: ktflow interp %s --input a=value:1.5 --input b=value:2.25 | FileCheck %s --check-prefix=VALUE
// VALUE: c: shape=8x4 dtype=f16 min=3.75 max=3.75 mean=3.75 checksum=0x{{[0-9a-f]{16}$}}
// VALUE-NOT: a:
// VALUE-NOT: b:
//
// Arguments may be named by position; the default inputs are seeded uniform
// values in [-1, 1), so a different seed changes the checksum.
// RUN: ktflow interp %s --input 0=zeros --input 1=zeros | FileCheck %s --check-prefix=ZEROS
// ZEROS: c: shape=8x4 dtype=f16 min=0 max=0 mean=0
// RUN: ktflow interp %s > %t.seed0
// RUN: ktflow interp %s --seed 0 > %t.seed0again
// RUN: ktflow interp %s --seed 7 > %t.seed7
// RUN: diff %t.seed0 %t.seed0again
// RUN: not diff %t.seed0 %t.seed7
// RUN: FileCheck %s --check-prefix=RANDOM < %t.seed0
// RANDOM: c: shape=8x4 dtype=f16 min=-{{[0-9.]+}} max={{[0-9.]+}}
//
// range:LO:HI gives integers in [LO, HI).
// RUN: ktflow interp %s --input a=range:3:4 --input b=value:-1 | FileCheck %s --check-prefix=RANGE
// RANGE: c: shape=8x4 dtype=f16 min=2 max=2 mean=2

#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 3 >= 0)>
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
}

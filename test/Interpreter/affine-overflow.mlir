// Affine expressions past 64 bits have no value: the point is not in a
// coordinate_set whose constraint overflows. Here 4 * 2^62 wrapped to 0 (a
// signed overflow, undefined behaviour that UBSan reports), so the
// interpreter took 2^62 for a point of {d0 : 0 <= d0, 4 d0 <= 60, d0 even}
// and refused it as outside the view's sizes; it is outside the set, so
// the load is masked and reads 0 (y = 0 then fifteen 7s).
//
// RUN: ktflow interp %s --engine=interp --input x=value:5 --input y=value:7 | FileCheck %s
// CHECK: y: shape=16 dtype=f32 min=0 max=7 mean=6.5625

#in = affine_set<(d0) : (d0 >= 0, -(d0 * 4) + 60 >= 0, d0 mod 2 == 0)>
#all = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#id = affine_map<(d0) -> (d0)>
func.func @wrap(%x: index, %y: index) {
  %c0 = arith.constant 0 : index
  %big = arith.constant 4611686018427387904 : index
  %X = ktdp.construct_memory_view %x, sizes: [16], strides: [1] {coordinate_set = #in, memory_space = #ktdp.memory_space<global>} : memref<16xf32>
  %Y = ktdp.construct_memory_view %y, sizes: [16], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<16xf32>
  %tx = ktdp.construct_access_tile %X[%big] {access_tile_set = #one, access_tile_order = #id} : memref<16xf32> -> !ktdp.access_tile<1xindex>
  %v = ktdp.load %tx : <1xindex> -> tensor<1xf32>
  %ty = ktdp.construct_access_tile %Y[%c0] {access_tile_set = #one, access_tile_order = #id} : memref<16xf32> -> !ktdp.access_tile<1xindex>
  ktdp.store %v, %ty : tensor<1xf32>, <1xindex>
  return
}

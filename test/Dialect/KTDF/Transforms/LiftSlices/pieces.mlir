// RUN: ktflow-opt %s --ktdf-lift-slices -split-input-file | FileCheck %s

// A row block rebuilt from two halves with tensor.insert_slice into a
// tensor.empty, stored at once: one store per half, through the sub-tile
// where it lands.

// CHECK-LABEL: func.func @insert_halves
// CHECK-NOT: tensor.empty
// CHECK-NOT: tensor.insert_slice
// CHECK: %[[HI:.*]] = ktdp.construct_access_tile %[[Y:.*]][%[[ROW:.*]], 64] {{.*}} -> !ktdp.access_tile<4x64xindex>
// CHECK: ktdp.store %arg0, %[[HI]] : tensor<4x64xf16>, <4x64xindex>
// CHECK: %[[LO:.*]] = ktdp.construct_access_tile %[[Y]][%[[ROW]], 0] {{.*}} -> !ktdp.access_tile<4x64xindex>
// CHECK: ktdp.store %arg1, %[[LO]] : tensor<4x64xf16>, <4x64xindex>
// CHECK-NOT: ktdp.store
// CHECK-NOT: access_tile<4x128xindex>
#y = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @insert_halves(%a: tensor<4x64xf16>, %b: tensor<4x64xf16>, %y_ptr: index) attributes {grid = [16]} {
  %pid = ktdp.get_compute_tile_id : index
  %c4 = arith.constant 4 : index
  %row = arith.muli %pid, %c4 : index
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #y, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %e = tensor.empty() : tensor<4x128xf16>
  %hi = tensor.insert_slice %a into %e[0, 64] [4, 64] [1, 1] : tensor<4x64xf16> into tensor<4x128xf16>
  %out = tensor.insert_slice %b into %hi[0, 0] [4, 64] [1, 1] : tensor<4x64xf16> into tensor<4x128xf16>
  %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
  ktdp.store %out, %ty : tensor<4x128xf16>, <4x128xindex>
  return
}

// -----

// Pieces nested: a concat along the rows of a row and of a block that is
// itself a concat along the columns; each leaf lands at the sum of the
// offsets.

// CHECK-LABEL: func.func @nested_concat
// CHECK-NOT: tensor.concat
// CHECK: %[[T0:.*]] = ktdp.construct_access_tile %[[Y:.*]][%[[ROW:.*]], 0] {{.*}} -> !ktdp.access_tile<1x128xindex>
// CHECK: ktdp.store %arg0, %[[T0]]
// CHECK: %[[T1:.*]] = ktdp.construct_access_tile %[[Y]][%[[ROW]] + 1, 0] {{.*}} -> !ktdp.access_tile<3x32xindex>
// CHECK: ktdp.store %arg1, %[[T1]]
// CHECK: %[[T2:.*]] = ktdp.construct_access_tile %[[Y]][%[[ROW]] + 1, 32] {{.*}} -> !ktdp.access_tile<3x96xindex>
// CHECK: ktdp.store %arg2, %[[T2]]
// CHECK-NOT: ktdp.store
#y = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @nested_concat(%r: tensor<1x128xf16>, %p: tensor<3x32xf16>, %q: tensor<3x96xf16>, %y_ptr: index) attributes {grid = [16]} {
  %pid = ktdp.get_compute_tile_id : index
  %c4 = arith.constant 4 : index
  %row = arith.muli %pid, %c4 : index
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #y, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %block = tensor.concat dim(1) %p, %q : (tensor<3x32xf16>, tensor<3x96xf16>) -> tensor<3x128xf16>
  %out = tensor.concat dim(0) %r, %block : (tensor<1x128xf16>, tensor<3x128xf16>) -> tensor<4x128xf16>
  %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
  ktdp.store %out, %ty : tensor<4x128xf16>, <4x128xindex>
  return
}

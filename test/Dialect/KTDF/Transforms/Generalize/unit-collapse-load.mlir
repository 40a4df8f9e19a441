// RUN: ktflow-opt %s --ktdf-generalize | FileCheck %s

// A load of a tile with unit dimensions, collapsed to drop them: where the
// view dimension a unit one walks is contiguous with the next inner one
// (its stride is the inner stride times the inner size), the load reads the
// same elements through a view with the two merged, at the merged anchor,
// so the matrix product reads the load itself (the guide's 1x8x128 Q block
// of a 4x64x128 view). Elsewhere the collapse stays a copy.

#set3 = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 127 >= 0)>
#tile3 = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 127 >= 0)>
#set2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// CHECK-DAG: #[[BOX:.*]] = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
// CHECK-DAG: #[[VIEW:.*]] = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 127 >= 0)>
// CHECK-LABEL: func.func @q_block
// CHECK: %[[V:.*]] = ktdp.construct_memory_view %arg0, sizes: [256, 128], strides: [128, 1] {coordinate_set = #[[VIEW]], memory_space = #ktdp.memory_space<global>} : memref<256x128xf16>
// CHECK: %[[T:.*]] = ktdp.construct_access_tile %[[V]][%arg2 + %arg1 * 64, 0] {access_tile_order = #{{.*}}, access_tile_set = #[[BOX]]} : memref<256x128xf16> -> !ktdp.access_tile<8x128xindex>
// CHECK: %[[Q:.*]] = ktdp.load %[[T]] : <8x128xindex> -> tensor<8x128xf16>
// CHECK-NOT: tensor.collapse_shape
// CHECK: linalg.matmul ins(%[[Q]], %arg3 : tensor<8x128xf16>, tensor<128x16xf16>)
func.func @q_block(%q: index, %s: index, %h: index, %kt: tensor<128x16xf16>, %acc: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %Q = ktdp.construct_memory_view %q, sizes: [4, 64, 128], strides: [8192, 128, 1] {coordinate_set = #set3, memory_space = #ktdp.memory_space<global>} : memref<4x64x128xf16>
  %t = ktdp.construct_access_tile %Q[%s, %h, 0] {access_tile_set = #tile3, access_tile_order = #id3} : memref<4x64x128xf16> -> !ktdp.access_tile<1x8x128xindex>
  %q3 = ktdp.load %t : <1x8x128xindex> -> tensor<1x8x128xf16>
  %qh = tensor.collapse_shape %q3 [[0, 1], [2]] : tensor<1x8x128xf16> into tensor<8x128xf16>
  %r = linalg.matmul ins(%qh, %kt : tensor<8x128xf16>, tensor<128x16xf16>) outs(%acc : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// Blocks 9000 elements apart while a block's 64 rows of 128 span 8192:
// not contiguous, the collapse stays a copy of the 3-d load.
// CHECK-LABEL: func.func @padded
// CHECK: ktdp.load %{{.*}} : <1x8x128xindex> -> tensor<1x8x128xf16>
// CHECK: linalg.generic
// CHECK: linalg.matmul
func.func @padded(%q: index, %s: index, %h: index, %kt: tensor<128x16xf16>, %acc: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %Q = ktdp.construct_memory_view %q, sizes: [4, 64, 128], strides: [9000, 128, 1] {coordinate_set = #set3, memory_space = #ktdp.memory_space<global>} : memref<4x64x128xf16>
  %t = ktdp.construct_access_tile %Q[%s, %h, 0] {access_tile_set = #tile3, access_tile_order = #id3} : memref<4x64x128xf16> -> !ktdp.access_tile<1x8x128xindex>
  %q3 = ktdp.load %t : <1x8x128xindex> -> tensor<1x8x128xf16>
  %qh = tensor.collapse_shape %q3 [[0, 1], [2]] : tensor<1x8x128xf16> into tensor<8x128xf16>
  %r = linalg.matmul ins(%qh, %kt : tensor<8x128xf16>, tensor<128x16xf16>) outs(%acc : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// A unit dimension innermost has no inner neighbour to merge into.
#set_col = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#tile_col = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @column
// CHECK: ktdp.load %{{.*}} : <8x1xindex> -> tensor<8x1xf16>
// CHECK: linalg.generic
func.func @column(%p: index, %r: index, %c: index) -> tensor<8xf16> {
  %V = ktdp.construct_memory_view %p, sizes: [64, 128], strides: [128, 1] {coordinate_set = #set_col, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %t = ktdp.construct_access_tile %V[%r, %c] {access_tile_set = #tile_col, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<8x1xindex>
  %x = ktdp.load %t : <8x1xindex> -> tensor<8x1xf16>
  %y = tensor.collapse_shape %x [[0, 1]] : tensor<8x1xf16> into tensor<8xf16>
  return %y : tensor<8xf16>
}

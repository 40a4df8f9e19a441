// RUN: ktflow-opt %s --ktdf-generalize -split-input-file | FileCheck %s

// A transpose of a value computed element-wise from loads becomes the same
// computation on loads of tiles whose order is permuted; a transpose only
// stored becomes stores of its input through tiles permuted back. Loaded
// dimension k of a tile is its view's dimension order[k].

// CHECK-DAG: #[[TR:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @load_side
// CHECK: %[[X:.*]] = ktdp.construct_memory_view
// CHECK: %[[T:.*]] = ktdp.construct_access_tile %[[X]][0, 0] {access_tile_order = #[[TR]], {{.*}}} : memref<16x32xf16> -> !ktdp.access_tile<32x16xindex>
// CHECK: %[[L:.*]] = ktdp.load %[[T]] : <32x16xindex> -> tensor<32x16xf16>
// CHECK-NOT: linalg.transpose
// CHECK: linalg.generic {{.*}} ins(%[[L]] : tensor<32x16xf16>)
// CHECK: arith.extf
// CHECK: arith.mulf
#xs = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#ys = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @load_side(%x_ptr: index, %y_ptr: index) attributes {grid = [1]} {
  %X = ktdp.construct_memory_view %x_ptr, sizes: [16, 32], strides: [32, 1] {coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<16x32xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [32, 16], strides: [16, 1] {coordinate_set = #ys, memory_space = #ktdp.memory_space<global>} : memref<32x16xf32>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #xs, access_tile_order = #id2} : memref<16x32xf16> -> !ktdp.access_tile<16x32xindex>
  %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #ys, access_tile_order = #id2} : memref<32x16xf32> -> !ktdp.access_tile<32x16xindex>
  %x = ktdp.load %tx : <16x32xindex> -> tensor<16x32xf16>
  %w = arith.extf %x : tensor<16x32xf16> to tensor<16x32xf32>
  %e = tensor.empty() : tensor<32x16xf32>
  %wt = linalg.transpose ins(%w : tensor<16x32xf32>) outs(%e : tensor<32x16xf32>) permutation = [1, 0]
  %two = arith.constant dense<2.0> : tensor<32x16xf32>
  %r = arith.mulf %wt, %two : tensor<32x16xf32>
  ktdp.store %r, %ty : tensor<32x16xf32>, <32x16xindex>
  return
}

// -----

// Stored: the store's tile takes the permutation (here composed with the
// tile's own order, (d0, d2, d1), of a 3-d tile whose last two
// dimensions swap back: the identity).
// CHECK-DAG: #[[ID3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @store_side
// CHECK: %[[G:.*]] = linalg.generic
// CHECK: %[[T:.*]] = ktdp.construct_access_tile %{{.*}}[0, 0, 0] {access_tile_order = #[[ID3]], {{.*}}} : memref<2x8x4xf16> -> !ktdp.access_tile<2x8x4xindex>
// CHECK: ktdp.store %[[G]], %[[T]] : tensor<2x8x4xf16>, <2x8x4xindex>
// CHECK-NOT: linalg.transpose
#s3 = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 3 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#inner = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
func.func @store_side(%x_ptr: index, %y_ptr: index) attributes {grid = [1]} {
  %X = ktdp.construct_memory_view %x_ptr, sizes: [2, 8, 4], strides: [32, 4, 1] {coordinate_set = #s3, memory_space = #ktdp.memory_space<global>} : memref<2x8x4xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [2, 8, 4], strides: [32, 4, 1] {coordinate_set = #s3, memory_space = #ktdp.memory_space<global>} : memref<2x8x4xf16>
  %tx = ktdp.construct_access_tile %X[0, 0, 0] {access_tile_set = #s3, access_tile_order = #id3} : memref<2x8x4xf16> -> !ktdp.access_tile<2x8x4xindex>
  %ty = ktdp.construct_access_tile %Y[0, 0, 0] {access_tile_set = #s3, access_tile_order = #inner} : memref<2x8x4xf16> -> !ktdp.access_tile<2x4x8xindex>
  %x = ktdp.load %tx : <2x8x4xindex> -> tensor<2x8x4xf16>
  %e = tensor.empty() : tensor<2x8x4xf16>
  %s = linalg.add ins(%x, %x : tensor<2x8x4xf16>, tensor<2x8x4xf16>) outs(%e : tensor<2x8x4xf16>) -> tensor<2x8x4xf16>
  %et = tensor.empty() : tensor<2x4x8xf16>
  %st = linalg.transpose ins(%s : tensor<2x8x4xf16>) outs(%et : tensor<2x4x8xf16>) permutation = [0, 2, 1]
  ktdp.store %st, %ty : tensor<2x4x8xf16>, <2x4x8xindex>
  return
}

// -----

// A gather collapsed from 1x16x1x64 (a page of a 4-d cache, unit page and
// head dimensions) to 16x64, extended and transposed: the collapse first
// drops the unit variables (d0 and d2, read as 0: the page index
// ind(%BT[1]), the head 1), then the 16x64 gather walks its variables in
// the permuted order (d1, d0), a 64x16 tile.
// CHECK-DAG: #[[KT:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @indirect_collapsed
// CHECK: %[[T:.*]] = ktdp.construct_indirect_access_tile intermediate_variables(%[[V0:.*]], %[[V1:.*]]) %{{.*}}[ind(%{{.*}}[%{{.*}}]), (%[[V0]]), (%{{.*}}), (%[[V1]])] {variables_space_order = #[[KT]], {{.*}}} : memref<8x16x2x64xf16>, memref<4xi32> -> !ktdp.access_tile<64x16xindex>
// CHECK: %[[L:.*]] = ktdp.load %[[T]] : <64x16xindex> -> tensor<64x16xf16>
// CHECK-NOT: linalg.transpose
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], {{.*}}} ins(%[[L]] : tensor<64x16xf16>) outs(%{{.*}} : tensor<64x16xf32>)
// CHECK: arith.extf
// CHECK: arith.mulf
#kv = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 1 >= 0, d3 >= 0, -d3 + 63 >= 0)>
#bts = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#vars = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 >= 0, d3 >= 0, -d3 + 63 >= 0)>
#ys = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @indirect_collapsed(%k_ptr: index, %bt_ptr: index, %y_ptr: index) attributes {grid = [1]} {
  %K = ktdp.construct_memory_view %k_ptr, sizes: [8, 16, 2, 64], strides: [2048, 128, 64, 1] {coordinate_set = #kv, memory_space = #ktdp.memory_space<global>} : memref<8x16x2x64xf16>
  %BT = ktdp.construct_memory_view %bt_ptr, sizes: [4], strides: [1] {coordinate_set = #bts, memory_space = #ktdp.memory_space<global>} : memref<4xi32>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 16], strides: [16, 1] {coordinate_set = #ys, memory_space = #ktdp.memory_space<global>} : memref<64x16xf32>
  %c1 = arith.constant 1 : index
  %tk = ktdp.construct_indirect_access_tile intermediate_variables(%d0, %d1, %d2, %d3) %K[ind(%BT[%c1 + %d0]), (%d1), (%c1 + %d2), (%d3)] {variables_space_set = #vars, variables_space_order = #id4} : memref<8x16x2x64xf16>, memref<4xi32> -> !ktdp.access_tile<1x16x1x64xindex>
  %k4 = ktdp.load %tk : <1x16x1x64xindex> -> tensor<1x16x1x64xf16>
  %kh = tensor.collapse_shape %k4 [[0, 1], [2, 3]] : tensor<1x16x1x64xf16> into tensor<16x64xf16>
  %k = arith.extf %kh : tensor<16x64xf16> to tensor<16x64xf32>
  %e = tensor.empty() : tensor<64x16xf32>
  %kt = linalg.transpose ins(%k : tensor<16x64xf32>) outs(%e : tensor<64x16xf32>) permutation = [1, 0]
  %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #ys, access_tile_order = #id2} : memref<64x16xf32> -> !ktdp.access_tile<64x16xindex>
  %two = arith.constant dense<2.0> : tensor<64x16xf32>
  %r = arith.mulf %kt, %two : tensor<64x16xf32>
  ktdp.store %r, %ty : tensor<64x16xf32>, <64x16xindex>
  return
}

// -----

// A direct tile's load collapsed from 1x16x64 to 16x64 and transposed,
// the view's blocks 2048 elements apart (not contiguous with their 16
// rows of 64, so the collapse cannot merge them into one dimension): the
// load's tile takes the permutation lifted through the collapse
// ((d0, d2, d1): the unit dimension stays), and the collapse of the
// 1x64x16 load (folded into the generic's map) drops it again.
// CHECK-DAG: #[[LIFT:.*]] = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
// CHECK-DAG: #[[UNIT:.*]] = affine_map<(d0, d1) -> (0, d0, d1)>
// CHECK-LABEL: func.func @direct_collapsed
// CHECK: %[[T:.*]] = ktdp.construct_access_tile %{{.*}}[1, 0, 0] {access_tile_order = #[[LIFT]], {{.*}}} : memref<2x16x64xf16> -> !ktdp.access_tile<1x64x16xindex>
// CHECK: %[[L:.*]] = ktdp.load %[[T]] : <1x64x16xindex> -> tensor<1x64x16xf16>
// CHECK-NOT: linalg.transpose
// CHECK: linalg.generic {indexing_maps = [#[[UNIT]], {{.*}}} ins(%[[L]] : tensor<1x64x16xf16>) outs(%{{.*}} : tensor<64x16xf32>)
// CHECK: arith.extf
// CHECK: arith.mulf
#xs = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#xt = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#ys = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @direct_collapsed(%x_ptr: index, %y_ptr: index) attributes {grid = [1]} {
  %X = ktdp.construct_memory_view %x_ptr, sizes: [2, 16, 64], strides: [2048, 64, 1] {coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<2x16x64xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 16], strides: [16, 1] {coordinate_set = #ys, memory_space = #ktdp.memory_space<global>} : memref<64x16xf32>
  %tx = ktdp.construct_access_tile %X[1, 0, 0] {access_tile_set = #xt, access_tile_order = #id3} : memref<2x16x64xf16> -> !ktdp.access_tile<1x16x64xindex>
  %x3 = ktdp.load %tx : <1x16x64xindex> -> tensor<1x16x64xf16>
  %x = tensor.collapse_shape %x3 [[0, 1], [2]] : tensor<1x16x64xf16> into tensor<16x64xf16>
  %w = arith.extf %x : tensor<16x64xf16> to tensor<16x64xf32>
  %e = tensor.empty() : tensor<64x16xf32>
  %wt = linalg.transpose ins(%w : tensor<16x64xf32>) outs(%e : tensor<64x16xf32>) permutation = [1, 0]
  %two = arith.constant dense<2.0> : tensor<64x16xf32>
  %r = arith.mulf %wt, %two : tensor<64x16xf32>
  %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #ys, access_tile_order = #id2} : memref<64x16xf32> -> !ktdp.access_tile<64x16xindex>
  ktdp.store %r, %ty : tensor<64x16xf32>, <64x16xindex>
  return
}

// -----

// The same with contiguous blocks (1024 elements apart): the collapse
// first becomes the load of a 16x64 tile of the 32x64 view at row 16
// (Generalize/unit-collapse-load.mlir), and the transpose then permutes
// that tile's order; no unit dimension and no copy are left.
// CHECK-DAG: #[[SWAP:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @direct_collapsed_contiguous
// CHECK: %[[V:.*]] = ktdp.construct_memory_view %arg0, sizes: [32, 64], strides: [64, 1]
// CHECK: %[[T:.*]] = ktdp.construct_access_tile %[[V]][16, 0] {access_tile_order = #[[SWAP]], {{.*}}} : memref<32x64xf16> -> !ktdp.access_tile<64x16xindex>
// CHECK: %[[L:.*]] = ktdp.load %[[T]] : <64x16xindex> -> tensor<64x16xf16>
// CHECK-NOT: linalg.transpose
// CHECK: linalg.generic {{.*}} ins(%[[L]] : tensor<64x16xf16>) outs(%{{.*}} : tensor<64x16xf32>)
// CHECK: arith.extf
// CHECK: arith.mulf
#xs = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#xt = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#ys = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @direct_collapsed_contiguous(%x_ptr: index, %y_ptr: index) attributes {grid = [1]} {
  %X = ktdp.construct_memory_view %x_ptr, sizes: [2, 16, 64], strides: [1024, 64, 1] {coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<2x16x64xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 16], strides: [16, 1] {coordinate_set = #ys, memory_space = #ktdp.memory_space<global>} : memref<64x16xf32>
  %tx = ktdp.construct_access_tile %X[1, 0, 0] {access_tile_set = #xt, access_tile_order = #id3} : memref<2x16x64xf16> -> !ktdp.access_tile<1x16x64xindex>
  %x3 = ktdp.load %tx : <1x16x64xindex> -> tensor<1x16x64xf16>
  %x = tensor.collapse_shape %x3 [[0, 1], [2]] : tensor<1x16x64xf16> into tensor<16x64xf16>
  %w = arith.extf %x : tensor<16x64xf16> to tensor<16x64xf32>
  %e = tensor.empty() : tensor<64x16xf32>
  %wt = linalg.transpose ins(%w : tensor<16x64xf32>) outs(%e : tensor<64x16xf32>) permutation = [1, 0]
  %two = arith.constant dense<2.0> : tensor<64x16xf32>
  %r = arith.mulf %wt, %two : tensor<64x16xf32>
  %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #ys, access_tile_order = #id2} : memref<64x16xf32> -> !ktdp.access_tile<64x16xindex>
  ktdp.store %r, %ty : tensor<64x16xf32>, <64x16xindex>
  return
}

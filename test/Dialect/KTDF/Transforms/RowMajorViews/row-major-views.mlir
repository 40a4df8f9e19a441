// RUN: ktflow-opt %s --ktdf-row-major-views --split-input-file | FileCheck %s

// A column-major view of device memory (element (i, j) at i + 64j) is the
// row-major 64x32 view of its elements: the tile's anchor and box in that
// order, the load transposed back, the stored value transposed.
// CHECK-DAG: #[[VIEW:.+]] = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
// CHECK-DAG: #[[TILE:.+]] = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 15 >= 0)>
// CHECK-LABEL: func.func @column_major
// CHECK: %[[A:.+]] = ktdp.construct_memory_view %arg0, sizes: [64, 32], strides: [64, 1] {coordinate_set = #[[VIEW]], memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
// CHECK: %[[D:.+]] = ktdp.construct_memory_view %arg1, sizes: [64, 32], strides: [32, 1] {coordinate_set = #[[VIEW]], memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
// CHECK: %[[TA:.+]] = ktdp.construct_access_tile %[[A]][0, %[[ROW:.+]]] {access_tile_order = #{{.+}}, access_tile_set = #[[TILE]]} : memref<64x32xf16> -> !ktdp.access_tile<64x16xindex>
// CHECK: %[[TD:.+]] = ktdp.construct_access_tile %[[D]][0, %[[ROW]]] {access_tile_order = #{{.+}}, access_tile_set = #[[TILE]]} : memref<64x32xf16> -> !ktdp.access_tile<64x16xindex>
// CHECK: %[[X:.+]] = ktdp.load %[[TA]] : <64x16xindex> -> tensor<64x16xf16>
// CHECK: %[[E:.+]] = tensor.empty() : tensor<16x64xf16>
// CHECK: %[[XT:.+]] = linalg.transpose ins(%[[X]] : tensor<64x16xf16>) outs(%[[E]] : tensor<16x64xf16>) permutation = [1, 0]
// CHECK: %[[Y:.+]] = linalg.add ins(%[[XT]], %[[XT]] :
// CHECK: %[[E2:.+]] = tensor.empty() : tensor<64x16xf16>
// CHECK: %[[YT:.+]] = linalg.transpose ins(%[[Y]] : tensor<16x64xf16>) outs(%[[E2]] : tensor<64x16xf16>) permutation = [1, 0]
// CHECK: ktdp.store %[[YT]], %[[TD]] : tensor<64x16xf16>, <64x16xindex>
#a = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @column_major(%a: index, %d: index) attributes {grid = [2]} {
  %tid = ktdp.get_compute_tile_id : index
  %c16 = arith.constant 16 : index
  %row = arith.muli %tid, %c16 : index
  %A = ktdp.construct_memory_view %a, sizes: [32, 64], strides: [1, 64] {coordinate_set = #a, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16, strided<[1, 64]>>
  %D = ktdp.construct_memory_view %d, sizes: [32, 64], strides: [1, 32] {coordinate_set = #a, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16, strided<[1, 32]>>
  %ta = ktdp.construct_access_tile %A[%row, 0] {access_tile_set = #t, access_tile_order = #id2} : memref<32x64xf16, strided<[1, 64]>> -> !ktdp.access_tile<16x64xindex>
  %td = ktdp.construct_access_tile %D[%row, 0] {access_tile_set = #t, access_tile_order = #id2} : memref<32x64xf16, strided<[1, 32]>> -> !ktdp.access_tile<16x64xindex>
  %x = ktdp.load %ta : <16x64xindex> -> tensor<16x64xf16>
  %e = tensor.empty() : tensor<16x64xf16>
  %y = linalg.add ins(%x, %x : tensor<16x64xf16>, tensor<16x64xf16>) outs(%e : tensor<16x64xf16>) -> tensor<16x64xf16>
  ktdp.store %y, %td : tensor<16x64xf16>, <16x64xindex>
  return
}

// -----

// Three dimensions by decreasing stride: strides [1, 16, 2] are dimensions
// 1, 2, 0 (sizes [4, 8, 2], strides [16, 2, 1]); the load is transposed
// back by [2, 0, 1].
// CHECK-LABEL: func.func @three_dims
// CHECK: %[[V:.+]] = ktdp.construct_memory_view %arg0, sizes: [4, 8, 2], strides: [16, 2, 1] {{.+}} : memref<4x8x2xf16>
// CHECK: %[[T:.+]] = ktdp.construct_access_tile %[[V]][0, 0, 0] {{.+}} -> !ktdp.access_tile<4x8x2xindex>
// CHECK: %[[X:.+]] = ktdp.load %[[T]] : <4x8x2xindex> -> tensor<4x8x2xf16>
// CHECK: linalg.transpose ins(%[[X]] : tensor<4x8x2xf16>) outs(%{{.+}} : tensor<2x4x8xf16>) permutation = [2, 0, 1]
#v3 = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 7 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @three_dims(%a: index, %o: index) attributes {grid = [1]} {
  %A = ktdp.construct_memory_view %a, sizes: [2, 4, 8], strides: [1, 16, 2] {coordinate_set = #v3, memory_space = #ktdp.memory_space<global>} : memref<2x4x8xf16>
  %O = ktdp.construct_memory_view %o, sizes: [2, 4, 8], strides: [32, 8, 1] {coordinate_set = #v3, memory_space = #ktdp.memory_space<global>} : memref<2x4x8xf16>
  %ta = ktdp.construct_access_tile %A[0, 0, 0] {access_tile_set = #v3, access_tile_order = #id3} : memref<2x4x8xf16> -> !ktdp.access_tile<2x4x8xindex>
  %to = ktdp.construct_access_tile %O[0, 0, 0] {access_tile_set = #v3, access_tile_order = #id3} : memref<2x4x8xf16> -> !ktdp.access_tile<2x4x8xindex>
  %x = ktdp.load %ta : <2x4x8xindex> -> tensor<2x4x8xf16>
  ktdp.store %x, %to : tensor<2x4x8xf16>, <2x4x8xindex>
  return
}

// -----

// Left as they are (ktdf-check-supported refuses them at the view): a
// scratchpad view (its load units read rows, no DMA transposes it) and a
// view a tile reads in a permuted order.
// CHECK-LABEL: func.func @left_alone
// CHECK: ktdp.construct_memory_view %{{.+}}, sizes: [16, 64], strides: [1, 16] {{.+}}ct_local
// CHECK: ktdp.construct_memory_view %arg0, sizes: [16, 64], strides: [1, 16] {{.+}}global
// CHECK-NOT: linalg.transpose
#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#swap = affine_map<(d0, d1) -> (d1, d0)>
func.func @left_alone(%a: index, %o: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %L = ktdp.construct_memory_view %c0, sizes: [16, 64], strides: [1, 16] {coordinate_set = #s, memory_space = #ktdp.memory_space<ct_local>} : memref<16x64xf16>
  %A = ktdp.construct_memory_view %a, sizes: [16, 64], strides: [1, 16] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %O = ktdp.construct_memory_view %o, sizes: [16, 64], strides: [64, 1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %tl = ktdp.construct_access_tile %L[0, 0] {access_tile_set = #s, access_tile_order = #id} : memref<16x64xf16> -> !ktdp.access_tile<16x64xindex>
  %ta = ktdp.construct_access_tile %A[0, 0] {access_tile_set = #s, access_tile_order = #swap} : memref<16x64xf16> -> !ktdp.access_tile<64x16xindex>
  %to = ktdp.construct_access_tile %O[0, 0] {access_tile_set = #s, access_tile_order = #id} : memref<16x64xf16> -> !ktdp.access_tile<16x64xindex>
  %x = ktdp.load %tl : <16x64xindex> -> tensor<16x64xf16>
  %y = ktdp.load %ta : <64x16xindex> -> tensor<64x16xf16>
  ktdp.store %x, %to : tensor<16x64xf16>, <16x64xindex>
  return
}

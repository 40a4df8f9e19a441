// RUN: ktflow-opt %s --ktdf-forward-scratchpad-parts --ktdf-resolve-distributed-views | FileCheck %s

// A resident part whose innermost dimension is not contiguous (the field
// guide's §1b.6 kernel, realworld/lx_resident_copy.mlir, at a smaller
// size): tile 0's part holds rows 0..7 column-major (`sizes: [8, 16]`,
// `strides: [1, 16]`: element (i, j) at i + 16j), tile 1's rows 8..15
// row-major. Both tiles read rows 4..11, which straddle the parts. Tile 0
// reads its piece (local rows 4..7) through the row-major view of the same
// elements, 16x8 with strides [16, 1], as the box 16x4 at [0, 4], copies
// it to both tiles, and each transposes its copy back to 4x16 before the
// store; tile 1's piece is copied as it lies.
// CHECK-DAG: #[[COLS:.+]] = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
// CHECK-DAG: #[[PIECE:.+]] = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 3 >= 0)>
// CHECK-LABEL: func.func @resident_column_major
// CHECK: %[[OWN0:.+]] = ktdp.construct_memory_view %{{.+}}, sizes: [16, 8], strides: [16, 1] {coordinate_set = #[[COLS]], memory_space = #ktdp.memory_space<ct_local>} : memref<16x8xf16>
// CHECK: %[[OWN1:.+]] = ktdp.construct_memory_view %{{.+}}, sizes: [8, 16], strides: [16, 1] {{.+}} memory_space = #ktdp.memory_space<ct_local>}
// CHECK: %[[F0:.+]] = ktdp.inter_tile_produce
// CHECK: %[[T0:.+]] = ktdp.construct_access_tile %[[OWN0]][0, 4] {{.+}}access_tile_set = #[[PIECE]]{{.+}} -> !ktdp.access_tile<16x4xindex>
// CHECK: ktdp.load %[[T0]] : <16x4xindex> -> tensor<16x4xf16>
// CHECK: %[[A:.+]] = ktdp.inter_tile_consume(%[[F0]]) {{.+}} -> tensor<16x4xf16>
// CHECK: %[[E:.+]] = tensor.empty() : tensor<4x16xf16>
// CHECK: %[[AT:.+]] = linalg.transpose ins(%[[A]] : tensor<16x4xf16>) outs(%[[E]] : tensor<4x16xf16>) permutation = [1, 0]
// CHECK: ktdp.construct_access_tile %[[OWN1]][0, 0]
// CHECK: %[[B:.+]] = ktdp.inter_tile_consume({{.+}} -> tensor<4x16xf16>
// CHECK: %[[TA:.+]] = ktdp.construct_access_tile %{{.+}}[0, 0]
// CHECK: ktdp.store %[[AT]], %[[TA]] : tensor<4x16xf16>
// CHECK: %[[TB:.+]] = ktdp.construct_access_tile %{{.+}}[4, 0]
// CHECK: ktdp.store %[[B]], %[[TB]] : tensor<4x16xf16>
// CHECK-NOT: ktdp.load
// CHECK: return
#p0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#p1 = affine_set<(d0, d1) : (d0 - 8 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @resident_column_major() attributes {grid = [2]} {
  %sp = arith.constant 4096 : index
  %out = arith.constant 0 : index
  %P0 = ktdp.construct_memory_view %sp, sizes: [8, 16], strides: [1, 16] {coordinate_set = #p0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<8x16xf16, strided<[1, 16]>>
  %P1 = ktdp.construct_memory_view %sp, sizes: [8, 16], strides: [16, 1] {coordinate_set = #p1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<8x16xf16>
  %D = ktdp.construct_distributed_memory_view(%P0, %P1 : memref<8x16xf16, strided<[1, 16]>>, memref<8x16xf16>) : memref<16x16xf16>
  %O = ktdp.construct_memory_view %out, sizes: [8, 16], strides: [16, 1] {coordinate_set = #t, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
  %t = ktdp.construct_access_tile %D[4, 0] {access_tile_set = #t, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<8x16xindex>
  %v = ktdp.load %t : <8x16xindex> -> tensor<8x16xf16>
  %to = ktdp.construct_access_tile %O[0, 0] {access_tile_set = #t, access_tile_order = #id2} : memref<8x16xf16> -> !ktdp.access_tile<8x16xindex>
  ktdp.store %v, %to : tensor<8x16xf16>, <8x16xindex>
  return
}

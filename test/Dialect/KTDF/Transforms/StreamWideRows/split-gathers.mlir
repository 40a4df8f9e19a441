// RUN: ktflow-opt %s --ktdf-stream-wide-rows=max-tile-bytes=2048 -split-input-file -verify-diagnostics | FileCheck %s
// RUN: ktflow-opt %s --ktdf-stream-wide-rows -split-input-file | FileCheck %s --check-prefix=OFF

// paged_kv_gather's tile: a 2x64x32 f16 gather (8 KiB) over (h, t, d),
// expanded to 1x2x64x32 and stored with t and h swapped. At 2048 bytes a
// 64x32 slice over (t, d) is 4 KiB, too much, so h steps by one and t by
// the largest divisor of 64 that fits, 32 (32x32 f16 = 2 KiB): 2 x 2
// chunks, in one loop marked for ktdf-spread-iterations, whose induction
// variable %c gives the h offset %c divui 2 and the t offset
// (%c remui 2) * 32. The chunk is gathered in OUT's order (b, t, h, d),
// 1x32x1x32, with four variables: the expand's unit dimension (used by no
// subscript), t (plus the t offset), h (plus the h offset) and d; the
// store is then a box tile of OUT in identity order, its anchor moved by
// the t offset along dimension 1 and by the h offset along dimension 2.

// CHECK-LABEL: func.func @gather_kv_pages({{.*}}) attributes {grid = [2, 2], ktdf.split_gathers}
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %[[N:.*]] step %{{.*}} {
// CHECK-NEXT: %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[TI:.*]] = arith.remui %[[C]], %[[TWO]] : index
// CHECK-NEXT: %{{.*}} = arith.constant 2 : index
// CHECK-NEXT: %[[H0:.*]] = arith.divui %[[C]], %{{.*}} : index
// CHECK-NEXT: %[[W:.*]] = arith.constant 32 : index
// CHECK-NEXT: %[[T0:.*]] = arith.muli %[[TI]], %[[W]] : index
// CHECK-NEXT: %[[SRC:.*]] = ktdp.construct_indirect_access_tile intermediate_variables(%[[U:.*]], %[[T:.*]], %[[H:.*]], %[[D:.*]]) %{{.*}}[ind(%{{.*}}[%[[B:.*]], (%[[T0]] + %[[T]]) floordiv 16]), (%[[HB:.*]] + %[[H0]] + %[[H]]), ((%[[T0]] + %[[T]]) mod 16), (%[[D]])] {variables_space_order = #{{.*}}, variables_space_set = #{{.*}}} : memref<32x4x16x32xf16>, memref<2x4xi32> -> !ktdp.access_tile<1x32x1x32xindex>
// CHECK-NEXT: %[[KV:.*]] = ktdp.load %[[SRC]] : <1x32x1x32xindex> -> tensor<1x32x1x32xf16>
// CHECK-NEXT: %[[DST:.*]] = ktdp.construct_access_tile %{{.*}}[%[[B]], %[[T0]], %[[HB]] + %[[H0]], 0] {access_tile_order = #{{.*}}, access_tile_set = #{{.*}}} : memref<2x64x4x32xf16> -> !ktdp.access_tile<1x32x1x32xindex>
// CHECK-NEXT: ktdp.store %[[KV]], %[[DST]] : tensor<1x32x1x32xf16>, <1x32x1x32xindex>
// CHECK-NEXT: } {ktdf.spread_chunks}
// CHECK-NEXT: return
// OFF-LABEL: func.func @gather_kv_pages
// OFF-NOT: scf.for
// OFF: ktdp.load %{{.*}} : <2x64x32xindex> -> tensor<2x64x32xf16>

#pool_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 15 >= 0, d3 >= 0, -d3 + 31 >= 0)>
#pt_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#out_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 3 >= 0, d3 >= 0, -d3 + 31 >= 0)>
#vars = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 31 >= 0)>
#out_tile = affine_set<(d0, d1, d2, d3) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 1 >= 0, d3 >= 0, -d3 + 31 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#t_h_swapped = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
func.func @gather_kv_pages(%pool_ptr: index, %pt_ptr: index, %out_ptr: index) attributes {grid = [2, 2]} {
  %b, %hg = ktdp.get_compute_tile_id : index, index
  %c2 = arith.constant 2 : index
  %h0 = arith.muli %hg, %c2 : index
  %POOL = ktdp.construct_memory_view %pool_ptr, sizes : [32, 4, 16, 32], strides : [2048, 512, 32, 1] {coordinate_set = #pool_set, memory_space = #ktdp.memory_space<global>} : memref<32x4x16x32xf16>
  %PT = ktdp.construct_memory_view %pt_ptr, sizes: [2, 4], strides: [4, 1] {coordinate_set = #pt_set, memory_space = #ktdp.memory_space<global>} : memref<2x4xi32>
  %OUT = ktdp.construct_memory_view %out_ptr, sizes: [2, 64, 4, 32], strides: [8192, 128, 32, 1] {coordinate_set = #out_set, memory_space = #ktdp.memory_space<global>} : memref<2x64x4x32xf16>
  %src = ktdp.construct_indirect_access_tile intermediate_variables(%h, %t, %d) %POOL[ind(%PT[%b, (%t floordiv 16)]), (%h0 + %h), (%t mod 16), (%d)] {variables_space_set = #vars, variables_space_order = #id3} : memref<32x4x16x32xf16>, memref<2x4xi32> -> !ktdp.access_tile<2x64x32xindex>
  %kv = ktdp.load %src : <2x64x32xindex> -> tensor<2x64x32xf16>
  %kv4 = tensor.expand_shape %kv [[0, 1], [2], [3]] output_shape [1, 2, 64, 32] : tensor<2x64x32xf16> into tensor<1x2x64x32xf16>
  %dst = ktdp.construct_access_tile %OUT[%b, 0, %h0, 0] {access_tile_order = #t_h_swapped, access_tile_set = #out_tile} : memref<2x64x4x32xf16> -> !ktdp.access_tile<1x2x64x32xindex>
  ktdp.store %kv4, %dst : tensor<1x2x64x32xf16>, <1x2x64x32xindex>
  return
}

// -----

// A gather that is computed on stays whole, with a warning saying why.

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @gather_add
// CHECK-NOT: scf.for
// CHECK-NOT: ktdf.split_gathers
func.func @gather_add(%x: index, %idx: index, %y: index) {
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %I = ktdp.construct_memory_view %idx, sizes: [64], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64xi32>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %src = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c) %X[ind(%I[%r]), (%c)] {variables_space_set = #rows, variables_space_order = #id2} : memref<64x64xf16>, memref<64xi32> -> !ktdp.access_tile<64x64xindex>
  // expected-warning @+1 {{this gather (8192 bytes) cannot move through the scratchpad in chunks: the gathered tensor is computed on, not only stored}}
  %g = ktdp.load %src : <64x64xindex> -> tensor<64x64xf16>
  %s = arith.negf %g : tensor<64x64xf16>
  %dst = ktdp.construct_access_tile %Y[0, 0] {access_tile_order = #id2, access_tile_set = #rows} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
  ktdp.store %s, %dst : tensor<64x64xf16>, <64x64xindex>
  return
}

// RUN: ktflow-opt %s -split-input-file --ktdf-import-target --ktdf-split-index-bound-gathers | FileCheck %s

// The field guide's paged KV gather (realworld/paged_kv_gather.mlir):
// tile (b, hg) gathers OUT[b, t, 2hg + h, d] = POOL[PT[b, t floordiv 16],
// 2hg + h, t mod 16, d] for h < 2, t < 64, d < 32 (f16). Its runs (a row of
// 32) share their page's index: the DMA engine reads 8 indices (4 pages of
// each head) of 150 cycles on spyre_like, against 8 KiB that take 64
// cycles at 128 B/cycle, so the reads bind. The 4 points leave each 16
// lanes, 8 DMA engines (a core's two lanes share one): 8 chunks of one
// page of one head, one read on each engine (16 chunks of 8 rows would
// read 2 on each), dealt by ktdf-spread-iterations. The chunk's store is a
// box tile in the view's order.

// CHECK-LABEL: func.func @gather_kv_pages
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[C8]] step %{{.*}} {
// CHECK: %[[PAGE:.*]] = arith.remui %[[I]], %{{.*}} : index
// CHECK: %[[HEAD:.*]] = arith.divui %[[I]], %{{.*}} : index
// CHECK: %[[T:.*]] = arith.muli %[[PAGE]], %{{.*}} : index
// CHECK: %[[G:.*]] = ktdp.construct_indirect_access_tile intermediate_variables(%{{.*}}, %[[TT:.*]], %{{.*}}, %{{.*}}) %{{.*}}[ind(%{{.*}}[%{{.*}}, (%[[T]] + %[[TT]]) floordiv 16]), (%{{.*}} + %[[HEAD]] + %{{.*}}), ((%[[T]] + %[[TT]]) mod 16), (%{{.*}})]
// CHECK-SAME: -> !ktdp.access_tile<1x16x1x32xindex>
// CHECK: %[[V:.*]] = ktdp.load %[[G]] : <1x16x1x32xindex> -> tensor<1x16x1x32xf16>
// CHECK: %[[D:.*]] = ktdp.construct_access_tile %{{.*}}[%{{.*}}, %[[T]], %{{.*}} + %[[HEAD]], 0]
// CHECK: ktdp.store %[[V]], %[[D]] : tensor<1x16x1x32xf16>, <1x16x1x32xindex>
// CHECK: } {ktdf.spread_chunks}

#pool_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 15 >= 0, d3 >= 0, -d3 + 31 >= 0)>
#pt_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#out_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 3 >= 0, d3 >= 0, -d3 + 31 >= 0)>
#vars = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 31 >= 0)>
#out_tile = affine_set<(d0, d1, d2, d3) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 1 >= 0, d3 >= 0, -d3 + 31 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#t_h_swapped = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR">
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
}

// -----

// sample_device: the 4 points leave each 2 lanes on one core, whose DMA
// engine reads the 8 indices (100 cycles each) either way; two chunks of
// one head, 4 pages each, the one lane's reads overlapping the other's
// transfers (1,263 -> 1,199 cycles on realworld/paged_kv_gather.mlir).

// CHECK-LABEL: func.func @sample_pages
// CHECK: scf.for %[[H:.*]] = %{{.*}} to %[[C2:.*]] step
// CHECK: ktdp.construct_indirect_access_tile {{.*}}, (%{{.*}} + %[[H]] + %{{.*}}), {{.*}} -> !ktdp.access_tile<1x64x1x32xindex>
// CHECK: } {ktdf.spread_chunks}

#pool_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 15 >= 0, d3 >= 0, -d3 + 31 >= 0)>
#pt_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#out_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 3 >= 0, d3 >= 0, -d3 + 31 >= 0)>
#vars = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 31 >= 0)>
#out_tile = affine_set<(d0, d1, d2, d3) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 1 >= 0, d3 >= 0, -d3 + 31 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#t_h_swapped = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
module {
  ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR">
  func.func @sample_pages(%pool_ptr: index, %pt_ptr: index, %out_ptr: index) attributes {grid = [2, 2]} {
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
}

// -----

// Whole on mesh_device: its DMA engine reads its scratchpad in 2 cycles
// and device memory in 80, and ktdf-route-transfers stages the page ids
// there (indexStagingPays): cut, the chunks would only add their stores
// (odd_paged_kv_pages7 518 -> 640 cycles).

// CHECK-LABEL: func.func @mesh_pages
// CHECK-NOT: scf.for
// CHECK: return

#pool_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 15 >= 0, d3 >= 0, -d3 + 31 >= 0)>
#pt_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#out_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 3 >= 0, d3 >= 0, -d3 + 31 >= 0)>
#vars = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 31 >= 0)>
#out_tile = affine_set<(d0, d1, d2, d3) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 1 >= 0, d3 >= 0, -d3 + 31 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#t_h_swapped = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM">
  func.func @mesh_pages(%pool_ptr: index, %pt_ptr: index, %out_ptr: index) attributes {grid = [2, 2]} {
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
}

// -----

// Whole: pages of 128 rows of 256 bytes. One transfer reads 2 page ids
// (300 cycles on spyre_like) and moves 64 KiB (512 cycles at 128
// B/cycle): its bytes bind, not its index reads.

// CHECK-LABEL: func.func @big_pages
// CHECK-NOT: scf.for
// CHECK: return

#pool_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0, d2 >= 0, -d2 + 127 >= 0)>
#pt_set = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#vars = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR">
  func.func @big_pages(%pool_ptr: index, %pt_ptr: index, %out_ptr: index) {
    %POOL = ktdp.construct_memory_view %pool_ptr, sizes: [4, 128, 128], strides: [16384, 128, 1] {coordinate_set = #pool_set, memory_space = #ktdp.memory_space<global>} : memref<4x128x128xf16>
    %PT = ktdp.construct_memory_view %pt_ptr, sizes: [2], strides: [1] {coordinate_set = #pt_set, memory_space = #ktdp.memory_space<global>} : memref<2xi32>
    %OUT = ktdp.construct_memory_view %out_ptr, sizes: [256, 128], strides: [128, 1] {coordinate_set = #vars, memory_space = #ktdp.memory_space<global>} : memref<256x128xf16>
    %src = ktdp.construct_indirect_access_tile intermediate_variables(%t, %d) %POOL[ind(%PT[(%t floordiv 128)]), (%t mod 128), (%d)] {variables_space_set = #vars, variables_space_order = #id2} : memref<4x128x128xf16>, memref<2xi32> -> !ktdp.access_tile<256x128xindex>
    %rows = ktdp.load %src : <256x128xindex> -> tensor<256x128xf16>
    %dst = ktdp.construct_access_tile %OUT[0, 0] {access_tile_set = #vars, access_tile_order = #id2} : memref<256x128xf16> -> !ktdp.access_tile<256x128xindex>
    ktdp.store %rows, %dst : tensor<256x128xf16>, <256x128xindex>
    return
  }
}

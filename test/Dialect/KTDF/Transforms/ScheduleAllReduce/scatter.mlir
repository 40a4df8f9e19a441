// RUN: ktflow-opt %s --ktdf-import-target --ktdf-lower-inter-tile --ktdf-map-memory-spaces --ktdf-sink-into-loops --ktdf-generalize --ktdf-legalize-unit-types --ktir-to-ktdf --ktdf-route-transfers --ktdf-tile-streams --ktdf-distribute --ktdf-buffer --ktdf-allocate-scratchpad --ktdf-schedule-all-reduce -split-input-file | FileCheck %s

// The two_rings all-reduce of schedule-all-reduce.mlir (8192 f16 over 4
// mesh_device tiles, whose halves make chunks of 8 pieces of 256 bytes)
// as a reduce-scatter: each tile reads only its own row of the 4x2048 sum
// (a reduce marked `ktdf.scatter`, ScatterAttr.h), so no all-gather
// follows for a second ring to overlap: one ring, chunks of 2048 elements
// in 8 pieces.

// CHECK-LABEL: func.func @scattered_one_ring
// CHECK: ktdf.stage "send"
// CHECK-NEXT: ktdf.all_reduce %{{.*}}, %{{.*}} {combiner = "arith.addf", groups = [array<i64: 0, 1, 2, 3>], ktdf.scatter, pieces = 8 : i64}
// CHECK-NOT: rings

ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 2047 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 2047 >= 0)>
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @scattered_one_ring(%x_ptr: index, %y_ptr: index) attributes {grid = [4]} {
  %pid = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [4, 2048], strides: [2048, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x2048xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 2048], strides: [2048, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x2048xf16>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<4x2048xf16> -> !ktdp.access_tile<4x2048xindex>
  %ty = ktdp.construct_access_tile %Y[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<4x2048xf16> -> !ktdp.access_tile<1x2048xindex>
  %x = ktdp.load %tx : <4x2048xindex> -> tensor<4x2048xf16>
  %p = arith.addf %x, %x : tensor<4x2048xf16>
  %zero = arith.constant dense<0.0> : tensor<4x2048xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
      : tensor<4x2048xf16> -> !ktdp.tile_future<tensor<4x2048xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %p : tensor<4x2048xf16>
  }
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%zero : tensor<4x2048xf16>) {ktdf.scatter}
      : !ktdp.tile_future<tensor<4x2048xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<4x2048xf16> {
  ^bb0(%a: tensor<4x2048xf16>, %b: tensor<4x2048xf16>):
    %r = arith.addf %a, %b : tensor<4x2048xf16>
    ktdp.yield_reduced %r : tensor<4x2048xf16>
  }
  %mine = tensor.extract_slice %s[%pid, 0] [1, 2048] [1, 1] : tensor<4x2048xf16> to tensor<1x2048xf16>
  %y = arith.mulf %mine, %mine : tensor<1x2048xf16>
  ktdp.store %y, %ty : tensor<1x2048xf16>, <1x2048xindex>
  return
}

// -----

// 4x64 f32 over 4 tiles: chunks of one 256-byte row. A whole all-reduce
// moves such a chunk as two pieces (pieces of at least 128 bytes); a
// reduce-scatter's steps are a chain of latencies with no all-gather to
// overlap, so its pieces go down to 64 bytes: 4 pieces, each combined
// while the next crosses (swiglu_ffn on mesh_device: 1,394 -> 1,339).

// CHECK-LABEL: func.func @scattered_small_pieces
// CHECK: ktdf.stage "send"
// CHECK-NEXT: ktdf.all_reduce %{{.*}}, %{{.*}} {combiner = "arith.addf", groups = [array<i64: 0, 1, 2, 3>], ktdf.scatter, pieces = 4 : i64}

ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @scattered_small_pieces(%x_ptr: index, %y_ptr: index) attributes {grid = [4]} {
  %pid = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [4, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<4x64xf32> -> !ktdp.access_tile<4x64xindex>
  %ty = ktdp.construct_access_tile %Y[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<4x64xf32> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %tx : <4x64xindex> -> tensor<4x64xf32>
  %p = arith.addf %x, %x : tensor<4x64xf32>
  %zero = arith.constant dense<0.0> : tensor<4x64xf32>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
      : tensor<4x64xf32> -> !ktdp.tile_future<tensor<4x64xf32>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %p : tensor<4x64xf32>
  }
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%zero : tensor<4x64xf32>) {ktdf.scatter}
      : !ktdp.tile_future<tensor<4x64xf32>, groups = affine_set<(g) : (g == 0)>> -> tensor<4x64xf32> {
  ^bb0(%a: tensor<4x64xf32>, %b: tensor<4x64xf32>):
    %r = arith.addf %a, %b : tensor<4x64xf32>
    ktdp.yield_reduced %r : tensor<4x64xf32>
  }
  %mine = tensor.extract_slice %s[%pid, 0] [1, 64] [1, 1] : tensor<4x64xf32> to tensor<1x64xf32>
  %y = arith.mulf %mine, %mine : tensor<1x64xf32>
  ktdp.store %y, %ty : tensor<1x64xf32>, <1x64xindex>
  return
}

// RUN: ktflow-opt %s -split-input-file --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams --ktdf-distribute --ktdf-buffer --ktdf-allocate-scratchpad --ktdf-schedule-all-reduce -verify-diagnostics | FileCheck %s

// A ring shift of 1x64 rows over 4 tiles of spyre_like (consumer c takes
// the row of producer (c + 3) mod 4): the tile copy becomes a pipeline of
// one `send` stage on the DMA engine that reads LX, holding the copy,
// between the pipeline storing the rows and the one loading the copies.

// CHECK-LABEL: func.func @shift
// CHECK: ktdf.stage "drain"
// CHECK: ktdf.pipeline modulo(size: 1) {
// CHECK-NEXT: ktdf.stage "send" depends_out(0) applicable_units [dma_store] unit "core/DMA_OUT" {
// CHECK-NEXT: ktdf.tile_copy %{{.*}}, %{{.*}} {sources = array<i64: 3, 0, 1, 2>}
// CHECK-NOT: ktdf.stage
// CHECK: ktdf.pipeline
// CHECK: ktdf.stage "feed"
// CHECK-NOT: ktdf.tile_copy

ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#prev = affine_set<(p)[c] : (p - (c + 3) mod 4 == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @shift(%x_ptr: index, %y_ptr: index) attributes {grid = [4]} {
  %pid = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [4, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %tx = ktdp.construct_access_tile %X[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
  %ty = ktdp.construct_access_tile %Y[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
      : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<1x64xf16>
  }
  %s = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #all4, producer_dependency_per_consumer = #prev
      : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16>
  ktdp.store %s, %ty : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

// A producer and its consumer on one core: spyre_like has 32 cores of 2
// lanes, and 64 tiles put tile 32 on core 0 with tile 0.
ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(i)[g] : (i >= 0, -i + 63 >= 0, g == 0)>
#tile0 = affine_set<(i)[g] : (i == 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @same_core(%x_ptr: index, %y_ptr: index) attributes {grid = [64]} {
  %pid = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
  %ty = ktdp.construct_access_tile %Y[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #tile0
      : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<1x64xf16>
  }
  // expected-error @+1 {{tiles 0 and 32 run on one core; the copy sends between the scratchpads of different cores}}
  %s = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #all
      : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16>
  ktdp.store %s, %ty : tensor<1x64xf16>, <1x64xindex>
  return
}

// RUN: ktflow-opt %s -split-input-file --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams --ktdf-distribute --ktdf-buffer --ktdf-allocate-scratchpad --ktdf-schedule-all-reduce -verify-diagnostics | FileCheck %s

// An all-reduce of 1x2048 f16 partials (4 KiB) over 4 tiles of
// spyre_like: a pipeline of four stages on the first lane's units (the
// DMA engine that reads LX, the LX load unit, the SFP, the LX store
// unit), each holding the all-reduce with its pieces: chunks of 512
// elements (1 KiB) move as 8 pieces of 128 bytes. The 4 grid points run
// on the first lanes of 4 of the 32 cores, so the core's second corelet,
// whose SFP also streams LX, combines every other piece (`lanes = 2`):
// its feed, combine and drain name the first lane's units with
// `ktdf.lane_offset = 1`. The slots are one 128-byte stick (64 f16)
// wide. The pipeline sits where the all-reduce was, between the pipeline
// storing the partial and the one loading the result.

// CHECK-LABEL: func.func @sum4
// CHECK: ktdf.stage "drain"
// CHECK: ktdf.pipeline modulo(size: 1) {
// CHECK-NEXT: ktdf.private : !ktdf.fifo.slot<"core/corelet/LXLU" -> "core/corelet/SFP", 64xf16>
// CHECK-NEXT: ktdf.private : !ktdf.fifo.slot<"core/corelet/SFP" -> "core/corelet/LXSU", 64xf16>
// CHECK-NEXT: ktdf.stage "send" depends_out(0) applicable_units [dma_store] unit "core/DMA_OUT" {
// CHECK-NEXT: ktdf.all_reduce %{{.*}}, %{{.*}} {combiner = "arith.addf", groups = [array<i64: 0, 1, 2, 3>], lanes = 2 : i64, pieces = 8 : i64}
// CHECK: ktdf.stage "feed" depends_out(0) applicable_units [scratchpad_load] unit "core/corelet/LXLU" {
// CHECK-NEXT: ktdf.all_reduce
// CHECK: ktdf.stage "combine" depends_out(0) applicable_units [vector_compute] unit "core/corelet/SFP" {
// CHECK-NEXT: ktdf.all_reduce
// CHECK: ktdf.stage "drain" depends_out(0) applicable_units [scratchpad_store] unit "core/corelet/LXSU" {
// CHECK-NEXT: ktdf.all_reduce
// CHECK: ktdf.stage "feed" depends_out(0) applicable_units [scratchpad_load] unit "core/corelet/LXLU" attributes {ktdf.lane_offset = 1 : i64} {
// CHECK-NEXT: ktdf.all_reduce
// CHECK: ktdf.stage "combine" depends_out(0) applicable_units [vector_compute] unit "core/corelet/SFP" attributes {ktdf.lane_offset = 1 : i64} {
// CHECK-NEXT: ktdf.all_reduce
// CHECK: ktdf.stage "drain" depends_out(0) applicable_units [scratchpad_store] unit "core/corelet/LXSU" attributes {ktdf.lane_offset = 1 : i64} {
// CHECK-NEXT: ktdf.all_reduce
// CHECK-NOT: lane_offset
// CHECK: ktdf.pipeline
// CHECK: ktdf.stage "feed"
// CHECK-NOT: ktdf.all_reduce

ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 2047 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 2047 >= 0)>
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @sum4(%x_ptr: index, %y_ptr: index) attributes {grid = [4]} {
  %pid = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [4, 2048], strides: [2048, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x2048xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 2048], strides: [2048, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x2048xf16>
  %tx = ktdp.construct_access_tile %X[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<4x2048xf16> -> !ktdp.access_tile<1x2048xindex>
  %ty = ktdp.construct_access_tile %Y[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<4x2048xf16> -> !ktdp.access_tile<1x2048xindex>
  %x = ktdp.load %tx : <1x2048xindex> -> tensor<1x2048xf16>
  %zero = arith.constant dense<0.0> : tensor<1x2048xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
      : tensor<1x2048xf16> -> !ktdp.tile_future<tensor<1x2048xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<1x2048xf16>
  }
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%zero : tensor<1x2048xf16>)
      : !ktdp.tile_future<tensor<1x2048xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<1x2048xf16> {
  ^bb0(%a: tensor<1x2048xf16>, %b: tensor<1x2048xf16>):
    %r = arith.addf %a, %b : tensor<1x2048xf16>
    ktdp.yield_reduced %r : tensor<1x2048xf16>
  }
  ktdp.store %s, %ty : tensor<1x2048xf16>, <1x2048xindex>
  return
}

// -----

// Two tiles of a group on one core: spyre_like has 32 cores of 2 lanes,
// and 64 tiles fill the second lanes of the cores with tiles 32 to 63.

ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(i)[g] : (i >= 0, -i + 63 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @same_core(%x_ptr: index, %y_ptr: index) attributes {grid = [64]} {
  %pid = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %tx = ktdp.construct_access_tile %X[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
  %ty = ktdp.construct_access_tile %Y[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  %zero = arith.constant dense<0.0> : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all
      : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<1x64xf16>
  }
  // expected-error @+1 {{tiles 0 and 32 of a group run on core 0; the ring sends between the scratchpads of different cores}}
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all, identity(%zero : tensor<1x64xf16>)
      : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
  ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
    %r = arith.addf %a, %b : tensor<1x64xf16>
    ktdp.yield_reduced %r : tensor<1x64xf16>
  }
  ktdp.store %s, %ty : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

// mesh_device combines on one lane per core (one vector unit), so a
// ring's reduce-scatter is bound by the combine and its all-gather runs
// alone after it: a partial whose halves still make chunks of 8 pieces of
// 256 bytes goes round as two rings, one half after the other (`rings =
// 2`), the pieces chosen for a half's chunk. 1x8192 f16 over 4 tiles:
// halves of 4096 elements, chunks of 1024 (2 KiB) in 8 pieces. 1x4096:
// a half's chunk would be 1 KiB, so one ring with chunks of 1024 in 8
// pieces. The 16 x 64 KiB all-reduce of bench/allreduce_kernels.py:
// 9,233 -> 8,766 cycles.

// CHECK-LABEL: func.func @two_rings
// CHECK: ktdf.stage "send"
// CHECK-NEXT: ktdf.all_reduce %{{.*}}, %{{.*}} {combiner = "arith.addf", groups = [array<i64: 0, 1, 2, 3>], pieces = 8 : i64, rings = 2 : i64}
// CHECK-LABEL: func.func @one_ring
// CHECK: ktdf.stage "send"
// CHECK-NEXT: ktdf.all_reduce %{{.*}}, %{{.*}} {combiner = "arith.addf", groups = [array<i64: 0, 1, 2, 3>], pieces = 8 : i64}

ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
#x_set_8192 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 8191 >= 0)>
#row_8192 = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 8191 >= 0)>
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @two_rings(%x_ptr: index, %y_ptr: index) attributes {grid = [4]} {
  %pid = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [4, 8192], strides: [8192, 1] {coordinate_set = #x_set_8192, memory_space = #ktdp.memory_space<global>} : memref<4x8192xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 8192], strides: [8192, 1] {coordinate_set = #x_set_8192, memory_space = #ktdp.memory_space<global>} : memref<4x8192xf16>
  %tx = ktdp.construct_access_tile %X[%pid, 0] {access_tile_set = #row_8192, access_tile_order = #id2} : memref<4x8192xf16> -> !ktdp.access_tile<1x8192xindex>
  %ty = ktdp.construct_access_tile %Y[%pid, 0] {access_tile_set = #row_8192, access_tile_order = #id2} : memref<4x8192xf16> -> !ktdp.access_tile<1x8192xindex>
  %x = ktdp.load %tx : <1x8192xindex> -> tensor<1x8192xf16>
  %zero = arith.constant dense<0.0> : tensor<1x8192xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
      : tensor<1x8192xf16> -> !ktdp.tile_future<tensor<1x8192xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<1x8192xf16>
  }
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%zero : tensor<1x8192xf16>)
      : !ktdp.tile_future<tensor<1x8192xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<1x8192xf16> {
  ^bb0(%a: tensor<1x8192xf16>, %b: tensor<1x8192xf16>):
    %r = arith.addf %a, %b : tensor<1x8192xf16>
    ktdp.yield_reduced %r : tensor<1x8192xf16>
  }
  ktdp.store %s, %ty : tensor<1x8192xf16>, <1x8192xindex>
  return
}

// -----

ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
#x_set_4096 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 4095 >= 0)>
#row_4096 = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 4095 >= 0)>
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @one_ring(%x_ptr: index, %y_ptr: index) attributes {grid = [4]} {
  %pid = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [4, 4096], strides: [4096, 1] {coordinate_set = #x_set_4096, memory_space = #ktdp.memory_space<global>} : memref<4x4096xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 4096], strides: [4096, 1] {coordinate_set = #x_set_4096, memory_space = #ktdp.memory_space<global>} : memref<4x4096xf16>
  %tx = ktdp.construct_access_tile %X[%pid, 0] {access_tile_set = #row_4096, access_tile_order = #id2} : memref<4x4096xf16> -> !ktdp.access_tile<1x4096xindex>
  %ty = ktdp.construct_access_tile %Y[%pid, 0] {access_tile_set = #row_4096, access_tile_order = #id2} : memref<4x4096xf16> -> !ktdp.access_tile<1x4096xindex>
  %x = ktdp.load %tx : <1x4096xindex> -> tensor<1x4096xf16>
  %zero = arith.constant dense<0.0> : tensor<1x4096xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
      : tensor<1x4096xf16> -> !ktdp.tile_future<tensor<1x4096xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<1x4096xf16>
  }
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%zero : tensor<1x4096xf16>)
      : !ktdp.tile_future<tensor<1x4096xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<1x4096xf16> {
  ^bb0(%a: tensor<1x4096xf16>, %b: tensor<1x4096xf16>):
    %r = arith.addf %a, %b : tensor<1x4096xf16>
    ktdp.yield_reduced %r : tensor<1x4096xf16>
  }
  ktdp.store %s, %ty : tensor<1x4096xf16>, <1x4096xindex>
  return
}

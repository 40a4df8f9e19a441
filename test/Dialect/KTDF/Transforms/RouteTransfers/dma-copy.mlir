// RUN: ktflow-opt %s --ktdf-import-target --ktdf-route-transfers -split-input-file | FileCheck %s

// A gather that is only stored (the compute stage forwards what it reads)
// needs no load, compute or store unit: on spyre_like, DMA_IN gathers the
// rows into an LX buffer and DMA_OUT stores that same buffer. Input: the
// ScheduleIR of test/EndToEnd/gather-dma-only.mlir after --ktdf-mapping.

// CHECK-LABEL: func.func @gather_pages
// CHECK: %[[SRC:.*]] = ktdp.construct_indirect_access_tile
// CHECK-NEXT: %[[DST:.*]] = ktdp.construct_access_tile
// CHECK-NEXT: ktdf.pipeline {
// CHECK-NEXT: %[[BUF:.*]] = ktdf.private : memref<8x32xf16, "LX">
// CHECK-NEXT: %[[LOADED:.*]] = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load] unit "core/DMA_IN" {
// CHECK-NEXT: ktdf.data_transfer %[[SRC]] to %[[BUF]] : !ktdp.access_tile<8x32xindex> to memref<8x32xf16, "LX">
// CHECK-NEXT: }
// CHECK-NEXT: ktdf.stage "store_0" depends_in(%[[LOADED]]) depends_out(0) applicable_units [dma_store] unit "core/DMA_OUT" {
// CHECK-NEXT: ktdf.data_transfer %[[BUF]] to %[[DST]] : memref<8x32xf16, "LX"> to !ktdp.access_tile<8x32xindex>
// CHECK-NEXT: }
// CHECK-NEXT: }

#map = affine_map<(d0, d1) -> (d0, d1)>
#set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 31 >= 0)>
#set1 = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#set2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir" memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @gather_pages(%arg0: index {ktdf.tensor = tensor<4x4x32xf16>}, %arg1: index {ktdf.tensor = tensor<2xi32>}, %arg2: index {ktdf.tensor = tensor<8x32xf16>}) attributes {grid = [1]} {
    ktdf.parallel (%arg3) in [1] {
      %0 = ktdp.construct_memory_view %arg0, sizes: [4, 4, 32], strides: [128, 32, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<4x4x32xf16>
      %1 = ktdp.construct_memory_view %arg1, sizes: [2], strides: [1] {coordinate_set = #set1, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<2xi32>
      %2 = ktdp.construct_memory_view %arg2, sizes: [8, 32], strides: [32, 1] {coordinate_set = #set2, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<8x32xf16>
      %3 = ktdp.construct_indirect_access_tile intermediate_variables(%arg4, %arg5) %0[ind(%1[%arg4 floordiv 4]), (%arg4 mod 4), (%arg5)] {variables_space_order = #map, variables_space_set = #set2} : memref<4x4x32xf16>, memref<2xi32> -> !ktdp.access_tile<8x32xindex>
      %4 = ktdp.construct_access_tile %2[0, 0] {access_tile_order = #map, access_tile_set = #set2} : memref<8x32xf16> -> !ktdp.access_tile<8x32xindex>
      ktdf.pipeline {
        %slot = ktdf.private : !ktdf.fifo.slot<DDR -> vector_compute, 8x32xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<vector_compute -> DDR, 8x32xf16>
        %5 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load, scratchpad_load] {
          ktdf.data_transfer %3 to %slot : !ktdp.access_tile<8x32xindex> to !ktdf.fifo.slot<DDR -> vector_compute, 8x32xf16>
        }
        %6 = ktdf.stage "compute" depends_in(%5) depends_out(1) applicable_units [vector_compute] {
          %7 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<DDR -> vector_compute, 8x32xf16> -> tensor<8x32xf16>
          ktdf.write_to_fifo %7 to %slot_0 : tensor<8x32xf16> to !ktdf.fifo.slot<vector_compute -> DDR, 8x32xf16>
        }
        ktdf.stage "store_0" depends_in(%6) depends_out(0) applicable_units [scratchpad_store, dma_store] {
          ktdf.data_transfer %slot_0 to %4 : !ktdf.fifo.slot<vector_compute -> DDR, 8x32xf16> to !ktdp.access_tile<8x32xindex>
        }
      }
    }
    return
  }
}

// -----

// The same gather, doubled before it is stored: the compute stage does
// work, so the rows go through the compute unit's feed and drain.

// CHECK-LABEL: func.func @gather_pages_doubled
// CHECK: ktdf.stage "load_0" {{.*}} unit "core/DMA_IN"
// CHECK: ktdf.stage "feed" {{.*}} unit "core/corelet/LXLU"
// CHECK: ktdf.stage "compute" {{.*}} unit "core/corelet/SFP"
// CHECK: ktdf.stage "drain" {{.*}} unit "core/corelet/LXSU"
// CHECK: ktdf.stage "store_0" {{.*}} unit "core/DMA_OUT"

#map = affine_map<(d0, d1) -> (d0, d1)>
#set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 31 >= 0)>
#set1 = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#set2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir" memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @gather_pages_doubled(%arg0: index {ktdf.tensor = tensor<4x4x32xf16>}, %arg1: index {ktdf.tensor = tensor<2xi32>}, %arg2: index {ktdf.tensor = tensor<8x32xf16>}) attributes {grid = [1]} {
    ktdf.parallel (%arg3) in [1] {
      %0 = ktdp.construct_memory_view %arg0, sizes: [4, 4, 32], strides: [128, 32, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<4x4x32xf16>
      %1 = ktdp.construct_memory_view %arg1, sizes: [2], strides: [1] {coordinate_set = #set1, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<2xi32>
      %2 = ktdp.construct_memory_view %arg2, sizes: [8, 32], strides: [32, 1] {coordinate_set = #set2, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<8x32xf16>
      %3 = ktdp.construct_indirect_access_tile intermediate_variables(%arg4, %arg5) %0[ind(%1[%arg4 floordiv 4]), (%arg4 mod 4), (%arg5)] {variables_space_order = #map, variables_space_set = #set2} : memref<4x4x32xf16>, memref<2xi32> -> !ktdp.access_tile<8x32xindex>
      %4 = ktdp.construct_access_tile %2[0, 0] {access_tile_order = #map, access_tile_set = #set2} : memref<8x32xf16> -> !ktdp.access_tile<8x32xindex>
      ktdf.pipeline {
        %slot = ktdf.private : !ktdf.fifo.slot<DDR -> vector_compute, 8x32xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<vector_compute -> DDR, 8x32xf16>
        %5 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load, scratchpad_load] {
          ktdf.data_transfer %3 to %slot : !ktdp.access_tile<8x32xindex> to !ktdf.fifo.slot<DDR -> vector_compute, 8x32xf16>
        }
        %6 = ktdf.stage "compute" depends_in(%5) depends_out(1) applicable_units [vector_compute] {
          %7 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<DDR -> vector_compute, 8x32xf16> -> tensor<8x32xf16>
          %8 = arith.addf %7, %7 : tensor<8x32xf16>
          ktdf.write_to_fifo %8 to %slot_0 : tensor<8x32xf16> to !ktdf.fifo.slot<vector_compute -> DDR, 8x32xf16>
        }
        ktdf.stage "store_0" depends_in(%6) depends_out(0) applicable_units [scratchpad_store, dma_store] {
          ktdf.data_transfer %slot_0 to %4 : !ktdf.fifo.slot<vector_compute -> DDR, 8x32xf16> to !ktdp.access_tile<8x32xindex>
        }
      }
    }
    return
  }
}

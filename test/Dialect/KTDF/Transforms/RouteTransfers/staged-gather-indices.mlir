// RUN: ktflow-opt %s --split-input-file --ktdf-route-transfers | FileCheck %s

// A gather whose DMA unit reads the scratchpad sooner than device memory
// (mesh_device's DMA engine: SPM 2 cycles away, HBM 80) gets its indices
// staged there when that pays (indexStagingPays): indexed_add's tile reads
// 16 row ids, 16 x 80 = 1,280 cycles of round trips from HBM, against one
// DMA of the box IDX[%r0 .. %r0 + 15] (128 bytes: 82 + 2 cycles) and 16
// reads of 2 cycles from SPM. The box is an access tile anchored at %r0
// that the same DMA unit moves into an SPM buffer in a stage first in the
// pipeline; the gather depends on it and reads its indices there.

// CHECK-LABEL: func.func @indexed_add
// CHECK: %[[R0:.*]] = arith.muli %arg5
// CHECK: %[[IDX:.*]] = ktdp.construct_memory_view %arg1
// CHECK: %[[GATHER:.*]] = ktdp.construct_indirect_access_tile
// CHECK-NEXT: %[[BOX:.*]] = ktdp.construct_access_tile %[[IDX]][%[[R0]]] {{.*}} : memref<32xi64> -> !ktdp.access_tile<16xindex>
// CHECK: ktdf.pipeline {
// CHECK-NEXT: %[[STAGED:.*]] = ktdf.private : memref<16xi64, "SPM">
// CHECK-NEXT: %[[BUF:.*]] = ktdf.private : memref<16x32xf16, "SPM">
// CHECK: %[[TOKEN:.*]] = ktdf.stage "index_0" depends_out(1) applicable_units [dma_load] unit "tile/DMA" {
// CHECK-NEXT: ktdf.data_transfer %[[BOX]] to %[[STAGED]] : !ktdp.access_tile<16xindex> to memref<16xi64, "SPM">
// CHECK-NEXT: }
// CHECK-NEXT: ktdf.stage "load_0" depends_in(%[[TOKEN]]) depends_out(1) applicable_units [dma_load] unit "tile/DMA" {
// CHECK-NEXT: ktdf.data_transfer %[[GATHER]] to %[[BUF]] indices(%[[STAGED]] : memref<16xi64, "SPM">)
// CHECK-NOT: ktdf.stage "index_

// Input: the ScheduleIR ktdf-route-transfers receives, printed once by
// `ktflow-opt examples/kernels/realworld/indexed_add.mlir
// --arch examples/devices/mesh_device.mlir --ktdf-mapping`.

#map = affine_map<(d0, d1) -> (d0, d1)>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#set1 = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#set2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#set3 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
module {
  ktdf_arch.device @mesh_device attributes {ktdf_arch.clock_mhz = 1500 : i64} {
    %HBM = memory {kind = "HBM", ktdf_arch.bandwidth = 512 : i64, size = 17179869184 : i64}
    group {kind = "tile", ktdf_arch.instances = 16 : i64, ktdf_arch.interconnect = {dims = array<i64: 4, 4>, hop_latency = 2 : i64, link_bandwidth = 64 : i64, topology = "mesh"}} share(%HBM) {
      %SPM = memory {kind = "SPM", ktdf_arch.bandwidth = 256 : i64, size = 524288 : i64}
      %DMA = exec_unit {kind = "DMA", ktdf_arch.features = {ktdf_arch.feature.load = {word_size = #ktdf_arch.map<"HBM" = 64, "SPM" = 64>}, ktdf_arch.feature.store = {word_size = #ktdf_arch.map<"HBM" = 64, "SPM" = 64>}}, ktdf_arch.max_outstanding = 4 : i64}
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 80 : i64, ktdf_arch.transfer_granularity = array<i64: 64, 256>} %HBM to %DMA : memory, exec_unit
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 2 : i64} %DMA to %SPM : exec_unit, memory
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 2 : i64} %SPM to %DMA : memory, exec_unit
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 80 : i64, ktdf_arch.transfer_granularity = array<i64: 64, 256>} %DMA to %HBM : exec_unit, memory
      %VLD = exec_unit {kind = "VLD", ktdf_arch.features = {ktdf_arch.feature.load}}
      %VST = exec_unit {kind = "VST", ktdf_arch.features = {ktdf_arch.feature.store}}
      %VPU = exec_unit {kind = "VPU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f32 = 16, f16 = 32>}}}
      %MXU = exec_unit {kind = "MXU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.matrix = {dtypes = [bf16, f16], shape = array<i64: 16, 16, 4>}, ktdf_arch.feature.throughput = {matrix = #ktdf_arch.map<f16 = 128>}}}
      datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.latency = 2 : i64} %SPM to %VLD : memory, exec_unit
      datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 64 : i64}}} %VLD to %VPU : exec_unit, exec_unit
      datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 64 : i64}}} %VLD to %MXU : exec_unit, exec_unit
      datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 64 : i64}}} %MXU to %VPU : exec_unit, exec_unit
      datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 64 : i64}}} %MXU to %VST : exec_unit, exec_unit
      datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 64 : i64}}} %VPU to %VST : exec_unit, exec_unit
      datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.latency = 2 : i64} %VST to %SPM : exec_unit, memory
    }
  }
  ktdf_arch.target @mesh_device memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
  func.func @indexed_add(%arg0: index {ktdf.tensor = tensor<64x128xf16>}, %arg1: index {ktdf.tensor = tensor<32xi64>}, %arg2: index {ktdf.tensor = tensor<32x64xf16>}, %arg3: index {ktdf.tensor = tensor<32x64xf16>}, %arg4: index) attributes {grid = [2, 2]} {
    ktdf.parallel (%arg5, %arg6) in [2, 2] {
      %c32 = arith.constant 32 : index
      %c16 = arith.constant 16 : index
      %0 = arith.muli %arg5, %c16 : index
      %1 = arith.muli %arg6, %c32 : index
      %2 = arith.addi %arg4, %1 : index
      %3 = ktdp.construct_memory_view %arg0, sizes: [64, 128], strides: [128, 1] {coordinate_set = #set, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
      %4 = ktdp.construct_memory_view %arg1, sizes: [32], strides: [1] {coordinate_set = #set1, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<32xi64>
      %5 = ktdp.construct_memory_view %arg2, sizes: [32, 64], strides: [64, 1] {coordinate_set = #set2, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
      %6 = ktdp.construct_memory_view %arg3, sizes: [32, 64], strides: [64, 1] {coordinate_set = #set2, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
      %7 = ktdp.construct_indirect_access_tile intermediate_variables(%arg7, %arg8) %3[ind(%4[%0 + %arg7]), (%2 + %arg8)] {variables_space_order = #map, variables_space_set = #set3} : memref<64x128xf16>, memref<32xi64> -> !ktdp.access_tile<16x32xindex>
      %8 = ktdp.construct_access_tile %5[%0, %1] {access_tile_order = #map, access_tile_set = #set3} : memref<32x64xf16> -> !ktdp.access_tile<16x32xindex>
      %9 = ktdp.construct_access_tile %6[%0, %1] {access_tile_order = #map, access_tile_set = #set3} : memref<32x64xf16> -> !ktdp.access_tile<16x32xindex>
      ktdf.pipeline {
        %slot = ktdf.private : !ktdf.fifo.slot<HBM -> vector_compute, 16x32xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<HBM -> vector_compute, 16x32xf16>
        %slot_1 = ktdf.private : !ktdf.fifo.slot<vector_compute -> HBM, 16x32xf16>
        %10 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load, scratchpad_load] {
          ktdf.data_transfer %7 to %slot : !ktdp.access_tile<16x32xindex> to !ktdf.fifo.slot<HBM -> vector_compute, 16x32xf16>
        }
        %11 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load, scratchpad_load] {
          ktdf.data_transfer %8 to %slot_0 : !ktdp.access_tile<16x32xindex> to !ktdf.fifo.slot<HBM -> vector_compute, 16x32xf16>
        }
        %12 = ktdf.stage "compute" depends_in(%10, %11) depends_out(1) applicable_units [vector_compute] {
          %13 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<HBM -> vector_compute, 16x32xf16> -> tensor<16x32xf16>
          %14 = ktdf.read_from_fifo %slot_0 : !ktdf.fifo.slot<HBM -> vector_compute, 16x32xf16> -> tensor<16x32xf16>
          %15 = tensor.empty() : tensor<16x32xf16>
          %16 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%13, %14 : tensor<16x32xf16>, tensor<16x32xf16>) outs(%15 : tensor<16x32xf16>) {
          ^bb0(%in: f16, %in_2: f16, %out: f16):
            %17 = arith.addf %in, %in_2 : f16
            linalg.yield %17 : f16
          } -> tensor<16x32xf16>
          ktdf.write_to_fifo %16 to %slot_1 : tensor<16x32xf16> to !ktdf.fifo.slot<vector_compute -> HBM, 16x32xf16>
        }
        ktdf.stage "store_0" depends_in(%12) depends_out(0) applicable_units [scratchpad_store, dma_store] {
          ktdf.data_transfer %slot_1 to %9 : !ktdf.fifo.slot<vector_compute -> HBM, 16x32xf16> to !ktdp.access_tile<16x32xindex>
        }
      }
    }
    return
  }
}


// -----

// The same gather one row a tile (grid [32, 2]) reads one index: staging
// its box would cost a DMA from HBM (82 cycles) and a read from SPM (2)
// against one read from HBM (80), so the DMA unit reads it in HBM.

// CHECK-LABEL: func.func @one_row_gather
// CHECK-NOT: ktdf.stage "index_
// CHECK: ktdf.stage "load_0" depends_out(1) applicable_units [dma_load] unit "tile/DMA" {
// CHECK-NEXT: ktdf.data_transfer %{{.*}} to %{{.*}} : !ktdp.access_tile<1x32xindex> to memref<1x32xf16, "SPM">
// CHECK-NOT: ktdf.stage "index_

// Input: as above, from indexed_add.mlir with one row a tile.

#map = affine_map<(d0, d1) -> (d0, d1)>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#set1 = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#set2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#set3 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 31 >= 0)>
module {
  ktdf_arch.device @mesh_device attributes {ktdf_arch.clock_mhz = 1500 : i64} {
    %HBM = memory {kind = "HBM", ktdf_arch.bandwidth = 512 : i64, size = 17179869184 : i64}
    group {kind = "tile", ktdf_arch.instances = 16 : i64, ktdf_arch.interconnect = {dims = array<i64: 4, 4>, hop_latency = 2 : i64, link_bandwidth = 64 : i64, topology = "mesh"}} share(%HBM) {
      %SPM = memory {kind = "SPM", ktdf_arch.bandwidth = 256 : i64, size = 524288 : i64}
      %DMA = exec_unit {kind = "DMA", ktdf_arch.features = {ktdf_arch.feature.load = {word_size = #ktdf_arch.map<"HBM" = 64, "SPM" = 64>}, ktdf_arch.feature.store = {word_size = #ktdf_arch.map<"HBM" = 64, "SPM" = 64>}}, ktdf_arch.max_outstanding = 4 : i64}
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 80 : i64, ktdf_arch.transfer_granularity = array<i64: 64, 256>} %HBM to %DMA : memory, exec_unit
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 2 : i64} %DMA to %SPM : exec_unit, memory
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 2 : i64} %SPM to %DMA : memory, exec_unit
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 80 : i64, ktdf_arch.transfer_granularity = array<i64: 64, 256>} %DMA to %HBM : exec_unit, memory
      %VLD = exec_unit {kind = "VLD", ktdf_arch.features = {ktdf_arch.feature.load}}
      %VST = exec_unit {kind = "VST", ktdf_arch.features = {ktdf_arch.feature.store}}
      %VPU = exec_unit {kind = "VPU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f32 = 16, f16 = 32>}}}
      %MXU = exec_unit {kind = "MXU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.matrix = {dtypes = [bf16, f16], shape = array<i64: 16, 16, 4>}, ktdf_arch.feature.throughput = {matrix = #ktdf_arch.map<f16 = 128>}}}
      datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.latency = 2 : i64} %SPM to %VLD : memory, exec_unit
      datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 64 : i64}}} %VLD to %VPU : exec_unit, exec_unit
      datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 64 : i64}}} %VLD to %MXU : exec_unit, exec_unit
      datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 64 : i64}}} %MXU to %VPU : exec_unit, exec_unit
      datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 64 : i64}}} %MXU to %VST : exec_unit, exec_unit
      datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 64 : i64}}} %VPU to %VST : exec_unit, exec_unit
      datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.latency = 2 : i64} %VST to %SPM : exec_unit, memory
    }
  }
  ktdf_arch.target @mesh_device memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
  func.func @one_row_gather(%arg0: index {ktdf.tensor = tensor<64x128xf16>}, %arg1: index {ktdf.tensor = tensor<32xi64>}, %arg2: index {ktdf.tensor = tensor<32x64xf16>}, %arg3: index {ktdf.tensor = tensor<32x64xf16>}, %arg4: index) attributes {grid = [32, 2]} {
    ktdf.parallel (%arg5, %arg6) in [32, 2] {
      %c32 = arith.constant 32 : index
      %0 = arith.muli %arg6, %c32 : index
      %1 = arith.addi %arg4, %0 : index
      %2 = ktdp.construct_memory_view %arg0, sizes: [64, 128], strides: [128, 1] {coordinate_set = #set, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
      %3 = ktdp.construct_memory_view %arg1, sizes: [32], strides: [1] {coordinate_set = #set1, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<32xi64>
      %4 = ktdp.construct_memory_view %arg2, sizes: [32, 64], strides: [64, 1] {coordinate_set = #set2, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
      %5 = ktdp.construct_memory_view %arg3, sizes: [32, 64], strides: [64, 1] {coordinate_set = #set2, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
      %6 = ktdp.construct_indirect_access_tile intermediate_variables(%arg7, %arg8) %2[ind(%3[%arg5 + %arg7]), (%1 + %arg8)] {variables_space_order = #map, variables_space_set = #set3} : memref<64x128xf16>, memref<32xi64> -> !ktdp.access_tile<1x32xindex>
      %7 = ktdp.construct_access_tile %4[%arg5, %0] {access_tile_order = #map, access_tile_set = #set3} : memref<32x64xf16> -> !ktdp.access_tile<1x32xindex>
      %8 = ktdp.construct_access_tile %5[%arg5, %0] {access_tile_order = #map, access_tile_set = #set3} : memref<32x64xf16> -> !ktdp.access_tile<1x32xindex>
      ktdf.pipeline {
        %slot = ktdf.private : !ktdf.fifo.slot<HBM -> vector_compute, 1x32xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<HBM -> vector_compute, 1x32xf16>
        %slot_1 = ktdf.private : !ktdf.fifo.slot<vector_compute -> HBM, 1x32xf16>
        %9 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load, scratchpad_load] {
          ktdf.data_transfer %6 to %slot : !ktdp.access_tile<1x32xindex> to !ktdf.fifo.slot<HBM -> vector_compute, 1x32xf16>
        }
        %10 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load, scratchpad_load] {
          ktdf.data_transfer %7 to %slot_0 : !ktdp.access_tile<1x32xindex> to !ktdf.fifo.slot<HBM -> vector_compute, 1x32xf16>
        }
        %11 = ktdf.stage "compute" depends_in(%9, %10) depends_out(1) applicable_units [vector_compute] {
          %12 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<HBM -> vector_compute, 1x32xf16> -> tensor<1x32xf16>
          %13 = ktdf.read_from_fifo %slot_0 : !ktdf.fifo.slot<HBM -> vector_compute, 1x32xf16> -> tensor<1x32xf16>
          %14 = tensor.empty() : tensor<1x32xf16>
          %15 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%12, %13 : tensor<1x32xf16>, tensor<1x32xf16>) outs(%14 : tensor<1x32xf16>) {
          ^bb0(%in: f16, %in_2: f16, %out: f16):
            %16 = arith.addf %in, %in_2 : f16
            linalg.yield %16 : f16
          } -> tensor<1x32xf16>
          ktdf.write_to_fifo %15 to %slot_1 : tensor<1x32xf16> to !ktdf.fifo.slot<vector_compute -> HBM, 1x32xf16>
        }
        ktdf.stage "store_0" depends_in(%11) depends_out(0) applicable_units [scratchpad_store, dma_store] {
          ktdf.data_transfer %slot_1 to %8 : !ktdf.fifo.slot<vector_compute -> HBM, 1x32xf16> to !ktdp.access_tile<1x32xindex>
        }
      }
    }
    return
  }
}


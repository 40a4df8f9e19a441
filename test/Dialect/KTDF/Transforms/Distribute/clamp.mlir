// RUN: ktflow-opt %s --ktdf-distribute | FileCheck %s

// Never more instances than grid points: 2 points on spyre_like's 64 lanes.

// CHECK: ktdf.parallel (%{{.*}}) in [2] distribute(num_instances = 2)

// Input: the ScheduleIR ktdf-distribute receives, printed once by
// `ktflow-opt KERNEL --ktdf-mapping` from a KTIR kernel.

#map = affine_map<(d0, d1) -> (d0, d1)>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#set1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
module {
  ktdf_arch.device @spyre_like attributes {ktdf_arch.clock_mhz = 1000 : i64} {
    %DDR = memory {kind = "DDR", ktdf_arch.bandwidth = 1024 : i64, size = 137438953472 : i64}
    group {kind = "core", ktdf_arch.instances = 32 : i64, ktdf_arch.interconnect = {bidirectional, hop_latency = 1 : i64, link_bandwidth = 128 : i64, topology = "ring"}} share(%DDR) {
      %LX = memory {kind = "LX", size = 2097152 : i64}
      %DMA_IN = exec_unit {kind = "DMA_IN", ktdf_arch.features = {ktdf_arch.feature.load = {word_size = #ktdf_arch.map<"DDR" = 128, "LX" = 128>}}, ktdf_arch.max_outstanding = 8 : i64}
      %DMA_OUT = exec_unit {kind = "DMA_OUT", ktdf_arch.features = {ktdf_arch.feature.store = {word_size = #ktdf_arch.map<"DDR" = 128, "LX" = 128>}}, ktdf_arch.max_outstanding = 8 : i64}
      datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.latency = 150 : i64, ktdf_arch.transfer_granularity = array<i64: 128>} %DDR to %DMA_IN : memory, exec_unit
      datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.latency = 2 : i64, ktdf_arch.transfer_granularity = array<i64: 128>} %DMA_IN to %LX : exec_unit, memory
      datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.latency = 2 : i64, ktdf_arch.transfer_granularity = array<i64: 128>} %LX to %DMA_OUT : memory, exec_unit
      datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.latency = 150 : i64, ktdf_arch.transfer_granularity = array<i64: 128>} %DMA_OUT to %DDR : exec_unit, memory
      group {kind = "corelet", ktdf_arch.instances = 2 : i64} share(%LX) {
        %LXLU = exec_unit {kind = "LXLU", ktdf_arch.features = {ktdf_arch.feature.load = {word_size = #ktdf_arch.map<"LX" = 128>}}}
        %LXSU = exec_unit {kind = "LXSU", ktdf_arch.features = {ktdf_arch.feature.store = {word_size = #ktdf_arch.map<"LX" = 128>}}}
        %PT = exec_unit {kind = "PT", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.matrix = {dtypes = [f16], shape = array<i64: 8, 8, 8>}}}
        %SFP = exec_unit {kind = "SFP", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 64, f32 = 32>}, ktdf_arch.feature.throughput = {elementwise = #ktdf_arch.map<f16 = 64, f32 = 32>, reduction = #ktdf_arch.map<f16 = 64, f32 = 32>, transcendental = #ktdf_arch.map<f16 = 8, f32 = 4>}}}
        datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.latency = 3 : i64, ktdf_arch.transfer_granularity = array<i64: 128>} %LX to %LXLU : memory, exec_unit
        datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 8 : i64, ordered}}, ktdf_arch.latency = 1 : i64} %LXLU to %PT : exec_unit, exec_unit
        datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 8 : i64, ordered}}, ktdf_arch.latency = 1 : i64} %LXLU to %SFP : exec_unit, exec_unit
        datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 8 : i64, ordered}}, ktdf_arch.latency = 1 : i64} %PT to %SFP : exec_unit, exec_unit
        datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 8 : i64, ordered}}, ktdf_arch.latency = 1 : i64} %PT to %LXSU : exec_unit, exec_unit
        datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 8 : i64, ordered}}, ktdf_arch.latency = 1 : i64} %SFP to %LXSU : exec_unit, exec_unit
        datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.latency = 3 : i64, ktdf_arch.transfer_granularity = array<i64: 128>} %LXSU to %LX : exec_unit, memory
      }
    }
  }
  ktdf_arch.target @spyre_like memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @scale(%arg0: index {ktdf.tensor = tensor<64x64xf16>}, %arg1: index {ktdf.tensor = tensor<64x64xf16>}) attributes {grid = [2]} {
    ktdf.parallel (%arg2) in [2] {
      %c8 = arith.constant 8 : index
      %0 = arith.muli %arg2, %c8 : index
      %1 = ktdp.construct_memory_view %arg0, sizes: [64, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
      %2 = ktdp.construct_memory_view %arg1, sizes: [64, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
      %3 = ktdp.construct_access_tile %1[%0, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<64x64xf16> -> !ktdp.access_tile<8x64xindex>
      %4 = ktdp.construct_access_tile %2[%0, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<64x64xf16> -> !ktdp.access_tile<8x64xindex>
      ktdf.pipeline {
        %slot = ktdf.private : !ktdf.fifo.slot<DDR -> vector_compute, 8x64xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<vector_compute -> DDR, 8x64xf16>
        %5 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load, scratchpad_load] {
          ktdf.data_transfer %3 to %slot : !ktdp.access_tile<8x64xindex> to !ktdf.fifo.slot<DDR -> vector_compute, 8x64xf16>
        }
        %6 = ktdf.stage "compute" depends_in(%5) depends_out(1) applicable_units [vector_compute] {
          %7 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<DDR -> vector_compute, 8x64xf16> -> tensor<8x64xf16>
          %8 = tensor.empty() : tensor<8x64xf16>
          %cst = arith.constant 2.000000e+00 : f16
          %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%7 : tensor<8x64xf16>) outs(%8 : tensor<8x64xf16>) {
          ^bb0(%in: f16, %out: f16):
            %10 = arith.mulf %in, %cst : f16
            linalg.yield %10 : f16
          } -> tensor<8x64xf16>
          ktdf.write_to_fifo %9 to %slot_0 : tensor<8x64xf16> to !ktdf.fifo.slot<vector_compute -> DDR, 8x64xf16>
        }
        ktdf.stage "store_0" depends_in(%6) depends_out(0) applicable_units [scratchpad_store, dma_store] {
          ktdf.data_transfer %slot_0 to %4 : !ktdf.fifo.slot<vector_compute -> DDR, 8x64xf16> to !ktdp.access_tile<8x64xindex>
        }
      }
    }
    return
  }
}

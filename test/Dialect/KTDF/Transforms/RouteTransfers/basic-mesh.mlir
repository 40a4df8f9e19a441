// RUN: ktflow-opt %s --ktdf-route-transfers | FileCheck %s --check-prefix=MESH

// Transfers follow the routes of the device graph, not names: on
// mesh_device one DMA engine both loads and stores through SPM
// (basic.mlir: the same kernel on sample_device).

// MESH: ktdf.private : memref<8x64xf16, "SPM">
// MESH: ktdf.stage "load_0" {{.*}}applicable_units [dma_load] unit "tile/DMA"
// MESH: ktdf.stage "feed" {{.*}}unit "tile/VLD"
// MESH: ktdf.stage "compute" {{.*}}unit "tile/VPU"
// MESH: ktdf.stage "drain" {{.*}}unit "tile/VST"
// MESH: ktdf.stage "store_0" {{.*}}applicable_units [dma_store] unit "tile/DMA"

// Input: the ScheduleIR ktdf-route-transfers receives, printed once by
// `ktflow-opt KERNEL --ktdf-mapping` from a KTIR kernel.

#map = affine_map<(d0, d1) -> (d0, d1)>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#set1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
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
  func.func @scale(%arg0: index {ktdf.tensor = tensor<64x64xf16>}, %arg1: index {ktdf.tensor = tensor<64x64xf16>}) attributes {grid = [8]} {
    ktdf.parallel (%arg2) in [8] {
      %c8 = arith.constant 8 : index
      %0 = arith.muli %arg2, %c8 : index
      %1 = ktdp.construct_memory_view %arg0, sizes: [64, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
      %2 = ktdp.construct_memory_view %arg1, sizes: [64, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
      %3 = ktdp.construct_access_tile %1[%0, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<64x64xf16> -> !ktdp.access_tile<8x64xindex>
      %4 = ktdp.construct_access_tile %2[%0, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<64x64xf16> -> !ktdp.access_tile<8x64xindex>
      ktdf.pipeline {
        %slot = ktdf.private : !ktdf.fifo.slot<HBM -> vector_compute, 8x64xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<vector_compute -> HBM, 8x64xf16>
        %5 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load, scratchpad_load] {
          ktdf.data_transfer %3 to %slot : !ktdp.access_tile<8x64xindex> to !ktdf.fifo.slot<HBM -> vector_compute, 8x64xf16>
        }
        %6 = ktdf.stage "compute" depends_in(%5) depends_out(1) applicable_units [vector_compute] {
          %7 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<HBM -> vector_compute, 8x64xf16> -> tensor<8x64xf16>
          %8 = tensor.empty() : tensor<8x64xf16>
          %cst = arith.constant 2.000000e+00 : f16
          %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%7 : tensor<8x64xf16>) outs(%8 : tensor<8x64xf16>) {
          ^bb0(%in: f16, %out: f16):
            %10 = arith.mulf %in, %cst : f16
            linalg.yield %10 : f16
          } -> tensor<8x64xf16>
          ktdf.write_to_fifo %9 to %slot_0 : tensor<8x64xf16> to !ktdf.fifo.slot<vector_compute -> HBM, 8x64xf16>
        }
        ktdf.stage "store_0" depends_in(%6) depends_out(0) applicable_units [scratchpad_store, dma_store] {
          ktdf.data_transfer %slot_0 to %4 : !ktdf.fifo.slot<vector_compute -> HBM, 8x64xf16> to !ktdp.access_tile<8x64xindex>
        }
      }
    }
    return
  }
}

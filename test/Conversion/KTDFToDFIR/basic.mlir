// RUN: ktflow-opt %s --ktdf-to-dfir | FileCheck %s

// mesh_device, -O0: the 8 grid points go to tiles 0..7 (one lane each).
// Every tile gets its buffers in its own SPM, a FIFO per pair of units and
// a pair of sync channels per buffer hand-over; its single DMA engine
// loads a tile, and stores it once the store unit has drained it.

// CHECK: dfir.kernel @scale device "mesh_device" {
// CHECK-DAG: dfir.tensor input @arg0 : tensor<64x64xf16> in "HBM"
// CHECK-DAG: dfir.tensor output @arg1 : tensor<64x64xf16> in "HBM"
// CHECK-DAG: dfir.buffer @p0_buf0_c0_l0 in "tile[0]/SPM" size 1024 offset 0
// CHECK-DAG: dfir.buffer @p0_buf1_c0_l0 in "tile[0]/SPM" size 1024 offset 1024
// CHECK-DAG: dfir.sync @p0_full0_c0_l0 from "tile[0]/DMA" to "tile[0]/VLD"
// CHECK-DAG: dfir.sync @p0_free0_c0_l0 from "tile[0]/VLD" to "tile[0]/DMA"
// CHECK-DAG: dfir.sync @p0_full1_c0_l0 from "tile[0]/VST" to "tile[0]/DMA"
// CHECK-DAG: dfir.sync @p0_free1_c0_l0 from "tile[0]/DMA" to "tile[0]/VST"
// CHECK-DAG: dfir.fifo @[[IN:fifo[0-9]+]] from "tile[0]/VLD" to "tile[0]/VPU" entry 64
// CHECK-DAG: dfir.fifo @[[OUT:fifo[0-9]+]] from "tile[0]/VPU" to "tile[0]/VST" entry 64
// CHECK-NOT: tile[8]

// CHECK-LABEL: dfir.unit "tile[0]/DMA"
// CHECK: dfir.sync_recv @p0_free0_c0_l0
// CHECK: dfir.address @arg0
// CHECK: dfir.address @p0_buf0_c0_l0
// CHECK: dfir.dma %{{.*}} bytes from "HBM"[%{{.*}}] to "tile[0]/SPM"[%{{.*}}]
// CHECK: dfir.sync_send @p0_full0_c0_l0
// CHECK: dfir.sync_recv @p0_full1_c0_l0
// CHECK: dfir.dma %{{.*}} bytes from "tile[0]/SPM"[%{{.*}}] to "HBM"[%{{.*}}]
// CHECK: dfir.sync_send @p0_free1_c0_l0

// CHECK-LABEL: dfir.unit "tile[0]/VPU"
// CHECK: %[[X:.*]] = dfir.recv @[[IN]] : vector<32xf16>
// CHECK: %[[Y:.*]] = dfir.map %[[X]]
// CHECK: arith.mulf
// CHECK: dfir.send @[[OUT]], %[[Y]] : vector<32xf16>

// CHECK-LABEL: dfir.unit "tile[0]/VST"
// CHECK: dfir.store @[[OUT]] to "tile[0]/SPM"

// Input: the scheduled ScheduleIR ktdf-to-dfir receives, printed once by
// `ktflow-opt KERNEL --ktdf-mapping=O0 --ktdf-scheduling=O0` from a KTIR kernel.

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0) -> (d0)>
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
  func.func @scale(%arg0: index {ktdf.tensor = tensor<64x64xf16>}, %arg1: index {ktdf.tensor = tensor<64x64xf16>}) attributes {grid = [8], ktdf.scratchpad = {SPM = 2048 : i64}} {
    ktdf.parallel (%arg2) in [8] distribute(num_instances = 8) {
      %c8 = arith.constant 8 : index
      %0 = arith.muli %arg2, %c8 : index
      %1 = ktdp.construct_memory_view %arg0, sizes: [64, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
      %2 = ktdp.construct_memory_view %arg1, sizes: [64, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
      %3 = ktdp.construct_access_tile %1[%0, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<64x64xf16> -> !ktdp.access_tile<8x64xindex>
      %4 = ktdp.construct_access_tile %2[%0, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<64x64xf16> -> !ktdp.access_tile<8x64xindex>
      ktdf.pipeline modulo(size: 1) {
        %buf = ktdf.private offset 0 : memref<8x64xf16, "SPM">
        %slot = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
        %buf_1 = ktdf.private offset 1024 : memref<8x64xf16, "SPM">
        %5 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load] unit "tile/DMA" {
          ktdf.data_transfer %3 to %buf : !ktdp.access_tile<8x64xindex> to memref<8x64xf16, "SPM">
        }
        %6 = ktdf.stage "feed" depends_in(%5) depends_out(1) applicable_units [scratchpad_load] unit "tile/VLD" {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c8_2 = arith.constant 8 : index
          %c64 = arith.constant 64 : index
          %c32 = arith.constant 32 : index
          scf.for %arg3 = %c0 to %c8_2 step %c1 {
            scf.for %arg4 = %c0 to %c64 step %c32 {
              ktdf.data_transfer %buf[%arg3, %arg4] to %slot : memref<8x64xf16, "SPM"> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
            }
          }
        }
        %7 = ktdf.stage "compute" depends_in(%6) depends_out(1) applicable_units [vector_compute] unit "tile/VPU" {
          %cst = arith.constant 2.000000e+00 : f16
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c8_2 = arith.constant 8 : index
          %c64 = arith.constant 64 : index
          %c32 = arith.constant 32 : index
          scf.for %arg3 = %c0 to %c8_2 step %c1 {
            scf.for %arg4 = %c0 to %c64 step %c32 {
              %9 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
              %10 = tensor.empty() : tensor<32xf16>
              %11 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%9 : tensor<32xf16>) outs(%10 : tensor<32xf16>) {
              ^bb0(%in: f16, %out: f16):
                %12 = arith.mulf %in, %cst : f16
                linalg.yield %12 : f16
              } -> tensor<32xf16>
              ktdf.write_to_fifo %11 to %slot_0 : tensor<32xf16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
            }
          }
        }
        %8 = ktdf.stage "drain" depends_in(%7) depends_out(1) applicable_units [scratchpad_store] unit "tile/VST" {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c8_2 = arith.constant 8 : index
          %c64 = arith.constant 64 : index
          %c32 = arith.constant 32 : index
          scf.for %arg3 = %c0 to %c8_2 step %c1 {
            scf.for %arg4 = %c0 to %c64 step %c32 {
              ktdf.data_transfer %slot_0 to %buf_1[%arg3, %arg4] : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16> to memref<8x64xf16, "SPM">
            }
          }
        }
        ktdf.stage "store_0" depends_in(%8) depends_out(0) applicable_units [dma_store] unit "tile/DMA" {
          ktdf.data_transfer %buf_1 to %4 : memref<8x64xf16, "SPM"> to !ktdp.access_tile<8x64xindex>
        }
      }
    }
    return
  }
}

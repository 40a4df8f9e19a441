// RUN: ktflow-opt %s --split-input-file --ktdf-to-dfir | FileCheck %s

// Stores every tile of a grid [2] makes on mesh_device (DuplicateStores.cpp):
// the schedule (`ktflow compile --emit=schedule`) of a kernel whose every
// tile copies a 64x64 f16 X (argument 0) to Y (argument 1), which the
// lowering moves in one DMA (PassThroughDma.cpp). Every tile stores the
// same bytes at the same place: each tile stores its own half of the rows
// once (DuplicateStoreSplits.cpp; before, tile 0 stored all 64 and tile 1's
// engine moved nothing): tile 0 rows 0..31, tile 1 rows 32..63, 32 rows
// of 128 bytes each. The refusals below edit that schedule (the scheduler
// itself refuses such kernels written in KTIR).
// CHECK-LABEL: dfir.kernel @same_rows
// CHECK-LABEL: dfir.unit "tile[0]/DMA"
// CHECK: %[[ROWS0:.*]] = arith.constant 32 : index
// CHECK: arith.minsi %{{.*}}, %[[ROWS0]] : index
// CHECK: dfir.dma %{{.*}} bytes from "HBM"[%{{.*}}] to "HBM"
// CHECK-NOT: dfir.dma
// CHECK-LABEL: dfir.unit "tile[1]/DMA"
// CHECK: %[[FIRST:.*]] = arith.constant 32 : index
// CHECK: arith.addi %{{.*}}, %[[FIRST]] : index
// CHECK: dfir.dma %{{.*}} bytes from "HBM"[%{{.*}}] to "HBM"
// CHECK-NOT: dfir.dma
// CHECK: }

#map = affine_map<(d0, d1) -> (d0, d1)>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
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
  func.func @same_rows(%arg0: index {ktdf.tensor = tensor<64x64xf16>}, %arg1: index {ktdf.tensor = tensor<64x64xf16>}) attributes {grid = [2], ktdf.scratchpad = {SPM = 32768 : i64}} {
    ktdf.parallel (%arg2) in [2] distribute(num_instances = 2) {
      %c0 = arith.constant 0 : index
      %0 = ktdp.construct_memory_view %arg0, sizes: [64, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
      %1 = ktdp.construct_memory_view %arg1, sizes: [64, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
      %2 = ktdp.construct_access_tile %0[%c0, %c0] {access_tile_order = #map, access_tile_set = #set} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
      %3 = ktdp.construct_access_tile %1[%c0, %c0] {access_tile_order = #map, access_tile_set = #set} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
      ktdf.pipeline modulo(size: 2) {
        %buf = ktdf.private offset 0 : memref<64x64xf16, "SPM">
        %slot = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
        %buf_1 = ktdf.private offset 16384 : memref<64x64xf16, "SPM">
        %4 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load] unit "tile/DMA" attributes {ktdf.row_blocks = 4 : i64} {
          ktdf.data_transfer %2 to %buf : !ktdp.access_tile<64x64xindex> to memref<64x64xf16, "SPM">
        }
        %5 = ktdf.stage "feed" depends_in(%4) depends_out(1) applicable_units [scratchpad_load] unit "tile/VLD" {
          %c0_2 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c64 = arith.constant 64 : index
          %c64_3 = arith.constant 64 : index
          %c32 = arith.constant 32 : index
          scf.for %arg3 = %c0_2 to %c64 step %c1 {
            scf.for %arg4 = %c0_2 to %c64_3 step %c32 {
              ktdf.data_transfer %buf[%arg3, %arg4] to %slot : memref<64x64xf16, "SPM"> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
            }
          }
        }
        %6 = ktdf.stage "compute" depends_in(%5) depends_out(1) applicable_units [vector_compute] unit "tile/VPU" {
          %c0_2 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c64 = arith.constant 64 : index
          %c64_3 = arith.constant 64 : index
          %c32 = arith.constant 32 : index
          scf.for %arg3 = %c0_2 to %c64 step %c1 {
            scf.for %arg4 = %c0_2 to %c64_3 step %c32 {
              %8 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
              ktdf.write_to_fifo %8 to %slot_0 : tensor<32xf16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
            }
          }
        }
        %7 = ktdf.stage "drain" depends_in(%6) depends_out(1) applicable_units [scratchpad_store] unit "tile/VST" {
          %c0_2 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c64 = arith.constant 64 : index
          %c64_3 = arith.constant 64 : index
          %c32 = arith.constant 32 : index
          scf.for %arg3 = %c0_2 to %c64 step %c1 {
            scf.for %arg4 = %c0_2 to %c64_3 step %c32 {
              ktdf.data_transfer %slot_0 to %buf_1[%arg3, %arg4] : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16> to memref<64x64xf16, "SPM">
            }
          }
        }
        ktdf.stage "store_0" depends_in(%7) depends_out(0) applicable_units [dma_store] unit "tile/DMA" attributes {ktdf.row_blocks = 4 : i64} {
          ktdf.data_transfer %buf_1 to %3 : memref<64x64xf16, "SPM"> to !ktdp.access_tile<64x64xindex>
        }
      }
    }
    return
  }
}

// -----

// Different data: tile t loads X's rows 64t..64t + 63 (its access tile reads
// the grid point), so each tile keeps its store.
// CHECK-LABEL: dfir.kernel @tile_rows
// CHECK-LABEL: dfir.unit "tile[0]/DMA"
// CHECK: dfir.dma %{{.*}} bytes from "tile[0]/SPM"[%{{.*}}] to "HBM"
// CHECK-LABEL: dfir.unit "tile[1]/DMA"
// CHECK: dfir.dma %{{.*}} bytes from "tile[1]/SPM"[%{{.*}}] to "HBM"

#map = affine_map<(d0, d1) -> (d0, d1)>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
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
  func.func @tile_rows(%arg0: index {ktdf.tensor = tensor<128x64xf16>}, %arg1: index {ktdf.tensor = tensor<64x64xf16>}) attributes {grid = [2], ktdf.scratchpad = {SPM = 32768 : i64}} {
    ktdf.parallel (%arg2) in [2] distribute(num_instances = 2) {
      %c0 = arith.constant 0 : index
      %0 = ktdp.construct_memory_view %arg0, sizes: [128, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
      %1 = ktdp.construct_memory_view %arg1, sizes: [64, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
      %c64_r = arith.constant 64 : index
      %row = arith.muli %arg2, %c64_r : index
      %2 = ktdp.construct_access_tile %0[%row, %c0] {access_tile_order = #map, access_tile_set = #set} : memref<128x64xf16> -> !ktdp.access_tile<64x64xindex>
      %3 = ktdp.construct_access_tile %1[%c0, %c0] {access_tile_order = #map, access_tile_set = #set} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
      ktdf.pipeline modulo(size: 2) {
        %buf = ktdf.private offset 0 : memref<64x64xf16, "SPM">
        %slot = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
        %buf_1 = ktdf.private offset 16384 : memref<64x64xf16, "SPM">
        %4 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load] unit "tile/DMA" attributes {ktdf.row_blocks = 4 : i64} {
          ktdf.data_transfer %2 to %buf : !ktdp.access_tile<64x64xindex> to memref<64x64xf16, "SPM">
        }
        %5 = ktdf.stage "feed" depends_in(%4) depends_out(1) applicable_units [scratchpad_load] unit "tile/VLD" {
          %c0_2 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c64 = arith.constant 64 : index
          %c64_3 = arith.constant 64 : index
          %c32 = arith.constant 32 : index
          scf.for %arg3 = %c0_2 to %c64 step %c1 {
            scf.for %arg4 = %c0_2 to %c64_3 step %c32 {
              ktdf.data_transfer %buf[%arg3, %arg4] to %slot : memref<64x64xf16, "SPM"> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
            }
          }
        }
        %6 = ktdf.stage "compute" depends_in(%5) depends_out(1) applicable_units [vector_compute] unit "tile/VPU" {
          %c0_2 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c64 = arith.constant 64 : index
          %c64_3 = arith.constant 64 : index
          %c32 = arith.constant 32 : index
          scf.for %arg3 = %c0_2 to %c64 step %c1 {
            scf.for %arg4 = %c0_2 to %c64_3 step %c32 {
              %8 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
              ktdf.write_to_fifo %8 to %slot_0 : tensor<32xf16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
            }
          }
        }
        %7 = ktdf.stage "drain" depends_in(%6) depends_out(1) applicable_units [scratchpad_store] unit "tile/VST" {
          %c0_2 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c64 = arith.constant 64 : index
          %c64_3 = arith.constant 64 : index
          %c32 = arith.constant 32 : index
          scf.for %arg3 = %c0_2 to %c64 step %c1 {
            scf.for %arg4 = %c0_2 to %c64_3 step %c32 {
              ktdf.data_transfer %slot_0 to %buf_1[%arg3, %arg4] : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16> to memref<64x64xf16, "SPM">
            }
          }
        }
        ktdf.stage "store_0" depends_in(%7) depends_out(0) applicable_units [dma_store] unit "tile/DMA" attributes {ktdf.row_blocks = 4 : i64} {
          ktdf.data_transfer %buf_1 to %3 : memref<64x64xf16, "SPM"> to !ktdp.access_tile<64x64xindex>
        }
      }
    }
    return
  }
}

// -----

// A store another tile reads after: a second pipeline copies Y to Z, so
// both tiles keep both stores (Y's is read; Z's data is read from a tensor
// the kernel writes).
// CHECK-LABEL: dfir.kernel @read_after
// CHECK-LABEL: dfir.unit "tile[0]/DMA"
// CHECK: dfir.dma %{{.*}} bytes from "HBM"[%{{.*}}] to "HBM"
// CHECK: dfir.dma %{{.*}} bytes from "HBM"[%{{.*}}] to "HBM"
// CHECK-LABEL: dfir.unit "tile[1]/DMA"
// CHECK: dfir.dma %{{.*}} bytes from "HBM"[%{{.*}}] to "HBM"
// CHECK: dfir.dma %{{.*}} bytes from "HBM"[%{{.*}}] to "HBM"

#map = affine_map<(d0, d1) -> (d0, d1)>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
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
  func.func @read_after(%arg0: index {ktdf.tensor = tensor<64x64xf16>}, %arg1: index {ktdf.tensor = tensor<64x64xf16>}, %arg5: index {ktdf.tensor = tensor<64x64xf16>}) attributes {grid = [2], ktdf.scratchpad = {SPM = 32768 : i64}} {
    ktdf.parallel (%arg2) in [2] distribute(num_instances = 2) {
      %c0 = arith.constant 0 : index
      %0 = ktdp.construct_memory_view %arg0, sizes: [64, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
      %1 = ktdp.construct_memory_view %arg1, sizes: [64, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
      %2 = ktdp.construct_access_tile %0[%c0, %c0] {access_tile_order = #map, access_tile_set = #set} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
      %3 = ktdp.construct_access_tile %1[%c0, %c0] {access_tile_order = #map, access_tile_set = #set} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
      ktdf.pipeline modulo(size: 2) {
        %buf = ktdf.private offset 0 : memref<64x64xf16, "SPM">
        %slot = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
        %buf_1 = ktdf.private offset 16384 : memref<64x64xf16, "SPM">
        %4 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load] unit "tile/DMA" attributes {ktdf.row_blocks = 4 : i64} {
          ktdf.data_transfer %2 to %buf : !ktdp.access_tile<64x64xindex> to memref<64x64xf16, "SPM">
        }
        %5 = ktdf.stage "feed" depends_in(%4) depends_out(1) applicable_units [scratchpad_load] unit "tile/VLD" {
          %c0_2 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c64 = arith.constant 64 : index
          %c64_3 = arith.constant 64 : index
          %c32 = arith.constant 32 : index
          scf.for %arg3 = %c0_2 to %c64 step %c1 {
            scf.for %arg4 = %c0_2 to %c64_3 step %c32 {
              ktdf.data_transfer %buf[%arg3, %arg4] to %slot : memref<64x64xf16, "SPM"> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
            }
          }
        }
        %6 = ktdf.stage "compute" depends_in(%5) depends_out(1) applicable_units [vector_compute] unit "tile/VPU" {
          %c0_2 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c64 = arith.constant 64 : index
          %c64_3 = arith.constant 64 : index
          %c32 = arith.constant 32 : index
          scf.for %arg3 = %c0_2 to %c64 step %c1 {
            scf.for %arg4 = %c0_2 to %c64_3 step %c32 {
              %8 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
              ktdf.write_to_fifo %8 to %slot_0 : tensor<32xf16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
            }
          }
        }
        %7 = ktdf.stage "drain" depends_in(%6) depends_out(1) applicable_units [scratchpad_store] unit "tile/VST" {
          %c0_2 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c64 = arith.constant 64 : index
          %c64_3 = arith.constant 64 : index
          %c32 = arith.constant 32 : index
          scf.for %arg3 = %c0_2 to %c64 step %c1 {
            scf.for %arg4 = %c0_2 to %c64_3 step %c32 {
              ktdf.data_transfer %slot_0 to %buf_1[%arg3, %arg4] : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16> to memref<64x64xf16, "SPM">
            }
          }
        }
        ktdf.stage "store_0" depends_in(%7) depends_out(0) applicable_units [dma_store] unit "tile/DMA" attributes {ktdf.row_blocks = 4 : i64} {
          ktdf.data_transfer %buf_1 to %3 : memref<64x64xf16, "SPM"> to !ktdp.access_tile<64x64xindex>
        }
      }
      %zv = ktdp.construct_memory_view %arg5, sizes: [64, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
      %r = ktdp.construct_access_tile %1[%c0, %c0] {access_tile_order = #map, access_tile_set = #set} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
      %z = ktdp.construct_access_tile %zv[%c0, %c0] {access_tile_order = #map, access_tile_set = #set} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
      ktdf.pipeline modulo(size: 2) {
        %buf = ktdf.private offset 0 : memref<64x64xf16, "SPM">
        %slot = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
        %buf_1 = ktdf.private offset 16384 : memref<64x64xf16, "SPM">
        %4 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load] unit "tile/DMA" attributes {ktdf.row_blocks = 4 : i64} {
          ktdf.data_transfer %r to %buf : !ktdp.access_tile<64x64xindex> to memref<64x64xf16, "SPM">
        }
        %5 = ktdf.stage "feed" depends_in(%4) depends_out(1) applicable_units [scratchpad_load] unit "tile/VLD" {
          %c0_2 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c64 = arith.constant 64 : index
          %c64_3 = arith.constant 64 : index
          %c32 = arith.constant 32 : index
          scf.for %arg3 = %c0_2 to %c64 step %c1 {
            scf.for %arg4 = %c0_2 to %c64_3 step %c32 {
              ktdf.data_transfer %buf[%arg3, %arg4] to %slot : memref<64x64xf16, "SPM"> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
            }
          }
        }
        %6 = ktdf.stage "compute" depends_in(%5) depends_out(1) applicable_units [vector_compute] unit "tile/VPU" {
          %c0_2 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c64 = arith.constant 64 : index
          %c64_3 = arith.constant 64 : index
          %c32 = arith.constant 32 : index
          scf.for %arg3 = %c0_2 to %c64 step %c1 {
            scf.for %arg4 = %c0_2 to %c64_3 step %c32 {
              %8 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
              ktdf.write_to_fifo %8 to %slot_0 : tensor<32xf16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
            }
          }
        }
        %7 = ktdf.stage "drain" depends_in(%6) depends_out(1) applicable_units [scratchpad_store] unit "tile/VST" {
          %c0_2 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c64 = arith.constant 64 : index
          %c64_3 = arith.constant 64 : index
          %c32 = arith.constant 32 : index
          scf.for %arg3 = %c0_2 to %c64 step %c1 {
            scf.for %arg4 = %c0_2 to %c64_3 step %c32 {
              ktdf.data_transfer %slot_0 to %buf_1[%arg3, %arg4] : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16> to memref<64x64xf16, "SPM">
            }
          }
        }
        ktdf.stage "store_0" depends_in(%7) depends_out(0) applicable_units [dma_store] unit "tile/DMA" attributes {ktdf.row_blocks = 4 : i64} {
          ktdf.data_transfer %buf_1 to %z : memref<64x64xf16, "SPM"> to !ktdp.access_tile<64x64xindex>
        }
      }
    }
    return
  }
}

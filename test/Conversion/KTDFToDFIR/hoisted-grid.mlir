// RUN: ktflow-opt %s --ktdf-to-dfir | FileCheck %s

// A per_instance pipeline (p0) on sample_device, whose 8 lanes walk 4 grid
// points each: the core's DMA engine loads the vector once for both of its
// lanes, which share the core's L1 (SharedStaging.cpp): lane 1's buffer is
// declared at lane 0's offset and the engine only hands it to lane 1's
// feed after the load, before it walks the points, with only a full
// channel (nothing refills the buffer); each lane's feed takes that token
// before its first point and reads the buffer at every point.

// CHECK-LABEL: dfir.kernel @four_points device "sample_device"
// CHECK-DAG: dfir.buffer @p0_buf0_c0_l0 in "core[0]/L1" size 128 offset 0
// CHECK-DAG: dfir.buffer @p1_buf0_c0_l0 in "core[0]/L1" size 1024 offset 128
// CHECK-DAG: dfir.buffer @p0_buf0_c0_l1 in "core[0]/L1" size 128 offset 0
// CHECK-DAG: dfir.buffer @p1_buf0_c0_l1 in "core[0]/L1" size 1024 offset 2304
// CHECK-DAG: dfir.sync @p0_xfull0_c0_l0 from "core[0]/MNILU_Block/MNILU" to "core[0]/subcore[0]/L1LU"
// CHECK-DAG: dfir.sync @p0_xfull0_c0_l1 from "core[0]/MNILU_Block/MNILU" to "core[0]/subcore[1]/L1LU"
// CHECK-NOT: xfree

// CHECK-LABEL: dfir.unit "core[0]/MNILU_Block/MNILU"
// CHECK-NEXT: arith.constant
// CHECK-NOT: scf.for
// CHECK: dfir.dma %{{.*}} bytes from "DDR"[%{{.*}}] to "core[0]/L1"
// CHECK-NEXT: dfir.sync_send @p0_xfull0_c0_l0
// CHECK-NEXT: dfir.sync_send @p0_xfull0_c0_l1
// CHECK: scf.for %{{.*}} = %{{.*}} to %c4 step
// CHECK-NOT: @p0_
// CHECK: dfir.unit

// CHECK-LABEL: dfir.unit "core[0]/subcore[0]/L1LU"
// CHECK: dfir.sync_recv @p0_xfull0_c0_l0
// CHECK: scf.for %{{.*}} = %{{.*}} to %c4 step
// CHECK: dfir.sync_recv @p1_full0_c0_l0
// CHECK: dfir.address @p1_buf0_c0_l0
// CHECK: dfir.address @p0_buf0_c0_l0
// CHECK-NOT: @p0_
// CHECK: dfir.unit

// Input: the ScheduleIR ktdf-to-dfir receives, printed once by
// `ktflow-opt KERNEL --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams=chunk=64 --ktdf-distribute --ktdf-buffer=depth=2 --ktdf-hoist-invariant-transfers --ktdf-allocate-scratchpad` from a KTIR kernel.

#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#set1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#set2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
module {
  ktdf_arch.device @sample_device attributes {ktdf_arch.clock_mhz = 1000 : i64} {
    %DDR = memory {kind = "DDR", ktdf_arch.bandwidth = 256 : i64, size = 8589934592 : i64}
    group {kind = "core", ktdf_arch.instances = 4 : i64, ktdf_arch.interconnect = {bidirectional, hop_latency = 1 : i64, link_bandwidth = 64 : i64, topology = "ring"}} share(%DDR) {
      %L1 = memory {kind = "L1", ktdf_arch.bandwidth = 512 : i64, size = 1048576 : i64}
      %MNILU_Block = group {kind = "MNILU_Block"} share() {
        %MNILU = exec_unit {kind = "MNILU", ktdf_arch.features = {ktdf_arch.feature.load = {word_size = #ktdf_arch.map<"DDR" = 64, "L1" = 64>}}, ktdf_arch.max_outstanding = 4 : i64}
        yield %MNILU
      } -> exec_unit
      %MNISU_Block = group {kind = "MNISU_Block"} share() {
        %MNISU = exec_unit {kind = "MNISU", ktdf_arch.features = {ktdf_arch.feature.store = {word_size = #ktdf_arch.map<"DDR" = 64, "L1" = 64>}}, ktdf_arch.max_outstanding = 4 : i64}
        yield %MNISU
      } -> exec_unit
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 100 : i64, ktdf_arch.transfer_granularity = array<i64: 64>} %DDR to %MNILU_Block : memory, exec_unit
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 2 : i64, ktdf_arch.transfer_granularity = array<i64: 64>} %MNILU_Block to %L1 : exec_unit, memory
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 2 : i64, ktdf_arch.transfer_granularity = array<i64: 64>} %L1 to %MNISU_Block : memory, exec_unit
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 100 : i64, ktdf_arch.transfer_granularity = array<i64: 64>} %MNISU_Block to %DDR : exec_unit, memory
      group {kind = "subcore"} share(%L1) {
        %SFU_Block = group {kind = "SFU_Block"} share() {
          %SFU_RF = memory {kind = "SFU_RF", size = 2048 : i64}
          %SFU = exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 64, f32 = 32, i32 = 32>}}}
          datapath {ktdf_arch.bandwidth = 256 : i64, ktdf_arch.latency = 1 : i64} %SFU_RF to %SFU : memory, exec_unit
          datapath {ktdf_arch.bandwidth = 256 : i64, ktdf_arch.latency = 1 : i64} %SFU to %SFU_RF : exec_unit, memory
          yield %SFU
        } -> exec_unit
        %L1LU = exec_unit {kind = "L1LU", ktdf_arch.features = {ktdf_arch.feature.load = {access_granularity = #ktdf_arch.map<"L1" = [{align_in_words = 64 : i64, size_in_words = 64 : i64}, {align_in_words = 2 : i64, size_in_words = 2 : i64}]>, word_size = #ktdf_arch.map<"L1" = 64>}, ktdf_arch.feature.simd = {splat, zero_pad}}}
        %L1SU = exec_unit {kind = "L1SU", ktdf_arch.features = {ktdf_arch.feature.store = {access_granularity = #ktdf_arch.map<"L1" = [{align_in_words = 64 : i64, size_in_words = 64 : i64}]>, word_size = #ktdf_arch.map<"L1" = 64>}}}
        datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16 : i64, ordered}}, ktdf_arch.latency = 4 : i64, ktdf_arch.transfer_granularity = array<i64: 128>} %L1 to %L1LU : memory, exec_unit
        datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16 : i64, ordered}}, ktdf_arch.latency = 1 : i64} %L1LU to %SFU_Block : exec_unit, exec_unit
        datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16 : i64, ordered}}, ktdf_arch.latency = 1 : i64} %SFU_Block to %L1SU : exec_unit, exec_unit
        datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16 : i64, ordered}}, ktdf_arch.latency = 4 : i64, ktdf_arch.transfer_granularity = array<i64: 128>} %L1SU to %L1 : exec_unit, memory
      }
      group {kind = "subcore"} share(%L1) {
        %SFU_Block = group {kind = "SFU_Block"} share() {
          %SFU_RF = memory {kind = "SFU_RF", size = 2048 : i64}
          %SFU = exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 64, f32 = 32, i32 = 32>}}}
          datapath {ktdf_arch.bandwidth = 256 : i64, ktdf_arch.latency = 1 : i64} %SFU_RF to %SFU : memory, exec_unit
          datapath {ktdf_arch.bandwidth = 256 : i64, ktdf_arch.latency = 1 : i64} %SFU to %SFU_RF : exec_unit, memory
          yield %SFU
        } -> exec_unit
        %L1LU = exec_unit {kind = "L1LU", ktdf_arch.features = {ktdf_arch.feature.load = {access_granularity = #ktdf_arch.map<"L1" = [{align_in_words = 64 : i64, size_in_words = 64 : i64}, {align_in_words = 2 : i64, size_in_words = 2 : i64}]>, word_size = #ktdf_arch.map<"L1" = 64>}, ktdf_arch.feature.simd = {splat, zero_pad}}}
        %L1SU = exec_unit {kind = "L1SU", ktdf_arch.features = {ktdf_arch.feature.store = {access_granularity = #ktdf_arch.map<"L1" = [{align_in_words = 64 : i64, size_in_words = 64 : i64}]>, word_size = #ktdf_arch.map<"L1" = 64>}}}
        datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16 : i64, ordered}}, ktdf_arch.latency = 4 : i64, ktdf_arch.transfer_granularity = array<i64: 128>} %L1 to %L1LU : memory, exec_unit
        datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16 : i64, ordered}}, ktdf_arch.latency = 1 : i64} %L1LU to %SFU_Block : exec_unit, exec_unit
        datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16 : i64, ordered}}, ktdf_arch.latency = 1 : i64} %SFU_Block to %L1SU : exec_unit, exec_unit
        datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16 : i64, ordered}}, ktdf_arch.latency = 4 : i64, ktdf_arch.transfer_granularity = array<i64: 128>} %L1SU to %L1 : exec_unit, memory
      }
    }
    patterns ["pre_scheduling"] {
      pdl.pattern @widen_f16_exp : benefit(1) {
        %0 = type : f16
        %1 = operand : %0
        %2 = operation "math.exp"(%1 : !pdl.value)  -> (%0 : !pdl.type)
        rewrite %2 with "widen_to_f32"
      }
    }
  }
  ktdf_arch.target @sample_device memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
  func.func @four_points(%arg0: index {ktdf.tensor = tensor<128x64xf16>}, %arg1: index {ktdf.tensor = tensor<64xf16>}, %arg2: index {ktdf.tensor = tensor<128x64xf16>}) attributes {grid = [32], ktdf.scratchpad = {L1 = 2176 : i64}} {
    ktdf.parallel (%arg3) in [32] distribute(num_instances = 8) {
      %0 = ktdp.construct_memory_view %arg1, sizes: [64], strides: [1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64xf16>
      %1 = ktdp.construct_access_tile %0[0] {access_tile_order = #map, access_tile_set = #set} : memref<64xf16> -> !ktdp.access_tile<64xindex>
      %2 = ktdf.pipeline per_instance modulo(size: 1) -> memref<64xf16, "L1"> {
        %buf = ktdf.private offset 0 export 0 : memref<64xf16, "L1">
        %10 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
          ktdf.data_transfer %1 to %buf : !ktdp.access_tile<64xindex> to memref<64xf16, "L1">
        }
      }
      %c4 = arith.constant 4 : index
      %3 = arith.muli %arg3, %c4 : index
      %4 = ktdp.construct_memory_view %arg0, sizes: [128, 64], strides: [64, 1] {coordinate_set = #set1, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
      %5 = ktdp.construct_memory_view %arg1, sizes: [64], strides: [1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64xf16>
      %6 = ktdp.construct_memory_view %arg2, sizes: [128, 64], strides: [64, 1] {coordinate_set = #set1, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
      %7 = ktdp.construct_access_tile %4[%3, 0] {access_tile_order = #map1, access_tile_set = #set2} : memref<128x64xf16> -> !ktdp.access_tile<4x64xindex>
      %8 = ktdp.construct_access_tile %5[0] {access_tile_order = #map, access_tile_set = #set} : memref<64xf16> -> !ktdp.access_tile<64xindex>
      %9 = ktdp.construct_access_tile %6[%3, 0] {access_tile_order = #map1, access_tile_set = #set2} : memref<128x64xf16> -> !ktdp.access_tile<4x64xindex>
      ktdf.pipeline modulo(size: 2) {
        %buf = ktdf.private offset 128 : memref<4x64xf16, "L1">
        %slot = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
        %slot_1 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
        %buf_2 = ktdf.private offset 1152 : memref<4x64xf16, "L1">
        %10 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
          ktdf.data_transfer %7 to %buf : !ktdp.access_tile<4x64xindex> to memref<4x64xf16, "L1">
        }
        %11 = ktdf.stage "feed" depends_in(%10) depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c4_3 = arith.constant 4 : index
          %c64 = arith.constant 64 : index
          %c64_4 = arith.constant 64 : index
          scf.for %arg4 = %c0 to %c4_3 step %c1 {
            scf.for %arg5 = %c0 to %c64 step %c64_4 {
              ktdf.data_transfer %buf[%arg4, %arg5] to %slot : memref<4x64xf16, "L1"> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
              ktdf.data_transfer %2[%arg5] to %slot_0 : memref<64xf16, "L1"> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
            }
          }
        }
        %12 = ktdf.stage "compute" depends_in(%11) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c4_3 = arith.constant 4 : index
          %c64 = arith.constant 64 : index
          %c64_4 = arith.constant 64 : index
          scf.for %arg4 = %c0 to %c4_3 step %c1 {
            scf.for %arg5 = %c0 to %c64 step %c64_4 {
              %14 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
              %15 = ktdf.read_from_fifo %slot_0 : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
              %16 = tensor.empty() : tensor<64xf16>
              %17 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%14, %15 : tensor<64xf16>, tensor<64xf16>) outs(%16 : tensor<64xf16>) {
              ^bb0(%in: f16, %in_5: f16, %out: f16):
                %18 = arith.addf %in, %in_5 : f16
                linalg.yield %18 : f16
              } -> tensor<64xf16>
              ktdf.write_to_fifo %17 to %slot_1 : tensor<64xf16> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
            }
          }
        }
        %13 = ktdf.stage "drain" depends_in(%12) depends_out(1) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c4_3 = arith.constant 4 : index
          %c64 = arith.constant 64 : index
          %c64_4 = arith.constant 64 : index
          scf.for %arg4 = %c0 to %c4_3 step %c1 {
            scf.for %arg5 = %c0 to %c64 step %c64_4 {
              ktdf.data_transfer %slot_1 to %buf_2[%arg4, %arg5] : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16> to memref<4x64xf16, "L1">
            }
          }
        }
        ktdf.stage "store_0" depends_in(%13) depends_out(0) applicable_units [dma_store] unit "core/MNISU_Block/MNISU" {
          ktdf.data_transfer %buf_2 to %9 : memref<4x64xf16, "L1"> to !ktdp.access_tile<4x64xindex>
        }
      }
    }
    return
  }
}

// RUN: ktflow-opt %s --ktdf-coarsen=factor=4 | FileCheck %s

// A loop whose trip count (M/8) is only known at run time still merges
// iterations: the last merged iteration covers the rows that remain
// (derive_size), which limits its DMA transfers (`rows`) and the streamed
// row loops.

// CHECK: %[[HALF:.*]] = arith.divui %{{.*}}, %c8 : index
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[HALF]] step %[[C4]] {
// CHECK: %[[F:.*]] = arith.constant 4 : index
// CHECK: %[[ROWS:.*]] = ktdf.tiling.derive_size %[[F]] at %[[I]] extent %[[HALF]]
// CHECK: ktdp.construct_access_tile {{.*}} -> !ktdp.access_tile<4x64xindex>
// CHECK: ktdf.data_transfer %{{.*}} to %{{.*}} rows %[[ROWS]] : !ktdp.access_tile<4x64xindex> to memref<4x64xf16, "L1">
// CHECK: ktdf.stage "feed"
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[ROWS]] step
// CHECK: ktdf.stage "compute"
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[ROWS]] step
// CHECK: ktdf.data_transfer %{{.*}} to %{{.*}} rows %[[ROWS]] : memref<4x64xf16, "L1"> to !ktdp.access_tile<4x64xindex>

// Input: the ScheduleIR ktdf-coarsen receives, printed once by
// `ktflow-opt KERNEL --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams --ktdf-distribute` from a KTIR kernel.

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0) -> (d0)>
#set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#set1 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
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
  func.func @half_rows(%arg0: !ktdp.runtime_arg<index, granularity=8, upperbound=64>, %arg1: index {ktdf.tensor = tensor<?x64xf16>, ktdf.tensor_dims = array<i64: 0>}, %arg2: index {ktdf.tensor = tensor<?x64xf16>, ktdf.tensor_dims = array<i64: 0>}, %arg3: index {ktdf.tensor = tensor<?x64xf16>, ktdf.tensor_dims = array<i64: 0>}) attributes {grid = [4]} {
    ktdf.parallel (%arg4) in [4] distribute(num_instances = 4) {
      %c8 = arith.constant 8 : index
      %c4 = arith.constant 4 : index
      %c1 = arith.constant 1 : index
      %c0 = arith.constant 0 : index
      %0 = ktdp.runtime_arg_extract value from %arg0 : <index, granularity=8, upperbound=64> -> index
      %1 = arith.divui %0, %c4 : index
      %2 = arith.divui %0, %c8 : index
      %3 = arith.muli %arg4, %1 : index
      %4 = ktdp.construct_memory_view %arg1, sizes: [%0, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
      %5 = ktdp.construct_memory_view %arg2, sizes: [%0, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
      %6 = ktdp.construct_memory_view %arg3, sizes: [%0, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
      scf.for %arg5 = %c0 to %2 step %c1 {
        %7 = ktdp.construct_access_tile %4[%3 + %arg5, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<?x64xf16> -> !ktdp.access_tile<1x64xindex>
        %8 = ktdp.construct_access_tile %5[%3 + %arg5, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<?x64xf16> -> !ktdp.access_tile<1x64xindex>
        %9 = ktdp.construct_access_tile %6[%3 + %arg5, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<?x64xf16> -> !ktdp.access_tile<1x64xindex>
        ktdf.pipeline {
          %buf = ktdf.private : memref<1x64xf16, "L1">
          %slot = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
          %buf_0 = ktdf.private : memref<1x64xf16, "L1">
          %slot_1 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
          %slot_2 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
          %buf_3 = ktdf.private : memref<1x64xf16, "L1">
          %10 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
            ktdf.data_transfer %7 to %buf : !ktdp.access_tile<1x64xindex> to memref<1x64xf16, "L1">
          }
          %11 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
            ktdf.data_transfer %8 to %buf_0 : !ktdp.access_tile<1x64xindex> to memref<1x64xf16, "L1">
          }
          %12 = ktdf.stage "feed" depends_in(%10, %11) depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
            %c0_4 = arith.constant 0 : index
            %c1_5 = arith.constant 1 : index
            %c1_6 = arith.constant 1 : index
            %c64 = arith.constant 64 : index
            %c64_7 = arith.constant 64 : index
            scf.for %arg6 = %c0_4 to %c1_6 step %c1_5 {
              scf.for %arg7 = %c0_4 to %c64 step %c64_7 {
                ktdf.data_transfer %buf[%arg6, %arg7] to %slot : memref<1x64xf16, "L1"> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
                ktdf.data_transfer %buf_0[%arg6, %arg7] to %slot_1 : memref<1x64xf16, "L1"> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
              }
            }
          }
          %13 = ktdf.stage "compute" depends_in(%12) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
            %c0_4 = arith.constant 0 : index
            %c1_5 = arith.constant 1 : index
            %c1_6 = arith.constant 1 : index
            %c64 = arith.constant 64 : index
            %c64_7 = arith.constant 64 : index
            scf.for %arg6 = %c0_4 to %c1_6 step %c1_5 {
              scf.for %arg7 = %c0_4 to %c64 step %c64_7 {
                %15 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
                %16 = ktdf.read_from_fifo %slot_1 : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
                %17 = tensor.empty() : tensor<64xf16>
                %18 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel"]} ins(%15, %16 : tensor<64xf16>, tensor<64xf16>) outs(%17 : tensor<64xf16>) {
                ^bb0(%in: f16, %in_8: f16, %out: f16):
                  %19 = arith.addf %in, %in_8 : f16
                  linalg.yield %19 : f16
                } -> tensor<64xf16>
                ktdf.write_to_fifo %18 to %slot_2 : tensor<64xf16> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
              }
            }
          }
          %14 = ktdf.stage "drain" depends_in(%13) depends_out(1) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
            %c0_4 = arith.constant 0 : index
            %c1_5 = arith.constant 1 : index
            %c1_6 = arith.constant 1 : index
            %c64 = arith.constant 64 : index
            %c64_7 = arith.constant 64 : index
            scf.for %arg6 = %c0_4 to %c1_6 step %c1_5 {
              scf.for %arg7 = %c0_4 to %c64 step %c64_7 {
                ktdf.data_transfer %slot_2 to %buf_3[%arg6, %arg7] : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16> to memref<1x64xf16, "L1">
              }
            }
          }
          ktdf.stage "store_0" depends_in(%14) depends_out(0) applicable_units [dma_store] unit "core/MNISU_Block/MNISU" {
            ktdf.data_transfer %buf_3 to %9 : memref<1x64xf16, "L1"> to !ktdp.access_tile<1x64xindex>
          }
        }
      }
    }
    return
  }
}

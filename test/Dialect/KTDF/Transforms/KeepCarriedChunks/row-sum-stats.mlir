// RUN: ktflow-opt %s --ktdf-keep-carried-chunks | FileCheck %s

// row_sum_offsets (examples/kernels/realworld) on sample_device: a 1x128
// f32 accumulator carried over a run-time number of column blocks, then
// reduced into the row's element of the statistics view
// (ktdf-store-stats-after-loop), whose index arithmetic and access tile
// come after the block loop. The chunks are kept in the compute unit
// across the blocks and folded into the row's sum where they end, as in
// row-sum.mlir; the statistic's position, computed between the two
// pipelines from values defined before them, moves before the kept
// pipeline, whose drain now writes the sum there. The reducing pipeline
// and the carried view go.

// CHECK: scf.for %[[ROW:.*]] = %arg4 to %arg2 step %c16 {
// CHECK: ktdf.pipeline modulo(size: 2) -> memref<1x640xf16, "L1">
// CHECK: arith.subi %[[ROW]], %arg4 : index
// CHECK: %[[AT:.*]] = ktdp.construct_access_tile %{{.*}}[%{{.*}}] {{.*}} -> !ktdp.access_tile<1xindex>
// CHECK-NEXT: ktdf.pipeline modulo(size: 4) {
// CHECK: ktdf.stage "compute"
// CHECK: %[[SUM:.*]] = scf.for %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<f32>) {
// CHECK: %[[CHUNK:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c128 iter_args(%{{.*}} = %{{.*}}) -> (tensor<64xf32>) {
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction"]} ins(%[[CHUNK]] : tensor<64xf32>) outs(%[[ACC]] : tensor<f32>)
// CHECK: ktdf.write_to_fifo %[[SUM]] to
// CHECK: ktdf.stage "drain"
// CHECK: ktdf.data_transfer %{{.*}} to %[[AT]][%{{.*}}] : {{.*}} to !ktdp.access_tile<1xindex>
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NOT: ktdf.pipeline
// CHECK: arith.minsi
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0) -> ()>
#set = affine_set<(d0) : (d0 >= 0, -d0 + 79 >= 0)>
#set1 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#set2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#set3 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 639 >= 0)>
#set4 = affine_set<(d0) : (d0 == 0)>
#set5 = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#set6 = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#set7 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 >= 0)>
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
  func.func @row_sum_offsets(%arg0: index {ktdf.tensor = tensor<64x512xf16>}, %arg1: index {ktdf.tensor = tensor<64xf32>}, %arg2: index, %arg3: index) attributes {grid = [16, 1]} {
    ktdf.parallel (%arg4, %arg5) in [16, 1] distribute(num_instances = 8, snake) {
      %c15 = arith.constant 15 : index
      %c64 = arith.constant 64 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %cst = arith.constant dense<0.000000e+00> : tensor<1x128xf32>
      %c16 = arith.constant 16 : index
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %0 = ktdp.construct_memory_view %c128, sizes: [80], strides: [1] {coordinate_set = #set, ktdf.carried, ktdf.memory = "L1", ktdf.row_stats, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<80xf32, #ktdp.memory_space<ct_local, ct_id = 0>>
      %1 = ktdp.construct_memory_view %c0, sizes: [1, 128], strides: [128, 1] {coordinate_set = #set1, ktdf.carried, ktdf.memory = "L1", memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<1x128xf32, #ktdp.memory_space<ct_local, ct_id = 0>>
      %2 = ktdp.construct_access_tile %1[0, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<1x128xf32, #ktdp.memory_space<ct_local, ct_id = 0>> -> !ktdp.access_tile<1x128xindex>
      %3 = ktdp.construct_memory_view %arg0, sizes: [64, 512], strides: [512, 1] {coordinate_set = #set2, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
      scf.for %arg6 = %arg4 to %arg2 step %c16 {
        %12 = arith.muli %arg3, %c128 : index
        ktdf.pipeline modulo(size: 4) {
          %slot = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 32xf32>
          %21 = ktdf.stage "feed" depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
            %c0_1 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_2 = arith.constant 1 : index
            %c128_3 = arith.constant 128 : index
            %c32 = arith.constant 32 : index
            scf.for %arg7 = %c0_1 to %c1_2 step %c1 {
            }
          }
          %22 = ktdf.stage "compute" depends_in(%21) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
            %c0_1 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_2 = arith.constant 1 : index
            %c128_3 = arith.constant 128 : index
            %c32 = arith.constant 32 : index
            scf.for %arg7 = %c0_1 to %c1_2 step %c1 {
              scf.for %arg8 = %c0_1 to %c128_3 step %c32 {
                %cst_4 = arith.constant dense<0.000000e+00> : tensor<32xf32>
                ktdf.write_to_fifo %cst_4 to %slot : tensor<32xf32> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 32xf32>
              }
            }
          }
          %23 = ktdf.stage "drain" depends_in(%22) depends_out(1) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
            %c0_1 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_2 = arith.constant 1 : index
            %c128_3 = arith.constant 128 : index
            %c32 = arith.constant 32 : index
            scf.for %arg7 = %c0_1 to %c1_2 step %c1 {
              scf.for %arg8 = %c0_1 to %c128_3 step %c32 {
                ktdf.data_transfer %slot to %2[%arg7, %arg8] : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 32xf32> to !ktdp.access_tile<1x128xindex>
              }
            }
          }
        }
        %c0_0 = arith.constant 0 : index
        %13 = ktdp.construct_access_tile %3[%arg6, %c0_0] {access_tile_order = #map, access_tile_set = #set3} : memref<64x512xf16> -> !ktdp.access_tile<1x640xindex>
        %14 = ktdf.pipeline modulo(size: 2) -> memref<1x640xf16, "L1"> {
          %buf = ktdf.private export 0 : memref<1x640xf16, "L1">
          %21 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
            ktdf.data_transfer %13 to %buf : !ktdp.access_tile<1x640xindex> to memref<1x640xf16, "L1">
          }
        }
        scf.for %arg7 = %c0 to %12 step %c128 {
          %c512 = arith.constant 512 : index
          %21 = arith.cmpi ult, %arg7, %c512 : index
          %22 = arith.select %21, %arg7, %c512 : index
          ktdf.pipeline modulo(size: 4) {
            %slot = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
            %slot_1 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf32>
            %slot_2 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf32>
            %23 = ktdf.stage "feed" depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
              %c0_3 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_4 = arith.constant 1 : index
              %c128_5 = arith.constant 128 : index
              %c64_6 = arith.constant 64 : index
              scf.for %arg8 = %c0_3 to %c1_4 step %c1 {
                scf.for %arg9 = %c0_3 to %c128_5 step %c64_6 {
                  %26 = arith.addi %arg9, %22 : index
                  ktdf.data_transfer %14[%arg8, %26] to %slot : memref<1x640xf16, "L1"> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
                  ktdf.data_transfer %2[%arg8, %arg9] to %slot_1 : !ktdp.access_tile<1x128xindex> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf32>
                }
              }
            }
            %24 = ktdf.stage "compute" depends_in(%23) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
              %c0_3 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_4 = arith.constant 1 : index
              %c128_5 = arith.constant 128 : index
              %c64_6 = arith.constant 64 : index
              scf.for %arg8 = %c0_3 to %c1_4 step %c1 {
                scf.for %arg9 = %c0_3 to %c128_5 step %c64_6 {
                  %26 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
                  %27 = ktdf.read_from_fifo %slot_1 : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf32> -> tensor<64xf32>
                  %28 = tensor.empty() : tensor<64xf32>
                  %29 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel"]} ins(%27, %26 : tensor<64xf32>, tensor<64xf16>) outs(%28 : tensor<64xf32>) {
                  ^bb0(%in: f32, %in_7: f16, %out: f32):
                    %30 = arith.extf %in_7 : f16 to f32
                    %31 = arith.addf %in, %30 : f32
                    linalg.yield %31 : f32
                  } -> tensor<64xf32>
                  ktdf.write_to_fifo %29 to %slot_2 : tensor<64xf32> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf32>
                }
              }
            }
            %25 = ktdf.stage "drain" depends_in(%24) depends_out(1) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
              %c0_3 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_4 = arith.constant 1 : index
              %c128_5 = arith.constant 128 : index
              %c64_6 = arith.constant 64 : index
              scf.for %arg8 = %c0_3 to %c1_4 step %c1 {
                scf.for %arg9 = %c0_3 to %c128_5 step %c64_6 {
                  ktdf.data_transfer %slot_2 to %2[%arg8, %arg9] : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf32> to !ktdp.access_tile<1x128xindex>
                }
              }
            }
          }
        }
        %15 = arith.subi %arg6, %arg4 : index
        %16 = arith.divui %15, %c16 : index
        %17 = arith.muli %arg4, %c5 : index
        %18 = arith.minui %16, %c4 : index
        %19 = arith.addi %17, %18 : index
        %20 = ktdp.construct_access_tile %0[%19] {access_tile_order = #map1, access_tile_set = #set4} : memref<80xf32, #ktdp.memory_space<ct_local, ct_id = 0>> -> !ktdp.access_tile<1xindex>
        ktdf.pipeline modulo(size: 4) {
          %slot = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf32>
          %slot_1 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 1xf32>
          %21 = ktdf.stage "feed" depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
            %c0_2 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_3 = arith.constant 1 : index
            %c128_4 = arith.constant 128 : index
            %c64_5 = arith.constant 64 : index
            scf.for %arg7 = %c0_2 to %c1_3 step %c1 {
              scf.for %arg8 = %c0_2 to %c128_4 step %c64_5 {
                ktdf.data_transfer %2[%arg7, %arg8] to %slot : !ktdp.access_tile<1x128xindex> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf32>
              }
            }
          }
          %22 = ktdf.stage "compute" depends_in(%21) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
            %c0_2 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_3 = arith.constant 1 : index
            %c128_4 = arith.constant 128 : index
            %c64_5 = arith.constant 64 : index
            scf.for %arg7 = %c0_2 to %c1_3 step %c1 {
              %cst_6 = arith.constant dense<0.000000e+00> : tensor<f32>
              %24 = scf.for %arg8 = %c0_2 to %c128_4 step %c64_5 iter_args(%arg9 = %cst_6) -> (tensor<f32>) {
                %25 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf32> -> tensor<64xf32>
                %26 = linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["reduction"]} ins(%25 : tensor<64xf32>) outs(%arg9 : tensor<f32>) {
                ^bb0(%in: f32, %out: f32):
                  %27 = arith.addf %in, %out : f32
                  linalg.yield %27 : f32
                } -> tensor<f32>
                scf.yield %26 : tensor<f32>
              }
              ktdf.write_to_fifo %24 to %slot_1 : tensor<f32> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 1xf32>
            }
          }
          %23 = ktdf.stage "drain" depends_in(%22) depends_out(1) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
            %c0_2 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_3 = arith.constant 1 : index
            %c128_4 = arith.constant 128 : index
            %c64_5 = arith.constant 64 : index
            scf.for %arg7 = %c0_2 to %c1_3 step %c1 {
              %c0_6 = arith.constant 0 : index
              ktdf.data_transfer %slot_1 to %20[%c0_6] : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 1xf32> to !ktdp.access_tile<1xindex>
            }
          }
        }
      }
      %4 = arith.minsi %arg2, %c64 : index
      %5 = arith.subi %4, %arg4 : index
      %6 = arith.addi %5, %c15 : index
      %7 = arith.divsi %6, %c16 : index
      %8 = arith.maxsi %7, %c0 : index
      %9 = ktdp.construct_access_tile %0[%arg4 * 5] {access_tile_order = #map1, access_tile_set = #set5} : memref<80xf32, #ktdp.memory_space<ct_local, ct_id = 0>> -> !ktdp.access_tile<4xindex>
      %10 = ktdp.construct_memory_view %arg1, sizes: [%8, 16], strides: [16, 1] {coordinate_set = #set6, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<?x16xf32>
      %11 = ktdp.construct_access_tile %10[0, %arg4] {access_tile_order = #map, access_tile_set = #set7} : memref<?x16xf32> -> !ktdp.access_tile<4x1xindex>
      ktdf.pipeline modulo(size: 4) {
        %slot = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf32>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 1xf32>
        %buf = ktdf.private : memref<4x1xf32, "L1">
        %12 = ktdf.stage "feed" depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
          %c0_1 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c4_2 = arith.constant 4 : index
          %c1_3 = arith.constant 1 : index
          %c1_4 = arith.constant 1 : index
          scf.for %arg6 = %c0_1 to %c4_2 step %c1 {
            ktdf.data_transfer %9[%arg6] to %slot : !ktdp.access_tile<4xindex> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf32>
          }
        }
        %13 = ktdf.stage "compute" depends_in(%12) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
          %c0_1 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c4_2 = arith.constant 4 : index
          %c1_3 = arith.constant 1 : index
          %c1_4 = arith.constant 1 : index
          scf.for %arg6 = %c0_1 to %c4_2 step %c1 {
            %15 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf32> -> tensor<f32>
            scf.for %arg7 = %c0_1 to %c1_3 step %c1_4 {
              %16 = tensor.empty() : tensor<1xf32>
              %17 = linalg.generic {indexing_maps = [#map2, #map1], iterator_types = ["parallel"]} ins(%15 : tensor<f32>) outs(%16 : tensor<1xf32>) {
              ^bb0(%in: f32, %out: f32):
                linalg.yield %in : f32
              } -> tensor<1xf32>
              ktdf.write_to_fifo %17 to %slot_0 : tensor<1xf32> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 1xf32>
            }
          }
        }
        %14 = ktdf.stage "drain" depends_in(%13) depends_out(1) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
          %c0_1 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c4_2 = arith.constant 4 : index
          %c1_3 = arith.constant 1 : index
          %c1_4 = arith.constant 1 : index
          scf.for %arg6 = %c0_1 to %c4_2 step %c1 {
            scf.for %arg7 = %c0_1 to %c1_3 step %c1_4 {
              ktdf.data_transfer %slot_0 to %buf[%arg6, %arg7] : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 1xf32> to memref<4x1xf32, "L1">
            }
          }
        }
        ktdf.stage "store_0" depends_in(%14) depends_out(0) applicable_units [dma_store] unit "core/MNISU_Block/MNISU" {
          ktdf.data_transfer %buf to %11 : memref<4x1xf32, "L1"> to !ktdp.access_tile<4x1xindex>
        }
      }
    }
    return
  }
}



// RUN: ktflow-opt %s --ktdf-hoist-invariant-transfers | FileCheck %s

// A row span whose loops may run past the view: row_center_dyn with both
// column loops up to a plain `index` N (no min(N, 1024)). A block past the
// view reads zeros, so the span is the view's 1024 columns and one block
// of zeros (1x1152). The loops' trips are known only at run time, so the
// span's load reads through a copy of X's view whose last dimension holds
// the columns the loops reach: the largest end of a block of the mean
// loop and of the centring loop's pieces (blocks of 1024, 512, 256 and
// 128 columns, ktdf-merge-column-blocks, their bounds cloned before the
// span from where that pass computes them, after the mean loop), lb +
// ceil(max(ub - lb, 0) / step) * step each, at most 1024. Past it the DMA
// moves nothing; only the columns from 1024 on (the zero block) are
// zeroed (ktdf.zero_from = 1024), not the unread ones before them.

// CHECK: #[[CLIPPED:set[0-9]*]] = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + s0 - 1 >= 0)>
// CHECK: scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %c16
// The mean loop's end: 0 + ceil(max(N - 0, 0) / 128) * 128.
// CHECK: %[[LEN:.*]] = arith.subi %arg4, %c0 : index
// CHECK-NEXT: %[[POS:.*]] = arith.maxsi %[[LEN]], %{{.*}} : index
// CHECK-NEXT: %[[TRIPS:.*]] = arith.ceildivui %[[POS]], %c128 : index
// CHECK-NEXT: %[[COLS:.*]] = arith.muli %[[TRIPS]], %c128 : index
// CHECK-NEXT: %[[END:.*]] = arith.addi %c0, %[[COLS]] : index
// The 1024-wide blocks' loop, from 0 to its cloned bound.
// CHECK: arith.ceildivui %{{.*}}, %c1024 : index
// CHECK: %[[MAX:.*]] = arith.maxsi %[[END]], %{{.*}} : index
// CHECK: arith.ceildivui %{{.*}}, %c512 : index
// CHECK: arith.ceildivui %{{.*}}, %c256 : index
// CHECK: arith.ceildivui %{{.*}}, %c128 : index
// CHECK: %[[ALL:.*]] = arith.maxsi %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[E:.*]] = arith.constant 1024 : index
// CHECK-NEXT: %[[REACH:.*]] = arith.minsi %[[ALL]], %[[E]] : index
// CHECK-NEXT: %[[VIEW:.*]] = ktdp.construct_memory_view %arg0, sizes: [64, %[[REACH]]], strides: [1024, 1] {coordinate_set = #[[CLIPPED]], ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x1024xf16>
// CHECK-NEXT: %[[SPAN:.*]] = ktdp.construct_access_tile %[[VIEW]][%[[ROW]], %c0{{.*}}] {{{.*}}ktdf.zero_from = 1024 : i64} : memref<64x1024xf16> -> !ktdp.access_tile<1x1152xindex>
// CHECK-NEXT: %[[X:.*]] = ktdf.pipeline modulo(size: 2) -> memref<1x1152xf16, "L1"> {
// CHECK: ktdf.data_transfer %[[SPAN]] to %{{.*}} : !ktdp.access_tile<1x1152xindex> to memref<1x1152xf16, "L1">
// CHECK: scf.for %{{.*}} = %c0 to %arg4 step %c128
// CHECK: ktdf.data_transfer %[[X]][%{{.*}}, %{{.*}}] to %{{.*}} : memref<1x1152xf16, "L1">
// CHECK-NOT: !ktdp.access_tile<1x{{[0-9]+}}xindex> to memref
// CHECK: return

// Input: the ScheduleIR ktdf-hoist-invariant-transfers receives, printed once by
// `ktflow-opt K --arch examples/devices/sample_device.mlir --ktdf-mapping --ktdf-apply-device-patterns=checkpoint=pre_scheduling --ktdf-route-transfers --ktdf-tile-streams --ktdf-distribute --ktdf-buffer`,
// K row_center_dyn.mlir with both loops up to %N.

#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0) -> ()>
#map3 = affine_map<() -> ()>
#set = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#set1 = affine_set<(d0) : (d0 >= 0, -d0 + 79 >= 0)>
#set2 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#set3 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#set4 = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#set5 = affine_set<(d0) : (d0 == 0)>
#set6 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#set7 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#set8 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#set9 = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#set10 = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#set11 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 >= 0)>
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
  func.func @row_center_kernel(%arg0: index {ktdf.tensor = tensor<64x1024xf16>}, %arg1: index {ktdf.tensor = tensor<64x1024xf16>}, %arg2: index {ktdf.tensor = tensor<64xf16>}, %arg3: index, %arg4: index) attributes {grid = [16, 1]} {
    ktdf.parallel (%arg5, %arg6) in [16, 1] distribute(num_instances = 8, snake) {
      %c15 = arith.constant 15 : index
      %c64 = arith.constant 64 : index
      %c2 = arith.constant 2 : index
      %c512 = arith.constant 512 : index
      %c8 = arith.constant 8 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %cst = arith.constant dense<0.000000e+00> : tensor<1x128xf16>
      %c1024 = arith.constant 1024 : index
      %c16 = arith.constant 16 : index
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %c256 = arith.constant 256 : index
      %0 = ktdp.construct_memory_view %c256, sizes: [1], strides: [1] {coordinate_set = #set, ktdf.carried, ktdf.memory = "L1", memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<1xf16, #ktdp.memory_space<ct_local, ct_id = 0>>
      %1 = ktdp.construct_access_tile %0[0] {access_tile_order = #map, access_tile_set = #set} : memref<1xf16, #ktdp.memory_space<ct_local, ct_id = 0>> -> !ktdp.access_tile<1xindex>
      %2 = ktdp.construct_memory_view %c128, sizes: [80], strides: [1] {coordinate_set = #set1, ktdf.carried, ktdf.memory = "L1", ktdf.row_stats, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<80xf16, #ktdp.memory_space<ct_local, ct_id = 0>>
      %3 = ktdp.construct_memory_view %c0, sizes: [1, 128], strides: [128, 1] {coordinate_set = #set2, ktdf.carried, ktdf.memory = "L1", memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<1x128xf16, #ktdp.memory_space<ct_local, ct_id = 0>>
      %4 = ktdp.construct_access_tile %3[0, 0] {access_tile_order = #map1, access_tile_set = #set2} : memref<1x128xf16, #ktdp.memory_space<ct_local, ct_id = 0>> -> !ktdp.access_tile<1x128xindex>
      %5 = arith.index_cast %arg4 : index to i32
      %6 = arith.sitofp %5 : i32 to f16
      %7 = ktdp.construct_memory_view %arg0, sizes: [64, 1024], strides: [1024, 1] {coordinate_set = #set3, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x1024xf16>
      %8 = ktdp.construct_memory_view %arg1, sizes: [64, 1024], strides: [1024, 1] {coordinate_set = #set3, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x1024xf16>
      scf.for %arg7 = %arg5 to %arg3 step %c16 {
        ktdf.pipeline modulo(size: 4) {
          %slot = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
          %32 = ktdf.stage "feed" depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
            %c0_0 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_1 = arith.constant 1 : index
            %c128_2 = arith.constant 128 : index
            %c64_3 = arith.constant 64 : index
            scf.for %arg8 = %c0_0 to %c1_1 step %c1 {
            }
          }
          %33 = ktdf.stage "compute" depends_in(%32) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
            %c0_0 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_1 = arith.constant 1 : index
            %c128_2 = arith.constant 128 : index
            %c64_3 = arith.constant 64 : index
            scf.for %arg8 = %c0_0 to %c1_1 step %c1 {
              scf.for %arg9 = %c0_0 to %c128_2 step %c64_3 {
                %cst_4 = arith.constant dense<0.000000e+00> : tensor<64xf16>
                ktdf.write_to_fifo %cst_4 to %slot : tensor<64xf16> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
              }
            }
          }
          %34 = ktdf.stage "drain" depends_in(%33) depends_out(1) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
            %c0_0 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_1 = arith.constant 1 : index
            %c128_2 = arith.constant 128 : index
            %c64_3 = arith.constant 64 : index
            scf.for %arg8 = %c0_0 to %c1_1 step %c1 {
              scf.for %arg9 = %c0_0 to %c128_2 step %c64_3 {
                ktdf.data_transfer %slot to %4[%arg8, %arg9] : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16> to !ktdp.access_tile<1x128xindex>
              }
            }
          }
        }
        scf.for %arg8 = %c0 to %arg4 step %c128 {
          %32 = ktdp.construct_access_tile %7[%arg7, %arg8] {access_tile_order = #map1, access_tile_set = #set4} : memref<64x1024xf16> -> !ktdp.access_tile<1x128xindex>
          ktdf.pipeline modulo(size: 4) {
            %buf = ktdf.private : memref<1x128xf16, "L1">
            %slot = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
            %slot_0 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
            %slot_1 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
            %33 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
              ktdf.data_transfer %32 to %buf : !ktdp.access_tile<1x128xindex> to memref<1x128xf16, "L1">
            }
            %34 = ktdf.stage "feed" depends_in(%33) depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
              %c0_2 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_3 = arith.constant 1 : index
              %c128_4 = arith.constant 128 : index
              %c64_5 = arith.constant 64 : index
              scf.for %arg9 = %c0_2 to %c1_3 step %c1 {
                scf.for %arg10 = %c0_2 to %c128_4 step %c64_5 {
                  ktdf.data_transfer %buf[%arg9, %arg10] to %slot : memref<1x128xf16, "L1"> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
                  ktdf.data_transfer %4[%arg9, %arg10] to %slot_0 : !ktdp.access_tile<1x128xindex> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
                }
              }
            }
            %35 = ktdf.stage "compute" depends_in(%34) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
              %c0_2 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_3 = arith.constant 1 : index
              %c128_4 = arith.constant 128 : index
              %c64_5 = arith.constant 64 : index
              scf.for %arg9 = %c0_2 to %c1_3 step %c1 {
                scf.for %arg10 = %c0_2 to %c128_4 step %c64_5 {
                  %37 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
                  %38 = ktdf.read_from_fifo %slot_0 : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
                  %39 = tensor.empty() : tensor<64xf16>
                  %40 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%38, %37 : tensor<64xf16>, tensor<64xf16>) outs(%39 : tensor<64xf16>) {
                  ^bb0(%in: f16, %in_6: f16, %out: f16):
                    %41 = arith.addf %in, %in_6 : f16
                    linalg.yield %41 : f16
                  } -> tensor<64xf16>
                  ktdf.write_to_fifo %40 to %slot_1 : tensor<64xf16> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
                }
              }
            }
            %36 = ktdf.stage "drain" depends_in(%35) depends_out(1) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
              %c0_2 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_3 = arith.constant 1 : index
              %c128_4 = arith.constant 128 : index
              %c64_5 = arith.constant 64 : index
              scf.for %arg9 = %c0_2 to %c1_3 step %c1 {
                scf.for %arg10 = %c0_2 to %c128_4 step %c64_5 {
                  ktdf.data_transfer %slot_1 to %4[%arg9, %arg10] : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16> to !ktdp.access_tile<1x128xindex>
                }
              }
            }
          }
        }
        ktdf.pipeline modulo(size: 4) {
          %slot = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
          %slot_0 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 1xf16>
          %32 = ktdf.stage "feed" depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
            %c0_1 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_2 = arith.constant 1 : index
            %c128_3 = arith.constant 128 : index
            %c64_4 = arith.constant 64 : index
            scf.for %arg8 = %c0_1 to %c1_2 step %c1 {
              scf.for %arg9 = %c0_1 to %c128_3 step %c64_4 {
                ktdf.data_transfer %4[%arg8, %arg9] to %slot : !ktdp.access_tile<1x128xindex> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
              }
            }
          }
          %33 = ktdf.stage "compute" depends_in(%32) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
            %c0_1 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_2 = arith.constant 1 : index
            %c128_3 = arith.constant 128 : index
            %c64_4 = arith.constant 64 : index
            scf.for %arg8 = %c0_1 to %c1_2 step %c1 {
              %cst_5 = arith.constant dense<0.000000e+00> : tensor<f16>
              %35 = scf.for %arg9 = %c0_1 to %c128_3 step %c64_4 iter_args(%arg10 = %cst_5) -> (tensor<f16>) {
                %40 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
                %41 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["reduction"]} ins(%40 : tensor<64xf16>) outs(%arg10 : tensor<f16>) {
                ^bb0(%in: f16, %out: f16):
                  %42 = arith.addf %in, %out : f16
                  linalg.yield %42 : f16
                } -> tensor<f16>
                scf.yield %41 : tensor<f16>
              }
              %36 = tensor.empty() : tensor<f16>
              %37 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = []} ins(%35 : tensor<f16>) outs(%36 : tensor<f16>) {
              ^bb0(%in: f16, %out: f16):
                %40 = arith.divf %in, %6 : f16
                linalg.yield %40 : f16
              } -> tensor<f16>
              %38 = tensor.empty() : tensor<f16>
              %39 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = []} ins(%37 : tensor<f16>) outs(%38 : tensor<f16>) {
              ^bb0(%in: f16, %out: f16):
                linalg.yield %in : f16
              } -> tensor<f16>
              ktdf.write_to_fifo %39 to %slot_0 : tensor<f16> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 1xf16>
            }
          }
          %34 = ktdf.stage "drain" depends_in(%33) depends_out(1) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
            %c0_1 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_2 = arith.constant 1 : index
            %c128_3 = arith.constant 128 : index
            %c64_4 = arith.constant 64 : index
            scf.for %arg8 = %c0_1 to %c1_2 step %c1 {
              %c0_5 = arith.constant 0 : index
              ktdf.data_transfer %slot_0 to %1[%c0_5] : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 1xf16> to !ktdp.access_tile<1xindex>
            }
          }
        }
        %17 = arith.subi %arg7, %arg5 : index
        %18 = arith.divui %17, %c16 : index
        %19 = arith.muli %arg5, %c5 : index
        %20 = arith.minui %18, %c4 : index
        %21 = arith.addi %19, %20 : index
        %22 = ktdp.construct_access_tile %2[%21] {access_tile_order = #map, access_tile_set = #set5} : memref<80xf16, #ktdp.memory_space<ct_local, ct_id = 0>> -> !ktdp.access_tile<1xindex>
        ktdf.pipeline modulo(size: 4) {
          %slot = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16>
          %slot_0 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 1xf16>
          %32 = ktdf.stage "feed" depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
            %c0_1 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_2 = arith.constant 1 : index
            %c1_3 = arith.constant 1 : index
            %c1_4 = arith.constant 1 : index
            scf.for %arg8 = %c0_1 to %c1_2 step %c1 {
              scf.for %arg9 = %c0_1 to %c1_3 step %c1_4 {
                ktdf.data_transfer %1[%arg9] to %slot : !ktdp.access_tile<1xindex> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16>
              }
            }
          }
          %33 = ktdf.stage "compute" depends_in(%32) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
            %c0_1 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_2 = arith.constant 1 : index
            %c1_3 = arith.constant 1 : index
            %c1_4 = arith.constant 1 : index
            scf.for %arg8 = %c0_1 to %c1_2 step %c1 {
              scf.for %arg9 = %c0_1 to %c1_3 step %c1_4 {
                %35 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16> -> tensor<1xf16>
                ktdf.write_to_fifo %35 to %slot_0 : tensor<1xf16> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 1xf16>
              }
            }
          }
          %34 = ktdf.stage "drain" depends_in(%33) depends_out(1) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
            %c0_1 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_2 = arith.constant 1 : index
            %c1_3 = arith.constant 1 : index
            %c1_4 = arith.constant 1 : index
            scf.for %arg8 = %c0_1 to %c1_2 step %c1 {
              scf.for %arg9 = %c0_1 to %c1_3 step %c1_4 {
                ktdf.data_transfer %slot_0 to %22[%arg9] : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 1xf16> to !ktdp.access_tile<1xindex>
              }
            }
          }
        }
        %23 = arith.maxsi %arg4, %c0 : index
        %24 = arith.ceildivui %23, %c128 : index
        %25 = arith.minui %24, %c8 : index
        %26 = arith.divui %25, %c8 : index
        %27 = arith.muli %26, %c1024 : index
        scf.for %arg8 = %c0 to %27 step %c1024 {
          %32 = ktdp.construct_access_tile %7[%arg7, %arg8] {access_tile_order = #map1, access_tile_set = #set6} : memref<64x1024xf16> -> !ktdp.access_tile<1x1024xindex>
          %33 = ktdp.construct_access_tile %8[%arg7, %arg8] {access_tile_order = #map1, access_tile_set = #set6} : memref<64x1024xf16> -> !ktdp.access_tile<1x1024xindex>
          ktdf.pipeline modulo(size: 4) {
            %slot = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16>
            %buf = ktdf.private : memref<1x1024xf16, "L1">
            %slot_0 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
            %slot_1 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
            %buf_2 = ktdf.private : memref<1x1024xf16, "L1">
            %34 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
              ktdf.data_transfer %32 to %buf : !ktdp.access_tile<1x1024xindex> to memref<1x1024xf16, "L1">
            }
            %35 = ktdf.stage "feed" depends_in(%34) depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
              %c0_3 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_4 = arith.constant 1 : index
              %c1024_5 = arith.constant 1024 : index
              %c64_6 = arith.constant 64 : index
              scf.for %arg9 = %c0_3 to %c1_4 step %c1 {
                %c0_7 = arith.constant 0 : index
                ktdf.data_transfer %1[%c0_7] to %slot : !ktdp.access_tile<1xindex> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16>
                scf.for %arg10 = %c0_3 to %c1024_5 step %c64_6 {
                  ktdf.data_transfer %buf[%arg9, %arg10] to %slot_0 : memref<1x1024xf16, "L1"> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
                }
              }
            }
            %36 = ktdf.stage "compute" depends_in(%35) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
              %c0_3 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_4 = arith.constant 1 : index
              %c1024_5 = arith.constant 1024 : index
              %c64_6 = arith.constant 64 : index
              scf.for %arg9 = %c0_3 to %c1_4 step %c1 {
                %38 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16> -> tensor<f16>
                scf.for %arg10 = %c0_3 to %c1024_5 step %c64_6 {
                  %39 = ktdf.read_from_fifo %slot_0 : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
                  %40 = tensor.empty() : tensor<64xf16>
                  %41 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel"]} ins(%39, %38 : tensor<64xf16>, tensor<f16>) outs(%40 : tensor<64xf16>) {
                  ^bb0(%in: f16, %in_7: f16, %out: f16):
                    %42 = arith.subf %in, %in_7 : f16
                    linalg.yield %42 : f16
                  } -> tensor<64xf16>
                  ktdf.write_to_fifo %41 to %slot_1 : tensor<64xf16> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
                }
              }
            }
            %37 = ktdf.stage "drain" depends_in(%36) depends_out(1) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
              %c0_3 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_4 = arith.constant 1 : index
              %c1024_5 = arith.constant 1024 : index
              %c64_6 = arith.constant 64 : index
              scf.for %arg9 = %c0_3 to %c1_4 step %c1 {
                scf.for %arg10 = %c0_3 to %c1024_5 step %c64_6 {
                  ktdf.data_transfer %slot_1 to %buf_2[%arg9, %arg10] : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16> to memref<1x1024xf16, "L1">
                }
              }
            }
            ktdf.stage "store_0" depends_in(%37) depends_out(0) applicable_units [dma_store] unit "core/MNISU_Block/MNISU" {
              ktdf.data_transfer %buf_2 to %33 : memref<1x1024xf16, "L1"> to !ktdp.access_tile<1x1024xindex>
            }
          }
        } {ktdf.blocks_end = 1024 : i64}
        %28 = arith.divui %25, %c4 : index
        %29 = arith.muli %28, %c512 : index
        scf.for %arg8 = %27 to %29 step %c512 {
          %32 = ktdp.construct_access_tile %7[%arg7, %arg8] {access_tile_order = #map1, access_tile_set = #set7} : memref<64x1024xf16> -> !ktdp.access_tile<1x512xindex>
          %33 = ktdp.construct_access_tile %8[%arg7, %arg8] {access_tile_order = #map1, access_tile_set = #set7} : memref<64x1024xf16> -> !ktdp.access_tile<1x512xindex>
          ktdf.pipeline modulo(size: 4) {
            %slot = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16>
            %buf = ktdf.private : memref<1x512xf16, "L1">
            %slot_0 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
            %slot_1 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
            %buf_2 = ktdf.private : memref<1x512xf16, "L1">
            %34 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
              ktdf.data_transfer %32 to %buf : !ktdp.access_tile<1x512xindex> to memref<1x512xf16, "L1">
            }
            %35 = ktdf.stage "feed" depends_in(%34) depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
              %c0_3 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_4 = arith.constant 1 : index
              %c512_5 = arith.constant 512 : index
              %c64_6 = arith.constant 64 : index
              scf.for %arg9 = %c0_3 to %c1_4 step %c1 {
                %c0_7 = arith.constant 0 : index
                ktdf.data_transfer %1[%c0_7] to %slot : !ktdp.access_tile<1xindex> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16>
                scf.for %arg10 = %c0_3 to %c512_5 step %c64_6 {
                  ktdf.data_transfer %buf[%arg9, %arg10] to %slot_0 : memref<1x512xf16, "L1"> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
                }
              }
            }
            %36 = ktdf.stage "compute" depends_in(%35) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
              %c0_3 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_4 = arith.constant 1 : index
              %c512_5 = arith.constant 512 : index
              %c64_6 = arith.constant 64 : index
              scf.for %arg9 = %c0_3 to %c1_4 step %c1 {
                %38 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16> -> tensor<f16>
                scf.for %arg10 = %c0_3 to %c512_5 step %c64_6 {
                  %39 = ktdf.read_from_fifo %slot_0 : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
                  %40 = tensor.empty() : tensor<64xf16>
                  %41 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel"]} ins(%39, %38 : tensor<64xf16>, tensor<f16>) outs(%40 : tensor<64xf16>) {
                  ^bb0(%in: f16, %in_7: f16, %out: f16):
                    %42 = arith.subf %in, %in_7 : f16
                    linalg.yield %42 : f16
                  } -> tensor<64xf16>
                  ktdf.write_to_fifo %41 to %slot_1 : tensor<64xf16> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
                }
              }
            }
            %37 = ktdf.stage "drain" depends_in(%36) depends_out(1) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
              %c0_3 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_4 = arith.constant 1 : index
              %c512_5 = arith.constant 512 : index
              %c64_6 = arith.constant 64 : index
              scf.for %arg9 = %c0_3 to %c1_4 step %c1 {
                scf.for %arg10 = %c0_3 to %c512_5 step %c64_6 {
                  ktdf.data_transfer %slot_1 to %buf_2[%arg9, %arg10] : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16> to memref<1x512xf16, "L1">
                }
              }
            }
            ktdf.stage "store_0" depends_in(%37) depends_out(0) applicable_units [dma_store] unit "core/MNISU_Block/MNISU" {
              ktdf.data_transfer %buf_2 to %33 : memref<1x512xf16, "L1"> to !ktdp.access_tile<1x512xindex>
            }
          }
        } {ktdf.blocks_end = 1024 : i64}
        %30 = arith.divui %25, %c2 : index
        %31 = arith.muli %30, %c256 : index
        scf.for %arg8 = %29 to %31 step %c256 {
          %32 = ktdp.construct_access_tile %7[%arg7, %arg8] {access_tile_order = #map1, access_tile_set = #set8} : memref<64x1024xf16> -> !ktdp.access_tile<1x256xindex>
          %33 = ktdp.construct_access_tile %8[%arg7, %arg8] {access_tile_order = #map1, access_tile_set = #set8} : memref<64x1024xf16> -> !ktdp.access_tile<1x256xindex>
          ktdf.pipeline modulo(size: 4) {
            %slot = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16>
            %buf = ktdf.private : memref<1x256xf16, "L1">
            %slot_0 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
            %slot_1 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
            %buf_2 = ktdf.private : memref<1x256xf16, "L1">
            %34 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
              ktdf.data_transfer %32 to %buf : !ktdp.access_tile<1x256xindex> to memref<1x256xf16, "L1">
            }
            %35 = ktdf.stage "feed" depends_in(%34) depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
              %c0_3 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_4 = arith.constant 1 : index
              %c256_5 = arith.constant 256 : index
              %c64_6 = arith.constant 64 : index
              scf.for %arg9 = %c0_3 to %c1_4 step %c1 {
                %c0_7 = arith.constant 0 : index
                ktdf.data_transfer %1[%c0_7] to %slot : !ktdp.access_tile<1xindex> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16>
                scf.for %arg10 = %c0_3 to %c256_5 step %c64_6 {
                  ktdf.data_transfer %buf[%arg9, %arg10] to %slot_0 : memref<1x256xf16, "L1"> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
                }
              }
            }
            %36 = ktdf.stage "compute" depends_in(%35) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
              %c0_3 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_4 = arith.constant 1 : index
              %c256_5 = arith.constant 256 : index
              %c64_6 = arith.constant 64 : index
              scf.for %arg9 = %c0_3 to %c1_4 step %c1 {
                %38 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16> -> tensor<f16>
                scf.for %arg10 = %c0_3 to %c256_5 step %c64_6 {
                  %39 = ktdf.read_from_fifo %slot_0 : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
                  %40 = tensor.empty() : tensor<64xf16>
                  %41 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel"]} ins(%39, %38 : tensor<64xf16>, tensor<f16>) outs(%40 : tensor<64xf16>) {
                  ^bb0(%in: f16, %in_7: f16, %out: f16):
                    %42 = arith.subf %in, %in_7 : f16
                    linalg.yield %42 : f16
                  } -> tensor<64xf16>
                  ktdf.write_to_fifo %41 to %slot_1 : tensor<64xf16> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
                }
              }
            }
            %37 = ktdf.stage "drain" depends_in(%36) depends_out(1) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
              %c0_3 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_4 = arith.constant 1 : index
              %c256_5 = arith.constant 256 : index
              %c64_6 = arith.constant 64 : index
              scf.for %arg9 = %c0_3 to %c1_4 step %c1 {
                scf.for %arg10 = %c0_3 to %c256_5 step %c64_6 {
                  ktdf.data_transfer %slot_1 to %buf_2[%arg9, %arg10] : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16> to memref<1x256xf16, "L1">
                }
              }
            }
            ktdf.stage "store_0" depends_in(%37) depends_out(0) applicable_units [dma_store] unit "core/MNISU_Block/MNISU" {
              ktdf.data_transfer %buf_2 to %33 : memref<1x256xf16, "L1"> to !ktdp.access_tile<1x256xindex>
            }
          }
        } {ktdf.blocks_end = 1024 : i64}
        scf.for %arg8 = %31 to %arg4 step %c128 {
          %32 = ktdp.construct_access_tile %7[%arg7, %arg8] {access_tile_order = #map1, access_tile_set = #set4} : memref<64x1024xf16> -> !ktdp.access_tile<1x128xindex>
          %33 = ktdp.construct_access_tile %8[%arg7, %arg8] {access_tile_order = #map1, access_tile_set = #set4} : memref<64x1024xf16> -> !ktdp.access_tile<1x128xindex>
          ktdf.pipeline modulo(size: 4) {
            %slot = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16>
            %buf = ktdf.private : memref<1x128xf16, "L1">
            %slot_0 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
            %slot_1 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
            %buf_2 = ktdf.private : memref<1x128xf16, "L1">
            %34 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
              ktdf.data_transfer %32 to %buf : !ktdp.access_tile<1x128xindex> to memref<1x128xf16, "L1">
            }
            %35 = ktdf.stage "feed" depends_in(%34) depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
              %c0_3 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_4 = arith.constant 1 : index
              %c128_5 = arith.constant 128 : index
              %c64_6 = arith.constant 64 : index
              scf.for %arg9 = %c0_3 to %c1_4 step %c1 {
                %c0_7 = arith.constant 0 : index
                ktdf.data_transfer %1[%c0_7] to %slot : !ktdp.access_tile<1xindex> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16>
                scf.for %arg10 = %c0_3 to %c128_5 step %c64_6 {
                  ktdf.data_transfer %buf[%arg9, %arg10] to %slot_0 : memref<1x128xf16, "L1"> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
                }
              }
            }
            %36 = ktdf.stage "compute" depends_in(%35) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
              %c0_3 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_4 = arith.constant 1 : index
              %c128_5 = arith.constant 128 : index
              %c64_6 = arith.constant 64 : index
              scf.for %arg9 = %c0_3 to %c1_4 step %c1 {
                %38 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16> -> tensor<f16>
                scf.for %arg10 = %c0_3 to %c128_5 step %c64_6 {
                  %39 = ktdf.read_from_fifo %slot_0 : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
                  %40 = tensor.empty() : tensor<64xf16>
                  %41 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel"]} ins(%39, %38 : tensor<64xf16>, tensor<f16>) outs(%40 : tensor<64xf16>) {
                  ^bb0(%in: f16, %in_7: f16, %out: f16):
                    %42 = arith.subf %in, %in_7 : f16
                    linalg.yield %42 : f16
                  } -> tensor<64xf16>
                  ktdf.write_to_fifo %41 to %slot_1 : tensor<64xf16> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
                }
              }
            }
            %37 = ktdf.stage "drain" depends_in(%36) depends_out(1) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
              %c0_3 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_4 = arith.constant 1 : index
              %c128_5 = arith.constant 128 : index
              %c64_6 = arith.constant 64 : index
              scf.for %arg9 = %c0_3 to %c1_4 step %c1 {
                scf.for %arg10 = %c0_3 to %c128_5 step %c64_6 {
                  ktdf.data_transfer %slot_1 to %buf_2[%arg9, %arg10] : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16> to memref<1x128xf16, "L1">
                }
              }
            }
            ktdf.stage "store_0" depends_in(%37) depends_out(0) applicable_units [dma_store] unit "core/MNISU_Block/MNISU" {
              ktdf.data_transfer %buf_2 to %33 : memref<1x128xf16, "L1"> to !ktdp.access_tile<1x128xindex>
            }
          }
        }
      }
      %9 = arith.minsi %arg3, %c64 : index
      %10 = arith.subi %9, %arg5 : index
      %11 = arith.addi %10, %c15 : index
      %12 = arith.divsi %11, %c16 : index
      %13 = arith.maxsi %12, %c0 : index
      %14 = ktdp.construct_access_tile %2[%arg5 * 5] {access_tile_order = #map, access_tile_set = #set9} : memref<80xf16, #ktdp.memory_space<ct_local, ct_id = 0>> -> !ktdp.access_tile<4xindex>
      %15 = ktdp.construct_memory_view %arg2, sizes: [%13, 16], strides: [16, 1] {coordinate_set = #set10, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<?x16xf16>
      %16 = ktdp.construct_access_tile %15[0, %arg5] {access_tile_order = #map1, access_tile_set = #set11} : memref<?x16xf16> -> !ktdp.access_tile<4x1xindex>
      ktdf.pipeline modulo(size: 4) {
        %slot = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 1xf16>
        %buf = ktdf.private : memref<4x1xf16, "L1">
        %17 = ktdf.stage "feed" depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
          %c0_1 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c4_2 = arith.constant 4 : index
          %c1_3 = arith.constant 1 : index
          %c1_4 = arith.constant 1 : index
          scf.for %arg7 = %c0_1 to %c4_2 step %c1 {
            ktdf.data_transfer %14[%arg7] to %slot : !ktdp.access_tile<4xindex> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16>
          }
        }
        %18 = ktdf.stage "compute" depends_in(%17) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
          %c0_1 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c4_2 = arith.constant 4 : index
          %c1_3 = arith.constant 1 : index
          %c1_4 = arith.constant 1 : index
          scf.for %arg7 = %c0_1 to %c4_2 step %c1 {
            %20 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16> -> tensor<f16>
            scf.for %arg8 = %c0_1 to %c1_3 step %c1_4 {
              %21 = tensor.empty() : tensor<1xf16>
              %22 = linalg.generic {indexing_maps = [#map2, #map], iterator_types = ["parallel"]} ins(%20 : tensor<f16>) outs(%21 : tensor<1xf16>) {
              ^bb0(%in: f16, %out: f16):
                linalg.yield %in : f16
              } -> tensor<1xf16>
              ktdf.write_to_fifo %22 to %slot_0 : tensor<1xf16> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 1xf16>
            }
          }
        }
        %19 = ktdf.stage "drain" depends_in(%18) depends_out(1) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
          %c0_1 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c4_2 = arith.constant 4 : index
          %c1_3 = arith.constant 1 : index
          %c1_4 = arith.constant 1 : index
          scf.for %arg7 = %c0_1 to %c4_2 step %c1 {
            scf.for %arg8 = %c0_1 to %c1_3 step %c1_4 {
              ktdf.data_transfer %slot_0 to %buf[%arg7, %arg8] : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 1xf16> to memref<4x1xf16, "L1">
            }
          }
        }
        ktdf.stage "store_0" depends_in(%19) depends_out(0) applicable_units [dma_store] unit "core/MNISU_Block/MNISU" {
          ktdf.data_transfer %buf to %16 : memref<4x1xf16, "L1"> to !ktdp.access_tile<4x1xindex>
        }
      }
    }
    return
  }
}


// RUN: ktflow-opt %s --ktdf-hoist-invariant-transfers | FileCheck %s

// A row whose tensor is written between its loops: row_center_dyn with
// the row's mean stored into X's own tensor (the MEAN view built on X's
// argument, %arg0) between the mean loop and the centring loops. The
// first loop's blocks still come from one span of the row, clipped to the
// columns that loop alone reaches (one ceil(N' / 128) * 128, N' =
// max(min(N, 1024), 0)); the centring loops, split into blocks of 1024,
// 512, 256 and 128 columns, may read what the store wrote, so they do not
// share it and load their own blocks.

// CHECK: scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %c16
// CHECK: arith.ceildivui %{{.*}}, %c128 : index
// CHECK-NOT: arith.ceildivui
// CHECK: %[[VIEW:.*]] = ktdp.construct_memory_view %arg0, sizes: [64, %{{.*}}], strides: [1024, 1]
// CHECK-NEXT: ktdp.construct_access_tile %[[VIEW]][%[[ROW]], %c0{{.*}}] {{{.*}}ktdf.zero_from = 1024 : i64} : memref<64x1024xf16> -> !ktdp.access_tile<1x1024xindex>
// CHECK-NEXT: ktdf.pipeline modulo(size: 2) -> memref<1x1024xf16, "L1">
// CHECK-NOT: ktdf.pipeline {{.*}} -> memref
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c1024
// CHECK: !ktdp.access_tile<1x1024xindex> to memref<1x1024xf16, "L1">
// CHECK: scf.for %{{.*}} step %c512
// CHECK: !ktdp.access_tile<1x512xindex> to memref<1x512xf16, "L1">
// CHECK: scf.for %{{.*}} step %c256
// CHECK: !ktdp.access_tile<1x256xindex> to memref<1x256xf16, "L1">
// CHECK: scf.for %{{.*}} step %c128
// CHECK: !ktdp.access_tile<1x128xindex> to memref<1x128xf16, "L1">
// CHECK: return

// Input: row-span-widths.mlir's, its MEAN view (%9) on %arg0 instead of
// %arg2.

#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0) -> ()>
#map3 = affine_map<() -> ()>
#set = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#set1 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#set2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#set3 = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#set4 = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#set5 = affine_set<(d0) : (d0 == 0)>
#set6 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#set7 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#set8 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 255 >= 0)>
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
    ktdf.parallel (%arg5, %arg6) in [16, 1] distribute(num_instances = 8) {
      %c256 = arith.constant 256 : index
      %c2 = arith.constant 2 : index
      %c512 = arith.constant 512 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %cst = arith.constant dense<0.000000e+00> : tensor<1x128xf16>
      %c1024 = arith.constant 1024 : index
      %c16 = arith.constant 16 : index
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %0 = ktdp.construct_memory_view %c128, sizes: [1], strides: [1] {coordinate_set = #set, ktdf.carried, ktdf.memory = "L1", memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<1xf16, #ktdp.memory_space<ct_local, ct_id = 0>>
      %1 = ktdp.construct_access_tile %0[0] {access_tile_order = #map, access_tile_set = #set} : memref<1xf16, #ktdp.memory_space<ct_local, ct_id = 0>> -> !ktdp.access_tile<1xindex>
      %2 = ktdp.construct_memory_view %c0, sizes: [1, 128], strides: [128, 1] {coordinate_set = #set1, ktdf.carried, ktdf.memory = "L1", memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<1x128xf16, #ktdp.memory_space<ct_local, ct_id = 0>>
      %3 = ktdp.construct_access_tile %2[0, 0] {access_tile_order = #map1, access_tile_set = #set1} : memref<1x128xf16, #ktdp.memory_space<ct_local, ct_id = 0>> -> !ktdp.access_tile<1x128xindex>
      %4 = arith.minsi %arg4, %c1024 : index
      %5 = arith.index_cast %arg4 : index to i32
      %6 = arith.sitofp %5 : i32 to f16
      %7 = ktdp.construct_memory_view %arg0, sizes: [64, 1024], strides: [1024, 1] {coordinate_set = #set2, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x1024xf16>
      %8 = ktdp.construct_memory_view %arg1, sizes: [64, 1024], strides: [1024, 1] {coordinate_set = #set2, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x1024xf16>
      %9 = ktdp.construct_memory_view %arg0, sizes: [64], strides: [1] {coordinate_set = #set3, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64xf16>
      scf.for %arg7 = %arg5 to %arg3 step %c16 {
        ktdf.pipeline modulo(size: 4) {
          %slot = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
          %20 = ktdf.stage "feed" depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
            %c0_0 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_1 = arith.constant 1 : index
            %c128_2 = arith.constant 128 : index
            %c64 = arith.constant 64 : index
            scf.for %arg8 = %c0_0 to %c1_1 step %c1 {
            }
          }
          %21 = ktdf.stage "compute" depends_in(%20) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
            %c0_0 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_1 = arith.constant 1 : index
            %c128_2 = arith.constant 128 : index
            %c64 = arith.constant 64 : index
            scf.for %arg8 = %c0_0 to %c1_1 step %c1 {
              scf.for %arg9 = %c0_0 to %c128_2 step %c64 {
                %cst_3 = arith.constant dense<0.000000e+00> : tensor<64xf16>
                ktdf.write_to_fifo %cst_3 to %slot : tensor<64xf16> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
              }
            }
          }
          %22 = ktdf.stage "drain" depends_in(%21) depends_out(1) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
            %c0_0 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_1 = arith.constant 1 : index
            %c128_2 = arith.constant 128 : index
            %c64 = arith.constant 64 : index
            scf.for %arg8 = %c0_0 to %c1_1 step %c1 {
              scf.for %arg9 = %c0_0 to %c128_2 step %c64 {
                ktdf.data_transfer %slot to %3[%arg8, %arg9] : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16> to !ktdp.access_tile<1x128xindex>
              }
            }
          }
        }
        scf.for %arg8 = %c0 to %4 step %c128 {
          %20 = ktdp.construct_access_tile %7[%arg7, %arg8] {access_tile_order = #map1, access_tile_set = #set4} : memref<64x1024xf16> -> !ktdp.access_tile<1x128xindex>
          ktdf.pipeline modulo(size: 4) {
            %buf = ktdf.private : memref<1x128xf16, "L1">
            %slot = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
            %slot_0 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
            %slot_1 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
            %21 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
              ktdf.data_transfer %20 to %buf : !ktdp.access_tile<1x128xindex> to memref<1x128xf16, "L1">
            }
            %22 = ktdf.stage "feed" depends_in(%21) depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
              %c0_2 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_3 = arith.constant 1 : index
              %c128_4 = arith.constant 128 : index
              %c64 = arith.constant 64 : index
              scf.for %arg9 = %c0_2 to %c1_3 step %c1 {
                scf.for %arg10 = %c0_2 to %c128_4 step %c64 {
                  ktdf.data_transfer %buf[%arg9, %arg10] to %slot : memref<1x128xf16, "L1"> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
                  ktdf.data_transfer %3[%arg9, %arg10] to %slot_0 : !ktdp.access_tile<1x128xindex> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
                }
              }
            }
            %23 = ktdf.stage "compute" depends_in(%22) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
              %c0_2 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_3 = arith.constant 1 : index
              %c128_4 = arith.constant 128 : index
              %c64 = arith.constant 64 : index
              scf.for %arg9 = %c0_2 to %c1_3 step %c1 {
                scf.for %arg10 = %c0_2 to %c128_4 step %c64 {
                  %25 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
                  %26 = ktdf.read_from_fifo %slot_0 : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
                  %27 = tensor.empty() : tensor<64xf16>
                  %28 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%26, %25 : tensor<64xf16>, tensor<64xf16>) outs(%27 : tensor<64xf16>) {
                  ^bb0(%in: f16, %in_5: f16, %out: f16):
                    %29 = arith.addf %in, %in_5 : f16
                    linalg.yield %29 : f16
                  } -> tensor<64xf16>
                  ktdf.write_to_fifo %28 to %slot_1 : tensor<64xf16> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
                }
              }
            }
            %24 = ktdf.stage "drain" depends_in(%23) depends_out(1) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
              %c0_2 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_3 = arith.constant 1 : index
              %c128_4 = arith.constant 128 : index
              %c64 = arith.constant 64 : index
              scf.for %arg9 = %c0_2 to %c1_3 step %c1 {
                scf.for %arg10 = %c0_2 to %c128_4 step %c64 {
                  ktdf.data_transfer %slot_1 to %3[%arg9, %arg10] : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16> to !ktdp.access_tile<1x128xindex>
                }
              }
            }
          }
        }
        ktdf.pipeline modulo(size: 4) {
          %slot = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
          %slot_0 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 1xf16>
          %20 = ktdf.stage "feed" depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
            %c0_1 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_2 = arith.constant 1 : index
            %c128_3 = arith.constant 128 : index
            %c64 = arith.constant 64 : index
            scf.for %arg8 = %c0_1 to %c1_2 step %c1 {
              scf.for %arg9 = %c0_1 to %c128_3 step %c64 {
                ktdf.data_transfer %3[%arg8, %arg9] to %slot : !ktdp.access_tile<1x128xindex> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
              }
            }
          }
          %21 = ktdf.stage "compute" depends_in(%20) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
            %c0_1 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_2 = arith.constant 1 : index
            %c128_3 = arith.constant 128 : index
            %c64 = arith.constant 64 : index
            scf.for %arg8 = %c0_1 to %c1_2 step %c1 {
              %cst_4 = arith.constant dense<0.000000e+00> : tensor<f16>
              %23 = scf.for %arg9 = %c0_1 to %c128_3 step %c64 iter_args(%arg10 = %cst_4) -> (tensor<f16>) {
                %28 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
                %29 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["reduction"]} ins(%28 : tensor<64xf16>) outs(%arg10 : tensor<f16>) {
                ^bb0(%in: f16, %out: f16):
                  %30 = arith.addf %in, %out : f16
                  linalg.yield %30 : f16
                } -> tensor<f16>
                scf.yield %29 : tensor<f16>
              }
              %24 = tensor.empty() : tensor<f16>
              %25 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = []} ins(%23 : tensor<f16>) outs(%24 : tensor<f16>) {
              ^bb0(%in: f16, %out: f16):
                %28 = arith.divf %in, %6 : f16
                linalg.yield %28 : f16
              } -> tensor<f16>
              %26 = tensor.empty() : tensor<f16>
              %27 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = []} ins(%25 : tensor<f16>) outs(%26 : tensor<f16>) {
              ^bb0(%in: f16, %out: f16):
                linalg.yield %in : f16
              } -> tensor<f16>
              ktdf.write_to_fifo %27 to %slot_0 : tensor<f16> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 1xf16>
            }
          }
          %22 = ktdf.stage "drain" depends_in(%21) depends_out(1) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
            %c0_1 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_2 = arith.constant 1 : index
            %c128_3 = arith.constant 128 : index
            %c64 = arith.constant 64 : index
            scf.for %arg8 = %c0_1 to %c1_2 step %c1 {
              %c0_4 = arith.constant 0 : index
              ktdf.data_transfer %slot_0 to %1[%c0_4] : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 1xf16> to !ktdp.access_tile<1xindex>
            }
          }
        }
        %10 = ktdp.construct_access_tile %9[%arg7] {access_tile_order = #map, access_tile_set = #set5} : memref<64xf16> -> !ktdp.access_tile<1xindex>
        ktdf.pipeline modulo(size: 4) {
          %slot = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16>
          %slot_0 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 1xf16>
          %buf = ktdf.private : memref<1xf16, "L1">
          %20 = ktdf.stage "feed" depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
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
          %21 = ktdf.stage "compute" depends_in(%20) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
            %c0_1 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_2 = arith.constant 1 : index
            %c1_3 = arith.constant 1 : index
            %c1_4 = arith.constant 1 : index
            scf.for %arg8 = %c0_1 to %c1_2 step %c1 {
              scf.for %arg9 = %c0_1 to %c1_3 step %c1_4 {
                %23 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16> -> tensor<1xf16>
                ktdf.write_to_fifo %23 to %slot_0 : tensor<1xf16> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 1xf16>
              }
            }
          }
          %22 = ktdf.stage "drain" depends_in(%21) depends_out(1) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
            %c0_1 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_2 = arith.constant 1 : index
            %c1_3 = arith.constant 1 : index
            %c1_4 = arith.constant 1 : index
            scf.for %arg8 = %c0_1 to %c1_2 step %c1 {
              scf.for %arg9 = %c0_1 to %c1_3 step %c1_4 {
                ktdf.data_transfer %slot_0 to %buf[%arg9] : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 1xf16> to memref<1xf16, "L1">
              }
            }
          }
          ktdf.stage "store_0" depends_in(%22) depends_out(0) applicable_units [dma_store] unit "core/MNISU_Block/MNISU" {
            ktdf.data_transfer %buf to %10 : memref<1xf16, "L1"> to !ktdp.access_tile<1xindex>
          }
        }
        %11 = arith.maxsi %4, %c0 : index
        %12 = arith.ceildivui %11, %c128 : index
        %13 = arith.minui %12, %c8 : index
        %14 = arith.divui %13, %c8 : index
        %15 = arith.muli %14, %c1024 : index
        scf.for %arg8 = %c0 to %15 step %c1024 {
          %20 = ktdp.construct_access_tile %7[%arg7, %arg8] {access_tile_order = #map1, access_tile_set = #set6} : memref<64x1024xf16> -> !ktdp.access_tile<1x1024xindex>
          %21 = ktdp.construct_access_tile %8[%arg7, %arg8] {access_tile_order = #map1, access_tile_set = #set6} : memref<64x1024xf16> -> !ktdp.access_tile<1x1024xindex>
          ktdf.pipeline modulo(size: 4) {
            %slot = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16>
            %buf = ktdf.private : memref<1x1024xf16, "L1">
            %slot_0 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
            %slot_1 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
            %buf_2 = ktdf.private : memref<1x1024xf16, "L1">
            %22 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
              ktdf.data_transfer %20 to %buf : !ktdp.access_tile<1x1024xindex> to memref<1x1024xf16, "L1">
            }
            %23 = ktdf.stage "feed" depends_in(%22) depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
              %c0_3 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_4 = arith.constant 1 : index
              %c1024_5 = arith.constant 1024 : index
              %c64 = arith.constant 64 : index
              scf.for %arg9 = %c0_3 to %c1_4 step %c1 {
                %c0_6 = arith.constant 0 : index
                ktdf.data_transfer %1[%c0_6] to %slot : !ktdp.access_tile<1xindex> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16>
                scf.for %arg10 = %c0_3 to %c1024_5 step %c64 {
                  ktdf.data_transfer %buf[%arg9, %arg10] to %slot_0 : memref<1x1024xf16, "L1"> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
                }
              }
            }
            %24 = ktdf.stage "compute" depends_in(%23) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
              %c0_3 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_4 = arith.constant 1 : index
              %c1024_5 = arith.constant 1024 : index
              %c64 = arith.constant 64 : index
              scf.for %arg9 = %c0_3 to %c1_4 step %c1 {
                %26 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16> -> tensor<f16>
                scf.for %arg10 = %c0_3 to %c1024_5 step %c64 {
                  %27 = ktdf.read_from_fifo %slot_0 : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
                  %28 = tensor.empty() : tensor<64xf16>
                  %29 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel"]} ins(%27, %26 : tensor<64xf16>, tensor<f16>) outs(%28 : tensor<64xf16>) {
                  ^bb0(%in: f16, %in_6: f16, %out: f16):
                    %30 = arith.subf %in, %in_6 : f16
                    linalg.yield %30 : f16
                  } -> tensor<64xf16>
                  ktdf.write_to_fifo %29 to %slot_1 : tensor<64xf16> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
                }
              }
            }
            %25 = ktdf.stage "drain" depends_in(%24) depends_out(1) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
              %c0_3 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_4 = arith.constant 1 : index
              %c1024_5 = arith.constant 1024 : index
              %c64 = arith.constant 64 : index
              scf.for %arg9 = %c0_3 to %c1_4 step %c1 {
                scf.for %arg10 = %c0_3 to %c1024_5 step %c64 {
                  ktdf.data_transfer %slot_1 to %buf_2[%arg9, %arg10] : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16> to memref<1x1024xf16, "L1">
                }
              }
            }
            ktdf.stage "store_0" depends_in(%25) depends_out(0) applicable_units [dma_store] unit "core/MNISU_Block/MNISU" {
              ktdf.data_transfer %buf_2 to %21 : memref<1x1024xf16, "L1"> to !ktdp.access_tile<1x1024xindex>
            }
          }
        } {ktdf.blocks_end = 1024 : i64}
        %16 = arith.divui %13, %c4 : index
        %17 = arith.muli %16, %c512 : index
        scf.for %arg8 = %15 to %17 step %c512 {
          %20 = ktdp.construct_access_tile %7[%arg7, %arg8] {access_tile_order = #map1, access_tile_set = #set7} : memref<64x1024xf16> -> !ktdp.access_tile<1x512xindex>
          %21 = ktdp.construct_access_tile %8[%arg7, %arg8] {access_tile_order = #map1, access_tile_set = #set7} : memref<64x1024xf16> -> !ktdp.access_tile<1x512xindex>
          ktdf.pipeline modulo(size: 4) {
            %slot = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16>
            %buf = ktdf.private : memref<1x512xf16, "L1">
            %slot_0 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
            %slot_1 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
            %buf_2 = ktdf.private : memref<1x512xf16, "L1">
            %22 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
              ktdf.data_transfer %20 to %buf : !ktdp.access_tile<1x512xindex> to memref<1x512xf16, "L1">
            }
            %23 = ktdf.stage "feed" depends_in(%22) depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
              %c0_3 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_4 = arith.constant 1 : index
              %c512_5 = arith.constant 512 : index
              %c64 = arith.constant 64 : index
              scf.for %arg9 = %c0_3 to %c1_4 step %c1 {
                %c0_6 = arith.constant 0 : index
                ktdf.data_transfer %1[%c0_6] to %slot : !ktdp.access_tile<1xindex> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16>
                scf.for %arg10 = %c0_3 to %c512_5 step %c64 {
                  ktdf.data_transfer %buf[%arg9, %arg10] to %slot_0 : memref<1x512xf16, "L1"> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
                }
              }
            }
            %24 = ktdf.stage "compute" depends_in(%23) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
              %c0_3 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_4 = arith.constant 1 : index
              %c512_5 = arith.constant 512 : index
              %c64 = arith.constant 64 : index
              scf.for %arg9 = %c0_3 to %c1_4 step %c1 {
                %26 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16> -> tensor<f16>
                scf.for %arg10 = %c0_3 to %c512_5 step %c64 {
                  %27 = ktdf.read_from_fifo %slot_0 : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
                  %28 = tensor.empty() : tensor<64xf16>
                  %29 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel"]} ins(%27, %26 : tensor<64xf16>, tensor<f16>) outs(%28 : tensor<64xf16>) {
                  ^bb0(%in: f16, %in_6: f16, %out: f16):
                    %30 = arith.subf %in, %in_6 : f16
                    linalg.yield %30 : f16
                  } -> tensor<64xf16>
                  ktdf.write_to_fifo %29 to %slot_1 : tensor<64xf16> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
                }
              }
            }
            %25 = ktdf.stage "drain" depends_in(%24) depends_out(1) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
              %c0_3 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_4 = arith.constant 1 : index
              %c512_5 = arith.constant 512 : index
              %c64 = arith.constant 64 : index
              scf.for %arg9 = %c0_3 to %c1_4 step %c1 {
                scf.for %arg10 = %c0_3 to %c512_5 step %c64 {
                  ktdf.data_transfer %slot_1 to %buf_2[%arg9, %arg10] : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16> to memref<1x512xf16, "L1">
                }
              }
            }
            ktdf.stage "store_0" depends_in(%25) depends_out(0) applicable_units [dma_store] unit "core/MNISU_Block/MNISU" {
              ktdf.data_transfer %buf_2 to %21 : memref<1x512xf16, "L1"> to !ktdp.access_tile<1x512xindex>
            }
          }
        } {ktdf.blocks_end = 1024 : i64}
        %18 = arith.divui %13, %c2 : index
        %19 = arith.muli %18, %c256 : index
        scf.for %arg8 = %17 to %19 step %c256 {
          %20 = ktdp.construct_access_tile %7[%arg7, %arg8] {access_tile_order = #map1, access_tile_set = #set8} : memref<64x1024xf16> -> !ktdp.access_tile<1x256xindex>
          %21 = ktdp.construct_access_tile %8[%arg7, %arg8] {access_tile_order = #map1, access_tile_set = #set8} : memref<64x1024xf16> -> !ktdp.access_tile<1x256xindex>
          ktdf.pipeline modulo(size: 4) {
            %slot = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16>
            %buf = ktdf.private : memref<1x256xf16, "L1">
            %slot_0 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
            %slot_1 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
            %buf_2 = ktdf.private : memref<1x256xf16, "L1">
            %22 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
              ktdf.data_transfer %20 to %buf : !ktdp.access_tile<1x256xindex> to memref<1x256xf16, "L1">
            }
            %23 = ktdf.stage "feed" depends_in(%22) depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
              %c0_3 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_4 = arith.constant 1 : index
              %c256_5 = arith.constant 256 : index
              %c64 = arith.constant 64 : index
              scf.for %arg9 = %c0_3 to %c1_4 step %c1 {
                %c0_6 = arith.constant 0 : index
                ktdf.data_transfer %1[%c0_6] to %slot : !ktdp.access_tile<1xindex> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16>
                scf.for %arg10 = %c0_3 to %c256_5 step %c64 {
                  ktdf.data_transfer %buf[%arg9, %arg10] to %slot_0 : memref<1x256xf16, "L1"> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
                }
              }
            }
            %24 = ktdf.stage "compute" depends_in(%23) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
              %c0_3 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_4 = arith.constant 1 : index
              %c256_5 = arith.constant 256 : index
              %c64 = arith.constant 64 : index
              scf.for %arg9 = %c0_3 to %c1_4 step %c1 {
                %26 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16> -> tensor<f16>
                scf.for %arg10 = %c0_3 to %c256_5 step %c64 {
                  %27 = ktdf.read_from_fifo %slot_0 : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
                  %28 = tensor.empty() : tensor<64xf16>
                  %29 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel"]} ins(%27, %26 : tensor<64xf16>, tensor<f16>) outs(%28 : tensor<64xf16>) {
                  ^bb0(%in: f16, %in_6: f16, %out: f16):
                    %30 = arith.subf %in, %in_6 : f16
                    linalg.yield %30 : f16
                  } -> tensor<64xf16>
                  ktdf.write_to_fifo %29 to %slot_1 : tensor<64xf16> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
                }
              }
            }
            %25 = ktdf.stage "drain" depends_in(%24) depends_out(1) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
              %c0_3 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_4 = arith.constant 1 : index
              %c256_5 = arith.constant 256 : index
              %c64 = arith.constant 64 : index
              scf.for %arg9 = %c0_3 to %c1_4 step %c1 {
                scf.for %arg10 = %c0_3 to %c256_5 step %c64 {
                  ktdf.data_transfer %slot_1 to %buf_2[%arg9, %arg10] : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16> to memref<1x256xf16, "L1">
                }
              }
            }
            ktdf.stage "store_0" depends_in(%25) depends_out(0) applicable_units [dma_store] unit "core/MNISU_Block/MNISU" {
              ktdf.data_transfer %buf_2 to %21 : memref<1x256xf16, "L1"> to !ktdp.access_tile<1x256xindex>
            }
          }
        } {ktdf.blocks_end = 1024 : i64}
        scf.for %arg8 = %19 to %4 step %c128 {
          %20 = ktdp.construct_access_tile %7[%arg7, %arg8] {access_tile_order = #map1, access_tile_set = #set4} : memref<64x1024xf16> -> !ktdp.access_tile<1x128xindex>
          %21 = ktdp.construct_access_tile %8[%arg7, %arg8] {access_tile_order = #map1, access_tile_set = #set4} : memref<64x1024xf16> -> !ktdp.access_tile<1x128xindex>
          ktdf.pipeline modulo(size: 4) {
            %slot = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16>
            %buf = ktdf.private : memref<1x128xf16, "L1">
            %slot_0 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
            %slot_1 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
            %buf_2 = ktdf.private : memref<1x128xf16, "L1">
            %22 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
              ktdf.data_transfer %20 to %buf : !ktdp.access_tile<1x128xindex> to memref<1x128xf16, "L1">
            }
            %23 = ktdf.stage "feed" depends_in(%22) depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
              %c0_3 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_4 = arith.constant 1 : index
              %c128_5 = arith.constant 128 : index
              %c64 = arith.constant 64 : index
              scf.for %arg9 = %c0_3 to %c1_4 step %c1 {
                %c0_6 = arith.constant 0 : index
                ktdf.data_transfer %1[%c0_6] to %slot : !ktdp.access_tile<1xindex> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16>
                scf.for %arg10 = %c0_3 to %c128_5 step %c64 {
                  ktdf.data_transfer %buf[%arg9, %arg10] to %slot_0 : memref<1x128xf16, "L1"> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
                }
              }
            }
            %24 = ktdf.stage "compute" depends_in(%23) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
              %c0_3 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_4 = arith.constant 1 : index
              %c128_5 = arith.constant 128 : index
              %c64 = arith.constant 64 : index
              scf.for %arg9 = %c0_3 to %c1_4 step %c1 {
                %26 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16> -> tensor<f16>
                scf.for %arg10 = %c0_3 to %c128_5 step %c64 {
                  %27 = ktdf.read_from_fifo %slot_0 : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
                  %28 = tensor.empty() : tensor<64xf16>
                  %29 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel"]} ins(%27, %26 : tensor<64xf16>, tensor<f16>) outs(%28 : tensor<64xf16>) {
                  ^bb0(%in: f16, %in_6: f16, %out: f16):
                    %30 = arith.subf %in, %in_6 : f16
                    linalg.yield %30 : f16
                  } -> tensor<64xf16>
                  ktdf.write_to_fifo %29 to %slot_1 : tensor<64xf16> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
                }
              }
            }
            %25 = ktdf.stage "drain" depends_in(%24) depends_out(1) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
              %c0_3 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_4 = arith.constant 1 : index
              %c128_5 = arith.constant 128 : index
              %c64 = arith.constant 64 : index
              scf.for %arg9 = %c0_3 to %c1_4 step %c1 {
                scf.for %arg10 = %c0_3 to %c128_5 step %c64 {
                  ktdf.data_transfer %slot_1 to %buf_2[%arg9, %arg10] : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16> to memref<1x128xf16, "L1">
                }
              }
            }
            ktdf.stage "store_0" depends_in(%25) depends_out(0) applicable_units [dma_store] unit "core/MNISU_Block/MNISU" {
              ktdf.data_transfer %buf_2 to %21 : memref<1x128xf16, "L1"> to !ktdp.access_tile<1x128xindex>
            }
          }
        }
      }
    }
    return
  }
}


// RUN: ktflow-opt %s --ktdf-hoist-invariant-transfers | FileCheck %s
// RUN: ktflow-opt %s --ktdf-hoist-invariant-transfers=spans=false | FileCheck %s --check-prefix=OFF
// RUN: ktflow-opt %s --ktdf-hoist-invariant-transfers=span-copies=1 | FileCheck %s --check-prefix=ONE

// Row spans: row_center_dyn's two column loops over a run-time N each load
// X[%row, %off] block by block (1x128). The loops slide the tile along the
// row, so the whole span of the row is loaded once before the first loop
// and exported; both loops read their block of it at min(%off, 1024) and
// lose their own load stage. Both loops end by min(N, 1024) from 0 in
// steps of 128, so no block starts past the view: the span is the view's
// 1024 columns (1x1024), no block of zeros past them. Their trips are
// known only at run time: the span's load reads through a copy of X's
// view holding only the columns the loops reach, min(ceil(N' / 128) * 128,
// 1024) with N' = max(min(N, 1024), 0) (both loops have the same bounds:
// computed once), and needs zeros only past column 1024 (ktdf.zero_from).
// The span follows the row, so it stays in the row loop, in two copies (2
// x 2048 bytes, within a quarter of the lane's share of L1): the next
// row's span loads while this row's loops read this one. With
// span-copies=1 it has one.

// CHECK: scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %c16
// CHECK: %[[LEN:.*]] = arith.subi %[[N:.*]], %c0 : index
// CHECK-NEXT: %[[POS:.*]] = arith.maxsi %[[LEN]], %{{.*}} : index
// CHECK-NEXT: %[[TRIPS:.*]] = arith.ceildivui %[[POS]], %c128 : index
// CHECK-NEXT: %[[COLS:.*]] = arith.muli %[[TRIPS]], %c128 : index
// CHECK-NEXT: %[[END:.*]] = arith.addi %c0, %[[COLS]] : index
// CHECK: %[[REACH:.*]] = arith.minsi %[[END]], %{{.*}} : index
// CHECK-NEXT: %[[VIEW:.*]] = ktdp.construct_memory_view %arg0, sizes: [64, %[[REACH]]], strides: [1024, 1]
// CHECK-NEXT: %[[SPAN:.*]] = ktdp.construct_access_tile %[[VIEW]][%[[ROW]], %c0{{.*}}] {{{.*}}ktdf.zero_from = 1024 : i64} : memref<64x1024xf16> -> !ktdp.access_tile<1x1024xindex>
// CHECK-NEXT: %[[X:.*]] = ktdf.pipeline modulo(size: 2) -> memref<1x1024xf16, "L1"> {
// CHECK-NEXT:   %[[B:.*]] = ktdf.private export 0 : memref<1x1024xf16, "L1">
// CHECK-NEXT:   ktdf.stage "load_1" depends_out(1) applicable_units [dma_load]
// CHECK-NEXT:     ktdf.data_transfer %[[SPAN]] to %[[B]] : !ktdp.access_tile<1x1024xindex> to memref<1x1024xf16, "L1">
// CHECK: scf.for %[[IV:.*]] = %c0 to %[[N]] step %c128
// CHECK-NEXT: %[[E:.*]] = arith.constant 1024 : index
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi ult, %[[IV]], %[[E]] : index
// CHECK-NEXT: %[[AT:.*]] = arith.select %[[IN]], %[[IV]], %[[E]] : index
// CHECK-NEXT: ktdf.pipeline modulo(size: 4) {
// CHECK-NOT: "load_
// CHECK: ktdf.stage "feed" depends_out(1)
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c64
// CHECK: %[[COL:.*]] = arith.addi %{{.*}}, %[[AT]] : index
// CHECK-NEXT: ktdf.data_transfer %[[X]][%{{.*}}, %[[COL]]] to %{{.*}} : memref<1x1024xf16, "L1">
// The second loop reads the same span.
// CHECK: arith.cmpi ult
// CHECK: ktdf.data_transfer %[[X]][%{{.*}}, %{{.*}}] to %{{.*}} : memref<1x1024xf16, "L1">
// CHECK-NOT: !ktdp.access_tile<1x128xindex> to memref<1x128xf16, "L1">
// CHECK: return

// ONE: ktdf.pipeline modulo(size: 1) -> memref<1x1024xf16, "L1">

// OFF-NOT: access_tile<1x1024xindex>
// OFF-COUNT-2: !ktdp.access_tile<1x128xindex> to memref<1x128xf16, "L1">

// Input: the ScheduleIR ktdf-hoist-invariant-transfers receives, printed once by
// `ktflow-opt examples/kernels/realworld/row_center_dyn.mlir --arch examples/devices/sample_device.mlir --ktdf-mapping --ktdf-apply-device-patterns=checkpoint=pre_scheduling --ktdf-route-transfers --ktdf-tile-streams --ktdf-distribute --ktdf-buffer`.

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
      %9 = ktdp.construct_memory_view %arg2, sizes: [64], strides: [1] {coordinate_set = #set3, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64xf16>
      scf.for %arg7 = %arg5 to %arg3 step %c16 {
        %10 = arith.sitofp %5 : i32 to f16
        ktdf.pipeline modulo(size: 4) {
          %slot = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
          %12 = ktdf.stage "feed" depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
            %c0_0 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_1 = arith.constant 1 : index
            %c128_2 = arith.constant 128 : index
            %c64 = arith.constant 64 : index
            scf.for %arg8 = %c0_0 to %c1_1 step %c1 {
            }
          }
          %13 = ktdf.stage "compute" depends_in(%12) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
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
          %14 = ktdf.stage "drain" depends_in(%13) depends_out(1) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
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
          %12 = ktdp.construct_access_tile %7[%arg7, %arg8] {access_tile_order = #map1, access_tile_set = #set4} : memref<64x1024xf16> -> !ktdp.access_tile<1x128xindex>
          ktdf.pipeline modulo(size: 4) {
            %slot = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
            %buf = ktdf.private : memref<1x128xf16, "L1">
            %slot_0 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
            %slot_1 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
            %13 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
              ktdf.data_transfer %12 to %buf : !ktdp.access_tile<1x128xindex> to memref<1x128xf16, "L1">
            }
            %14 = ktdf.stage "feed" depends_in(%13) depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
              %c0_2 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_3 = arith.constant 1 : index
              %c128_4 = arith.constant 128 : index
              %c64 = arith.constant 64 : index
              scf.for %arg9 = %c0_2 to %c1_3 step %c1 {
                scf.for %arg10 = %c0_2 to %c128_4 step %c64 {
                  ktdf.data_transfer %3[%arg9, %arg10] to %slot : !ktdp.access_tile<1x128xindex> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
                  ktdf.data_transfer %buf[%arg9, %arg10] to %slot_0 : memref<1x128xf16, "L1"> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
                }
              }
            }
            %15 = ktdf.stage "compute" depends_in(%14) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
              %c0_2 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_3 = arith.constant 1 : index
              %c128_4 = arith.constant 128 : index
              %c64 = arith.constant 64 : index
              scf.for %arg9 = %c0_2 to %c1_3 step %c1 {
                scf.for %arg10 = %c0_2 to %c128_4 step %c64 {
                  %17 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
                  %18 = ktdf.read_from_fifo %slot_0 : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
                  %19 = tensor.empty() : tensor<64xf16>
                  %20 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%17, %18 : tensor<64xf16>, tensor<64xf16>) outs(%19 : tensor<64xf16>) {
                  ^bb0(%in: f16, %in_5: f16, %out: f16):
                    %21 = arith.addf %in, %in_5 : f16
                    linalg.yield %21 : f16
                  } -> tensor<64xf16>
                  ktdf.write_to_fifo %20 to %slot_1 : tensor<64xf16> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
                }
              }
            }
            %16 = ktdf.stage "drain" depends_in(%15) depends_out(1) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
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
          %12 = ktdf.stage "feed" depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
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
          %13 = ktdf.stage "compute" depends_in(%12) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
            %c0_1 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_2 = arith.constant 1 : index
            %c128_3 = arith.constant 128 : index
            %c64 = arith.constant 64 : index
            scf.for %arg8 = %c0_1 to %c1_2 step %c1 {
              %cst_4 = arith.constant dense<0.000000e+00> : tensor<f16>
              %15 = scf.for %arg9 = %c0_1 to %c128_3 step %c64 iter_args(%arg10 = %cst_4) -> (tensor<f16>) {
                %20 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
                %21 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["reduction"]} ins(%20 : tensor<64xf16>) outs(%arg10 : tensor<f16>) {
                ^bb0(%in: f16, %out: f16):
                  %22 = arith.addf %in, %out : f16
                  linalg.yield %22 : f16
                } -> tensor<f16>
                scf.yield %21 : tensor<f16>
              }
              %16 = tensor.empty() : tensor<f16>
              %17 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = []} ins(%15 : tensor<f16>) outs(%16 : tensor<f16>) {
              ^bb0(%in: f16, %out: f16):
                %20 = arith.divf %in, %6 : f16
                linalg.yield %20 : f16
              } -> tensor<f16>
              %18 = tensor.empty() : tensor<f16>
              %19 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = []} ins(%17 : tensor<f16>) outs(%18 : tensor<f16>) {
              ^bb0(%in: f16, %out: f16):
                linalg.yield %in : f16
              } -> tensor<f16>
              ktdf.write_to_fifo %19 to %slot_0 : tensor<f16> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 1xf16>
            }
          }
          %14 = ktdf.stage "drain" depends_in(%13) depends_out(1) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
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
        %11 = ktdp.construct_access_tile %9[%arg7] {access_tile_order = #map, access_tile_set = #set5} : memref<64xf16> -> !ktdp.access_tile<1xindex>
        ktdf.pipeline modulo(size: 4) {
          %slot = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
          %slot_0 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 1xf16>
          %buf = ktdf.private : memref<1xf16, "L1">
          %12 = ktdf.stage "feed" depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
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
          %13 = ktdf.stage "compute" depends_in(%12) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
            %c0_1 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_2 = arith.constant 1 : index
            %c128_3 = arith.constant 128 : index
            %c64 = arith.constant 64 : index
            scf.for %arg8 = %c0_1 to %c1_2 step %c1 {
              %cst_4 = arith.constant dense<0.000000e+00> : tensor<f16>
              %15 = scf.for %arg9 = %c0_1 to %c128_3 step %c64 iter_args(%arg10 = %cst_4) -> (tensor<f16>) {
                %20 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
                %21 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["reduction"]} ins(%20 : tensor<64xf16>) outs(%arg10 : tensor<f16>) {
                ^bb0(%in: f16, %out: f16):
                  %22 = arith.addf %in, %out : f16
                  linalg.yield %22 : f16
                } -> tensor<f16>
                scf.yield %21 : tensor<f16>
              }
              %16 = tensor.empty() : tensor<f16>
              %17 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = []} ins(%15 : tensor<f16>) outs(%16 : tensor<f16>) {
              ^bb0(%in: f16, %out: f16):
                %20 = arith.divf %in, %10 : f16
                linalg.yield %20 : f16
              } -> tensor<f16>
              %18 = tensor.empty() : tensor<f16>
              %19 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = []} ins(%17 : tensor<f16>) outs(%18 : tensor<f16>) {
              ^bb0(%in: f16, %out: f16):
                linalg.yield %in : f16
              } -> tensor<f16>
              ktdf.write_to_fifo %19 to %slot_0 : tensor<f16> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 1xf16>
            }
          }
          %14 = ktdf.stage "drain" depends_in(%13) depends_out(1) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
            %c0_1 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_2 = arith.constant 1 : index
            %c128_3 = arith.constant 128 : index
            %c64 = arith.constant 64 : index
            scf.for %arg8 = %c0_1 to %c1_2 step %c1 {
              %c0_4 = arith.constant 0 : index
              ktdf.data_transfer %slot_0 to %buf[%c0_4] : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 1xf16> to memref<1xf16, "L1">
            }
          }
          ktdf.stage "store_0" depends_in(%14) depends_out(0) applicable_units [dma_store] unit "core/MNISU_Block/MNISU" {
            ktdf.data_transfer %buf to %11 : memref<1xf16, "L1"> to !ktdp.access_tile<1xindex>
          }
        }
        scf.for %arg8 = %c0 to %4 step %c128 {
          %12 = ktdp.construct_access_tile %7[%arg7, %arg8] {access_tile_order = #map1, access_tile_set = #set4} : memref<64x1024xf16> -> !ktdp.access_tile<1x128xindex>
          %13 = ktdp.construct_access_tile %8[%arg7, %arg8] {access_tile_order = #map1, access_tile_set = #set4} : memref<64x1024xf16> -> !ktdp.access_tile<1x128xindex>
          ktdf.pipeline modulo(size: 4) {
            %slot = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16>
            %buf = ktdf.private : memref<1x128xf16, "L1">
            %slot_0 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
            %slot_1 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
            %buf_2 = ktdf.private : memref<1x128xf16, "L1">
            %14 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
              ktdf.data_transfer %12 to %buf : !ktdp.access_tile<1x128xindex> to memref<1x128xf16, "L1">
            }
            %15 = ktdf.stage "feed" depends_in(%14) depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
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
            %16 = ktdf.stage "compute" depends_in(%15) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
              %c0_3 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_4 = arith.constant 1 : index
              %c128_5 = arith.constant 128 : index
              %c64 = arith.constant 64 : index
              scf.for %arg9 = %c0_3 to %c1_4 step %c1 {
                %18 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 1xf16> -> tensor<f16>
                scf.for %arg10 = %c0_3 to %c128_5 step %c64 {
                  %19 = ktdf.read_from_fifo %slot_0 : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
                  %20 = tensor.empty() : tensor<64xf16>
                  %21 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel"]} ins(%19, %18 : tensor<64xf16>, tensor<f16>) outs(%20 : tensor<64xf16>) {
                  ^bb0(%in: f16, %in_6: f16, %out: f16):
                    %22 = arith.subf %in, %in_6 : f16
                    linalg.yield %22 : f16
                  } -> tensor<64xf16>
                  ktdf.write_to_fifo %21 to %slot_1 : tensor<64xf16> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
                }
              }
            }
            %17 = ktdf.stage "drain" depends_in(%16) depends_out(1) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
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
            ktdf.stage "store_0" depends_in(%17) depends_out(0) applicable_units [dma_store] unit "core/MNISU_Block/MNISU" {
              ktdf.data_transfer %buf_2 to %13 : memref<1x128xf16, "L1"> to !ktdp.access_tile<1x128xindex>
            }
          }
        }
      }
    }
    return
  }
}


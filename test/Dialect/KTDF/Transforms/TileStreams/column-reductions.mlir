// RUN: ktflow-opt %s --ktdf-tile-streams | FileCheck %s

// Column reductions stream each chunk of columns down the rows: the chunk
// loop is outside, the row loop carries one accumulator chunk per
// reduction, and the per-column results are written once per chunk. The
// feed reads the tile column chunk by column chunk in the same order.

// CHECK: ktdf.stage "feed"
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: ktdf.data_transfer %{{.*}}[%[[R]], %[[C]]] to %{{.*}} : memref<64x64xf16, "L1">
// CHECK: ktdf.stage "compute"
// CHECK: scf.for
// CHECK: %[[SUM0:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<64xf32>)
// CHECK: %[[MAX0:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<64xf16>)
// CHECK: %[[ACC:.*]]:2 = scf.for {{.*}} iter_args(%[[S:.*]] = %[[SUM0]], %[[M:.*]] = %[[MAX0]]) -> (tensor<64xf32>, tensor<64xf16>) {
// CHECK-NEXT: %[[X:.*]] = ktdf.read_from_fifo {{.*}} -> tensor<64xf16>
// CHECK-NEXT: linalg.generic {{.*}}iterator_types = ["parallel"]} ins(%[[X]] : tensor<64xf16>) outs(%[[S]] : tensor<64xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel"]} ins(%[[X]] : tensor<64xf16>) outs(%[[M]] : tensor<64xf16>)
// CHECK: ktdf.write_to_fifo
// CHECK: ktdf.write_to_fifo %[[ACC]]#1
// CHECK: ktdf.stage "drain"
// CHECK: scf.for
// CHECK-NEXT: ktdf.data_transfer {{.*}} to %{{.*}}[%{{.*}}] : {{.*}} to memref<64xf16, "L1">

// col_reduce.mlir - sum and maximum of every column.
//
// Computes, for 0 <= j < 256 (x = X[:, j], 0 <= i < 64):
//   S[j] = f16(sum_i f32(x[i]))      (f32 accumulation from 0, rounded once)
//   M[j] = max_i x[i]                (arith.maximumf from -inf, exact)
//
// Arguments (all `index`, tensor start addresses counted in f16 elements):
//   %x  X : 64x256 f16, row-major, input
//   %s  S : 256 f16, contiguous, output
//   %m  M : 256 f16, contiguous, output
// Grid: [4]. Tile t handles columns [64t, 64t + 64) down all 64 rows: a
// 64x64 tile of X, and 64 sums and maxima.
// Memory space spelling: #ktdp.memory_space<global>.

// Input: the ScheduleIR ktdf-tile-streams receives, printed once by
// `ktflow-opt KERNEL --ktdf-mapping --ktdf-route-transfers` from a KTIR kernel.

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d1)>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#set1 = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#set2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#set3 = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
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
  func.func @col_reduce(%arg0: index {ktdf.tensor = tensor<64x256xf16>}, %arg1: index {ktdf.tensor = tensor<256xf16>}, %arg2: index {ktdf.tensor = tensor<256xf16>}) attributes {grid = [4]} {
    ktdf.parallel (%arg3) in [4] {
      %c64 = arith.constant 64 : index
      %0 = arith.muli %arg3, %c64 : index
      %1 = ktdp.construct_memory_view %arg0, sizes: [64, 256], strides: [256, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
      %2 = ktdp.construct_memory_view %arg1, sizes: [256], strides: [1] {coordinate_set = #set1, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<256xf16>
      %3 = ktdp.construct_memory_view %arg2, sizes: [256], strides: [1] {coordinate_set = #set1, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<256xf16>
      %4 = ktdp.construct_access_tile %1[0, %0] {access_tile_order = #map, access_tile_set = #set2} : memref<64x256xf16> -> !ktdp.access_tile<64x64xindex>
      %5 = ktdp.construct_access_tile %2[%0] {access_tile_order = #map1, access_tile_set = #set3} : memref<256xf16> -> !ktdp.access_tile<64xindex>
      %6 = ktdp.construct_access_tile %3[%0] {access_tile_order = #map1, access_tile_set = #set3} : memref<256xf16> -> !ktdp.access_tile<64xindex>
      ktdf.pipeline {
        %buf = ktdf.private : memref<64x64xf16, "L1">
        %slot = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64x64xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
        %buf_1 = ktdf.private : memref<64xf16, "L1">
        %slot_2 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
        %buf_3 = ktdf.private : memref<64xf16, "L1">
        %7 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
          ktdf.data_transfer %4 to %buf : !ktdp.access_tile<64x64xindex> to memref<64x64xf16, "L1">
        }
        %8 = ktdf.stage "feed" depends_in(%7) depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
          ktdf.data_transfer %buf to %slot : memref<64x64xf16, "L1"> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64x64xf16>
        }
        %9 = ktdf.stage "compute" depends_in(%8) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
          %11 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64x64xf16> -> tensor<64x64xf16>
          %12 = tensor.empty() : tensor<64xf32>
          %cst = arith.constant 0.000000e+00 : f32
          %13 = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel"]} outs(%12 : tensor<64xf32>) {
          ^bb0(%out: f32):
            linalg.yield %cst : f32
          } -> tensor<64xf32>
          %14 = tensor.empty() : tensor<64xf16>
          %cst_4 = arith.constant 0xFC00 : f16
          %15 = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel"]} outs(%14 : tensor<64xf16>) {
          ^bb0(%out: f16):
            linalg.yield %cst_4 : f16
          } -> tensor<64xf16>
          %16 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["reduction", "parallel"]} ins(%11 : tensor<64x64xf16>) outs(%13 : tensor<64xf32>) {
          ^bb0(%in: f16, %out: f32):
            %20 = arith.extf %in : f16 to f32
            %21 = arith.addf %20, %out : f32
            linalg.yield %21 : f32
          } -> tensor<64xf32>
          %17 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["reduction", "parallel"]} ins(%11 : tensor<64x64xf16>) outs(%15 : tensor<64xf16>) {
          ^bb0(%in: f16, %out: f16):
            %20 = arith.maximumf %in, %out : f16
            linalg.yield %20 : f16
          } -> tensor<64xf16>
          %18 = tensor.empty() : tensor<64xf16>
          %19 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%16 : tensor<64xf32>) outs(%18 : tensor<64xf16>) {
          ^bb0(%in: f32, %out: f16):
            %20 = arith.truncf %in : f32 to f16
            linalg.yield %20 : f16
          } -> tensor<64xf16>
          ktdf.write_to_fifo %19 to %slot_0 : tensor<64xf16> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
          ktdf.write_to_fifo %17 to %slot_2 : tensor<64xf16> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
        }
        %10 = ktdf.stage "drain" depends_in(%9) depends_out(1) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
          ktdf.data_transfer %slot_0 to %buf_1 : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16> to memref<64xf16, "L1">
          ktdf.data_transfer %slot_2 to %buf_3 : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16> to memref<64xf16, "L1">
        }
        ktdf.stage "store_0" depends_in(%10) depends_out(0) applicable_units [dma_store] unit "core/MNISU_Block/MNISU" {
          ktdf.data_transfer %buf_1 to %5 : memref<64xf16, "L1"> to !ktdp.access_tile<64xindex>
        }
        ktdf.stage "store_1" depends_in(%10) depends_out(0) applicable_units [dma_store] unit "core/MNISU_Block/MNISU" {
          ktdf.data_transfer %buf_3 to %6 : memref<64xf16, "L1"> to !ktdp.access_tile<64xindex>
        }
      }
    }
    return
  }
}

// RUN: ktflow-opt %s --ktdf-coarsen | FileCheck %s

// The shipped layernorm on sample_device: 32 grid points of 2x128 f16 rows
// on 8 lanes, two lanes a core sharing its load and its store engine (4
// transfers in flight each). W and B (128 f16 each) are the same at every
// point: ktdf-hoist-invariant-transfers loads them once per lane, with its
// first execution's loads, whatever F. Counted once so (not F times in
// every execution, which made two points an execution look cheaper: 627
// simulated cycles), each point stays an execution (F = 1: 613 cycles,
// 2.00x the roofline).

// CHECK: ktdf.parallel (%{{.*}}) in [32] distribute(num_instances = 8)
// CHECK: ktdf.data_transfer {{.*}} : !ktdp.access_tile<2x128xindex> to memref<2x128xf16, "L1">
// CHECK-NOT: access_tile<4x128xindex>

// Input: the ScheduleIR ktdf-coarsen receives, printed by
// `ktflow compile examples/kernels/layernorm.mlir --arch examples/devices/sample_device.mlir --mlir-print-ir-before=ktdf-coarsen`.

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<() -> ()>
#map3 = affine_map<(d0) -> ()>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#set1 = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#set2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
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
  func.func @layernorm(%arg0: index {ktdf.tensor = tensor<64x128xf16>}, %arg1: index {ktdf.tensor = tensor<128xf16>}, %arg2: index {ktdf.tensor = tensor<128xf16>}, %arg3: index {ktdf.tensor = tensor<64x128xf16>}) attributes {grid = [32]} {
    ktdf.parallel (%arg4) in [32] distribute(num_instances = 8) {
      %c2 = arith.constant 2 : index
      %0 = arith.muli %arg4, %c2 : index
      %1 = ktdp.construct_memory_view %arg0, sizes: [64, 128], strides: [128, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
      %2 = ktdp.construct_memory_view %arg1, sizes: [128], strides: [1] {coordinate_set = #set1, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<128xf16>
      %3 = ktdp.construct_memory_view %arg2, sizes: [128], strides: [1] {coordinate_set = #set1, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<128xf16>
      %4 = ktdp.construct_memory_view %arg3, sizes: [64, 128], strides: [128, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
      %5 = ktdp.construct_access_tile %1[%0, 0] {access_tile_order = #map, access_tile_set = #set2} : memref<64x128xf16> -> !ktdp.access_tile<2x128xindex>
      %6 = ktdp.construct_access_tile %2[0] {access_tile_order = #map1, access_tile_set = #set1} : memref<128xf16> -> !ktdp.access_tile<128xindex>
      %7 = ktdp.construct_access_tile %3[0] {access_tile_order = #map1, access_tile_set = #set1} : memref<128xf16> -> !ktdp.access_tile<128xindex>
      %8 = ktdp.construct_access_tile %4[%0, 0] {access_tile_order = #map, access_tile_set = #set2} : memref<64x128xf16> -> !ktdp.access_tile<2x128xindex>
      ktdf.pipeline {
        %buf = ktdf.private : memref<2x128xf16, "L1">
        %slot = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
        %buf_0 = ktdf.private : memref<128xf16, "L1">
        %slot_1 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
        %buf_2 = ktdf.private : memref<128xf16, "L1">
        %slot_3 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
        %slot_4 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
        %buf_5 = ktdf.private : memref<2x128xf16, "L1">
        %9 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
          ktdf.data_transfer %5 to %buf : !ktdp.access_tile<2x128xindex> to memref<2x128xf16, "L1">
        }
        %10 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
          ktdf.data_transfer %6 to %buf_0 : !ktdp.access_tile<128xindex> to memref<128xf16, "L1">
        }
        %11 = ktdf.stage "load_2" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
          ktdf.data_transfer %7 to %buf_2 : !ktdp.access_tile<128xindex> to memref<128xf16, "L1">
        }
        %12 = ktdf.stage "feed" depends_in(%9, %10, %11) depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2_6 = arith.constant 2 : index
          %c128 = arith.constant 128 : index
          %c64 = arith.constant 64 : index
          scf.for %arg5 = %c0 to %c2_6 step %c1 {
            scf.for %arg6 = %c0 to %c128 step %c64 {
              ktdf.data_transfer %buf[%arg5, %arg6] to %slot : memref<2x128xf16, "L1"> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
            }
            scf.for %arg6 = %c0 to %c128 step %c64 {
              ktdf.data_transfer %buf_0[%arg6] to %slot_1 : memref<128xf16, "L1"> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
              ktdf.data_transfer %buf_2[%arg6] to %slot_3 : memref<128xf16, "L1"> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
            }
          }
        }
        %13 = ktdf.stage "compute" depends_in(%12) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
          %cst = arith.constant 0.000000e+00 : f32
          %cst_6 = arith.constant 1.280000e+02 : f32
          %cst_7 = arith.constant 9.99999974E-6 : f32
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2_8 = arith.constant 2 : index
          %c128 = arith.constant 128 : index
          %c64 = arith.constant 64 : index
          scf.for %arg5 = %c0 to %c2_8 step %c1 {
            %15 = tensor.empty() : tensor<f32>
            %16 = linalg.generic {indexing_maps = [#map2], iterator_types = []} outs(%15 : tensor<f32>) {
            ^bb0(%out: f32):
              linalg.yield %cst : f32
            } -> tensor<f32>
            %17 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
            %18 = tensor.empty() : tensor<64xf32>
            %19 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%17 : tensor<64xf16>) outs(%18 : tensor<64xf32>) {
            ^bb0(%in: f16, %out: f32):
              %51 = arith.extf %in : f16 to f32
              linalg.yield %51 : f32
            } -> tensor<64xf32>
            %20 = linalg.generic {indexing_maps = [#map1, #map3], iterator_types = ["reduction"]} ins(%19 : tensor<64xf32>) outs(%16 : tensor<f32>) {
            ^bb0(%in: f32, %out: f32):
              %51 = arith.addf %in, %out : f32
              linalg.yield %51 : f32
            } -> tensor<f32>
            %21 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
            %22 = tensor.empty() : tensor<64xf32>
            %23 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%21 : tensor<64xf16>) outs(%22 : tensor<64xf32>) {
            ^bb0(%in: f16, %out: f32):
              %51 = arith.extf %in : f16 to f32
              linalg.yield %51 : f32
            } -> tensor<64xf32>
            %24 = linalg.generic {indexing_maps = [#map1, #map3], iterator_types = ["reduction"]} ins(%23 : tensor<64xf32>) outs(%20 : tensor<f32>) {
            ^bb0(%in: f32, %out: f32):
              %51 = arith.addf %in, %out : f32
              linalg.yield %51 : f32
            } -> tensor<f32>
            %25 = tensor.empty() : tensor<f32>
            %26 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = []} ins(%24 : tensor<f32>) outs(%25 : tensor<f32>) {
            ^bb0(%in: f32, %out: f32):
              %51 = arith.divf %in, %cst_6 : f32
              linalg.yield %51 : f32
            } -> tensor<f32>
            %27 = tensor.empty() : tensor<64xf32>
            %28 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel"]} ins(%19, %26 : tensor<64xf32>, tensor<f32>) outs(%27 : tensor<64xf32>) {
            ^bb0(%in: f32, %in_9: f32, %out: f32):
              %51 = arith.subf %in, %in_9 : f32
              linalg.yield %51 : f32
            } -> tensor<64xf32>
            %29 = linalg.generic {indexing_maps = [#map1, #map3], iterator_types = ["reduction"]} ins(%28 : tensor<64xf32>) outs(%16 : tensor<f32>) {
            ^bb0(%in: f32, %out: f32):
              %51 = arith.mulf %in, %in : f32
              %52 = arith.addf %51, %out : f32
              linalg.yield %52 : f32
            } -> tensor<f32>
            %30 = tensor.empty() : tensor<64xf32>
            %31 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel"]} ins(%23, %26 : tensor<64xf32>, tensor<f32>) outs(%30 : tensor<64xf32>) {
            ^bb0(%in: f32, %in_9: f32, %out: f32):
              %51 = arith.subf %in, %in_9 : f32
              linalg.yield %51 : f32
            } -> tensor<64xf32>
            %32 = linalg.generic {indexing_maps = [#map1, #map3], iterator_types = ["reduction"]} ins(%31 : tensor<64xf32>) outs(%29 : tensor<f32>) {
            ^bb0(%in: f32, %out: f32):
              %51 = arith.mulf %in, %in : f32
              %52 = arith.addf %51, %out : f32
              linalg.yield %52 : f32
            } -> tensor<f32>
            %33 = tensor.empty() : tensor<f32>
            %34 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = []} ins(%32 : tensor<f32>) outs(%33 : tensor<f32>) {
            ^bb0(%in: f32, %out: f32):
              %51 = arith.divf %in, %cst_6 : f32
              %52 = arith.addf %51, %cst_7 : f32
              %53 = math.rsqrt %52 : f32
              linalg.yield %53 : f32
            } -> tensor<f32>
            %35 = ktdf.read_from_fifo %slot_1 : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
            %36 = ktdf.read_from_fifo %slot_3 : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
            %37 = tensor.empty() : tensor<64xf32>
            %38 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%35 : tensor<64xf16>) outs(%37 : tensor<64xf32>) {
            ^bb0(%in: f16, %out: f32):
              %51 = arith.extf %in : f16 to f32
              linalg.yield %51 : f32
            } -> tensor<64xf32>
            %39 = tensor.empty() : tensor<64xf32>
            %40 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%36 : tensor<64xf16>) outs(%39 : tensor<64xf32>) {
            ^bb0(%in: f16, %out: f32):
              %51 = arith.extf %in : f16 to f32
              linalg.yield %51 : f32
            } -> tensor<64xf32>
            %41 = tensor.empty() : tensor<64xf16>
            %42 = linalg.generic {indexing_maps = [#map1, #map3, #map1, #map1, #map1], iterator_types = ["parallel"]} ins(%28, %34, %38, %40 : tensor<64xf32>, tensor<f32>, tensor<64xf32>, tensor<64xf32>) outs(%41 : tensor<64xf16>) {
            ^bb0(%in: f32, %in_9: f32, %in_10: f32, %in_11: f32, %out: f16):
              %51 = arith.mulf %in, %in_9 : f32
              %52 = arith.mulf %51, %in_10 : f32
              %53 = arith.addf %52, %in_11 : f32
              %54 = arith.truncf %53 : f32 to f16
              linalg.yield %54 : f16
            } -> tensor<64xf16>
            ktdf.write_to_fifo %42 to %slot_4 : tensor<64xf16> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
            %43 = ktdf.read_from_fifo %slot_1 : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
            %44 = ktdf.read_from_fifo %slot_3 : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
            %45 = tensor.empty() : tensor<64xf32>
            %46 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%43 : tensor<64xf16>) outs(%45 : tensor<64xf32>) {
            ^bb0(%in: f16, %out: f32):
              %51 = arith.extf %in : f16 to f32
              linalg.yield %51 : f32
            } -> tensor<64xf32>
            %47 = tensor.empty() : tensor<64xf32>
            %48 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%44 : tensor<64xf16>) outs(%47 : tensor<64xf32>) {
            ^bb0(%in: f16, %out: f32):
              %51 = arith.extf %in : f16 to f32
              linalg.yield %51 : f32
            } -> tensor<64xf32>
            %49 = tensor.empty() : tensor<64xf16>
            %50 = linalg.generic {indexing_maps = [#map1, #map3, #map1, #map1, #map1], iterator_types = ["parallel"]} ins(%31, %34, %46, %48 : tensor<64xf32>, tensor<f32>, tensor<64xf32>, tensor<64xf32>) outs(%49 : tensor<64xf16>) {
            ^bb0(%in: f32, %in_9: f32, %in_10: f32, %in_11: f32, %out: f16):
              %51 = arith.mulf %in, %in_9 : f32
              %52 = arith.mulf %51, %in_10 : f32
              %53 = arith.addf %52, %in_11 : f32
              %54 = arith.truncf %53 : f32 to f16
              linalg.yield %54 : f16
            } -> tensor<64xf16>
            ktdf.write_to_fifo %50 to %slot_4 : tensor<64xf16> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
          }
        }
        %14 = ktdf.stage "drain" depends_in(%13) depends_out(1) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2_6 = arith.constant 2 : index
          %c128 = arith.constant 128 : index
          %c64 = arith.constant 64 : index
          scf.for %arg5 = %c0 to %c2_6 step %c1 {
            scf.for %arg6 = %c0 to %c128 step %c64 {
              ktdf.data_transfer %slot_4 to %buf_5[%arg5, %arg6] : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16> to memref<2x128xf16, "L1">
            }
          }
        }
        ktdf.stage "store_0" depends_in(%14) depends_out(0) applicable_units [dma_store] unit "core/MNISU_Block/MNISU" {
          ktdf.data_transfer %buf_5 to %8 : memref<2x128xf16, "L1"> to !ktdp.access_tile<2x128xindex>
        }
      }
    }
    return
  }
}



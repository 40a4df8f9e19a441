#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<() -> ()>
#map3 = affine_map<(d0) -> ()>
#set = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#set1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#set2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
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
    ktdf.parallel (%arg4) in [16] distribute(num_instances = 8) {
      %0 = ktdp.construct_memory_view %arg1, sizes: [128], strides: [1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<128xf16>
      %1 = ktdp.construct_access_tile %0[0] {access_tile_order = #map, access_tile_set = #set} : memref<128xf16> -> !ktdp.access_tile<128xindex>
      %2 = ktdp.construct_memory_view %arg2, sizes: [128], strides: [1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<128xf16>
      %3 = ktdp.construct_access_tile %2[0] {access_tile_order = #map, access_tile_set = #set} : memref<128xf16> -> !ktdp.access_tile<128xindex>
      %4:2 = ktdf.pipeline per_instance modulo(size: 1) -> memref<128xf16, "L1">, memref<128xf16, "L1"> {
        %buf = ktdf.private export 0 : memref<128xf16, "L1">
        %15 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
          ktdf.data_transfer %1 to %buf : !ktdp.access_tile<128xindex> to memref<128xf16, "L1">
        }
        %buf_1 = ktdf.private export 1 : memref<128xf16, "L1">
        %16 = ktdf.stage "load_2" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
          ktdf.data_transfer %3 to %buf_1 : !ktdp.access_tile<128xindex> to memref<128xf16, "L1">
        }
      }
      %c2 = arith.constant 2 : index
      %5 = arith.muli %arg4, %c2 : index
      %c2_0 = arith.constant 2 : index
      %6 = arith.muli %5, %c2_0 : index
      %7 = ktdp.construct_memory_view %arg0, sizes: [64, 128], strides: [128, 1] {coordinate_set = #set1, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
      %8 = ktdp.construct_memory_view %arg1, sizes: [128], strides: [1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<128xf16>
      %9 = ktdp.construct_memory_view %arg2, sizes: [128], strides: [1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<128xf16>
      %10 = ktdp.construct_memory_view %arg3, sizes: [64, 128], strides: [128, 1] {coordinate_set = #set1, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
      %11 = ktdp.construct_access_tile %7[%6, 0] {access_tile_order = #map1, access_tile_set = #set2} : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
      %12 = ktdp.construct_access_tile %8[0] {access_tile_order = #map, access_tile_set = #set} : memref<128xf16> -> !ktdp.access_tile<128xindex>
      %13 = ktdp.construct_access_tile %9[0] {access_tile_order = #map, access_tile_set = #set} : memref<128xf16> -> !ktdp.access_tile<128xindex>
      %14 = ktdp.construct_access_tile %10[%6, 0] {access_tile_order = #map1, access_tile_set = #set2} : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
      ktdf.pipeline modulo(size: 4) {
        %buf = ktdf.private : memref<4x128xf16, "L1">
        %slot = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
        %slot_1 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
        %slot_2 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
        %slot_3 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
        %buf_4 = ktdf.private : memref<4x128xf16, "L1">
        %15 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
          ktdf.data_transfer %11 to %buf : !ktdp.access_tile<4x128xindex> to memref<4x128xf16, "L1">
        }
        %16 = ktdf.stage "feed" depends_in(%15) depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2_5 = arith.constant 2 : index
          %c128 = arith.constant 128 : index
          %c64 = arith.constant 64 : index
          %c4 = arith.constant 4 : index
          scf.for %arg5 = %c0 to %c4 step %c1 {
            scf.for %arg6 = %c0 to %c128 step %c64 {
              ktdf.data_transfer %buf[%arg5, %arg6] to %slot : memref<4x128xf16, "L1"> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
            }
            scf.for %arg6 = %c0 to %c128 step %c64 {
              ktdf.data_transfer %4#0[%arg6] to %slot_1 : memref<128xf16, "L1"> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
              ktdf.data_transfer %4#1[%arg6] to %slot_2 : memref<128xf16, "L1"> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
            }
          }
        }
        %17 = ktdf.stage "compute" depends_in(%16) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
          %cst = arith.constant 0.000000e+00 : f32
          %cst_5 = arith.constant 1.280000e+02 : f32
          %cst_6 = arith.constant 9.99999974E-6 : f32
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2_7 = arith.constant 2 : index
          %c128 = arith.constant 128 : index
          %c64 = arith.constant 64 : index
          %c4 = arith.constant 4 : index
          scf.for %arg5 = %c0 to %c4 step %c1 {
            %19 = tensor.empty() : tensor<f32>
            %20 = linalg.generic {indexing_maps = [#map2], iterator_types = []} outs(%19 : tensor<f32>) {
            ^bb0(%out: f32):
              linalg.yield %cst : f32
            } -> tensor<f32>
            %21 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
            %22 = tensor.empty() : tensor<64xf32>
            %23 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%21 : tensor<64xf16>) outs(%22 : tensor<64xf32>) {
            ^bb0(%in: f16, %out: f32):
              %55 = arith.extf %in : f16 to f32
              linalg.yield %55 : f32
            } -> tensor<64xf32>
            %24 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["reduction"]} ins(%23 : tensor<64xf32>) outs(%20 : tensor<f32>) {
            ^bb0(%in: f32, %out: f32):
              %55 = arith.addf %in, %out : f32
              linalg.yield %55 : f32
            } -> tensor<f32>
            %25 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
            %26 = tensor.empty() : tensor<64xf32>
            %27 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%25 : tensor<64xf16>) outs(%26 : tensor<64xf32>) {
            ^bb0(%in: f16, %out: f32):
              %55 = arith.extf %in : f16 to f32
              linalg.yield %55 : f32
            } -> tensor<64xf32>
            %28 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["reduction"]} ins(%27 : tensor<64xf32>) outs(%24 : tensor<f32>) {
            ^bb0(%in: f32, %out: f32):
              %55 = arith.addf %in, %out : f32
              linalg.yield %55 : f32
            } -> tensor<f32>
            %29 = tensor.empty() : tensor<f32>
            %30 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = []} ins(%28 : tensor<f32>) outs(%29 : tensor<f32>) {
            ^bb0(%in: f32, %out: f32):
              %55 = arith.divf %in, %cst_5 : f32
              linalg.yield %55 : f32
            } -> tensor<f32>
            %31 = tensor.empty() : tensor<64xf32>
            %32 = linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel"]} ins(%23, %30 : tensor<64xf32>, tensor<f32>) outs(%31 : tensor<64xf32>) {
            ^bb0(%in: f32, %in_8: f32, %out: f32):
              %55 = arith.subf %in, %in_8 : f32
              linalg.yield %55 : f32
            } -> tensor<64xf32>
            %33 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["reduction"]} ins(%32 : tensor<64xf32>) outs(%20 : tensor<f32>) {
            ^bb0(%in: f32, %out: f32):
              %55 = arith.mulf %in, %in : f32
              %56 = arith.addf %55, %out : f32
              linalg.yield %56 : f32
            } -> tensor<f32>
            %34 = tensor.empty() : tensor<64xf32>
            %35 = linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel"]} ins(%27, %30 : tensor<64xf32>, tensor<f32>) outs(%34 : tensor<64xf32>) {
            ^bb0(%in: f32, %in_8: f32, %out: f32):
              %55 = arith.subf %in, %in_8 : f32
              linalg.yield %55 : f32
            } -> tensor<64xf32>
            %36 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["reduction"]} ins(%35 : tensor<64xf32>) outs(%33 : tensor<f32>) {
            ^bb0(%in: f32, %out: f32):
              %55 = arith.mulf %in, %in : f32
              %56 = arith.addf %55, %out : f32
              linalg.yield %56 : f32
            } -> tensor<f32>
            %37 = tensor.empty() : tensor<f32>
            %38 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = []} ins(%36 : tensor<f32>) outs(%37 : tensor<f32>) {
            ^bb0(%in: f32, %out: f32):
              %55 = arith.divf %in, %cst_5 : f32
              %56 = arith.addf %55, %cst_6 : f32
              %57 = math.rsqrt %56 : f32
              linalg.yield %57 : f32
            } -> tensor<f32>
            %39 = ktdf.read_from_fifo %slot_1 : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
            %40 = ktdf.read_from_fifo %slot_2 : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
            %41 = tensor.empty() : tensor<64xf32>
            %42 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%39 : tensor<64xf16>) outs(%41 : tensor<64xf32>) {
            ^bb0(%in: f16, %out: f32):
              %55 = arith.extf %in : f16 to f32
              linalg.yield %55 : f32
            } -> tensor<64xf32>
            %43 = tensor.empty() : tensor<64xf32>
            %44 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%40 : tensor<64xf16>) outs(%43 : tensor<64xf32>) {
            ^bb0(%in: f16, %out: f32):
              %55 = arith.extf %in : f16 to f32
              linalg.yield %55 : f32
            } -> tensor<64xf32>
            %45 = tensor.empty() : tensor<64xf16>
            %46 = linalg.generic {indexing_maps = [#map, #map3, #map, #map, #map], iterator_types = ["parallel"]} ins(%32, %38, %42, %44 : tensor<64xf32>, tensor<f32>, tensor<64xf32>, tensor<64xf32>) outs(%45 : tensor<64xf16>) {
            ^bb0(%in: f32, %in_8: f32, %in_9: f32, %in_10: f32, %out: f16):
              %55 = arith.mulf %in, %in_8 : f32
              %56 = arith.mulf %55, %in_9 : f32
              %57 = arith.addf %56, %in_10 : f32
              %58 = arith.truncf %57 : f32 to f16
              linalg.yield %58 : f16
            } -> tensor<64xf16>
            ktdf.write_to_fifo %46 to %slot_3 : tensor<64xf16> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
            %47 = ktdf.read_from_fifo %slot_1 : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
            %48 = ktdf.read_from_fifo %slot_2 : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
            %49 = tensor.empty() : tensor<64xf32>
            %50 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%47 : tensor<64xf16>) outs(%49 : tensor<64xf32>) {
            ^bb0(%in: f16, %out: f32):
              %55 = arith.extf %in : f16 to f32
              linalg.yield %55 : f32
            } -> tensor<64xf32>
            %51 = tensor.empty() : tensor<64xf32>
            %52 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%48 : tensor<64xf16>) outs(%51 : tensor<64xf32>) {
            ^bb0(%in: f16, %out: f32):
              %55 = arith.extf %in : f16 to f32
              linalg.yield %55 : f32
            } -> tensor<64xf32>
            %53 = tensor.empty() : tensor<64xf16>
            %54 = linalg.generic {indexing_maps = [#map, #map3, #map, #map, #map], iterator_types = ["parallel"]} ins(%35, %38, %50, %52 : tensor<64xf32>, tensor<f32>, tensor<64xf32>, tensor<64xf32>) outs(%53 : tensor<64xf16>) {
            ^bb0(%in: f32, %in_8: f32, %in_9: f32, %in_10: f32, %out: f16):
              %55 = arith.mulf %in, %in_8 : f32
              %56 = arith.mulf %55, %in_9 : f32
              %57 = arith.addf %56, %in_10 : f32
              %58 = arith.truncf %57 : f32 to f16
              linalg.yield %58 : f16
            } -> tensor<64xf16>
            ktdf.write_to_fifo %54 to %slot_3 : tensor<64xf16> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16>
          }
        }
        %18 = ktdf.stage "drain" depends_in(%17) depends_out(1) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2_5 = arith.constant 2 : index
          %c128 = arith.constant 128 : index
          %c64 = arith.constant 64 : index
          %c4 = arith.constant 4 : index
          scf.for %arg5 = %c0 to %c4 step %c1 {
            scf.for %arg6 = %c0 to %c128 step %c64 {
              ktdf.data_transfer %slot_3 to %buf_4[%arg5, %arg6] : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf16> to memref<4x128xf16, "L1">
            }
          }
        }
        ktdf.stage "store_0" depends_in(%18) depends_out(0) applicable_units [dma_store] unit "core/MNISU_Block/MNISU" {
          ktdf.data_transfer %buf_4 to %14 : memref<4x128xf16, "L1"> to !ktdp.access_tile<4x128xindex>
        }
      }
    }
    return
  }
}



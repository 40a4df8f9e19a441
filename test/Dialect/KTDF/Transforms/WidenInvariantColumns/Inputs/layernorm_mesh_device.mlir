#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<() -> ()>
#map3 = affine_map<(d0) -> ()>
#set = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#set1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#set2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
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
  func.func @layernorm(%arg0: index {ktdf.tensor = tensor<64x128xf16>}, %arg1: index {ktdf.tensor = tensor<128xf16>}, %arg2: index {ktdf.tensor = tensor<128xf16>}, %arg3: index {ktdf.tensor = tensor<64x128xf16>}) attributes {grid = [32]} {
    ktdf.parallel (%arg4) in [32] distribute(num_instances = 16) {
      %0 = ktdp.construct_memory_view %arg1, sizes: [128], strides: [1] {coordinate_set = #set, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<128xf16>
      %1 = ktdp.construct_access_tile %0[0] {access_tile_order = #map, access_tile_set = #set} : memref<128xf16> -> !ktdp.access_tile<128xindex>
      %2 = ktdp.construct_memory_view %arg2, sizes: [128], strides: [1] {coordinate_set = #set, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<128xf16>
      %3 = ktdp.construct_access_tile %2[0] {access_tile_order = #map, access_tile_set = #set} : memref<128xf16> -> !ktdp.access_tile<128xindex>
      %4:2 = ktdf.pipeline per_instance modulo(size: 1) -> memref<128xf16, "SPM">, memref<128xf16, "SPM"> {
        %buf = ktdf.private export 0 : memref<128xf16, "SPM">
        %14 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load] unit "tile/DMA" {
          ktdf.data_transfer %1 to %buf : !ktdp.access_tile<128xindex> to memref<128xf16, "SPM">
        }
        %buf_0 = ktdf.private export 1 : memref<128xf16, "SPM">
        %15 = ktdf.stage "load_2" depends_out(1) applicable_units [dma_load] unit "tile/DMA" {
          ktdf.data_transfer %3 to %buf_0 : !ktdp.access_tile<128xindex> to memref<128xf16, "SPM">
        }
      }
      %c2 = arith.constant 2 : index
      %5 = arith.muli %arg4, %c2 : index
      %6 = ktdp.construct_memory_view %arg0, sizes: [64, 128], strides: [128, 1] {coordinate_set = #set1, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
      %7 = ktdp.construct_memory_view %arg1, sizes: [128], strides: [1] {coordinate_set = #set, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<128xf16>
      %8 = ktdp.construct_memory_view %arg2, sizes: [128], strides: [1] {coordinate_set = #set, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<128xf16>
      %9 = ktdp.construct_memory_view %arg3, sizes: [64, 128], strides: [128, 1] {coordinate_set = #set1, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
      %10 = ktdp.construct_access_tile %6[%5, 0] {access_tile_order = #map1, access_tile_set = #set2} : memref<64x128xf16> -> !ktdp.access_tile<2x128xindex>
      %11 = ktdp.construct_access_tile %7[0] {access_tile_order = #map, access_tile_set = #set} : memref<128xf16> -> !ktdp.access_tile<128xindex>
      %12 = ktdp.construct_access_tile %8[0] {access_tile_order = #map, access_tile_set = #set} : memref<128xf16> -> !ktdp.access_tile<128xindex>
      %13 = ktdp.construct_access_tile %9[%5, 0] {access_tile_order = #map1, access_tile_set = #set2} : memref<64x128xf16> -> !ktdp.access_tile<2x128xindex>
      ktdf.pipeline modulo(size: 4) {
        %buf = ktdf.private : memref<2x128xf16, "SPM">
        %slot = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
        %slot_1 = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
        %slot_2 = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
        %buf_3 = ktdf.private : memref<2x128xf16, "SPM">
        %14 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load] unit "tile/DMA" {
          ktdf.data_transfer %10 to %buf : !ktdp.access_tile<2x128xindex> to memref<2x128xf16, "SPM">
        }
        %15 = ktdf.stage "feed" depends_in(%14) depends_out(1) applicable_units [scratchpad_load] unit "tile/VLD" {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2_4 = arith.constant 2 : index
          %c128 = arith.constant 128 : index
          %c32 = arith.constant 32 : index
          %c0_5 = arith.constant 0 : index
          %c128_6 = arith.constant 128 : index
          %c32_7 = arith.constant 32 : index
          scf.for %arg5 = %c0_5 to %c128_6 step %c32_7 {
            ktdf.data_transfer %4#0[%arg5] to %slot_0 : memref<128xf16, "SPM"> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
            ktdf.data_transfer %4#1[%arg5] to %slot_1 : memref<128xf16, "SPM"> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
          }
          scf.for %arg5 = %c0 to %c2_4 step %c1 {
            scf.for %arg6 = %c0 to %c128 step %c32 {
              ktdf.data_transfer %buf[%arg5, %arg6] to %slot : memref<2x128xf16, "SPM"> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
            }
          }
        }
        %16 = ktdf.stage "compute" depends_in(%15) depends_out(1) applicable_units [vector_compute] unit "tile/VPU" {
          %cst = arith.constant 0.000000e+00 : f32
          %cst_4 = arith.constant 1.280000e+02 : f32
          %cst_5 = arith.constant 9.99999974E-6 : f32
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2_6 = arith.constant 2 : index
          %c128 = arith.constant 128 : index
          %c32 = arith.constant 32 : index
          %18 = ktdf.read_from_fifo %slot_0 : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
          %19 = ktdf.read_from_fifo %slot_1 : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
          %20 = tensor.empty() : tensor<32xf32>
          %21 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%18 : tensor<32xf16>) outs(%20 : tensor<32xf32>) {
          ^bb0(%in: f16, %out: f32):
            %42 = arith.extf %in : f16 to f32
            linalg.yield %42 : f32
          } -> tensor<32xf32>
          %22 = tensor.empty() : tensor<32xf32>
          %23 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%19 : tensor<32xf16>) outs(%22 : tensor<32xf32>) {
          ^bb0(%in: f16, %out: f32):
            %42 = arith.extf %in : f16 to f32
            linalg.yield %42 : f32
          } -> tensor<32xf32>
          %24 = ktdf.read_from_fifo %slot_0 : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
          %25 = ktdf.read_from_fifo %slot_1 : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
          %26 = tensor.empty() : tensor<32xf32>
          %27 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%24 : tensor<32xf16>) outs(%26 : tensor<32xf32>) {
          ^bb0(%in: f16, %out: f32):
            %42 = arith.extf %in : f16 to f32
            linalg.yield %42 : f32
          } -> tensor<32xf32>
          %28 = tensor.empty() : tensor<32xf32>
          %29 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%25 : tensor<32xf16>) outs(%28 : tensor<32xf32>) {
          ^bb0(%in: f16, %out: f32):
            %42 = arith.extf %in : f16 to f32
            linalg.yield %42 : f32
          } -> tensor<32xf32>
          %30 = ktdf.read_from_fifo %slot_0 : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
          %31 = ktdf.read_from_fifo %slot_1 : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
          %32 = tensor.empty() : tensor<32xf32>
          %33 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%30 : tensor<32xf16>) outs(%32 : tensor<32xf32>) {
          ^bb0(%in: f16, %out: f32):
            %42 = arith.extf %in : f16 to f32
            linalg.yield %42 : f32
          } -> tensor<32xf32>
          %34 = tensor.empty() : tensor<32xf32>
          %35 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%31 : tensor<32xf16>) outs(%34 : tensor<32xf32>) {
          ^bb0(%in: f16, %out: f32):
            %42 = arith.extf %in : f16 to f32
            linalg.yield %42 : f32
          } -> tensor<32xf32>
          %36 = ktdf.read_from_fifo %slot_0 : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
          %37 = ktdf.read_from_fifo %slot_1 : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
          %38 = tensor.empty() : tensor<32xf32>
          %39 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%36 : tensor<32xf16>) outs(%38 : tensor<32xf32>) {
          ^bb0(%in: f16, %out: f32):
            %42 = arith.extf %in : f16 to f32
            linalg.yield %42 : f32
          } -> tensor<32xf32>
          %40 = tensor.empty() : tensor<32xf32>
          %41 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%37 : tensor<32xf16>) outs(%40 : tensor<32xf32>) {
          ^bb0(%in: f16, %out: f32):
            %42 = arith.extf %in : f16 to f32
            linalg.yield %42 : f32
          } -> tensor<32xf32>
          scf.for %arg5 = %c0 to %c2_6 step %c1 {
            %42 = tensor.empty() : tensor<f32>
            %43 = linalg.generic {indexing_maps = [#map2], iterator_types = []} outs(%42 : tensor<f32>) {
            ^bb0(%out: f32):
              linalg.yield %cst : f32
            } -> tensor<f32>
            %44 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
            %45 = tensor.empty() : tensor<32xf32>
            %46 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%44 : tensor<32xf16>) outs(%45 : tensor<32xf32>) {
            ^bb0(%in: f16, %out: f32):
              %84 = arith.extf %in : f16 to f32
              linalg.yield %84 : f32
            } -> tensor<32xf32>
            %47 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["reduction"]} ins(%46 : tensor<32xf32>) outs(%43 : tensor<f32>) {
            ^bb0(%in: f32, %out: f32):
              %84 = arith.addf %in, %out : f32
              linalg.yield %84 : f32
            } -> tensor<f32>
            %48 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
            %49 = tensor.empty() : tensor<32xf32>
            %50 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%48 : tensor<32xf16>) outs(%49 : tensor<32xf32>) {
            ^bb0(%in: f16, %out: f32):
              %84 = arith.extf %in : f16 to f32
              linalg.yield %84 : f32
            } -> tensor<32xf32>
            %51 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["reduction"]} ins(%50 : tensor<32xf32>) outs(%47 : tensor<f32>) {
            ^bb0(%in: f32, %out: f32):
              %84 = arith.addf %in, %out : f32
              linalg.yield %84 : f32
            } -> tensor<f32>
            %52 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
            %53 = tensor.empty() : tensor<32xf32>
            %54 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%52 : tensor<32xf16>) outs(%53 : tensor<32xf32>) {
            ^bb0(%in: f16, %out: f32):
              %84 = arith.extf %in : f16 to f32
              linalg.yield %84 : f32
            } -> tensor<32xf32>
            %55 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["reduction"]} ins(%54 : tensor<32xf32>) outs(%51 : tensor<f32>) {
            ^bb0(%in: f32, %out: f32):
              %84 = arith.addf %in, %out : f32
              linalg.yield %84 : f32
            } -> tensor<f32>
            %56 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
            %57 = tensor.empty() : tensor<32xf32>
            %58 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%56 : tensor<32xf16>) outs(%57 : tensor<32xf32>) {
            ^bb0(%in: f16, %out: f32):
              %84 = arith.extf %in : f16 to f32
              linalg.yield %84 : f32
            } -> tensor<32xf32>
            %59 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["reduction"]} ins(%58 : tensor<32xf32>) outs(%55 : tensor<f32>) {
            ^bb0(%in: f32, %out: f32):
              %84 = arith.addf %in, %out : f32
              linalg.yield %84 : f32
            } -> tensor<f32>
            %60 = tensor.empty() : tensor<f32>
            %61 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = []} ins(%59 : tensor<f32>) outs(%60 : tensor<f32>) {
            ^bb0(%in: f32, %out: f32):
              %84 = arith.divf %in, %cst_4 : f32
              linalg.yield %84 : f32
            } -> tensor<f32>
            %62 = tensor.empty() : tensor<32xf32>
            %63 = linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel"]} ins(%46, %61 : tensor<32xf32>, tensor<f32>) outs(%62 : tensor<32xf32>) {
            ^bb0(%in: f32, %in_7: f32, %out: f32):
              %84 = arith.subf %in, %in_7 : f32
              linalg.yield %84 : f32
            } -> tensor<32xf32>
            %64 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["reduction"]} ins(%63 : tensor<32xf32>) outs(%43 : tensor<f32>) {
            ^bb0(%in: f32, %out: f32):
              %84 = arith.mulf %in, %in : f32
              %85 = arith.addf %84, %out : f32
              linalg.yield %85 : f32
            } -> tensor<f32>
            %65 = tensor.empty() : tensor<32xf32>
            %66 = linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel"]} ins(%50, %61 : tensor<32xf32>, tensor<f32>) outs(%65 : tensor<32xf32>) {
            ^bb0(%in: f32, %in_7: f32, %out: f32):
              %84 = arith.subf %in, %in_7 : f32
              linalg.yield %84 : f32
            } -> tensor<32xf32>
            %67 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["reduction"]} ins(%66 : tensor<32xf32>) outs(%64 : tensor<f32>) {
            ^bb0(%in: f32, %out: f32):
              %84 = arith.mulf %in, %in : f32
              %85 = arith.addf %84, %out : f32
              linalg.yield %85 : f32
            } -> tensor<f32>
            %68 = tensor.empty() : tensor<32xf32>
            %69 = linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel"]} ins(%54, %61 : tensor<32xf32>, tensor<f32>) outs(%68 : tensor<32xf32>) {
            ^bb0(%in: f32, %in_7: f32, %out: f32):
              %84 = arith.subf %in, %in_7 : f32
              linalg.yield %84 : f32
            } -> tensor<32xf32>
            %70 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["reduction"]} ins(%69 : tensor<32xf32>) outs(%67 : tensor<f32>) {
            ^bb0(%in: f32, %out: f32):
              %84 = arith.mulf %in, %in : f32
              %85 = arith.addf %84, %out : f32
              linalg.yield %85 : f32
            } -> tensor<f32>
            %71 = tensor.empty() : tensor<32xf32>
            %72 = linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel"]} ins(%58, %61 : tensor<32xf32>, tensor<f32>) outs(%71 : tensor<32xf32>) {
            ^bb0(%in: f32, %in_7: f32, %out: f32):
              %84 = arith.subf %in, %in_7 : f32
              linalg.yield %84 : f32
            } -> tensor<32xf32>
            %73 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["reduction"]} ins(%72 : tensor<32xf32>) outs(%70 : tensor<f32>) {
            ^bb0(%in: f32, %out: f32):
              %84 = arith.mulf %in, %in : f32
              %85 = arith.addf %84, %out : f32
              linalg.yield %85 : f32
            } -> tensor<f32>
            %74 = tensor.empty() : tensor<f32>
            %75 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = []} ins(%73 : tensor<f32>) outs(%74 : tensor<f32>) {
            ^bb0(%in: f32, %out: f32):
              %84 = arith.divf %in, %cst_4 : f32
              %85 = arith.addf %84, %cst_5 : f32
              %86 = math.rsqrt %85 : f32
              linalg.yield %86 : f32
            } -> tensor<f32>
            %76 = tensor.empty() : tensor<32xf16>
            %77 = linalg.generic {indexing_maps = [#map, #map3, #map, #map, #map], iterator_types = ["parallel"]} ins(%63, %75, %21, %23 : tensor<32xf32>, tensor<f32>, tensor<32xf32>, tensor<32xf32>) outs(%76 : tensor<32xf16>) {
            ^bb0(%in: f32, %in_7: f32, %in_8: f32, %in_9: f32, %out: f16):
              %84 = arith.mulf %in, %in_7 : f32
              %85 = arith.mulf %84, %in_8 : f32
              %86 = arith.addf %85, %in_9 : f32
              %87 = arith.truncf %86 : f32 to f16
              linalg.yield %87 : f16
            } -> tensor<32xf16>
            ktdf.write_to_fifo %77 to %slot_2 : tensor<32xf16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
            %78 = tensor.empty() : tensor<32xf16>
            %79 = linalg.generic {indexing_maps = [#map, #map3, #map, #map, #map], iterator_types = ["parallel"]} ins(%66, %75, %27, %29 : tensor<32xf32>, tensor<f32>, tensor<32xf32>, tensor<32xf32>) outs(%78 : tensor<32xf16>) {
            ^bb0(%in: f32, %in_7: f32, %in_8: f32, %in_9: f32, %out: f16):
              %84 = arith.mulf %in, %in_7 : f32
              %85 = arith.mulf %84, %in_8 : f32
              %86 = arith.addf %85, %in_9 : f32
              %87 = arith.truncf %86 : f32 to f16
              linalg.yield %87 : f16
            } -> tensor<32xf16>
            ktdf.write_to_fifo %79 to %slot_2 : tensor<32xf16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
            %80 = tensor.empty() : tensor<32xf16>
            %81 = linalg.generic {indexing_maps = [#map, #map3, #map, #map, #map], iterator_types = ["parallel"]} ins(%69, %75, %33, %35 : tensor<32xf32>, tensor<f32>, tensor<32xf32>, tensor<32xf32>) outs(%80 : tensor<32xf16>) {
            ^bb0(%in: f32, %in_7: f32, %in_8: f32, %in_9: f32, %out: f16):
              %84 = arith.mulf %in, %in_7 : f32
              %85 = arith.mulf %84, %in_8 : f32
              %86 = arith.addf %85, %in_9 : f32
              %87 = arith.truncf %86 : f32 to f16
              linalg.yield %87 : f16
            } -> tensor<32xf16>
            ktdf.write_to_fifo %81 to %slot_2 : tensor<32xf16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
            %82 = tensor.empty() : tensor<32xf16>
            %83 = linalg.generic {indexing_maps = [#map, #map3, #map, #map, #map], iterator_types = ["parallel"]} ins(%72, %75, %39, %41 : tensor<32xf32>, tensor<f32>, tensor<32xf32>, tensor<32xf32>) outs(%82 : tensor<32xf16>) {
            ^bb0(%in: f32, %in_7: f32, %in_8: f32, %in_9: f32, %out: f16):
              %84 = arith.mulf %in, %in_7 : f32
              %85 = arith.mulf %84, %in_8 : f32
              %86 = arith.addf %85, %in_9 : f32
              %87 = arith.truncf %86 : f32 to f16
              linalg.yield %87 : f16
            } -> tensor<32xf16>
            ktdf.write_to_fifo %83 to %slot_2 : tensor<32xf16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
          }
        }
        %17 = ktdf.stage "drain" depends_in(%16) depends_out(1) applicable_units [scratchpad_store] unit "tile/VST" {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c2_4 = arith.constant 2 : index
          %c128 = arith.constant 128 : index
          %c32 = arith.constant 32 : index
          scf.for %arg5 = %c0 to %c2_4 step %c1 {
            scf.for %arg6 = %c0 to %c128 step %c32 {
              ktdf.data_transfer %slot_2 to %buf_3[%arg5, %arg6] : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16> to memref<2x128xf16, "SPM">
            }
          }
        }
        ktdf.stage "store_0" depends_in(%17) depends_out(0) applicable_units [dma_store] unit "tile/DMA" {
          ktdf.data_transfer %buf_3 to %13 : memref<2x128xf16, "SPM"> to !ktdp.access_tile<2x128xindex>
        }
      }
    }
    return
  }
}



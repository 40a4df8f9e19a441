#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4095 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#set1 = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
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
  func.func @bias_loop(%arg0: index {ktdf.tensor = tensor<4096x128xbf16>}, %arg1: index {ktdf.tensor = tensor<128xbf16>}, %arg2: index {ktdf.tensor = tensor<128xbf16>}, %arg3: index {ktdf.tensor = tensor<4096x128xbf16>}) attributes {grid = [16]} {
    ktdf.parallel (%arg4) in [16] distribute(num_instances = 16) {
      %c256 = arith.constant 256 : index
      %c1 = arith.constant 1 : index
      %c0 = arith.constant 0 : index
      %0 = arith.muli %arg4, %c256 : index
      %1 = ktdp.construct_memory_view %arg0, sizes: [4096, 128], strides: [128, 1] {coordinate_set = #set, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<4096x128xbf16>
      %2 = ktdp.construct_memory_view %arg1, sizes: [128], strides: [1] {coordinate_set = #set1, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<128xbf16>
      %3 = ktdp.construct_memory_view %arg2, sizes: [128], strides: [1] {coordinate_set = #set1, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<128xbf16>
      %4 = ktdp.construct_memory_view %arg3, sizes: [4096, 128], strides: [128, 1] {coordinate_set = #set, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<4096x128xbf16>
      %c2 = arith.constant 2 : index
      %5 = ktdp.construct_access_tile %2[0] {access_tile_order = #map, access_tile_set = #set1} : memref<128xbf16> -> !ktdp.access_tile<128xindex>
      %6 = ktdp.construct_access_tile %3[0] {access_tile_order = #map, access_tile_set = #set1} : memref<128xbf16> -> !ktdp.access_tile<128xindex>
      %7:2 = ktdf.pipeline modulo(size: 1) -> memref<128xbf16, "SPM">, memref<128xbf16, "SPM"> {
        %buf = ktdf.private export 0 : memref<128xbf16, "SPM">
        %8 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load] unit "tile/DMA" {
          ktdf.data_transfer %5 to %buf : !ktdp.access_tile<128xindex> to memref<128xbf16, "SPM">
        }
        %buf_0 = ktdf.private export 1 : memref<128xbf16, "SPM">
        %9 = ktdf.stage "load_2" depends_out(1) applicable_units [dma_load] unit "tile/DMA" {
          ktdf.data_transfer %6 to %buf_0 : !ktdp.access_tile<128xindex> to memref<128xbf16, "SPM">
        }
      }
      scf.for %arg5 = %c0 to %c256 step %c2 {
        %8 = ktdp.construct_access_tile %1[%0 + %arg5, 0] {access_tile_order = #map1, access_tile_set = #set2} : memref<4096x128xbf16> -> !ktdp.access_tile<2x128xindex>
        %9 = ktdp.construct_access_tile %2[0] {access_tile_order = #map, access_tile_set = #set1} : memref<128xbf16> -> !ktdp.access_tile<128xindex>
        %10 = ktdp.construct_access_tile %3[0] {access_tile_order = #map, access_tile_set = #set1} : memref<128xbf16> -> !ktdp.access_tile<128xindex>
        %11 = ktdp.construct_access_tile %4[%0 + %arg5, 0] {access_tile_order = #map1, access_tile_set = #set2} : memref<4096x128xbf16> -> !ktdp.access_tile<2x128xindex>
        ktdf.pipeline modulo(size: 4) {
          %buf = ktdf.private : memref<2x128xbf16, "SPM">
          %slot = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 16xbf16>
          %slot_0 = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 16xbf16>
          %slot_1 = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 16xbf16>
          %slot_2 = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 16xbf16>
          %buf_3 = ktdf.private : memref<2x128xbf16, "SPM">
          %12 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load] unit "tile/DMA" {
            ktdf.data_transfer %8 to %buf : !ktdp.access_tile<2x128xindex> to memref<2x128xbf16, "SPM">
          }
          %13 = ktdf.stage "feed" depends_in(%12) depends_out(1) applicable_units [scratchpad_load] unit "tile/VLD" {
            %c0_4 = arith.constant 0 : index
            %c1_5 = arith.constant 1 : index
            %c1_6 = arith.constant 1 : index
            %c128 = arith.constant 128 : index
            %c16 = arith.constant 16 : index
            %c2_7 = arith.constant 2 : index
            scf.for %arg6 = %c0_4 to %c2_7 step %c1_5 {
              scf.for %arg7 = %c0_4 to %c128 step %c16 {
                ktdf.data_transfer %buf[%arg6, %arg7] to %slot : memref<2x128xbf16, "SPM"> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 16xbf16>
                ktdf.data_transfer %7#0[%arg7] to %slot_0 : memref<128xbf16, "SPM"> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 16xbf16>
                ktdf.data_transfer %7#1[%arg7] to %slot_1 : memref<128xbf16, "SPM"> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 16xbf16>
              }
            }
          }
          %14 = ktdf.stage "compute" depends_in(%13) depends_out(1) applicable_units [vector_compute] unit "tile/VPU" {
            %c0_4 = arith.constant 0 : index
            %c1_5 = arith.constant 1 : index
            %c1_6 = arith.constant 1 : index
            %c128 = arith.constant 128 : index
            %c16 = arith.constant 16 : index
            %c2_7 = arith.constant 2 : index
            scf.for %arg6 = %c0_4 to %c2_7 step %c1_5 {
              scf.for %arg7 = %c0_4 to %c128 step %c16 {
                %16 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 16xbf16> -> tensor<16xbf16>
                %17 = ktdf.read_from_fifo %slot_0 : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 16xbf16> -> tensor<16xbf16>
                %18 = ktdf.read_from_fifo %slot_1 : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 16xbf16> -> tensor<16xbf16>
                %19 = tensor.empty() : tensor<16xbf16>
                %20 = linalg.generic {indexing_maps = [#map, #map, #map, #map], iterator_types = ["parallel"]} ins(%16, %17, %18 : tensor<16xbf16>, tensor<16xbf16>, tensor<16xbf16>) outs(%19 : tensor<16xbf16>) {
                ^bb0(%in: bf16, %in_8: bf16, %in_9: bf16, %out: bf16):
                  %21 = arith.extf %in_9 : bf16 to f32
                  %22 = arith.extf %in_8 : bf16 to f32
                  %23 = arith.extf %in : bf16 to f32
                  %24 = arith.mulf %23, %22 : f32
                  %25 = arith.truncf %24 : f32 to bf16
                  %26 = arith.extf %25 : bf16 to f32
                  %27 = arith.addf %26, %21 : f32
                  %28 = arith.truncf %27 : f32 to bf16
                  linalg.yield %28 : bf16
                } -> tensor<16xbf16>
                ktdf.write_to_fifo %20 to %slot_2 : tensor<16xbf16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 16xbf16>
              }
            }
          }
          %15 = ktdf.stage "drain" depends_in(%14) depends_out(1) applicable_units [scratchpad_store] unit "tile/VST" {
            %c0_4 = arith.constant 0 : index
            %c1_5 = arith.constant 1 : index
            %c1_6 = arith.constant 1 : index
            %c128 = arith.constant 128 : index
            %c16 = arith.constant 16 : index
            %c2_7 = arith.constant 2 : index
            scf.for %arg6 = %c0_4 to %c2_7 step %c1_5 {
              scf.for %arg7 = %c0_4 to %c128 step %c16 {
                ktdf.data_transfer %slot_2 to %buf_3[%arg6, %arg7] : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 16xbf16> to memref<2x128xbf16, "SPM">
              }
            }
          }
          ktdf.stage "store_0" depends_in(%15) depends_out(0) applicable_units [dma_store] unit "tile/DMA" {
            ktdf.data_transfer %buf_3 to %11 : memref<2x128xbf16, "SPM"> to !ktdp.access_tile<2x128xindex>
          }
        }
      }
    }
    return
  }
}



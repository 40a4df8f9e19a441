// RUN: ktflow-opt %s --ktdf-hoist-invariant-transfers | FileCheck %s

// repeated-load.mlir's row loop with 16 trips a lane: the partial (the
// row's sum of squares), the all-reduce and the use (the normalisation)
// are the whole body, so the row is loaded in three copies, not two:
// ktdf-to-dfir runs each lane's partial one trip ahead
// (LanePipelining.cpp) and holds rows t and t + 1 while the span of t + 2
// loads. With 2 trips (repeated-load.mlir) it keeps two.

// CHECK: scf.for %{{.*}} = %c0 to %c16
// CHECK: %[[X:.*]] = ktdf.pipeline modulo(size: 3) -> memref<1x128xf16, "SPM"> {
// CHECK: ktdf.data_transfer %[[X]][
// CHECK: ktdf.all_reduce
// CHECK: ktdf.data_transfer %[[X]][

#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0) -> ()>
#map3 = affine_map<() -> ()>
#set = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#set1 = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#set2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#set3 = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
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
  func.func @rmsnorm_tp2(%arg0: index {ktdf.tensor = tensor<4096xf16>}, %arg1: index {ktdf.tensor = tensor<256xf16>}, %arg2: index {ktdf.tensor = tensor<4096xf16>}, %arg3: f16) attributes {grid = [2, 2]} {
    ktdf.parallel (%arg4, %arg5, %arg6) in [4, 2, 2] distribute(num_instances = 16) {
      %c2048 = arith.constant 2048 : index
      %c8 = arith.constant 8 : index
      %c1 = arith.constant 1 : index
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %0 = ktdp.construct_memory_view %c128, sizes: [1], strides: [1] {coordinate_set = #set, ktdf.exchange, ktdf.memory = "SPM", memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<1xf16, #ktdp.memory_space<ct_local, ct_id = 0>>
      %1 = ktdp.construct_memory_view %c0, sizes: [1], strides: [1] {coordinate_set = #set, ktdf.exchange, ktdf.memory = "SPM", memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<1xf16, #ktdp.memory_space<ct_local, ct_id = 0>>
      %2 = ktdp.construct_access_tile %1[0] {access_tile_order = #map, access_tile_set = #set} : memref<1xf16, #ktdp.memory_space<ct_local, ct_id = 0>> -> !ktdp.access_tile<1xindex>
      %3 = arith.muli %arg5, %c128 : index
      %4 = arith.muli %arg6, %c8 : index
      %5 = arith.divui %3, %c128 : index
      %6 = arith.muli %5, %c128 : index
      %7 = arith.addi %arg1, %6 : index
      %8 = ktdp.construct_memory_view %7, sizes: [128], strides: [1] {coordinate_set = #set1, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<128xf16>
      %9 = ktdp.construct_access_tile %8[%3 - %5 * 128] {access_tile_order = #map, access_tile_set = #set1} : memref<128xf16> -> !ktdp.access_tile<128xindex>
      %c2 = arith.constant 2 : index
      %c2_0 = arith.constant 2 : index
      %10 = arith.muli %arg4, %c2_0 : index
      %c16 = arith.constant 16 : index
      scf.for %arg7 = %c0 to %c16 step %c1 {
        %11 = arith.addi %arg7, %10 : index
        %12 = arith.addi %4, %11 : index
        %13 = arith.divui %3, %c128 : index
        %14 = arith.muli %13, %c2048 : index
        %15 = arith.addi %arg0, %14 : index
        %16 = ktdp.construct_memory_view %15, sizes: [16, 128], strides: [128, 1] {coordinate_set = #set2, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
        %17 = ktdp.construct_access_tile %16[%12, %3 - %13 * 128] {access_tile_order = #map1, access_tile_set = #set3} : memref<16x128xf16> -> !ktdp.access_tile<1x128xindex>
        ktdf.pipeline modulo(size: 4) {
          %buf = ktdf.private : memref<1x128xf16, "SPM">
          %slot = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 64xf16>
          %slot_1 = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 1xf16>
          %23 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load] unit "tile/DMA" {
            ktdf.data_transfer %17 to %buf : !ktdp.access_tile<1x128xindex> to memref<1x128xf16, "SPM">
          }
          %24 = ktdf.stage "feed" depends_in(%23) depends_out(1) applicable_units [scratchpad_load] unit "tile/VLD" {
            %c0_2 = arith.constant 0 : index
            %c1_3 = arith.constant 1 : index
            %c1_4 = arith.constant 1 : index
            %c128_5 = arith.constant 128 : index
            %c64 = arith.constant 64 : index
            scf.for %arg8 = %c0_2 to %c1_4 step %c1_3 {
              scf.for %arg9 = %c0_2 to %c128_5 step %c64 {
                ktdf.data_transfer %buf[%arg8, %arg9] to %slot : memref<1x128xf16, "SPM"> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 64xf16>
              }
            }
          }
          %25 = ktdf.stage "compute" depends_in(%24) depends_out(1) applicable_units [vector_compute] unit "tile/VPU" {
            %c0_2 = arith.constant 0 : index
            %c1_3 = arith.constant 1 : index
            %c1_4 = arith.constant 1 : index
            %c128_5 = arith.constant 128 : index
            %c64 = arith.constant 64 : index
            scf.for %arg8 = %c0_2 to %c1_4 step %c1_3 {
              %cst = arith.constant dense<0.000000e+00> : tensor<f16>
              %27 = scf.for %arg9 = %c0_2 to %c128_5 step %c64 iter_args(%arg10 = %cst) -> (tensor<f16>) {
                %28 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 64xf16> -> tensor<64xf16>
                %29 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["reduction"]} ins(%28 : tensor<64xf16>) outs(%arg10 : tensor<f16>) {
                ^bb0(%in: f16, %out: f16):
                  %30 = arith.mulf %in, %in : f16
                  %31 = arith.addf %out, %30 : f16
                  linalg.yield %31 : f16
                } -> tensor<f16>
                scf.yield %29 : tensor<f16>
              }
              ktdf.write_to_fifo %27 to %slot_1 : tensor<f16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 1xf16>
            }
          }
          %26 = ktdf.stage "drain" depends_in(%25) depends_out(1) applicable_units [scratchpad_store] unit "tile/VST" {
            %c0_2 = arith.constant 0 : index
            %c1_3 = arith.constant 1 : index
            %c1_4 = arith.constant 1 : index
            %c128_5 = arith.constant 128 : index
            %c64 = arith.constant 64 : index
            scf.for %arg8 = %c0_2 to %c1_4 step %c1_3 {
              %c0_6 = arith.constant 0 : index
              ktdf.data_transfer %slot_1 to %2[%c0_6] : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 1xf16> to !ktdp.access_tile<1xindex>
            }
          }
        }
        ktdf.all_reduce %1, %0 {combiner = "arith.addf", groups = [array<i64: 0, 4>, array<i64: 8, 12>, array<i64: 1, 5>, array<i64: 9, 13>, array<i64: 2, 6>, array<i64: 10, 14>, array<i64: 3, 7>, array<i64: 11, 15>]} : memref<1xf16, #ktdp.memory_space<ct_local, ct_id = 0>>, memref<1xf16, #ktdp.memory_space<ct_local, ct_id = 0>>
        %18 = arith.divui %3, %c128 : index
        %19 = arith.muli %18, %c2048 : index
        %20 = arith.addi %arg2, %19 : index
        %21 = ktdp.construct_memory_view %20, sizes: [16, 128], strides: [128, 1] {coordinate_set = #set2, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
        %22 = ktdp.construct_access_tile %21[%12, %3 - %18 * 128] {access_tile_order = #map1, access_tile_set = #set3} : memref<16x128xf16> -> !ktdp.access_tile<1x128xindex>
        ktdf.pipeline modulo(size: 4) {
          %buf = ktdf.private : memref<128xf16, "SPM">
          %slot = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
          %slot_1 = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 1xf16>
          %buf_2 = ktdf.private : memref<1x128xf16, "SPM">
          %slot_3 = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
          %slot_4 = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
          %buf_5 = ktdf.private : memref<1x128xf16, "SPM">
          %23 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load] unit "tile/DMA" {
            ktdf.data_transfer %9 to %buf : !ktdp.access_tile<128xindex> to memref<128xf16, "SPM">
          }
          %24 = ktdf.stage "load_2" depends_out(1) applicable_units [dma_load] unit "tile/DMA" {
            ktdf.data_transfer %17 to %buf_2 : !ktdp.access_tile<1x128xindex> to memref<1x128xf16, "SPM">
          }
          %25 = ktdf.stage "feed" depends_in(%23, %24) depends_out(1) applicable_units [scratchpad_load] unit "tile/VLD" {
            %c0_6 = arith.constant 0 : index
            %c1_7 = arith.constant 1 : index
            %c1_8 = arith.constant 1 : index
            %c128_9 = arith.constant 128 : index
            %c32 = arith.constant 32 : index
            scf.for %arg8 = %c0_6 to %c1_8 step %c1_7 {
              %c0_10 = arith.constant 0 : index
              ktdf.data_transfer %2[%c0_10] to %slot_1 : !ktdp.access_tile<1xindex> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 1xf16>
              scf.for %arg9 = %c0_6 to %c128_9 step %c32 {
                ktdf.data_transfer %buf[%arg9] to %slot : memref<128xf16, "SPM"> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
                ktdf.data_transfer %buf_2[%arg8, %arg9] to %slot_3 : memref<1x128xf16, "SPM"> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
              }
            }
          }
          %26 = ktdf.stage "compute" depends_in(%25) depends_out(1) applicable_units [vector_compute] unit "tile/VPU" {
            %cst = arith.constant 2.560000e+02 : f16
            %c0_6 = arith.constant 0 : index
            %c1_7 = arith.constant 1 : index
            %c1_8 = arith.constant 1 : index
            %c128_9 = arith.constant 128 : index
            %c32 = arith.constant 32 : index
            scf.for %arg8 = %c0_6 to %c1_8 step %c1_7 {
              %28 = ktdf.read_from_fifo %slot_1 : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 1xf16> -> tensor<f16>
              %29 = tensor.empty() : tensor<f16>
              %30 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = []} ins(%28 : tensor<f16>) outs(%29 : tensor<f16>) {
              ^bb0(%in: f16, %out: f16):
                %31 = arith.divf %in, %cst : f16
                %32 = arith.addf %31, %arg3 : f16
                %33 = math.sqrt %32 : f16
                linalg.yield %33 : f16
              } -> tensor<f16>
              scf.for %arg9 = %c0_6 to %c128_9 step %c32 {
                %31 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
                %32 = ktdf.read_from_fifo %slot_3 : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
                %33 = tensor.empty() : tensor<32xf16>
                %34 = linalg.generic {indexing_maps = [#map, #map2, #map, #map], iterator_types = ["parallel"]} ins(%32, %30, %31 : tensor<32xf16>, tensor<f16>, tensor<32xf16>) outs(%33 : tensor<32xf16>) {
                ^bb0(%in: f16, %in_10: f16, %in_11: f16, %out: f16):
                  %35 = arith.divf %in, %in_10 : f16
                  %36 = arith.mulf %35, %in_11 : f16
                  linalg.yield %36 : f16
                } -> tensor<32xf16>
                ktdf.write_to_fifo %34 to %slot_4 : tensor<32xf16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
              }
            }
          }
          %27 = ktdf.stage "drain" depends_in(%26) depends_out(1) applicable_units [scratchpad_store] unit "tile/VST" {
            %c0_6 = arith.constant 0 : index
            %c1_7 = arith.constant 1 : index
            %c1_8 = arith.constant 1 : index
            %c128_9 = arith.constant 128 : index
            %c32 = arith.constant 32 : index
            scf.for %arg8 = %c0_6 to %c1_8 step %c1_7 {
              scf.for %arg9 = %c0_6 to %c128_9 step %c32 {
                ktdf.data_transfer %slot_4 to %buf_5[%arg8, %arg9] : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16> to memref<1x128xf16, "SPM">
              }
            }
          }
          ktdf.stage "store_0" depends_in(%27) depends_out(0) applicable_units [dma_store] unit "tile/DMA" {
            ktdf.data_transfer %buf_5 to %22 : memref<1x128xf16, "SPM"> to !ktdp.access_tile<1x128xindex>
          }
        }
      }
    }
    return
  }
}



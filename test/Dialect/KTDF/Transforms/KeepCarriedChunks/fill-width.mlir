// RUN: ktflow-opt %s --ktdf-keep-carried-chunks | FileCheck %s

// row-sum.mlir's input with the pipeline that fills the running sum with
// zeros in chunks of 64 (ktdf-tile-streams chooses each pipeline's width
// alone) where the summing pipeline keeps chunks of 32: the fill still
// writes the constant over every element the drain writes (its loop over
// the same 128 columns in steps of its own chunk), so the compute stage
// starts each kept chunk of 32 from the constant and the fill goes.

// CHECK: scf.for %{{.*}} step %c16
// CHECK-NOT: ktdf.write_to_fifo
// CHECK: ktdf.pipeline modulo(size: 2) -> memref<1x1152xf16, "SPM">
// CHECK: ktdf.stage "compute"
// CHECK: scf.for %{{.*}} step %c32 iter_args
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<32xf16>
// CHECK-NEXT: scf.for %{{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (tensor<32xf16>)
// CHECK-NOT: tensor<64xf16>
// CHECK: return
// Input: row-sum.mlir's, the fill pipeline edited to chunks of 64; row-sum.mlir's is the ScheduleIR ktdf-keep-carried-chunks receives, printed once by
// `ktflow-opt examples/kernels/realworld/row_center_dyn.mlir --arch examples/devices/mesh_device.mlir --ktdf-mapping --ktdf-apply-device-patterns=checkpoint=pre_scheduling --ktdf-route-transfers --ktdf-tile-streams --ktdf-distribute --ktdf-buffer --ktdf-hoist-invariant-transfers`.

#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0) -> ()>
#map3 = affine_map<() -> ()>
#set = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#set1 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#set2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#set3 = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#set4 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 1151 >= 0)>
#set5 = affine_set<(d0) : (d0 == 0)>
#set6 = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
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
  func.func @row_center_kernel(%arg0: index {ktdf.tensor = tensor<64x1024xf16>}, %arg1: index {ktdf.tensor = tensor<64x1024xf16>}, %arg2: index {ktdf.tensor = tensor<64xf16>}, %arg3: index, %arg4: index) attributes {grid = [16, 1]} {
    ktdf.parallel (%arg5, %arg6) in [16, 1] distribute(num_instances = 16) {
      %cst = arith.constant dense<0.000000e+00> : tensor<1x128xf16>
      %c1024 = arith.constant 1024 : index
      %c16 = arith.constant 16 : index
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %0 = ktdp.construct_memory_view %c128, sizes: [1], strides: [1] {coordinate_set = #set, ktdf.carried, ktdf.memory = "SPM", memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<1xf16, #ktdp.memory_space<ct_local, ct_id = 0>>
      %1 = ktdp.construct_access_tile %0[0] {access_tile_order = #map, access_tile_set = #set} : memref<1xf16, #ktdp.memory_space<ct_local, ct_id = 0>> -> !ktdp.access_tile<1xindex>
      %2 = ktdp.construct_memory_view %c0, sizes: [1, 128], strides: [128, 1] {coordinate_set = #set1, ktdf.carried, ktdf.memory = "SPM", memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<1x128xf16, #ktdp.memory_space<ct_local, ct_id = 0>>
      %3 = ktdp.construct_access_tile %2[0, 0] {access_tile_order = #map1, access_tile_set = #set1} : memref<1x128xf16, #ktdp.memory_space<ct_local, ct_id = 0>> -> !ktdp.access_tile<1x128xindex>
      %4 = arith.minsi %arg4, %c1024 : index
      %5 = arith.index_cast %arg4 : index to i32
      %6 = arith.sitofp %5 : i32 to f16
      %7 = ktdp.construct_memory_view %arg0, sizes: [64, 1024], strides: [1024, 1] {coordinate_set = #set2, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<64x1024xf16>
      %8 = ktdp.construct_memory_view %arg1, sizes: [64, 1024], strides: [1024, 1] {coordinate_set = #set2, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<64x1024xf16>
      %9 = ktdp.construct_memory_view %arg2, sizes: [64], strides: [1] {coordinate_set = #set3, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<64xf16>
      scf.for %arg7 = %arg5 to %arg3 step %c16 {
        ktdf.pipeline modulo(size: 4) {
          %slot = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 64xf16>
          %13 = ktdf.stage "feed" depends_out(1) applicable_units [scratchpad_load] unit "tile/VLD" {
            %c0_1 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_2 = arith.constant 1 : index
            %c128_3 = arith.constant 128 : index
            %c32 = arith.constant 64 : index
            scf.for %arg8 = %c0_1 to %c1_2 step %c1 {
            }
          }
          %14 = ktdf.stage "compute" depends_in(%13) depends_out(1) applicable_units [vector_compute] unit "tile/VPU" {
            %c0_1 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_2 = arith.constant 1 : index
            %c128_3 = arith.constant 128 : index
            %c32 = arith.constant 64 : index
            scf.for %arg8 = %c0_1 to %c1_2 step %c1 {
              scf.for %arg9 = %c0_1 to %c128_3 step %c32 {
                %cst_4 = arith.constant dense<0.000000e+00> : tensor<64xf16>
                ktdf.write_to_fifo %cst_4 to %slot : tensor<64xf16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 64xf16>
              }
            }
          }
          %15 = ktdf.stage "drain" depends_in(%14) depends_out(1) applicable_units [scratchpad_store] unit "tile/VST" {
            %c0_1 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_2 = arith.constant 1 : index
            %c128_3 = arith.constant 128 : index
            %c32 = arith.constant 64 : index
            scf.for %arg8 = %c0_1 to %c1_2 step %c1 {
              scf.for %arg9 = %c0_1 to %c128_3 step %c32 {
                ktdf.data_transfer %slot to %3[%arg8, %arg9] : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 64xf16> to !ktdp.access_tile<1x128xindex>
              }
            }
          }
        }
        %c0_0 = arith.constant 0 : index
        %10 = ktdp.construct_access_tile %7[%arg7, %c0_0] {access_tile_order = #map1, access_tile_set = #set4} : memref<64x1024xf16> -> !ktdp.access_tile<1x1152xindex>
        %11 = ktdf.pipeline modulo(size: 2) -> memref<1x1152xf16, "SPM"> {
          %buf = ktdf.private export 0 : memref<1x1152xf16, "SPM">
          %13 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load] unit "tile/DMA" {
            ktdf.data_transfer %10 to %buf : !ktdp.access_tile<1x1152xindex> to memref<1x1152xf16, "SPM">
          }
        }
        scf.for %arg8 = %c0 to %4 step %c128 {
          %c1024_1 = arith.constant 1024 : index
          %13 = arith.cmpi ult, %arg8, %c1024_1 : index
          %14 = arith.select %13, %arg8, %c1024_1 : index
          ktdf.pipeline modulo(size: 4) {
            %slot = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
            %slot_2 = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
            %slot_3 = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
            %15 = ktdf.stage "feed" depends_out(1) applicable_units [scratchpad_load] unit "tile/VLD" {
              %c0_4 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_5 = arith.constant 1 : index
              %c128_6 = arith.constant 128 : index
              %c32 = arith.constant 32 : index
              scf.for %arg9 = %c0_4 to %c1_5 step %c1 {
                scf.for %arg10 = %c0_4 to %c128_6 step %c32 {
                  ktdf.data_transfer %3[%arg9, %arg10] to %slot : !ktdp.access_tile<1x128xindex> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
                  %18 = arith.addi %arg10, %14 : index
                  ktdf.data_transfer %11[%arg9, %18] to %slot_2 : memref<1x1152xf16, "SPM"> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
                }
              }
            }
            %16 = ktdf.stage "compute" depends_in(%15) depends_out(1) applicable_units [vector_compute] unit "tile/VPU" {
              %c0_4 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_5 = arith.constant 1 : index
              %c128_6 = arith.constant 128 : index
              %c32 = arith.constant 32 : index
              scf.for %arg9 = %c0_4 to %c1_5 step %c1 {
                scf.for %arg10 = %c0_4 to %c128_6 step %c32 {
                  %18 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
                  %19 = ktdf.read_from_fifo %slot_2 : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
                  %20 = tensor.empty() : tensor<32xf16>
                  %21 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%18, %19 : tensor<32xf16>, tensor<32xf16>) outs(%20 : tensor<32xf16>) {
                  ^bb0(%in: f16, %in_7: f16, %out: f16):
                    %22 = arith.addf %in, %in_7 : f16
                    linalg.yield %22 : f16
                  } -> tensor<32xf16>
                  ktdf.write_to_fifo %21 to %slot_3 : tensor<32xf16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
                }
              }
            }
            %17 = ktdf.stage "drain" depends_in(%16) depends_out(1) applicable_units [scratchpad_store] unit "tile/VST" {
              %c0_4 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_5 = arith.constant 1 : index
              %c128_6 = arith.constant 128 : index
              %c32 = arith.constant 32 : index
              scf.for %arg9 = %c0_4 to %c1_5 step %c1 {
                scf.for %arg10 = %c0_4 to %c128_6 step %c32 {
                  ktdf.data_transfer %slot_3 to %3[%arg9, %arg10] : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16> to !ktdp.access_tile<1x128xindex>
                }
              }
            }
          }
        }
        ktdf.pipeline modulo(size: 4) {
          %slot = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 64xf16>
          %slot_1 = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 1xf16>
          %13 = ktdf.stage "feed" depends_out(1) applicable_units [scratchpad_load] unit "tile/VLD" {
            %c0_2 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_3 = arith.constant 1 : index
            %c128_4 = arith.constant 128 : index
            %c64 = arith.constant 64 : index
            scf.for %arg8 = %c0_2 to %c1_3 step %c1 {
              scf.for %arg9 = %c0_2 to %c128_4 step %c64 {
                ktdf.data_transfer %3[%arg8, %arg9] to %slot : !ktdp.access_tile<1x128xindex> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 64xf16>
              }
            }
          }
          %14 = ktdf.stage "compute" depends_in(%13) depends_out(1) applicable_units [vector_compute] unit "tile/VPU" {
            %c0_2 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_3 = arith.constant 1 : index
            %c128_4 = arith.constant 128 : index
            %c64 = arith.constant 64 : index
            scf.for %arg8 = %c0_2 to %c1_3 step %c1 {
              %cst_5 = arith.constant dense<0.000000e+00> : tensor<f16>
              %16 = scf.for %arg9 = %c0_2 to %c128_4 step %c64 iter_args(%arg10 = %cst_5) -> (tensor<f16>) {
                %21 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 64xf16> -> tensor<64xf16>
                %22 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["reduction"]} ins(%21 : tensor<64xf16>) outs(%arg10 : tensor<f16>) {
                ^bb0(%in: f16, %out: f16):
                  %23 = arith.addf %in, %out : f16
                  linalg.yield %23 : f16
                } -> tensor<f16>
                scf.yield %22 : tensor<f16>
              }
              %17 = tensor.empty() : tensor<f16>
              %18 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = []} ins(%16 : tensor<f16>) outs(%17 : tensor<f16>) {
              ^bb0(%in: f16, %out: f16):
                %21 = arith.divf %in, %6 : f16
                linalg.yield %21 : f16
              } -> tensor<f16>
              %19 = tensor.empty() : tensor<f16>
              %20 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = []} ins(%18 : tensor<f16>) outs(%19 : tensor<f16>) {
              ^bb0(%in: f16, %out: f16):
                linalg.yield %in : f16
              } -> tensor<f16>
              ktdf.write_to_fifo %20 to %slot_1 : tensor<f16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 1xf16>
            }
          }
          %15 = ktdf.stage "drain" depends_in(%14) depends_out(1) applicable_units [scratchpad_store] unit "tile/VST" {
            %c0_2 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_3 = arith.constant 1 : index
            %c128_4 = arith.constant 128 : index
            %c64 = arith.constant 64 : index
            scf.for %arg8 = %c0_2 to %c1_3 step %c1 {
              %c0_5 = arith.constant 0 : index
              ktdf.data_transfer %slot_1 to %1[%c0_5] : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 1xf16> to !ktdp.access_tile<1xindex>
            }
          }
        }
        %12 = ktdp.construct_access_tile %9[%arg7] {access_tile_order = #map, access_tile_set = #set5} : memref<64xf16> -> !ktdp.access_tile<1xindex>
        ktdf.pipeline modulo(size: 4) {
          %slot = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 1xf16>
          %slot_1 = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 1xf16>
          %buf = ktdf.private : memref<1xf16, "SPM">
          %13 = ktdf.stage "feed" depends_out(1) applicable_units [scratchpad_load] unit "tile/VLD" {
            %c0_2 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_3 = arith.constant 1 : index
            %c1_4 = arith.constant 1 : index
            %c1_5 = arith.constant 1 : index
            scf.for %arg8 = %c0_2 to %c1_3 step %c1 {
              scf.for %arg9 = %c0_2 to %c1_4 step %c1_5 {
                ktdf.data_transfer %1[%arg9] to %slot : !ktdp.access_tile<1xindex> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 1xf16>
              }
            }
          }
          %14 = ktdf.stage "compute" depends_in(%13) depends_out(1) applicable_units [vector_compute] unit "tile/VPU" {
            %c0_2 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_3 = arith.constant 1 : index
            %c1_4 = arith.constant 1 : index
            %c1_5 = arith.constant 1 : index
            scf.for %arg8 = %c0_2 to %c1_3 step %c1 {
              scf.for %arg9 = %c0_2 to %c1_4 step %c1_5 {
                %16 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 1xf16> -> tensor<1xf16>
                ktdf.write_to_fifo %16 to %slot_1 : tensor<1xf16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 1xf16>
              }
            }
          }
          %15 = ktdf.stage "drain" depends_in(%14) depends_out(1) applicable_units [scratchpad_store] unit "tile/VST" {
            %c0_2 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_3 = arith.constant 1 : index
            %c1_4 = arith.constant 1 : index
            %c1_5 = arith.constant 1 : index
            scf.for %arg8 = %c0_2 to %c1_3 step %c1 {
              scf.for %arg9 = %c0_2 to %c1_4 step %c1_5 {
                ktdf.data_transfer %slot_1 to %buf[%arg9] : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 1xf16> to memref<1xf16, "SPM">
              }
            }
          }
          ktdf.stage "store_0" depends_in(%15) depends_out(0) applicable_units [dma_store] unit "tile/DMA" {
            ktdf.data_transfer %buf to %12 : memref<1xf16, "SPM"> to !ktdp.access_tile<1xindex>
          }
        }
        scf.for %arg8 = %c0 to %4 step %c128 {
          %13 = ktdp.construct_access_tile %8[%arg7, %arg8] {access_tile_order = #map1, access_tile_set = #set6} : memref<64x1024xf16> -> !ktdp.access_tile<1x128xindex>
          %c1024_1 = arith.constant 1024 : index
          %14 = arith.cmpi ult, %arg8, %c1024_1 : index
          %15 = arith.select %14, %arg8, %c1024_1 : index
          ktdf.pipeline modulo(size: 4) {
            %slot = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 1xf16>
            %slot_2 = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
            %slot_3 = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
            %buf = ktdf.private : memref<1x128xf16, "SPM">
            %16 = ktdf.stage "feed" depends_out(1) applicable_units [scratchpad_load] unit "tile/VLD" {
              %c0_4 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_5 = arith.constant 1 : index
              %c128_6 = arith.constant 128 : index
              %c32 = arith.constant 32 : index
              scf.for %arg9 = %c0_4 to %c1_5 step %c1 {
                %c0_7 = arith.constant 0 : index
                ktdf.data_transfer %1[%c0_7] to %slot : !ktdp.access_tile<1xindex> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 1xf16>
                scf.for %arg10 = %c0_4 to %c128_6 step %c32 {
                  %19 = arith.addi %arg10, %15 : index
                  ktdf.data_transfer %11[%arg9, %19] to %slot_2 : memref<1x1152xf16, "SPM"> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
                }
              }
            }
            %17 = ktdf.stage "compute" depends_in(%16) depends_out(1) applicable_units [vector_compute] unit "tile/VPU" {
              %c0_4 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_5 = arith.constant 1 : index
              %c128_6 = arith.constant 128 : index
              %c32 = arith.constant 32 : index
              scf.for %arg9 = %c0_4 to %c1_5 step %c1 {
                %19 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 1xf16> -> tensor<f16>
                scf.for %arg10 = %c0_4 to %c128_6 step %c32 {
                  %20 = ktdf.read_from_fifo %slot_2 : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
                  %21 = tensor.empty() : tensor<32xf16>
                  %22 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel"]} ins(%20, %19 : tensor<32xf16>, tensor<f16>) outs(%21 : tensor<32xf16>) {
                  ^bb0(%in: f16, %in_7: f16, %out: f16):
                    %23 = arith.subf %in, %in_7 : f16
                    linalg.yield %23 : f16
                  } -> tensor<32xf16>
                  ktdf.write_to_fifo %22 to %slot_3 : tensor<32xf16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
                }
              }
            }
            %18 = ktdf.stage "drain" depends_in(%17) depends_out(1) applicable_units [scratchpad_store] unit "tile/VST" {
              %c0_4 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_5 = arith.constant 1 : index
              %c128_6 = arith.constant 128 : index
              %c32 = arith.constant 32 : index
              scf.for %arg9 = %c0_4 to %c1_5 step %c1 {
                scf.for %arg10 = %c0_4 to %c128_6 step %c32 {
                  ktdf.data_transfer %slot_3 to %buf[%arg9, %arg10] : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16> to memref<1x128xf16, "SPM">
                }
              }
            }
            ktdf.stage "store_0" depends_in(%18) depends_out(0) applicable_units [dma_store] unit "tile/DMA" {
              ktdf.data_transfer %buf to %13 : memref<1x128xf16, "SPM"> to !ktdp.access_tile<1x128xindex>
            }
          }
        }
      }
    }
    return
  }
}


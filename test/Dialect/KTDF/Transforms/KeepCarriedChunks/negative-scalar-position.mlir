// RUN: ktflow-opt %s --ktdf-keep-carried-chunks | FileCheck %s

// row_sum_scalar on mesh_device (scalar-sum.mlir is the sample_device
// schedule) with the drain computing the sum's position
// (`%arg8 * 0`, a value of the row loop) instead of naming the constant
// 0 the feed reads: a carried scalar is kept only where its read and its
// write name the same constant (or the same chunk loop's variables), and
// a drain's chunk loop holds nothing but the carried writes and such
// constants. The block loop stays around its pipeline; the sum goes
// through the scratchpad each trip.

// CHECK: scf.for %[[OFF:.*]] = %{{.*}} to %arg3 step %{{.*}} {
// CHECK: ktdf.pipeline modulo(size: 4) {
// CHECK: ktdf.stage "drain"
// CHECK: %[[POS:.*]] = arith.muli
// CHECK-NEXT: ktdf.data_transfer %{{.*}} to %{{.*}}[%[[POS]]]
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0) -> ()>
#map3 = affine_map<() -> ()>
#set = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#set1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#set2 = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#set3 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 639 >= 0)>
#set4 = affine_set<(d0) : (d0 == 0)>
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
  func.func @row_sum_scalar(%arg0: index {ktdf.tensor = tensor<64x512xf16>}, %arg1: index {ktdf.tensor = tensor<64xf32>}, %arg2: index, %arg3: index) attributes {grid = [16, 1]} {
    ktdf.parallel (%arg4, %arg5) in [16, 1] distribute(num_instances = 16) {
      %cst = arith.constant dense<0.000000e+00> : tensor<1xf32>
      %c128 = arith.constant 128 : index
      %c16 = arith.constant 16 : index
      %c0 = arith.constant 0 : index
      %0 = ktdp.construct_memory_view %c0, sizes: [1], strides: [1] {coordinate_set = #set, ktdf.carried, ktdf.memory = "SPM", memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<1xf32, #ktdp.memory_space<ct_local, ct_id = 0>>
      %1 = ktdp.construct_access_tile %0[0] {access_tile_order = #map, access_tile_set = #set} : memref<1xf32, #ktdp.memory_space<ct_local, ct_id = 0>> -> !ktdp.access_tile<1xindex>
      %2 = ktdp.construct_memory_view %arg0, sizes: [64, 512], strides: [512, 1] {coordinate_set = #set1, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
      %3 = ktdp.construct_memory_view %arg1, sizes: [64], strides: [1] {coordinate_set = #set2, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<64xf32>
      scf.for %arg6 = %arg4 to %arg2 step %c16 {
        ktdf.pipeline modulo(size: 4) {
          %slot = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 1xf32>
          %7 = ktdf.stage "feed" depends_out(1) applicable_units [scratchpad_load] unit "tile/VLD" {
            %c0_1 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_2 = arith.constant 1 : index
            %c1_3 = arith.constant 1 : index
            %c1_4 = arith.constant 1 : index
            scf.for %arg7 = %c0_1 to %c1_2 step %c1 {
            }
          }
          %8 = ktdf.stage "compute" depends_in(%7) depends_out(1) applicable_units [vector_compute] unit "tile/VPU" {
            %c0_1 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_2 = arith.constant 1 : index
            %c1_3 = arith.constant 1 : index
            %c1_4 = arith.constant 1 : index
            scf.for %arg7 = %c0_1 to %c1_2 step %c1 {
              scf.for %arg8 = %c0_1 to %c1_3 step %c1_4 {
                %cst_5 = arith.constant dense<0.000000e+00> : tensor<1xf32>
                ktdf.write_to_fifo %cst_5 to %slot : tensor<1xf32> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 1xf32>
              }
            }
          }
          %9 = ktdf.stage "drain" depends_in(%8) depends_out(1) applicable_units [scratchpad_store] unit "tile/VST" {
            %c0_1 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_2 = arith.constant 1 : index
            %c1_3 = arith.constant 1 : index
            %c1_4 = arith.constant 1 : index
            scf.for %arg7 = %c0_1 to %c1_2 step %c1 {
              scf.for %arg8 = %c0_1 to %c1_3 step %c1_4 {
                ktdf.data_transfer %slot to %1[%arg8] : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 1xf32> to !ktdp.access_tile<1xindex>
              }
            }
          }
        }
        %c0_0 = arith.constant 0 : index
        %4 = ktdp.construct_access_tile %2[%arg6, %c0_0] {access_tile_order = #map1, access_tile_set = #set3} : memref<64x512xf16> -> !ktdp.access_tile<1x640xindex>
        %5 = ktdf.pipeline modulo(size: 2) -> memref<1x640xf16, "SPM"> {
          %buf = ktdf.private export 0 : memref<1x640xf16, "SPM">
          %7 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load] unit "tile/DMA" {
            ktdf.data_transfer %4 to %buf : !ktdp.access_tile<1x640xindex> to memref<1x640xf16, "SPM">
          }
        }
        scf.for %arg7 = %c0 to %arg3 step %c128 {
          %c512 = arith.constant 512 : index
          %7 = arith.cmpi ult, %arg7, %c512 : index
          %8 = arith.select %7, %arg7, %c512 : index
          ktdf.pipeline modulo(size: 4) {
            %slot = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 1xf32>
            %slot_1 = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
            %slot_2 = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 1xf32>
            %9 = ktdf.stage "feed" depends_out(1) applicable_units [scratchpad_load] unit "tile/VLD" {
              %c0_3 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_4 = arith.constant 1 : index
              %c128_5 = arith.constant 128 : index
              %c32 = arith.constant 32 : index
              scf.for %arg8 = %c0_3 to %c1_4 step %c1 {
                %c0_6 = arith.constant 0 : index
                ktdf.data_transfer %1[%c0_6] to %slot : !ktdp.access_tile<1xindex> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 1xf32>
                scf.for %arg9 = %c0_3 to %c128_5 step %c32 {
                  %12 = arith.addi %arg9, %8 : index
                  ktdf.data_transfer %5[%arg8, %12] to %slot_1 : memref<1x640xf16, "SPM"> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
                }
              }
            }
            %10 = ktdf.stage "compute" depends_in(%9) depends_out(1) applicable_units [vector_compute] unit "tile/VPU" {
              %c0_3 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_4 = arith.constant 1 : index
              %c128_5 = arith.constant 128 : index
              %c32 = arith.constant 32 : index
              scf.for %arg8 = %c0_3 to %c1_4 step %c1 {
                %12 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 1xf32> -> tensor<f32>
                %cst_6 = arith.constant dense<0.000000e+00> : tensor<f32>
                %13 = scf.for %arg9 = %c0_3 to %c128_5 step %c32 iter_args(%arg10 = %cst_6) -> (tensor<f32>) {
                  %18 = ktdf.read_from_fifo %slot_1 : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
                  %19 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["reduction"]} ins(%18 : tensor<32xf16>) outs(%arg10 : tensor<f32>) {
                  ^bb0(%in: f16, %out: f32):
                    %20 = arith.extf %in : f16 to f32
                    %21 = arith.addf %20, %out : f32
                    linalg.yield %21 : f32
                  } -> tensor<f32>
                  scf.yield %19 : tensor<f32>
                }
                %14 = tensor.empty() : tensor<f32>
                %15 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = []} ins(%12, %13 : tensor<f32>, tensor<f32>) outs(%14 : tensor<f32>) {
                ^bb0(%in: f32, %in_7: f32, %out: f32):
                  %18 = arith.addf %in, %in_7 : f32
                  linalg.yield %18 : f32
                } -> tensor<f32>
                %16 = tensor.empty() : tensor<f32>
                %17 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = []} ins(%15 : tensor<f32>) outs(%16 : tensor<f32>) {
                ^bb0(%in: f32, %out: f32):
                  linalg.yield %in : f32
                } -> tensor<f32>
                ktdf.write_to_fifo %17 to %slot_2 : tensor<f32> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 1xf32>
              }
            }
            %11 = ktdf.stage "drain" depends_in(%10) depends_out(1) applicable_units [scratchpad_store] unit "tile/VST" {
              %c0_3 = arith.constant 0 : index
              %c1 = arith.constant 1 : index
              %c1_4 = arith.constant 1 : index
              %c128_5 = arith.constant 128 : index
              %c32 = arith.constant 32 : index
              scf.for %arg8 = %c0_3 to %c1_4 step %c1 {
                %c0_6 = arith.muli %arg8, %c0_3 : index
                ktdf.data_transfer %slot_2 to %1[%c0_6] : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 1xf32> to !ktdp.access_tile<1xindex>
              }
            }
          }
        }
        %6 = ktdp.construct_access_tile %3[%arg6] {access_tile_order = #map, access_tile_set = #set4} : memref<64xf32> -> !ktdp.access_tile<1xindex>
        ktdf.pipeline modulo(size: 4) {
          %slot = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 1xf32>
          %slot_1 = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 1xf32>
          %buf = ktdf.private : memref<1xf32, "SPM">
          %7 = ktdf.stage "feed" depends_out(1) applicable_units [scratchpad_load] unit "tile/VLD" {
            %c0_2 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_3 = arith.constant 1 : index
            %c1_4 = arith.constant 1 : index
            %c1_5 = arith.constant 1 : index
            scf.for %arg7 = %c0_2 to %c1_3 step %c1 {
              scf.for %arg8 = %c0_2 to %c1_4 step %c1_5 {
                ktdf.data_transfer %1[%arg8] to %slot : !ktdp.access_tile<1xindex> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 1xf32>
              }
            }
          }
          %8 = ktdf.stage "compute" depends_in(%7) depends_out(1) applicable_units [vector_compute] unit "tile/VPU" {
            %c0_2 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_3 = arith.constant 1 : index
            %c1_4 = arith.constant 1 : index
            %c1_5 = arith.constant 1 : index
            scf.for %arg7 = %c0_2 to %c1_3 step %c1 {
              scf.for %arg8 = %c0_2 to %c1_4 step %c1_5 {
                %10 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 1xf32> -> tensor<1xf32>
                ktdf.write_to_fifo %10 to %slot_1 : tensor<1xf32> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 1xf32>
              }
            }
          }
          %9 = ktdf.stage "drain" depends_in(%8) depends_out(1) applicable_units [scratchpad_store] unit "tile/VST" {
            %c0_2 = arith.constant 0 : index
            %c1 = arith.constant 1 : index
            %c1_3 = arith.constant 1 : index
            %c1_4 = arith.constant 1 : index
            %c1_5 = arith.constant 1 : index
            scf.for %arg7 = %c0_2 to %c1_3 step %c1 {
              scf.for %arg8 = %c0_2 to %c1_4 step %c1_5 {
                ktdf.data_transfer %slot_1 to %buf[%arg8] : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 1xf32> to memref<1xf32, "SPM">
              }
            }
          }
          ktdf.stage "store_0" depends_in(%9) depends_out(0) applicable_units [dma_store] unit "tile/DMA" {
            ktdf.data_transfer %buf to %6 : memref<1xf32, "SPM"> to !ktdp.access_tile<1xindex>
          }
        }
      }
    }
    return
  }
}



// RUN: ktflow-opt %s --ktdf-coarsen | FileCheck %s

// The shipped RoPE on mesh_device: 32 grid points of 4x32 f16 tiles (X1,
// X2, COS, SIN in, two halves out) on 16 instances, two points a lane. Its
// one DMA engine per core loads and stores, so ktdf-to-dfir skews the
// lane's two points (the second's loads before the first's stores). The
// 16 engines start together and share the HBM's 512 B/cycle: 32 each, half
// the route's 64. At that share, the fill (four 512 B loads: 64 + 82
// cycles) and drain of one merged 8-row execution cost more than the skew
// of two 4-row points saves by merging: the grid stays [32] (F = 1; 416
// simulated cycles against 463 at F = 2).

// CHECK: ktdf.parallel (%{{.*}}) in [32] distribute(num_instances = 16)
// CHECK: ktdf.data_transfer {{.*}} : !ktdp.access_tile<4x32xindex> to memref<4x32xf16, "SPM">
// CHECK-NOT: access_tile<8x32xindex>

// Input: the ScheduleIR ktdf-coarsen receives, printed once by
// `ktflow-opt examples/kernels/rope.mlir --arch examples/devices/mesh_device.mlir --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams --ktdf-spread-iterations --ktdf-distribute`.

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0) -> (d0)>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#set1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#set2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
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
  func.func @rope() attributes {grid = [32], ktdf.literal_tensors = {"0" = tensor<128x64xf16>, "12288" = tensor<128x32xf16>, "16384" = tensor<128x64xf16>, "8192" = tensor<128x32xf16>}} {
    ktdf.parallel (%arg0) in [32] distribute(num_instances = 16) {
      %c16384 = arith.constant 16384 : index
      %c12288 = arith.constant 12288 : index
      %c8192 = arith.constant 8192 : index
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %0 = arith.muli %arg0, %c4 : index
      %1 = ktdp.construct_memory_view %c0, sizes: [128, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "HBM", memory_space = #ktdp.spyre_memory_space<HBM>} : memref<128x64xf16>
      %2 = ktdp.construct_memory_view %c8192, sizes: [128, 32], strides: [32, 1] {coordinate_set = #set1, ktdf.memory = "HBM", memory_space = #ktdp.spyre_memory_space<HBM>} : memref<128x32xf16>
      %3 = ktdp.construct_memory_view %c12288, sizes: [128, 32], strides: [32, 1] {coordinate_set = #set1, ktdf.memory = "HBM", memory_space = #ktdp.spyre_memory_space<HBM>} : memref<128x32xf16>
      %4 = ktdp.construct_memory_view %c16384, sizes: [128, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "HBM", memory_space = #ktdp.spyre_memory_space<HBM>} : memref<128x64xf16>
      %5 = ktdp.construct_access_tile %1[%0, 0] {access_tile_order = #map, access_tile_set = #set2} : memref<128x64xf16> -> !ktdp.access_tile<4x32xindex>
      %6 = ktdp.construct_access_tile %1[%0, 32] {access_tile_order = #map, access_tile_set = #set2} : memref<128x64xf16> -> !ktdp.access_tile<4x32xindex>
      %7 = ktdp.construct_access_tile %2[%0, 0] {access_tile_order = #map, access_tile_set = #set2} : memref<128x32xf16> -> !ktdp.access_tile<4x32xindex>
      %8 = ktdp.construct_access_tile %3[%0, 0] {access_tile_order = #map, access_tile_set = #set2} : memref<128x32xf16> -> !ktdp.access_tile<4x32xindex>
      %9 = ktdp.construct_access_tile %4[%0, 0] {access_tile_order = #map, access_tile_set = #set2} : memref<128x64xf16> -> !ktdp.access_tile<4x32xindex>
      %10 = ktdp.construct_access_tile %4[%0, 32] {access_tile_order = #map, access_tile_set = #set2} : memref<128x64xf16> -> !ktdp.access_tile<4x32xindex>
      ktdf.pipeline {
        %buf = ktdf.private : memref<4x32xf16, "SPM">
        %slot = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
        %buf_0 = ktdf.private : memref<4x32xf16, "SPM">
        %slot_1 = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
        %buf_2 = ktdf.private : memref<4x32xf16, "SPM">
        %slot_3 = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
        %buf_4 = ktdf.private : memref<4x32xf16, "SPM">
        %slot_5 = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
        %slot_6 = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
        %buf_7 = ktdf.private : memref<4x32xf16, "SPM">
        %slot_8 = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
        %buf_9 = ktdf.private : memref<4x32xf16, "SPM">
        %11 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load] unit "tile/DMA" {
          ktdf.data_transfer %5 to %buf : !ktdp.access_tile<4x32xindex> to memref<4x32xf16, "SPM">
        }
        %12 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load] unit "tile/DMA" {
          ktdf.data_transfer %6 to %buf_0 : !ktdp.access_tile<4x32xindex> to memref<4x32xf16, "SPM">
        }
        %13 = ktdf.stage "load_2" depends_out(1) applicable_units [dma_load] unit "tile/DMA" {
          ktdf.data_transfer %7 to %buf_2 : !ktdp.access_tile<4x32xindex> to memref<4x32xf16, "SPM">
        }
        %14 = ktdf.stage "load_3" depends_out(1) applicable_units [dma_load] unit "tile/DMA" {
          ktdf.data_transfer %8 to %buf_4 : !ktdp.access_tile<4x32xindex> to memref<4x32xf16, "SPM">
        }
        %15 = ktdf.stage "feed" depends_in(%11, %12, %13, %14) depends_out(1) applicable_units [scratchpad_load] unit "tile/VLD" {
          %c0_10 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c4_11 = arith.constant 4 : index
          %c32 = arith.constant 32 : index
          %c32_12 = arith.constant 32 : index
          scf.for %arg1 = %c0_10 to %c4_11 step %c1 {
            scf.for %arg2 = %c0_10 to %c32 step %c32_12 {
              ktdf.data_transfer %buf[%arg1, %arg2] to %slot : memref<4x32xf16, "SPM"> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
              ktdf.data_transfer %buf_0[%arg1, %arg2] to %slot_1 : memref<4x32xf16, "SPM"> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
              ktdf.data_transfer %buf_2[%arg1, %arg2] to %slot_3 : memref<4x32xf16, "SPM"> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
              ktdf.data_transfer %buf_4[%arg1, %arg2] to %slot_5 : memref<4x32xf16, "SPM"> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16>
            }
          }
        }
        %16 = ktdf.stage "compute" depends_in(%15) depends_out(1) applicable_units [vector_compute] unit "tile/VPU" {
          %c0_10 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c4_11 = arith.constant 4 : index
          %c32 = arith.constant 32 : index
          %c32_12 = arith.constant 32 : index
          scf.for %arg1 = %c0_10 to %c4_11 step %c1 {
            scf.for %arg2 = %c0_10 to %c32 step %c32_12 {
              %18 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
              %19 = ktdf.read_from_fifo %slot_1 : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
              %20 = ktdf.read_from_fifo %slot_3 : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
              %21 = ktdf.read_from_fifo %slot_5 : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 32xf16> -> tensor<32xf16>
              %22 = tensor.empty() : tensor<32xf32>
              %23 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%18 : tensor<32xf16>) outs(%22 : tensor<32xf32>) {
              ^bb0(%in: f16, %out: f32):
                %34 = arith.extf %in : f16 to f32
                linalg.yield %34 : f32
              } -> tensor<32xf32>
              %24 = tensor.empty() : tensor<32xf32>
              %25 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%19 : tensor<32xf16>) outs(%24 : tensor<32xf32>) {
              ^bb0(%in: f16, %out: f32):
                %34 = arith.extf %in : f16 to f32
                linalg.yield %34 : f32
              } -> tensor<32xf32>
              %26 = tensor.empty() : tensor<32xf32>
              %27 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%20 : tensor<32xf16>) outs(%26 : tensor<32xf32>) {
              ^bb0(%in: f16, %out: f32):
                %34 = arith.extf %in : f16 to f32
                linalg.yield %34 : f32
              } -> tensor<32xf32>
              %28 = tensor.empty() : tensor<32xf32>
              %29 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%21 : tensor<32xf16>) outs(%28 : tensor<32xf32>) {
              ^bb0(%in: f16, %out: f32):
                %34 = arith.extf %in : f16 to f32
                linalg.yield %34 : f32
              } -> tensor<32xf32>
              %30 = tensor.empty() : tensor<32xf16>
              %31 = linalg.generic {indexing_maps = [#map1, #map1, #map1, #map1, #map1], iterator_types = ["parallel"]} ins(%23, %27, %25, %29 : tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>) outs(%30 : tensor<32xf16>) {
              ^bb0(%in: f32, %in_13: f32, %in_14: f32, %in_15: f32, %out: f16):
                %34 = arith.mulf %in, %in_13 : f32
                %35 = arith.mulf %in_14, %in_15 : f32
                %36 = arith.subf %34, %35 : f32
                %37 = arith.truncf %36 : f32 to f16
                linalg.yield %37 : f16
              } -> tensor<32xf16>
              %32 = tensor.empty() : tensor<32xf16>
              %33 = linalg.generic {indexing_maps = [#map1, #map1, #map1, #map1, #map1], iterator_types = ["parallel"]} ins(%25, %27, %23, %29 : tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>) outs(%32 : tensor<32xf16>) {
              ^bb0(%in: f32, %in_13: f32, %in_14: f32, %in_15: f32, %out: f16):
                %34 = arith.mulf %in, %in_13 : f32
                %35 = arith.mulf %in_14, %in_15 : f32
                %36 = arith.addf %34, %35 : f32
                %37 = arith.truncf %36 : f32 to f16
                linalg.yield %37 : f16
              } -> tensor<32xf16>
              ktdf.write_to_fifo %31 to %slot_6 : tensor<32xf16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
              ktdf.write_to_fifo %33 to %slot_8 : tensor<32xf16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
            }
          }
        }
        %17 = ktdf.stage "drain" depends_in(%16) depends_out(1) applicable_units [scratchpad_store] unit "tile/VST" {
          %c0_10 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c4_11 = arith.constant 4 : index
          %c32 = arith.constant 32 : index
          %c32_12 = arith.constant 32 : index
          scf.for %arg1 = %c0_10 to %c4_11 step %c1 {
            scf.for %arg2 = %c0_10 to %c32 step %c32_12 {
              ktdf.data_transfer %slot_6 to %buf_7[%arg1, %arg2] : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16> to memref<4x32xf16, "SPM">
              ktdf.data_transfer %slot_8 to %buf_9[%arg1, %arg2] : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16> to memref<4x32xf16, "SPM">
            }
          }
        }
        ktdf.stage "store_0" depends_in(%17) depends_out(0) applicable_units [dma_store] unit "tile/DMA" {
          ktdf.data_transfer %buf_7 to %9 : memref<4x32xf16, "SPM"> to !ktdp.access_tile<4x32xindex>
        }
        ktdf.stage "store_1" depends_in(%17) depends_out(0) applicable_units [dma_store] unit "tile/DMA" {
          ktdf.data_transfer %buf_9 to %10 : memref<4x32xf16, "SPM"> to !ktdp.access_tile<4x32xindex>
        }
      }
    }
    return
  }
}


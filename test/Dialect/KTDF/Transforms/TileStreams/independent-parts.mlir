// RUN: ktflow-opt %s --ktdf-tile-streams | FileCheck %s

// A pass whose reads feed computations that share nothing is split into
// one chunk loop per computation, in the order of their first reads: the
// realworld RMSNorm's row of two 1x128 blocks (mesh_device, chunks of 32)
// sums the squares of block 0, then of block 1 (each its own accumulator),
// computes the row's rstd after both, then normalises block 0 (x0, w0) and
// block 1 (x1, w1). The feed and the drain move the blocks in that order,
// so the feed can start on block 0 before block 1 is loaded and the drain
// hands block 0 on before block 1 is computed (ktdf-to-dfir,
// BlockHandOvers.cpp). Before, each pass was one loop reading chunk c of
// both blocks.

// CHECK: ktdf.stage "feed"
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: scf.for %[[C0:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: ktdf.data_transfer %[[X0:buf]][%[[R]], %[[C0]]] to %[[S0:slot]] :
// CHECK-NEXT: }
// CHECK-NEXT: scf.for %[[C1:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: ktdf.data_transfer %[[X1:buf_0]][%[[R]], %[[C1]]] to %[[S1:slot_1]] :
// CHECK-NEXT: }
// CHECK-NEXT: scf.for %[[C2:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: ktdf.data_transfer %[[X0]][%[[R]], %[[C2]]] to %[[S0]] :
// CHECK-NEXT: ktdf.data_transfer %buf_2[%[[C2]]] to %slot_3 :
// CHECK-NEXT: }
// CHECK-NEXT: scf.for %[[C3:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: ktdf.data_transfer %[[X1]][%[[R]], %[[C3]]] to %[[S1]] :
// CHECK-NEXT: ktdf.data_transfer %buf_4[%[[C3]]] to %slot_5 :
// CHECK-NEXT: }

// CHECK: ktdf.stage "compute"
// CHECK: %[[SQ0:.*]] = scf.for {{.*}} -> (tensor<f32>) {
// CHECK-NEXT: ktdf.read_from_fifo %[[S0]] : {{.*}} -> tensor<32xf16>
// CHECK-NOT: read_from_fifo
// CHECK: scf.yield
// CHECK: %[[SQ1:.*]] = scf.for {{.*}} -> (tensor<f32>) {
// CHECK-NEXT: ktdf.read_from_fifo %[[S1]] : {{.*}} -> tensor<32xf16>
// CHECK-NOT: read_from_fifo
// CHECK: scf.yield
// CHECK: linalg.generic {{.*}} ins(%[[SQ1]], %[[SQ0]] :
// CHECK: math.rsqrt
// CHECK: scf.for
// CHECK-NEXT: ktdf.read_from_fifo %[[S0]]
// CHECK-NEXT: ktdf.read_from_fifo %slot_3
// CHECK-NOT: read_from_fifo
// CHECK: ktdf.write_to_fifo {{.*}} to %slot_6
// CHECK-NEXT: }
// CHECK: scf.for
// CHECK-NEXT: ktdf.read_from_fifo %[[S1]]
// CHECK-NEXT: ktdf.read_from_fifo %slot_5
// CHECK-NOT: read_from_fifo
// CHECK: ktdf.write_to_fifo {{.*}} to %slot_8
// CHECK-NEXT: }

// CHECK: ktdf.stage "drain"
// CHECK: scf.for
// CHECK-NEXT: scf.for
// CHECK-NEXT: ktdf.data_transfer %slot_6 to %buf_7
// CHECK-NEXT: }
// CHECK-NEXT: scf.for
// CHECK-NEXT: ktdf.data_transfer %slot_8 to %buf_9
// CHECK-NEXT: }

// Input: the ScheduleIR ktdf-tile-streams receives for
// examples/kernels/realworld/rmsnorm_blocks.mlir on mesh_device, printed by
// `ktflow compile ... --emit=schedule --mlir-print-ir-before=ktdf-tile-streams`.

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d0)>
#map3 = affine_map<() -> (0)>
#map4 = affine_map<() -> ()>
#map5 = affine_map<(d0, d1) -> ()>
#map6 = affine_map<(d0, d1) -> (d1)>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 29 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#set1 = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#set2 = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#set3 = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
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
  func.func @rms_norm_rows(%arg0: index {ktdf.tensor = tensor<30x256xf16>}, %arg1: index {ktdf.tensor = tensor<256xf16>}, %arg2: index {ktdf.tensor = tensor<30x256xf16>}, %arg3: index, %arg4: f16) attributes {grid = [4, 1]} {
    ktdf.parallel (%arg5, %arg6) in [4, 1] {
      %c128 = arith.constant 128 : index
      %c8 = arith.constant 8 : index
      %c1 = arith.constant 1 : index
      %c0 = arith.constant 0 : index
      %0 = ktdp.construct_memory_view %arg0, sizes: [30, 256], strides: [256, 1] {coordinate_set = #set, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<30x256xf16>
      %1 = ktdp.construct_memory_view %arg1, sizes: [256], strides: [1] {coordinate_set = #set1, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<256xf16>
      %2 = ktdp.construct_memory_view %arg2, sizes: [30, 256], strides: [256, 1] {coordinate_set = #set, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<30x256xf16>
      %3 = arith.muli %arg5, %c8 : index
      %4 = arith.addi %3, %c8 : index
      %5 = arith.cmpi slt, %4, %arg3 : index
      %6 = arith.select %5, %4, %arg3 : index
      scf.for %arg7 = %3 to %6 step %c1 {
        %7 = ktdp.construct_access_tile %0[%arg7, %c0] {access_tile_order = #map, access_tile_set = #set2} : memref<30x256xf16> -> !ktdp.access_tile<1x128xindex>
        %8 = ktdp.construct_access_tile %0[%arg7, %c128] {access_tile_order = #map, access_tile_set = #set2} : memref<30x256xf16> -> !ktdp.access_tile<1x128xindex>
        %9 = ktdp.construct_access_tile %1[%c0] {access_tile_order = #map1, access_tile_set = #set3} : memref<256xf16> -> !ktdp.access_tile<128xindex>
        %10 = ktdp.construct_access_tile %2[%arg7, %c0] {access_tile_order = #map, access_tile_set = #set2} : memref<30x256xf16> -> !ktdp.access_tile<1x128xindex>
        %11 = ktdp.construct_access_tile %1[%c128] {access_tile_order = #map1, access_tile_set = #set3} : memref<256xf16> -> !ktdp.access_tile<128xindex>
        %12 = ktdp.construct_access_tile %2[%arg7, %c128] {access_tile_order = #map, access_tile_set = #set2} : memref<30x256xf16> -> !ktdp.access_tile<1x128xindex>
        ktdf.pipeline {
          %buf = ktdf.private : memref<1x128xf16, "SPM">
          %slot = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 1x128xf16>
          %buf_0 = ktdf.private : memref<1x128xf16, "SPM">
          %slot_1 = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 1x128xf16>
          %buf_2 = ktdf.private : memref<128xf16, "SPM">
          %slot_3 = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 128xf16>
          %buf_4 = ktdf.private : memref<128xf16, "SPM">
          %slot_5 = ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 128xf16>
          %slot_6 = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 1x128xf16>
          %buf_7 = ktdf.private : memref<1x128xf16, "SPM">
          %slot_8 = ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 1x128xf16>
          %buf_9 = ktdf.private : memref<1x128xf16, "SPM">
          %13 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load] unit "tile/DMA" {
            ktdf.data_transfer %7 to %buf : !ktdp.access_tile<1x128xindex> to memref<1x128xf16, "SPM">
          }
          %14 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load] unit "tile/DMA" {
            ktdf.data_transfer %8 to %buf_0 : !ktdp.access_tile<1x128xindex> to memref<1x128xf16, "SPM">
          }
          %15 = ktdf.stage "load_2" depends_out(1) applicable_units [dma_load] unit "tile/DMA" {
            ktdf.data_transfer %9 to %buf_2 : !ktdp.access_tile<128xindex> to memref<128xf16, "SPM">
          }
          %16 = ktdf.stage "load_3" depends_out(1) applicable_units [dma_load] unit "tile/DMA" {
            ktdf.data_transfer %11 to %buf_4 : !ktdp.access_tile<128xindex> to memref<128xf16, "SPM">
          }
          %17 = ktdf.stage "feed" depends_in(%13, %14, %15, %16) depends_out(1) applicable_units [scratchpad_load] unit "tile/VLD" {
            ktdf.data_transfer %buf to %slot : memref<1x128xf16, "SPM"> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 1x128xf16>
            ktdf.data_transfer %buf_0 to %slot_1 : memref<1x128xf16, "SPM"> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 1x128xf16>
            ktdf.data_transfer %buf_2 to %slot_3 : memref<128xf16, "SPM"> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 128xf16>
            ktdf.data_transfer %buf_4 to %slot_5 : memref<128xf16, "SPM"> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 128xf16>
          }
          %18 = ktdf.stage "compute" depends_in(%17) depends_out(1) applicable_units [vector_compute] unit "tile/VPU" {
            %20 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 1x128xf16> -> tensor<1x128xf16>
            %21 = ktdf.read_from_fifo %slot_1 : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 1x128xf16> -> tensor<1x128xf16>
            %22 = ktdf.read_from_fifo %slot_3 : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 128xf16> -> tensor<128xf16>
            %23 = ktdf.read_from_fifo %slot_5 : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 128xf16> -> tensor<128xf16>
            %24 = tensor.empty() : tensor<1xf32>
            %cst = arith.constant 0.000000e+00 : f32
            %25 = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel"]} outs(%24 : tensor<1xf32>) {
            ^bb0(%out: f32):
              linalg.yield %cst : f32
            } -> tensor<1xf32>
            %26 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "reduction"]} ins(%21 : tensor<1x128xf16>) outs(%25 : tensor<1xf32>) {
            ^bb0(%in: f16, %out: f32):
              %36 = arith.extf %in : f16 to f32
              %37 = arith.mulf %36, %36 : f32
              %38 = arith.addf %37, %out : f32
              linalg.yield %38 : f32
            } -> tensor<1xf32>
            %27 = tensor.empty() : tensor<1xf32>
            %28 = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel"]} outs(%27 : tensor<1xf32>) {
            ^bb0(%out: f32):
              linalg.yield %cst : f32
            } -> tensor<1xf32>
            %29 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "reduction"]} ins(%20 : tensor<1x128xf16>) outs(%28 : tensor<1xf32>) {
            ^bb0(%in: f16, %out: f32):
              %36 = arith.extf %in : f16 to f32
              %37 = arith.mulf %36, %36 : f32
              %38 = arith.addf %37, %out : f32
              linalg.yield %38 : f32
            } -> tensor<1xf32>
            %30 = tensor.empty() : tensor<f16>
            %cst_10 = arith.constant 2.560000e+02 : f16
            %31 = linalg.generic {indexing_maps = [#map3, #map3, #map4], iterator_types = []} ins(%26, %29 : tensor<1xf32>, tensor<1xf32>) outs(%30 : tensor<f16>) {
            ^bb0(%in: f32, %in_11: f32, %out: f16):
              %36 = arith.truncf %in : f32 to f16
              %37 = arith.truncf %in_11 : f32 to f16
              %38 = arith.addf %36, %37 : f16
              %39 = arith.divf %38, %cst_10 : f16
              %40 = arith.addf %39, %arg4 : f16
              %41 = math.rsqrt %40 : f16
              linalg.yield %41 : f16
            } -> tensor<f16>
            %32 = tensor.empty() : tensor<1x128xf16>
            %33 = linalg.generic {indexing_maps = [#map, #map5, #map6, #map], iterator_types = ["parallel", "parallel"]} ins(%20, %31, %22 : tensor<1x128xf16>, tensor<f16>, tensor<128xf16>) outs(%32 : tensor<1x128xf16>) {
            ^bb0(%in: f16, %in_11: f16, %in_12: f16, %out: f16):
              %36 = arith.mulf %in, %in_11 : f16
              %37 = arith.mulf %36, %in_12 : f16
              linalg.yield %37 : f16
            } -> tensor<1x128xf16>
            %34 = tensor.empty() : tensor<1x128xf16>
            %35 = linalg.generic {indexing_maps = [#map, #map5, #map6, #map], iterator_types = ["parallel", "parallel"]} ins(%21, %31, %23 : tensor<1x128xf16>, tensor<f16>, tensor<128xf16>) outs(%34 : tensor<1x128xf16>) {
            ^bb0(%in: f16, %in_11: f16, %in_12: f16, %out: f16):
              %36 = arith.mulf %in, %in_11 : f16
              %37 = arith.mulf %36, %in_12 : f16
              linalg.yield %37 : f16
            } -> tensor<1x128xf16>
            ktdf.write_to_fifo %33 to %slot_6 : tensor<1x128xf16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 1x128xf16>
            ktdf.write_to_fifo %35 to %slot_8 : tensor<1x128xf16> to !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 1x128xf16>
          }
          %19 = ktdf.stage "drain" depends_in(%18) depends_out(1) applicable_units [scratchpad_store] unit "tile/VST" {
            ktdf.data_transfer %slot_6 to %buf_7 : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 1x128xf16> to memref<1x128xf16, "SPM">
            ktdf.data_transfer %slot_8 to %buf_9 : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 1x128xf16> to memref<1x128xf16, "SPM">
          }
          ktdf.stage "store_0" depends_in(%19) depends_out(0) applicable_units [dma_store] unit "tile/DMA" {
            ktdf.data_transfer %buf_7 to %10 : memref<1x128xf16, "SPM"> to !ktdp.access_tile<1x128xindex>
          }
          ktdf.stage "store_1" depends_in(%19) depends_out(0) applicable_units [dma_store] unit "tile/DMA" {
            ktdf.data_transfer %buf_9 to %12 : memref<1x128xf16, "SPM"> to !ktdp.access_tile<1x128xindex>
          }
        }
      }
    }
    return
  }
}



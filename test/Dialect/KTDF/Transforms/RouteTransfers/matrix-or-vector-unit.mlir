// RUN: ktflow-opt %s --ktdf-route-transfers | FileCheck %s

// A matrix stage runs on the lane's matrix unit unless its vector unit
// multiplies the stage's matrices in at most half the cycles
// (MatrixTiming.h). On
// mesh_device a 1x32 row times 32x32 pads to the 16x16x4 MXU's 16 rows:
// 31 + 8 x 16 = 159 cycles, against 1 x 32 x 32 / 16 = 64 on the VPU's
// 16 f32 multiply-accumulates a cycle, so it goes to the VPU (splitk_pv's
// products). 2 rows (159 against 128) go to the VPU too, but only because
// nothing else runs on it (matrix-unit-alone.mlir): the vector unit must
// otherwise take at most half, since it also runs the kernel's
// element-wise work. Staying on the MXU: a 16-row block, which fills the
// engine's rows (159 cycles, 512 on the VPU); two rows' products each
// sending its result (an unrolled loop's products, which the lowering
// feeds by iteration with their readers, IterationOrder.cpp, on another
// unit).

// CHECK-LABEL: func.func @row_product
// CHECK: ktdf.stage "feed" {{.*}}unit "tile/VLD"
// CHECK: ktdf.stage "compute" {{.*}}applicable_units [vector_compute] unit "tile/VPU"
// CHECK: linalg.matmul
// CHECK-LABEL: func.func @block_product
// CHECK: ktdf.stage "compute" {{.*}}applicable_units [matrix_compute] unit "tile/MXU"
// CHECK-LABEL: func.func @two_row_product
// CHECK: ktdf.stage "compute" {{.*}}applicable_units [vector_compute] unit "tile/VPU"
// CHECK-LABEL: func.func @row_products
// CHECK: ktdf.stage "compute" {{.*}}applicable_units [matrix_compute] unit "tile/MXU"
// CHECK: linalg.matmul
// CHECK: linalg.matmul

// Input: the ScheduleIR ktdf-route-transfers receives, printed by
// `ktflow compile KERNEL --arch mesh_device --mlir-print-ir-before=ktdf-route-transfers`
// from four KTIR kernels.

#amap = affine_map<(d0, d1) -> (d0, d1)>
#aset = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 31 >= 0)>
#aset1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#bmap = affine_map<(d0, d1) -> (d0, d1)>
#bset = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#bset1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#cmap = affine_map<(d0, d1) -> (d0, d1)>
#cset = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#cset1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#dmap = affine_map<(d0, d1) -> (d0, d1)>
#dset = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 31 >= 0)>
#dset1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 31 >= 0)>
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
  func.func @row_product(%arg0: index {ktdf.tensor = tensor<1x32xf16>}, %arg1: index {ktdf.tensor = tensor<32x32xf16>}, %arg2: index {ktdf.tensor = tensor<1x32xf16>}) attributes {grid = [1]} {
    ktdf.parallel (%arg3) in [1] {
      %0 = ktdp.construct_memory_view %arg0, sizes: [1, 32], strides: [32, 1] {coordinate_set = #aset, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<1x32xf16>
      %1 = ktdp.construct_memory_view %arg1, sizes: [32, 32], strides: [32, 1] {coordinate_set = #aset1, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<32x32xf16>
      %2 = ktdp.construct_memory_view %arg2, sizes: [1, 32], strides: [32, 1] {coordinate_set = #aset, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<1x32xf16>
      %3 = ktdp.construct_access_tile %0[0, 0] {access_tile_order = #amap, access_tile_set = #aset} : memref<1x32xf16> -> !ktdp.access_tile<1x32xindex>
      %4 = ktdp.construct_access_tile %1[0, 0] {access_tile_order = #amap, access_tile_set = #aset1} : memref<32x32xf16> -> !ktdp.access_tile<32x32xindex>
      %5 = ktdp.construct_access_tile %2[0, 0] {access_tile_order = #amap, access_tile_set = #aset} : memref<1x32xf16> -> !ktdp.access_tile<1x32xindex>
      ktdf.pipeline {
        %slot = ktdf.private : !ktdf.fifo.slot<HBM -> vector_compute, 1x32xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<HBM -> vector_compute, 32x32xf16>
        %slot_1 = ktdf.private : !ktdf.fifo.slot<vector_compute -> HBM, 1x32xf16>
        %6 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load, scratchpad_load] {
          ktdf.data_transfer %3 to %slot : !ktdp.access_tile<1x32xindex> to !ktdf.fifo.slot<HBM -> vector_compute, 1x32xf16>
        }
        %7 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load, scratchpad_load] {
          ktdf.data_transfer %4 to %slot_0 : !ktdp.access_tile<32x32xindex> to !ktdf.fifo.slot<HBM -> vector_compute, 32x32xf16>
        }
        %8 = ktdf.stage "compute" depends_in(%6, %7) depends_out(1) applicable_units [vector_compute] {
          %9 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<HBM -> vector_compute, 1x32xf16> -> tensor<1x32xf16>
          %10 = ktdf.read_from_fifo %slot_0 : !ktdf.fifo.slot<HBM -> vector_compute, 32x32xf16> -> tensor<32x32xf16>
          %11 = tensor.empty() : tensor<1x32xf16>
          %cst = arith.constant 0.000000e+00 : f16
          %12 = linalg.generic {indexing_maps = [#amap], iterator_types = ["parallel", "parallel"]} outs(%11 : tensor<1x32xf16>) {
          ^bb0(%out: f16):
            linalg.yield %cst : f16
          } -> tensor<1x32xf16>
          %13 = linalg.matmul ins(%9, %10 : tensor<1x32xf16>, tensor<32x32xf16>) outs(%12 : tensor<1x32xf16>) -> tensor<1x32xf16>
          ktdf.write_to_fifo %13 to %slot_1 : tensor<1x32xf16> to !ktdf.fifo.slot<vector_compute -> HBM, 1x32xf16>
        }
        ktdf.stage "store_0" depends_in(%8) depends_out(0) applicable_units [scratchpad_store, dma_store] {
          ktdf.data_transfer %slot_1 to %5 : !ktdf.fifo.slot<vector_compute -> HBM, 1x32xf16> to !ktdp.access_tile<1x32xindex>
        }
      }
    }
    return
  }
  func.func @block_product(%arg0: index {ktdf.tensor = tensor<16x32xf16>}, %arg1: index {ktdf.tensor = tensor<32x32xf16>}, %arg2: index {ktdf.tensor = tensor<16x32xf16>}) attributes {grid = [1]} {
    ktdf.parallel (%arg3) in [1] {
      %0 = ktdp.construct_memory_view %arg0, sizes: [16, 32], strides: [32, 1] {coordinate_set = #bset, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<16x32xf16>
      %1 = ktdp.construct_memory_view %arg1, sizes: [32, 32], strides: [32, 1] {coordinate_set = #bset1, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<32x32xf16>
      %2 = ktdp.construct_memory_view %arg2, sizes: [16, 32], strides: [32, 1] {coordinate_set = #bset, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<16x32xf16>
      %3 = ktdp.construct_access_tile %0[0, 0] {access_tile_order = #bmap, access_tile_set = #bset} : memref<16x32xf16> -> !ktdp.access_tile<16x32xindex>
      %4 = ktdp.construct_access_tile %1[0, 0] {access_tile_order = #bmap, access_tile_set = #bset1} : memref<32x32xf16> -> !ktdp.access_tile<32x32xindex>
      %5 = ktdp.construct_access_tile %2[0, 0] {access_tile_order = #bmap, access_tile_set = #bset} : memref<16x32xf16> -> !ktdp.access_tile<16x32xindex>
      ktdf.pipeline {
        %slot = ktdf.private : !ktdf.fifo.slot<HBM -> vector_compute, 16x32xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<HBM -> vector_compute, 32x32xf16>
        %slot_1 = ktdf.private : !ktdf.fifo.slot<vector_compute -> HBM, 16x32xf16>
        %6 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load, scratchpad_load] {
          ktdf.data_transfer %3 to %slot : !ktdp.access_tile<16x32xindex> to !ktdf.fifo.slot<HBM -> vector_compute, 16x32xf16>
        }
        %7 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load, scratchpad_load] {
          ktdf.data_transfer %4 to %slot_0 : !ktdp.access_tile<32x32xindex> to !ktdf.fifo.slot<HBM -> vector_compute, 32x32xf16>
        }
        %8 = ktdf.stage "compute" depends_in(%6, %7) depends_out(1) applicable_units [vector_compute] {
          %9 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<HBM -> vector_compute, 16x32xf16> -> tensor<16x32xf16>
          %10 = ktdf.read_from_fifo %slot_0 : !ktdf.fifo.slot<HBM -> vector_compute, 32x32xf16> -> tensor<32x32xf16>
          %11 = tensor.empty() : tensor<16x32xf16>
          %cst = arith.constant 0.000000e+00 : f16
          %12 = linalg.generic {indexing_maps = [#bmap], iterator_types = ["parallel", "parallel"]} outs(%11 : tensor<16x32xf16>) {
          ^bb0(%out: f16):
            linalg.yield %cst : f16
          } -> tensor<16x32xf16>
          %13 = linalg.matmul ins(%9, %10 : tensor<16x32xf16>, tensor<32x32xf16>) outs(%12 : tensor<16x32xf16>) -> tensor<16x32xf16>
          ktdf.write_to_fifo %13 to %slot_1 : tensor<16x32xf16> to !ktdf.fifo.slot<vector_compute -> HBM, 16x32xf16>
        }
        ktdf.stage "store_0" depends_in(%8) depends_out(0) applicable_units [scratchpad_store, dma_store] {
          ktdf.data_transfer %slot_1 to %5 : !ktdf.fifo.slot<vector_compute -> HBM, 16x32xf16> to !ktdp.access_tile<16x32xindex>
        }
      }
    }
    return
  }
  func.func @two_row_product(%arg0: index {ktdf.tensor = tensor<2x32xf16>}, %arg1: index {ktdf.tensor = tensor<32x32xf16>}, %arg2: index {ktdf.tensor = tensor<2x32xf16>}) attributes {grid = [1]} {
    ktdf.parallel (%arg3) in [1] {
      %0 = ktdp.construct_memory_view %arg0, sizes: [2, 32], strides: [32, 1] {coordinate_set = #cset, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<2x32xf16>
      %1 = ktdp.construct_memory_view %arg1, sizes: [32, 32], strides: [32, 1] {coordinate_set = #cset1, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<32x32xf16>
      %2 = ktdp.construct_memory_view %arg2, sizes: [2, 32], strides: [32, 1] {coordinate_set = #cset, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<2x32xf16>
      %3 = ktdp.construct_access_tile %0[0, 0] {access_tile_order = #cmap, access_tile_set = #cset} : memref<2x32xf16> -> !ktdp.access_tile<2x32xindex>
      %4 = ktdp.construct_access_tile %1[0, 0] {access_tile_order = #cmap, access_tile_set = #cset1} : memref<32x32xf16> -> !ktdp.access_tile<32x32xindex>
      %5 = ktdp.construct_access_tile %2[0, 0] {access_tile_order = #cmap, access_tile_set = #cset} : memref<2x32xf16> -> !ktdp.access_tile<2x32xindex>
      ktdf.pipeline {
        %slot = ktdf.private : !ktdf.fifo.slot<HBM -> vector_compute, 2x32xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<HBM -> vector_compute, 32x32xf16>
        %slot_1 = ktdf.private : !ktdf.fifo.slot<vector_compute -> HBM, 2x32xf16>
        %6 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load, scratchpad_load] {
          ktdf.data_transfer %3 to %slot : !ktdp.access_tile<2x32xindex> to !ktdf.fifo.slot<HBM -> vector_compute, 2x32xf16>
        }
        %7 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load, scratchpad_load] {
          ktdf.data_transfer %4 to %slot_0 : !ktdp.access_tile<32x32xindex> to !ktdf.fifo.slot<HBM -> vector_compute, 32x32xf16>
        }
        %8 = ktdf.stage "compute" depends_in(%6, %7) depends_out(1) applicable_units [vector_compute] {
          %9 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<HBM -> vector_compute, 2x32xf16> -> tensor<2x32xf16>
          %10 = ktdf.read_from_fifo %slot_0 : !ktdf.fifo.slot<HBM -> vector_compute, 32x32xf16> -> tensor<32x32xf16>
          %11 = tensor.empty() : tensor<2x32xf16>
          %cst = arith.constant 0.000000e+00 : f16
          %12 = linalg.generic {indexing_maps = [#cmap], iterator_types = ["parallel", "parallel"]} outs(%11 : tensor<2x32xf16>) {
          ^bb0(%out: f16):
            linalg.yield %cst : f16
          } -> tensor<2x32xf16>
          %13 = linalg.matmul ins(%9, %10 : tensor<2x32xf16>, tensor<32x32xf16>) outs(%12 : tensor<2x32xf16>) -> tensor<2x32xf16>
          ktdf.write_to_fifo %13 to %slot_1 : tensor<2x32xf16> to !ktdf.fifo.slot<vector_compute -> HBM, 2x32xf16>
        }
        ktdf.stage "store_0" depends_in(%8) depends_out(0) applicable_units [scratchpad_store, dma_store] {
          ktdf.data_transfer %slot_1 to %5 : !ktdf.fifo.slot<vector_compute -> HBM, 2x32xf16> to !ktdp.access_tile<2x32xindex>
        }
      }
    }
    return
  }
  func.func @row_products(%arg0: index {ktdf.tensor = tensor<1x32xf16>}, %arg1: index {ktdf.tensor = tensor<32x32xf16>}, %arg2: index {ktdf.tensor = tensor<1x32xf16>}, %arg3: index {ktdf.tensor = tensor<32x32xf16>}, %arg4: index {ktdf.tensor = tensor<1x32xf16>}) attributes {grid = [1]} {
    ktdf.parallel (%arg5) in [1] {
      %0 = ktdp.construct_memory_view %arg0, sizes: [1, 32], strides: [32, 1] {coordinate_set = #dset, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<1x32xf16>
      %1 = ktdp.construct_memory_view %arg1, sizes: [32, 32], strides: [32, 1] {coordinate_set = #dset1, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<32x32xf16>
      %2 = ktdp.construct_memory_view %arg2, sizes: [1, 32], strides: [32, 1] {coordinate_set = #dset, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<1x32xf16>
      %3 = ktdp.construct_access_tile %0[0, 0] {access_tile_order = #dmap, access_tile_set = #dset} : memref<1x32xf16> -> !ktdp.access_tile<1x32xindex>
      %4 = ktdp.construct_access_tile %1[0, 0] {access_tile_order = #dmap, access_tile_set = #dset1} : memref<32x32xf16> -> !ktdp.access_tile<32x32xindex>
      %5 = ktdp.construct_access_tile %2[0, 0] {access_tile_order = #dmap, access_tile_set = #dset} : memref<1x32xf16> -> !ktdp.access_tile<1x32xindex>
      %6 = ktdp.construct_memory_view %arg3, sizes: [32, 32], strides: [32, 1] {coordinate_set = #dset1, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<32x32xf16>
      %7 = ktdp.construct_memory_view %arg4, sizes: [1, 32], strides: [32, 1] {coordinate_set = #dset, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<1x32xf16>
      %8 = ktdp.construct_access_tile %6[0, 0] {access_tile_order = #dmap, access_tile_set = #dset1} : memref<32x32xf16> -> !ktdp.access_tile<32x32xindex>
      %9 = ktdp.construct_access_tile %7[0, 0] {access_tile_order = #dmap, access_tile_set = #dset} : memref<1x32xf16> -> !ktdp.access_tile<1x32xindex>
      ktdf.pipeline {
        %slot = ktdf.private : !ktdf.fifo.slot<HBM -> vector_compute, 1x32xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<HBM -> vector_compute, 32x32xf16>
        %slot_1 = ktdf.private : !ktdf.fifo.slot<HBM -> vector_compute, 32x32xf16>
        %slot_2 = ktdf.private : !ktdf.fifo.slot<vector_compute -> HBM, 1x32xf16>
        %slot_3 = ktdf.private : !ktdf.fifo.slot<vector_compute -> HBM, 1x32xf16>
        %10 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load, scratchpad_load] {
          ktdf.data_transfer %3 to %slot : !ktdp.access_tile<1x32xindex> to !ktdf.fifo.slot<HBM -> vector_compute, 1x32xf16>
        }
        %11 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load, scratchpad_load] {
          ktdf.data_transfer %4 to %slot_0 : !ktdp.access_tile<32x32xindex> to !ktdf.fifo.slot<HBM -> vector_compute, 32x32xf16>
        }
        %12 = ktdf.stage "load_2" depends_out(1) applicable_units [dma_load, scratchpad_load] {
          ktdf.data_transfer %8 to %slot_1 : !ktdp.access_tile<32x32xindex> to !ktdf.fifo.slot<HBM -> vector_compute, 32x32xf16>
        }
        %13 = ktdf.stage "compute" depends_in(%10, %11, %12) depends_out(1) applicable_units [vector_compute] {
          %14 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<HBM -> vector_compute, 1x32xf16> -> tensor<1x32xf16>
          %15 = ktdf.read_from_fifo %slot_0 : !ktdf.fifo.slot<HBM -> vector_compute, 32x32xf16> -> tensor<32x32xf16>
          %16 = ktdf.read_from_fifo %slot_1 : !ktdf.fifo.slot<HBM -> vector_compute, 32x32xf16> -> tensor<32x32xf16>
          %17 = tensor.empty() : tensor<1x32xf16>
          %cst = arith.constant 0.000000e+00 : f16
          %18 = linalg.generic {indexing_maps = [#dmap], iterator_types = ["parallel", "parallel"]} outs(%17 : tensor<1x32xf16>) {
          ^bb0(%out: f16):
            linalg.yield %cst : f16
          } -> tensor<1x32xf16>
          %19 = linalg.matmul ins(%14, %15 : tensor<1x32xf16>, tensor<32x32xf16>) outs(%18 : tensor<1x32xf16>) -> tensor<1x32xf16>
          %20 = linalg.matmul ins(%14, %16 : tensor<1x32xf16>, tensor<32x32xf16>) outs(%18 : tensor<1x32xf16>) -> tensor<1x32xf16>
          ktdf.write_to_fifo %19 to %slot_2 : tensor<1x32xf16> to !ktdf.fifo.slot<vector_compute -> HBM, 1x32xf16>
          ktdf.write_to_fifo %20 to %slot_3 : tensor<1x32xf16> to !ktdf.fifo.slot<vector_compute -> HBM, 1x32xf16>
        }
        ktdf.stage "store_0" depends_in(%13) depends_out(0) applicable_units [scratchpad_store, dma_store] {
          ktdf.data_transfer %slot_2 to %5 : !ktdf.fifo.slot<vector_compute -> HBM, 1x32xf16> to !ktdp.access_tile<1x32xindex>
        }
        ktdf.stage "store_1" depends_in(%13) depends_out(0) applicable_units [scratchpad_store, dma_store] {
          ktdf.data_transfer %slot_3 to %9 : !ktdf.fifo.slot<vector_compute -> HBM, 1x32xf16> to !ktdp.access_tile<1x32xindex>
        }
      }
    }
    return
  }
}

// RUN: ktflow-opt %s --ktdf-route-transfers -verify-diagnostics

// A device whose load and store units reach device memory directly: the
// feed and drain units move tiles chunk by chunk with no DMA, which is what
// masks rows. A tile whose view holds only 62 of its 64 rows is refused
// (test/EndToEnd/masked-rows-direct.test: with all 64 rows held the
// kernel compiles and verifies).


// Input: the ScheduleIR ktdf-route-transfers receives, printed once by
// `ktflow-opt KERNEL --ktdf-mapping` from a KTIR kernel.

#map = affine_map<(d0, d1) -> (d0, d1)>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 61 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#set1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
module {
  ktdf_arch.device @direct {
    %DDR = memory {kind = "DDR", size = 1048576 : i64}
    group {kind = "core"} share(%DDR) {
      %LU = exec_unit {kind = "LU", ktdf_arch.features = {ktdf_arch.feature.load}}
      %SU = exec_unit {kind = "SU", ktdf_arch.features = {ktdf_arch.feature.store}}
      %VPU = exec_unit {kind = "VPU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 32>}}}
      datapath %DDR to %LU : memory, exec_unit
      datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 8 : i64}}} %LU to %VPU : exec_unit, exec_unit
      datapath {ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 8 : i64}}} %VPU to %SU : exec_unit, exec_unit
      datapath %SU to %DDR : exec_unit, memory
    }
  }
  ktdf_arch.target @direct memory_map #ktdf_arch.map<"global" = "DDR">
  func.func @scale(%arg0: index {ktdf.tensor = tensor<64x64xf16>}, %arg1: index {ktdf.tensor = tensor<64x64xf16>}) attributes {grid = [8]} {
    ktdf.parallel (%arg2) in [8] {
      %c8 = arith.constant 8 : index
      %0 = arith.muli %arg2, %c8 : index
      %1 = ktdp.construct_memory_view %arg0, sizes: [64, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
      %2 = ktdp.construct_memory_view %arg1, sizes: [64, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
      // expected-error @+1 {{coordinates of this access tile may lie outside its view, which only a DMA transfer masks, but device 'direct' moves it between memory and the compute unit directly}}
      %3 = ktdp.construct_access_tile %1[%0, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<64x64xf16> -> !ktdp.access_tile<8x64xindex>
      %4 = ktdp.construct_access_tile %2[%0, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<64x64xf16> -> !ktdp.access_tile<8x64xindex>
      ktdf.pipeline {
        %slot = ktdf.private : !ktdf.fifo.slot<DDR -> vector_compute, 8x64xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<vector_compute -> DDR, 8x64xf16>
        %5 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load, scratchpad_load] {
          ktdf.data_transfer %3 to %slot : !ktdp.access_tile<8x64xindex> to !ktdf.fifo.slot<DDR -> vector_compute, 8x64xf16>
        }
        %6 = ktdf.stage "compute" depends_in(%5) depends_out(1) applicable_units [vector_compute] {
          %7 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<DDR -> vector_compute, 8x64xf16> -> tensor<8x64xf16>
          %8 = tensor.empty() : tensor<8x64xf16>
          %cst = arith.constant 2.000000e+00 : f16
          %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%7 : tensor<8x64xf16>) outs(%8 : tensor<8x64xf16>) {
          ^bb0(%in: f16, %out: f16):
            %10 = arith.mulf %in, %cst : f16
            linalg.yield %10 : f16
          } -> tensor<8x64xf16>
          ktdf.write_to_fifo %9 to %slot_0 : tensor<8x64xf16> to !ktdf.fifo.slot<vector_compute -> DDR, 8x64xf16>
        }
        ktdf.stage "store_0" depends_in(%6) depends_out(0) applicable_units [scratchpad_store, dma_store] {
          ktdf.data_transfer %slot_0 to %4 : !ktdf.fifo.slot<vector_compute -> DDR, 8x64xf16> to !ktdp.access_tile<8x64xindex>
        }
      }
    }
    return
  }
}

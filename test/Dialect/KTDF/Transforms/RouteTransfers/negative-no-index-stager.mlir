// RUN: ktflow-opt %s --ktdf-route-transfers -verify-diagnostics

// A scatter whose store unit (MNISU) reads only L1B, which no unit that
// reads device memory fills (the DMA load unit fills L1, the compute unit
// drains into L1B): its indices cannot be staged where MNISU reads them.
// Input: printed once by `ktflow-opt examples/kernels/indirect_scatter.mlir
// --arch test/Dialect/KTDF/Transforms/RouteTransfers/Inputs/split_scratchpad_device.mlir --ktdf-mapping`.

#map = affine_map<(d0, d1) -> (d0, d1)>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#set1 = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#set2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#set3 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
module {
  ktdf_arch.device @split_scratchpad attributes {ktdf_arch.clock_mhz = 1000 : i64} {
    %DDR = memory {kind = "DDR", ktdf_arch.bandwidth = 256 : i64, size = 8589934592 : i64}
    group {kind = "core", ktdf_arch.instances = 4 : i64} share(%DDR) {
      %L1 = memory {kind = "L1", ktdf_arch.bandwidth = 512 : i64, size = 1048576 : i64}
      %L1B = memory {kind = "L1B", ktdf_arch.bandwidth = 512 : i64, size = 1048576 : i64}
      %MNILU = exec_unit {kind = "MNILU", ktdf_arch.features = {ktdf_arch.feature.load = {word_size = #ktdf_arch.map<"DDR" = 64, "L1" = 64>}}}
      %MNISU = exec_unit {kind = "MNISU", ktdf_arch.features = {ktdf_arch.feature.store = {word_size = #ktdf_arch.map<"DDR" = 64, "L1B" = 64>}}}
      %SFU = exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 64, f32 = 32>}}}
      %L1LU = exec_unit {kind = "L1LU", ktdf_arch.features = {ktdf_arch.feature.load = {word_size = #ktdf_arch.map<"L1" = 64>}}}
      %L1SU = exec_unit {kind = "L1SU", ktdf_arch.features = {ktdf_arch.feature.store = {word_size = #ktdf_arch.map<"L1B" = 64>}}}
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 100 : i64} %DDR to %MNILU : memory, exec_unit
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 2 : i64} %MNILU to %L1 : exec_unit, memory
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 2 : i64} %L1 to %L1LU : memory, exec_unit
      datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16 : i64, ordered}}, ktdf_arch.latency = 1 : i64} %L1LU to %SFU : exec_unit, exec_unit
      datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16 : i64, ordered}}, ktdf_arch.latency = 1 : i64} %SFU to %L1SU : exec_unit, exec_unit
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 2 : i64} %L1SU to %L1B : exec_unit, memory
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 2 : i64} %L1B to %MNISU : memory, exec_unit
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 100 : i64} %MNISU to %DDR : exec_unit, memory
    }
  }
  ktdf_arch.target @split_scratchpad memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
  func.func @indirect_scatter(%arg0: index {ktdf.tensor = tensor<32x64xf16>}, %arg1: index {ktdf.tensor = tensor<32xi32>}, %arg2: index {ktdf.tensor = tensor<64x64xf16>}) attributes {grid = [4]} {
    ktdf.parallel (%arg3) in [4] {
      %c8 = arith.constant 8 : index
      %0 = arith.muli %arg3, %c8 : index
      %1 = ktdp.construct_memory_view %arg0, sizes: [32, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
      %2 = ktdp.construct_memory_view %arg1, sizes: [32], strides: [1] {coordinate_set = #set1, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<32xi32>
      %3 = ktdp.construct_memory_view %arg2, sizes: [64, 64], strides: [64, 1] {coordinate_set = #set2, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
      %4 = ktdp.construct_access_tile %1[%0, 0] {access_tile_order = #map, access_tile_set = #set3} : memref<32x64xf16> -> !ktdp.access_tile<8x64xindex>
      // expected-error @+1 {{the unit moving this scatter, 'core/MNISU', does not read device memory, where the indices are, and no data mover of device 'split_scratchpad' stages them in the memory it reads}}
      %5 = ktdp.construct_indirect_access_tile intermediate_variables(%arg4, %arg5) %3[ind(%2[%0 + %arg4]), (%arg5)] {variables_space_order = #map, variables_space_set = #set3} : memref<64x64xf16>, memref<32xi32> -> !ktdp.access_tile<8x64xindex>
      ktdf.pipeline {
        %slot = ktdf.private : !ktdf.fifo.slot<DDR -> vector_compute, 8x64xf16>
        %slot_0 = ktdf.private : !ktdf.fifo.slot<vector_compute -> DDR, 8x64xf16>
        %6 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load, scratchpad_load] {
          ktdf.data_transfer %4 to %slot : !ktdp.access_tile<8x64xindex> to !ktdf.fifo.slot<DDR -> vector_compute, 8x64xf16>
        }
        %7 = ktdf.stage "compute" depends_in(%6) depends_out(1) applicable_units [vector_compute] {
          %8 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<DDR -> vector_compute, 8x64xf16> -> tensor<8x64xf16>
          ktdf.write_to_fifo %8 to %slot_0 : tensor<8x64xf16> to !ktdf.fifo.slot<vector_compute -> DDR, 8x64xf16>
        }
        ktdf.stage "store_0" depends_in(%7) depends_out(0) applicable_units [scratchpad_store, dma_store] {
          ktdf.data_transfer %slot_0 to %5 : !ktdf.fifo.slot<vector_compute -> DDR, 8x64xf16> to !ktdp.access_tile<8x64xindex>
        }
      }
    }
    return
  }
}


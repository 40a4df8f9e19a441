// RUN: ktflow-opt %s --ktdf-route-transfers | FileCheck %s

// A scatter whose store unit does not read device memory (sample_device's
// MNISU reads L1 and writes DDR) gets its indices staged: the box of the
// slot view one transfer reads, Slot[%r0 .. %r0 + 7] (the subscript
// `%r0 + %i` split into the captured %r0 and the variable's [0, 8)), is
// an access tile anchored at %r0 that the load route's DMA unit (MNILU)
// moves into an L1 buffer, in a stage first in the pipeline; the scatter
// depends on it and reads the indices from that buffer. The scatter only
// stores the rows it loads (the compute stage forwards them), so it is a
// DMA copy: MNILU loads the rows into an L1 buffer and MNISU scatters
// them from that same buffer, with no feed, compute or drain stage.

// CHECK: %[[R0:.*]] = arith.muli
// CHECK: %[[SLOT:.*]] = ktdp.construct_memory_view %arg1
// CHECK: %[[ROWS:.*]] = ktdp.construct_access_tile %{{.*}}[%[[R0]], 0]
// CHECK-NEXT: %[[SCATTER:.*]] = ktdp.construct_indirect_access_tile
// CHECK-NEXT: %[[BOX:.*]] = ktdp.construct_access_tile %[[SLOT]][%[[R0]]] {{.*}} : memref<32xi32> -> !ktdp.access_tile<8xindex>
// CHECK: ktdf.pipeline {
// CHECK-NEXT: %[[IDX:.*]] = ktdf.private : memref<8xi32, "L1">
// CHECK-NEXT: %[[BUF:.*]] = ktdf.private : memref<8x64xf16, "L1">
// CHECK-NEXT: %[[STAGED:.*]] = ktdf.stage "index_0" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
// CHECK-NEXT: ktdf.data_transfer %[[BOX]] to %[[IDX]] : !ktdp.access_tile<8xindex> to memref<8xi32, "L1">
// CHECK-NEXT: }
// CHECK-NEXT: %[[LOADED:.*]] = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
// CHECK-NEXT: ktdf.data_transfer %[[ROWS]] to %[[BUF]] : !ktdp.access_tile<8x64xindex> to memref<8x64xf16, "L1">
// CHECK-NEXT: }
// CHECK-NEXT: ktdf.stage "store_0" depends_in(%[[LOADED]], %[[STAGED]]) depends_out(0) applicable_units [dma_store] unit "core/MNISU_Block/MNISU" {
// CHECK-NEXT: ktdf.data_transfer %[[BUF]] to %[[SCATTER]] indices(%[[IDX]] : memref<8xi32, "L1">) : memref<8x64xf16, "L1"> to !ktdp.access_tile<8x64xindex>
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NOT: ktdf.stage

// Input: the ScheduleIR ktdf-route-transfers receives, printed once by
// `ktflow-opt examples/kernels/indirect_scatter.mlir
// --arch examples/devices/sample_device.mlir --ktdf-mapping`.

#map = affine_map<(d0, d1) -> (d0, d1)>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#set1 = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#set2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#set3 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
module {
  ktdf_arch.device @sample_device attributes {ktdf_arch.clock_mhz = 1000 : i64} {
    %DDR = memory {kind = "DDR", ktdf_arch.bandwidth = 256 : i64, size = 8589934592 : i64}
    group {kind = "core", ktdf_arch.instances = 4 : i64, ktdf_arch.interconnect = {bidirectional, hop_latency = 1 : i64, link_bandwidth = 64 : i64, topology = "ring"}} share(%DDR) {
      %L1 = memory {kind = "L1", ktdf_arch.bandwidth = 512 : i64, size = 1048576 : i64}
      %MNILU_Block = group {kind = "MNILU_Block"} share() {
        %MNILU = exec_unit {kind = "MNILU", ktdf_arch.features = {ktdf_arch.feature.load = {word_size = #ktdf_arch.map<"DDR" = 64, "L1" = 64>}}, ktdf_arch.max_outstanding = 4 : i64}
        yield %MNILU
      } -> exec_unit
      %MNISU_Block = group {kind = "MNISU_Block"} share() {
        %MNISU = exec_unit {kind = "MNISU", ktdf_arch.features = {ktdf_arch.feature.store = {word_size = #ktdf_arch.map<"DDR" = 64, "L1" = 64>}}, ktdf_arch.max_outstanding = 4 : i64}
        yield %MNISU
      } -> exec_unit
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 100 : i64, ktdf_arch.transfer_granularity = array<i64: 64>} %DDR to %MNILU_Block : memory, exec_unit
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 2 : i64, ktdf_arch.transfer_granularity = array<i64: 64>} %MNILU_Block to %L1 : exec_unit, memory
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 2 : i64, ktdf_arch.transfer_granularity = array<i64: 64>} %L1 to %MNISU_Block : memory, exec_unit
      datapath {ktdf_arch.bandwidth = 64 : i64, ktdf_arch.latency = 100 : i64, ktdf_arch.transfer_granularity = array<i64: 64>} %MNISU_Block to %DDR : exec_unit, memory
      group {kind = "subcore"} share(%L1) {
        %SFU_Block = group {kind = "SFU_Block"} share() {
          %SFU_RF = memory {kind = "SFU_RF", size = 2048 : i64}
          %SFU = exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 64, f32 = 32, i32 = 32>}}}
          datapath {ktdf_arch.bandwidth = 256 : i64, ktdf_arch.latency = 1 : i64} %SFU_RF to %SFU : memory, exec_unit
          datapath {ktdf_arch.bandwidth = 256 : i64, ktdf_arch.latency = 1 : i64} %SFU to %SFU_RF : exec_unit, memory
          yield %SFU
        } -> exec_unit
        %L1LU = exec_unit {kind = "L1LU", ktdf_arch.features = {ktdf_arch.feature.load = {access_granularity = #ktdf_arch.map<"L1" = [{align_in_words = 64 : i64, size_in_words = 64 : i64}, {align_in_words = 2 : i64, size_in_words = 2 : i64}]>, word_size = #ktdf_arch.map<"L1" = 64>}, ktdf_arch.feature.simd = {splat, zero_pad}}}
        %L1SU = exec_unit {kind = "L1SU", ktdf_arch.features = {ktdf_arch.feature.store = {access_granularity = #ktdf_arch.map<"L1" = [{align_in_words = 64 : i64, size_in_words = 64 : i64}]>, word_size = #ktdf_arch.map<"L1" = 64>}}}
        datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16 : i64, ordered}}, ktdf_arch.latency = 4 : i64, ktdf_arch.transfer_granularity = array<i64: 128>} %L1 to %L1LU : memory, exec_unit
        datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16 : i64, ordered}}, ktdf_arch.latency = 1 : i64} %L1LU to %SFU_Block : exec_unit, exec_unit
        datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16 : i64, ordered}}, ktdf_arch.latency = 1 : i64} %SFU_Block to %L1SU : exec_unit, exec_unit
        datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16 : i64, ordered}}, ktdf_arch.latency = 4 : i64, ktdf_arch.transfer_granularity = array<i64: 128>} %L1SU to %L1 : exec_unit, memory
      }
      group {kind = "subcore"} share(%L1) {
        %SFU_Block = group {kind = "SFU_Block"} share() {
          %SFU_RF = memory {kind = "SFU_RF", size = 2048 : i64}
          %SFU = exec_unit {kind = "SFU", ktdf_arch.features = {ktdf_arch.feature.compute, ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 64, f32 = 32, i32 = 32>}}}
          datapath {ktdf_arch.bandwidth = 256 : i64, ktdf_arch.latency = 1 : i64} %SFU_RF to %SFU : memory, exec_unit
          datapath {ktdf_arch.bandwidth = 256 : i64, ktdf_arch.latency = 1 : i64} %SFU to %SFU_RF : exec_unit, memory
          yield %SFU
        } -> exec_unit
        %L1LU = exec_unit {kind = "L1LU", ktdf_arch.features = {ktdf_arch.feature.load = {access_granularity = #ktdf_arch.map<"L1" = [{align_in_words = 64 : i64, size_in_words = 64 : i64}, {align_in_words = 2 : i64, size_in_words = 2 : i64}]>, word_size = #ktdf_arch.map<"L1" = 64>}, ktdf_arch.feature.simd = {splat, zero_pad}}}
        %L1SU = exec_unit {kind = "L1SU", ktdf_arch.features = {ktdf_arch.feature.store = {access_granularity = #ktdf_arch.map<"L1" = [{align_in_words = 64 : i64, size_in_words = 64 : i64}]>, word_size = #ktdf_arch.map<"L1" = 64>}}}
        datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16 : i64, ordered}}, ktdf_arch.latency = 4 : i64, ktdf_arch.transfer_granularity = array<i64: 128>} %L1 to %L1LU : memory, exec_unit
        datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16 : i64, ordered}}, ktdf_arch.latency = 1 : i64} %L1LU to %SFU_Block : exec_unit, exec_unit
        datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16 : i64, ordered}}, ktdf_arch.latency = 1 : i64} %SFU_Block to %L1SU : exec_unit, exec_unit
        datapath {ktdf_arch.bandwidth = 128 : i64, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16 : i64, ordered}}, ktdf_arch.latency = 4 : i64, ktdf_arch.transfer_granularity = array<i64: 128>} %L1SU to %L1 : exec_unit, memory
      }
    }
    patterns ["pre_scheduling"] {
      pdl.pattern @widen_f16_exp : benefit(1) {
        %0 = type : f16
        %1 = operand : %0
        %2 = operation "math.exp"(%1 : !pdl.value)  -> (%0 : !pdl.type)
        rewrite %2 with "widen_to_f32"
      }
    }
  }
  ktdf_arch.target @sample_device memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
  func.func @indirect_scatter(%arg0: index {ktdf.tensor = tensor<32x64xf16>}, %arg1: index {ktdf.tensor = tensor<32xi32>}, %arg2: index {ktdf.tensor = tensor<64x64xf16>}) attributes {grid = [4]} {
    ktdf.parallel (%arg3) in [4] {
      %c8 = arith.constant 8 : index
      %0 = arith.muli %arg3, %c8 : index
      %1 = ktdp.construct_memory_view %arg0, sizes: [32, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
      %2 = ktdp.construct_memory_view %arg1, sizes: [32], strides: [1] {coordinate_set = #set1, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<32xi32>
      %3 = ktdp.construct_memory_view %arg2, sizes: [64, 64], strides: [64, 1] {coordinate_set = #set2, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
      %4 = ktdp.construct_access_tile %1[%0, 0] {access_tile_order = #map, access_tile_set = #set3} : memref<32x64xf16> -> !ktdp.access_tile<8x64xindex>
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


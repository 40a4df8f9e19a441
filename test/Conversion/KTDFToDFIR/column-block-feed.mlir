// RUN: ktflow-opt %s --ktdf-to-dfir | FileCheck %s

// RoPE's two 8x16 column halves of X merged into one 8x32 load, and its
// two output halves into one 8x32 store (ktdf-merge-adjacent-loads): the
// feed reads each 64-element chunk of a half as a 4x16 column block of the
// wide buffer, its slot of that shape, and the compute unit takes the slot
// as a flat chunk (a 1-D read of a 2-D slot of as many elements); dually
// the compute unit sends each output chunk as a flat 64 and the drain
// writes it as a 4x16 column block of the wide output buffer. The DMA
// engines move each 8x32 tile as one 512-byte transfer; the load and store
// units move each chunk as 4 rows of 32 bytes a buffer row (64 bytes)
// apart, at column 0 or 16 (byte 32) of the row.

// CHECK-LABEL: dfir.unit "core[0]/MNILU_Block/MNILU"
// CHECK-COUNT-3: dfir.dma
// CHECK-NOT: dfir.dma
// CHECK-LABEL: dfir.unit "core[0]/MNISU_Block/MNISU"
// CHECK: %[[BYTES:.*]] = arith.muli %{{.*}}, %c64
// CHECK: dfir.dma %[[BYTES]] bytes from "core[0]/L1"[%{{.*}}] to "DDR"[%{{.*}}]{{$}}
// CHECK-NOT: dfir.dma

// CHECK-LABEL: dfir.unit "core[0]/subcore[0]/L1LU"
// CHECK: dfir.load @fifo0 from "core[0]/L1"[%{{.*}}] size %c128
// CHECK: dfir.load @fifo0 from "core[0]/L1"[%{{.*}}] size %c128
// CHECK: %[[ROW0:.*]] = arith.muli %{{.*}}, %c32
// CHECK-NEXT: arith.addi %[[ROW0]], %c0
// CHECK: dfir.load @fifo0 from "core[0]/L1"[%{{.*}}] size %c32{{.*}} rows %c4{{.*}} stride %c64
// CHECK: %[[ROW1:.*]] = arith.muli %{{.*}}, %c32
// CHECK-NEXT: arith.addi %[[ROW1]], %c16
// CHECK: dfir.load @fifo0 from "core[0]/L1"[%{{.*}}] size %c32{{.*}} rows %c4{{.*}} stride %c64

// CHECK-LABEL: dfir.unit "core[0]/subcore[0]/L1SU"
// CHECK: %[[OROW0:.*]] = arith.muli %{{.*}}, %c32
// CHECK-NEXT: arith.addi %[[OROW0]], %c0
// CHECK: dfir.store @fifo1 to "core[0]/L1"[%{{.*}}] size %c32{{.*}} rows %c4{{.*}} stride %c64
// CHECK: %[[OROW1:.*]] = arith.muli %{{.*}}, %c32
// CHECK-NEXT: arith.addi %[[OROW1]], %c16
// CHECK: dfir.store @fifo1 to "core[0]/L1"[%{{.*}}] size %c32{{.*}} rows %c4{{.*}} stride %c64

// CHECK-LABEL: dfir.unit "core[0]/subcore[0]/SFU_Block/SFU"
// CHECK-COUNT-4: dfir.recv @fifo0 : vector<64xf16>
// CHECK-COUNT-2: dfir.send @fifo1, %{{.*}} : vector<64xf16>

// Input: the ScheduleIR ktdf-to-dfir receives, printed once by
// `ktflow-opt KERNEL --arch sample_device.mlir --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams --ktdf-merge-adjacent-loads --ktdf-distribute --ktdf-buffer=depth=2 --ktdf-allocate-scratchpad`
// from @rope_halves of test/Dialect/KTDF/Transforms/MergeAdjacentLoads/row-chunks.mlir on a grid of [1].

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0) -> (d0)>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#set1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#set2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#set3 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>
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
  func.func @rope_halves(%arg0: index {ktdf.tensor = tensor<64x32xf16>}, %arg1: index {ktdf.tensor = tensor<64x16xf16>}, %arg2: index {ktdf.tensor = tensor<64x16xf16>}, %arg3: index {ktdf.tensor = tensor<64x32xf16>}) attributes {grid = [1], ktdf.scratchpad = {L1 = 3072 : i64}} {
    ktdf.parallel (%arg4) in [1] distribute(num_instances = 1) {
      %c8 = arith.constant 8 : index
      %0 = arith.muli %arg4, %c8 : index
      %1 = ktdp.construct_memory_view %arg0, sizes: [64, 32], strides: [32, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
      %2 = ktdp.construct_memory_view %arg1, sizes: [64, 16], strides: [16, 1] {coordinate_set = #set1, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x16xf16>
      %3 = ktdp.construct_memory_view %arg2, sizes: [64, 16], strides: [16, 1] {coordinate_set = #set1, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x16xf16>
      %4 = ktdp.construct_memory_view %arg3, sizes: [64, 32], strides: [32, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
      %5 = ktdp.construct_access_tile %2[%0, 0] {access_tile_order = #map, access_tile_set = #set2} : memref<64x16xf16> -> !ktdp.access_tile<8x16xindex>
      %6 = ktdp.construct_access_tile %3[%0, 0] {access_tile_order = #map, access_tile_set = #set2} : memref<64x16xf16> -> !ktdp.access_tile<8x16xindex>
      %7 = ktdp.construct_access_tile %1[%0, 0] {access_tile_order = #map, access_tile_set = #set3} : memref<64x32xf16> -> !ktdp.access_tile<8x32xindex>
      %8 = ktdp.construct_access_tile %4[%0, 0] {access_tile_order = #map, access_tile_set = #set3} : memref<64x32xf16> -> !ktdp.access_tile<8x32xindex>
      ktdf.pipeline modulo(size: 2) {
        %buf = ktdf.private offset 0 : memref<8x16xf16, "L1">
        %slot = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
        %buf_0 = ktdf.private offset 512 : memref<8x16xf16, "L1">
        %slot_1 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
        %buf_2 = ktdf.private offset 1024 : memref<8x32xf16, "L1">
        %slot_3 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 4x16xf16>
        %slot_4 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 4x16xf16>
        %slot_5 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 4x16xf16>
        %buf_6 = ktdf.private offset 2048 : memref<8x32xf16, "L1">
        %slot_7 = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 4x16xf16>
        %9 = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
          ktdf.data_transfer %5 to %buf : !ktdp.access_tile<8x16xindex> to memref<8x16xf16, "L1">
        }
        %10 = ktdf.stage "load_1" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
          ktdf.data_transfer %6 to %buf_0 : !ktdp.access_tile<8x16xindex> to memref<8x16xf16, "L1">
        }
        %11 = ktdf.stage "load_2" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
          ktdf.data_transfer %7 to %buf_2 : !ktdp.access_tile<8x32xindex> to memref<8x32xf16, "L1">
        }
        %12 = ktdf.stage "feed" depends_in(%9, %10, %11) depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
          %c0 = arith.constant 0 : index
          %c4 = arith.constant 4 : index
          %c8_8 = arith.constant 8 : index
          %c64 = arith.constant 64 : index
          %c64_9 = arith.constant 64 : index
          scf.for %arg5 = %c0 to %c8_8 step %c4 {
            scf.for %arg6 = %c0 to %c64 step %c64_9 {
              ktdf.data_transfer %buf[%arg5, %arg6] to %slot : memref<8x16xf16, "L1"> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
              ktdf.data_transfer %buf_0[%arg5, %arg6] to %slot_1 : memref<8x16xf16, "L1"> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
              %c0_10 = arith.constant 0 : index
              ktdf.data_transfer %buf_2[%arg5, %c0_10] to %slot_3 : memref<8x32xf16, "L1"> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 4x16xf16>
              %c16 = arith.constant 16 : index
              ktdf.data_transfer %buf_2[%arg5, %c16] to %slot_4 : memref<8x32xf16, "L1"> to !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 4x16xf16>
            }
          }
        }
        %13 = ktdf.stage "compute" depends_in(%12) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
          %c0 = arith.constant 0 : index
          %c4 = arith.constant 4 : index
          %c8_8 = arith.constant 8 : index
          %c64 = arith.constant 64 : index
          %c64_9 = arith.constant 64 : index
          scf.for %arg5 = %c0 to %c8_8 step %c4 {
            scf.for %arg6 = %c0 to %c64 step %c64_9 {
              %15 = ktdf.read_from_fifo %slot : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
              %16 = ktdf.read_from_fifo %slot_1 : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16> -> tensor<64xf16>
              %17 = ktdf.read_from_fifo %slot_3 : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 4x16xf16> -> tensor<64xf16>
              %18 = ktdf.read_from_fifo %slot_4 : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 4x16xf16> -> tensor<64xf16>
              %19 = tensor.empty() : tensor<64xf16>
              %20 = linalg.generic {indexing_maps = [#map1, #map1, #map1, #map1, #map1], iterator_types = ["parallel"]} ins(%17, %15, %18, %16 : tensor<64xf16>, tensor<64xf16>, tensor<64xf16>, tensor<64xf16>) outs(%19 : tensor<64xf16>) {
              ^bb0(%in: f16, %in_10: f16, %in_11: f16, %in_12: f16, %out: f16):
                %23 = arith.mulf %in, %in_10 : f16
                %24 = arith.mulf %in_11, %in_12 : f16
                %25 = arith.subf %23, %24 : f16
                linalg.yield %25 : f16
              } -> tensor<64xf16>
              %21 = tensor.empty() : tensor<64xf16>
              %22 = linalg.generic {indexing_maps = [#map1, #map1, #map1, #map1, #map1], iterator_types = ["parallel"]} ins(%18, %15, %17, %16 : tensor<64xf16>, tensor<64xf16>, tensor<64xf16>, tensor<64xf16>) outs(%21 : tensor<64xf16>) {
              ^bb0(%in: f16, %in_10: f16, %in_11: f16, %in_12: f16, %out: f16):
                %23 = arith.mulf %in, %in_10 : f16
                %24 = arith.mulf %in_11, %in_12 : f16
                %25 = arith.addf %23, %24 : f16
                linalg.yield %25 : f16
              } -> tensor<64xf16>
              ktdf.write_to_fifo %20 to %slot_5 : tensor<64xf16> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 4x16xf16>
              ktdf.write_to_fifo %22 to %slot_7 : tensor<64xf16> to !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 4x16xf16>
            }
          }
        }
        %14 = ktdf.stage "drain" depends_in(%13) depends_out(1) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
          %c0 = arith.constant 0 : index
          %c4 = arith.constant 4 : index
          %c8_8 = arith.constant 8 : index
          %c64 = arith.constant 64 : index
          %c64_9 = arith.constant 64 : index
          scf.for %arg5 = %c0 to %c8_8 step %c4 {
            scf.for %arg6 = %c0 to %c64 step %c64_9 {
              %c0_10 = arith.constant 0 : index
              ktdf.data_transfer %slot_5 to %buf_6[%arg5, %c0_10] : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 4x16xf16> to memref<8x32xf16, "L1">
              %c16 = arith.constant 16 : index
              ktdf.data_transfer %slot_7 to %buf_6[%arg5, %c16] : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 4x16xf16> to memref<8x32xf16, "L1">
            }
          }
        }
        ktdf.stage "store_0" depends_in(%14) depends_out(0) applicable_units [dma_store] unit "core/MNISU_Block/MNISU" {
          ktdf.data_transfer %buf_6 to %8 : memref<8x32xf16, "L1"> to !ktdp.access_tile<8x32xindex>
        }
      }
    }
    return
  }
}


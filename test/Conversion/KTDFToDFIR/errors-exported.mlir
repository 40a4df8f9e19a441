// RUN: ktflow-opt %s -split-input-file -verify-diagnostics --ktdf-to-dfir

// A buffer that one pipeline exports is only read by the others, into a
// FIFO slot or a buffer: a DMA straight from it to device memory, or a
// write into it, is refused at the transfer. The device is
// examples/devices/sample_device.mlir as --ktdf-import-target copies it in.

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

#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @store_export(%v: index, %y: index) attributes {grid = [32], ktdf.scratchpad = {L1 = 256 : i64}} {
  ktdf.parallel (%p) in [32] distribute(num_instances = 8) {
    %V = ktdp.construct_memory_view %v, sizes: [64], strides: [1] {coordinate_set = #vec, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [64], strides: [1] {coordinate_set = #vec, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %tv = ktdp.construct_access_tile %V[0] {access_tile_order = #id1, access_tile_set = #vec} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %ty = ktdp.construct_access_tile %Y[0] {access_tile_order = #id1, access_tile_set = #vec} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %e = ktdf.pipeline per_instance modulo(size: 1) -> memref<64xf16, "L1"> {
      %buf = ktdf.private offset 0 export 0 : memref<64xf16, "L1">
      %t = ktdf.stage "load" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
        ktdf.data_transfer %tv to %buf : !ktdp.access_tile<64xindex> to memref<64xf16, "L1">
      }
    }
    ktdf.pipeline modulo(size: 1) {
      ktdf.stage "store" depends_out(0) applicable_units [dma_store] unit "core/MNISU_Block/MNISU" {
        // expected-error @+1 {{a buffer exported by another pipeline can only be read into a FIFO slot or a buffer}}
        ktdf.data_transfer %e to %ty : memref<64xf16, "L1"> to !ktdp.access_tile<64xindex>
      }
    }
  }
  return
}

// -----

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

#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @write_export(%v: index) attributes {grid = [32], ktdf.scratchpad = {L1 = 256 : i64}} {
  ktdf.parallel (%p) in [32] distribute(num_instances = 8) {
    %V = ktdp.construct_memory_view %v, sizes: [64], strides: [1] {coordinate_set = #vec, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %tv = ktdp.construct_access_tile %V[0] {access_tile_order = #id1, access_tile_set = #vec} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %e = ktdf.pipeline per_instance modulo(size: 1) -> memref<64xf16, "L1"> {
      %buf = ktdf.private offset 0 export 0 : memref<64xf16, "L1">
      %t = ktdf.stage "load" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
        ktdf.data_transfer %tv to %buf : !ktdp.access_tile<64xindex> to memref<64xf16, "L1">
      }
    }
    ktdf.pipeline modulo(size: 1) {
      ktdf.stage "reload" depends_out(0) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
        // expected-error @+1 {{a buffer exported by another pipeline can only be read into a FIFO slot or a buffer}}
        ktdf.data_transfer %tv to %e : !ktdp.access_tile<64xindex> to memref<64xf16, "L1">
      }
    }
  }
  return
}

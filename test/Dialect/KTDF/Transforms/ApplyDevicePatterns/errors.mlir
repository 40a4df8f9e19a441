// RUN: ktflow-opt %s --ktdf-apply-device-patterns=checkpoint=after_lunch -split-input-file -verify-diagnostics

// Input: the KTIR ktdf-apply-device-patterns receives, printed once by
// `ktflow-opt KERNEL --ktdf-import-target` from a KTIR kernel.

// expected-error @+1 {{unknown checkpoint 'after_lunch' (expected pre_mapping, pre_scheduling, post_scheduling or post_lowering)}}
module {
  ktdf_arch.device @checkpoint_device attributes {ktdf_arch.clock_mhz = 1000 : i64} {
    %DDR = memory {kind = "DDR", ktdf_arch.bandwidth = 256 : i64, size = 8589934592 : i64}
    group {kind = "core", ktdf_arch.instances = 4 : i64, ktdf_arch.interconnect = {bidirectional, hop_latency = 1 : i64, link_bandwidth = 64 : i64, topology = "ring"}} share(%DDR) {
      %L1 = memory {kind = "L1", ktdf_arch.bandwidth = 512 : i64, size = 1048576 : i64}
      %MNILU_Block = group {kind = "MNILU_Block"} share() {
        %MNILU = exec_unit {kind = "MNILU", ktdf_arch.features = {ktdf_arch.feature.load = {word_size = #ktdf_arch.map<"DDR" = 64, "L1" = 64>}}}
        yield %MNILU
      } -> exec_unit
      %MNISU_Block = group {kind = "MNISU_Block"} share() {
        %MNISU = exec_unit {kind = "MNISU", ktdf_arch.features = {ktdf_arch.feature.store = {word_size = #ktdf_arch.map<"DDR" = 64, "L1" = 64>}}}
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
    patterns ["pre_mapping"] {
      pdl.pattern @widen_exp : benefit(1) {
        %0 = type
        %1 = operand
        %2 = operation "math.exp"(%1 : !pdl.value)  -> (%0 : !pdl.type)
        apply_native_constraint "is_f16"(%1 : !pdl.value)
        rewrite %2 with "widen_to_f32"
      }
    }
    patterns ["pre_scheduling"] {
      pdl.pattern @widen_tanh : benefit(1) {
        %0 = type
        %1 = operand
        %2 = operation "math.tanh"(%1 : !pdl.value)  -> (%0 : !pdl.type)
        apply_native_constraint "is_f16"(%1 : !pdl.value)
        rewrite %2 with "widen_to_f32"
      }
    }
    patterns ["post_scheduling"] {
      pdl.pattern @widen_sqrt : benefit(1) {
        %0 = type
        %1 = operand
        %2 = operation "math.sqrt"(%1 : !pdl.value)  -> (%0 : !pdl.type)
        apply_native_constraint "is_f16"(%1 : !pdl.value)
        rewrite %2 with "widen_to_f32"
      }
    }
    patterns ["post_lowering"] {
      pdl.pattern @widen_log : benefit(1) {
        %0 = type
        %1 = operand
        %2 = operation "math.log"(%1 : !pdl.value)  -> (%0 : !pdl.type)
        apply_native_constraint "is_f16"(%1 : !pdl.value)
        rewrite %2 with "widen_to_f32"
      }
    }
  }
  ktdf_arch.target @checkpoint_device memory_map #ktdf_arch.map<"global" = "DDR">
}

// A copy of examples/devices/sample_device.mlir (device @checkpoint_device)
// whose description carries a PDL pattern for every pipeline checkpoint,
// each widening one f16 operation to f32 with the native rewrite
// "widen_to_f32": math.exp before mapping (on tensors), math.tanh before
// scheduling (in linalg bodies), math.sqrt after scheduling (in chunk
// bodies) and math.log after lowering (in dfir.map bodies).

#DDR   = { kind = "DDR", size = 8589934592, ktdf_arch.bandwidth = 256 }
#L1    = { kind = "L1", size = 1048576, ktdf_arch.bandwidth = 512 }
#RF    = { kind = "SFU_RF", size = 2048 }
#CORE  = { kind = "core", ktdf_arch.instances = 4,
           ktdf_arch.interconnect = { topology = "ring", bidirectional,
                                      link_bandwidth = 64, hop_latency = 1 } }
#SFU   = { kind = "SFU", ktdf_arch.features = { ktdf_arch.feature.compute,
           ktdf_arch.feature.simd = { lanes = #ktdf_arch.map<f16 = 64, f32 = 32, i32 = 32> } } }
#MNILU = { kind = "MNILU", ktdf_arch.features = { ktdf_arch.feature.load = {
           word_size = #ktdf_arch.map<"DDR" = 64, "L1" = 64> } } }
#MNISU = { kind = "MNISU", ktdf_arch.features = { ktdf_arch.feature.store = {
           word_size = #ktdf_arch.map<"DDR" = 64, "L1" = 64> } } }
#L1LU  = { kind = "L1LU", ktdf_arch.features = {
           ktdf_arch.feature.simd = { splat, zero_pad },
           ktdf_arch.feature.load = { word_size = #ktdf_arch.map<"L1" = 64>,
             access_granularity = #ktdf_arch.map<"L1" = [{size_in_words = 64, align_in_words = 64},
                                                         {size_in_words = 2, align_in_words = 2}]> } } }
#L1SU  = { kind = "L1SU", ktdf_arch.features = { ktdf_arch.feature.store = {
           word_size = #ktdf_arch.map<"L1" = 64>,
           access_granularity = #ktdf_arch.map<"L1" = [{size_in_words = 64, align_in_words = 64}]> } } }

// DMA between DDR and L1: 64-byte transfers, 64 B/cycle, 100 cycles to DDR.
#DDR_MNILU = { ktdf_arch.transfer_granularity = array<i64: 64>,
               ktdf_arch.bandwidth = 64, ktdf_arch.latency = 100 }
#MNISU_DDR = { ktdf_arch.transfer_granularity = array<i64: 64>,
               ktdf_arch.bandwidth = 64, ktdf_arch.latency = 100 }
#DMA_L1    = { ktdf_arch.transfer_granularity = array<i64: 64>,
               ktdf_arch.bandwidth = 64, ktdf_arch.latency = 2 }
// L1 ports of a sub-core and the FIFOs to and from its SFU.
#Q16       = { ktdf_arch.features = { ktdf_arch.feature.queue = { depth = 16, ordered } },
               ktdf_arch.transfer_granularity = array<i64: 128>,
               ktdf_arch.bandwidth = 128, ktdf_arch.latency = 4 }
#FIFO16    = { ktdf_arch.features = { ktdf_arch.feature.queue = { depth = 16, ordered } },
               ktdf_arch.bandwidth = 128, ktdf_arch.latency = 1 }
#RF_PORT   = { ktdf_arch.bandwidth = 256, ktdf_arch.latency = 1 }

ktdf_arch.device @checkpoint_device attributes { ktdf_arch.clock_mhz = 1000 } {
  %ddr = memory #DDR
  group #CORE share(%ddr) {
    %l1    = memory #L1
    %mnilu = group { kind = "MNILU_Block" } share() {
      %u = exec_unit #MNILU
      yield %u
    } -> exec_unit                                   // DMA load
    %mnisu = group { kind = "MNISU_Block" } share() {
      %u = exec_unit #MNISU
      yield %u
    } -> exec_unit                                   // DMA store
    datapath #DDR_MNILU %ddr to %mnilu : memory, exec_unit
    datapath #DMA_L1 %mnilu to %l1 : exec_unit, memory
    datapath #DMA_L1 %l1 to %mnisu : memory, exec_unit
    datapath #MNISU_DDR %mnisu to %ddr : exec_unit, memory

    group { kind = "subcore" } share(%l1) {
      %sfu = group { kind = "SFU_Block" } share() {
        %rf = memory #RF
        %u  = exec_unit #SFU
        datapath #RF_PORT %rf to %u : memory, exec_unit
        datapath #RF_PORT %u to %rf : exec_unit, memory
        yield %u
      } -> exec_unit                                 // compute
      %l1lu = exec_unit #L1LU                        // L1 load unit
      %l1su = exec_unit #L1SU                        // L1 store unit
      datapath #Q16 %l1 to %l1lu : memory, exec_unit
      datapath #FIFO16 %l1lu to %sfu : exec_unit, exec_unit
      datapath #FIFO16 %sfu to %l1su : exec_unit, exec_unit
      datapath #Q16 %l1su to %l1 : exec_unit, memory
    }
    group { kind = "subcore" } share(%l1) {
      %sfu = group { kind = "SFU_Block" } share() {
        %rf = memory #RF
        %u  = exec_unit #SFU
        datapath #RF_PORT %rf to %u : memory, exec_unit
        datapath #RF_PORT %u to %rf : exec_unit, memory
        yield %u
      } -> exec_unit
      %l1lu = exec_unit #L1LU
      %l1su = exec_unit #L1SU
      datapath #Q16 %l1 to %l1lu : memory, exec_unit
      datapath #FIFO16 %l1lu to %sfu : exec_unit, exec_unit
      datapath #FIFO16 %sfu to %l1su : exec_unit, exec_unit
      datapath #Q16 %l1su to %l1 : exec_unit, memory
    }
  }

  patterns ["pre_mapping"] {
    pdl.pattern @widen_exp : benefit(1) {
      %t = pdl.type
      %x = pdl.operand
      %op = pdl.operation "math.exp"(%x : !pdl.value) -> (%t : !pdl.type)
      pdl.apply_native_constraint "is_f16"(%x : !pdl.value)
      pdl.rewrite %op with "widen_to_f32"
    }
  }
  patterns ["pre_scheduling"] {
    pdl.pattern @widen_tanh : benefit(1) {
      %t = pdl.type
      %x = pdl.operand
      %op = pdl.operation "math.tanh"(%x : !pdl.value) -> (%t : !pdl.type)
      pdl.apply_native_constraint "is_f16"(%x : !pdl.value)
      pdl.rewrite %op with "widen_to_f32"
    }
  }
  patterns ["post_scheduling"] {
    pdl.pattern @widen_sqrt : benefit(1) {
      %t = pdl.type
      %x = pdl.operand
      %op = pdl.operation "math.sqrt"(%x : !pdl.value) -> (%t : !pdl.type)
      pdl.apply_native_constraint "is_f16"(%x : !pdl.value)
      pdl.rewrite %op with "widen_to_f32"
    }
  }
  patterns ["post_lowering"] {
    pdl.pattern @widen_log : benefit(1) {
      %t = pdl.type
      %x = pdl.operand
      %op = pdl.operation "math.log"(%x : !pdl.value) -> (%t : !pdl.type)
      pdl.apply_native_constraint "is_f16"(%x : !pdl.value)
      pdl.rewrite %op with "widen_to_f32"
    }
  }
}

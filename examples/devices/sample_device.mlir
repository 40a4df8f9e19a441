// The published sample device, with timing added: a DDR shared by a group of
// 4 cores; per core an L1 with DMA load (MNILU) and store (MNISU) units and
// two sub-cores, each with an L1 load unit, an L1 store unit and an SFU
// group (64 f16 lanes and a small register memory); the L1 side of every
// sub-core runs through FIFOs of depth 16. Timing (clock, bandwidths,
// latencies, core count) is ktflow's extension; see
// docs/architecture-description.md. The DMA engines' 4 requests in flight
// (ktdf_arch.max_outstanding) are an estimate, not a published figure.

#DDR   = { kind = "DDR", size = 8589934592, ktdf_arch.bandwidth = 256 }
#L1    = { kind = "L1", size = 1048576, ktdf_arch.bandwidth = 512 }
#RF    = { kind = "SFU_RF", size = 2048 }
#CORE  = { kind = "core", ktdf_arch.instances = 4,
           ktdf_arch.interconnect = { topology = "ring", bidirectional,
                                      link_bandwidth = 64, hop_latency = 1 } }
#SFU   = { kind = "SFU", ktdf_arch.features = { ktdf_arch.feature.compute,
           ktdf_arch.feature.simd = { lanes = #ktdf_arch.map<f16 = 64, f32 = 32, i32 = 32> } } }
#MNILU = { kind = "MNILU", ktdf_arch.max_outstanding = 4, ktdf_arch.features = { ktdf_arch.feature.load = {
           word_size = #ktdf_arch.map<"DDR" = 64, "L1" = 64> } } }
#MNISU = { kind = "MNISU", ktdf_arch.max_outstanding = 4, ktdf_arch.features = { ktdf_arch.feature.store = {
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

ktdf_arch.device @sample_device attributes { ktdf_arch.clock_mhz = 1000 } {
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

  // The SFU has no f16 exponential: widen it to f32 before scheduling.
  patterns ["pre_scheduling"] {
    pdl.pattern @widen_f16_exp : benefit(1) {
      %f16 = pdl.type : f16
      %x = pdl.operand : %f16
      %exp = pdl.operation "math.exp"(%x : !pdl.value) -> (%f16 : !pdl.type)
      pdl.rewrite %exp with "widen_to_f32"
    }
  }
}

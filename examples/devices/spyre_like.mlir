// A Spyre-like device (facts from docs/ktir-reference.md §6): 32 cores on a
// bidirectional ring at 128 B/cycle per direction; per core a 2 MiB
// scratchpad (LX) shared by 2 corelets; each corelet an 8×8 systolic matrix
// engine (PT) and a 64-lane fp16 vector unit (SFP); data moves between
// device memory and LX in 128-byte sticks (64 fp16 values).
//
// Not published, stated here as estimates: a 1 GHz clock, and device memory
// (128 GiB LPDDR5) at 1024 B/cycle (about 1 TB/s, the figure ktir-cpu uses);
// the matrix engine's rate is the default of one 8×8 MAC wave per cycle;
// the vector unit also computes f32 (the spyreop intrinsics it runs take
// f32 operands, ktir-reference §2), estimated as pairs of its f16 lanes:
// 32 f32 lanes at half the f16 rates; the DMA engines keep 8 requests in
// flight (ktdf_arch.max_outstanding).

#DDR  = { kind = "DDR", size = 137438953472, ktdf_arch.bandwidth = 1024 }
#LX   = { kind = "LX", size = 2097152 }
#CORE = { kind = "core", ktdf_arch.instances = 32,
          ktdf_arch.interconnect = { topology = "ring", bidirectional,
                                     link_bandwidth = 128, hop_latency = 1 } }
#CORELET = { kind = "corelet", ktdf_arch.instances = 2 }

#DMA_IN  = { kind = "DMA_IN", ktdf_arch.max_outstanding = 8, ktdf_arch.features = { ktdf_arch.feature.load = {
             word_size = #ktdf_arch.map<"DDR" = 128, "LX" = 128> } } }
#DMA_OUT = { kind = "DMA_OUT", ktdf_arch.max_outstanding = 8, ktdf_arch.features = { ktdf_arch.feature.store = {
             word_size = #ktdf_arch.map<"DDR" = 128, "LX" = 128> } } }
#LXLU    = { kind = "LXLU", ktdf_arch.features = { ktdf_arch.feature.load = {
             word_size = #ktdf_arch.map<"LX" = 128> } } }
#LXSU    = { kind = "LXSU", ktdf_arch.features = { ktdf_arch.feature.store = {
             word_size = #ktdf_arch.map<"LX" = 128> } } }
#PT      = { kind = "PT", ktdf_arch.features = { ktdf_arch.feature.compute,
             ktdf_arch.feature.matrix = { shape = array<i64: 8, 8, 8>, dtypes = [f16] } } }
#SFP     = { kind = "SFP", ktdf_arch.features = { ktdf_arch.feature.compute,
             ktdf_arch.feature.simd = { lanes = #ktdf_arch.map<f16 = 64, f32 = 32> },
             ktdf_arch.feature.throughput = {
               elementwise = #ktdf_arch.map<f16 = 64, f32 = 32>,
               transcendental = #ktdf_arch.map<f16 = 8, f32 = 4>,
               reduction = #ktdf_arch.map<f16 = 64, f32 = 32> } } }

// One 128-byte stick per cycle between device memory and LX.
#STICK    = { ktdf_arch.transfer_granularity = array<i64: 128>,
              ktdf_arch.bandwidth = 128, ktdf_arch.latency = 150 }
#DMA_LX   = { ktdf_arch.transfer_granularity = array<i64: 128>,
              ktdf_arch.bandwidth = 128, ktdf_arch.latency = 2 }
#LX_PORT  = { ktdf_arch.transfer_granularity = array<i64: 128>,
              ktdf_arch.bandwidth = 128, ktdf_arch.latency = 3 }
#FIFO8    = { ktdf_arch.features = { ktdf_arch.feature.queue = { depth = 8, ordered } },
              ktdf_arch.bandwidth = 128, ktdf_arch.latency = 1 }

ktdf_arch.device @spyre_like attributes { ktdf_arch.clock_mhz = 1000 } {
  %ddr = memory #DDR
  group #CORE share(%ddr) {
    %lx   = memory #LX
    %dmai = exec_unit #DMA_IN
    %dmao = exec_unit #DMA_OUT
    datapath #STICK %ddr to %dmai : memory, exec_unit
    datapath #DMA_LX %dmai to %lx : exec_unit, memory
    datapath #DMA_LX %lx to %dmao : memory, exec_unit
    datapath #STICK %dmao to %ddr : exec_unit, memory

    group #CORELET share(%lx) {
      %ld  = exec_unit #LXLU
      %st  = exec_unit #LXSU
      %pt  = exec_unit #PT
      %sfp = exec_unit #SFP
      datapath #LX_PORT %lx to %ld : memory, exec_unit
      datapath #FIFO8 %ld to %pt : exec_unit, exec_unit
      datapath #FIFO8 %ld to %sfp : exec_unit, exec_unit
      datapath #FIFO8 %pt to %sfp : exec_unit, exec_unit
      datapath #FIFO8 %pt to %st : exec_unit, exec_unit
      datapath #FIFO8 %sfp to %st : exec_unit, exec_unit
      datapath #LX_PORT %st to %lx : exec_unit, memory
    }
  }
}

// A copy of examples/devices/spyre_like.mlir (device @f16_vector_device)
// whose vector unit (SFP) computes f16 only: no f32 lanes and no f32 rates.
// Kernels with f32 arithmetic must be refused at the KTIR op.

#DDR  = { kind = "DDR", size = 137438953472, ktdf_arch.bandwidth = 1024 }
#LX   = { kind = "LX", size = 2097152 }
#CORE = { kind = "core", ktdf_arch.instances = 32,
          ktdf_arch.interconnect = { topology = "ring", bidirectional,
                                     link_bandwidth = 128, hop_latency = 1 } }
#CORELET = { kind = "corelet", ktdf_arch.instances = 2 }

#DMA_IN  = { kind = "DMA_IN", ktdf_arch.features = { ktdf_arch.feature.load = {
             word_size = #ktdf_arch.map<"DDR" = 128, "LX" = 128> } } }
#DMA_OUT = { kind = "DMA_OUT", ktdf_arch.features = { ktdf_arch.feature.store = {
             word_size = #ktdf_arch.map<"DDR" = 128, "LX" = 128> } } }
#LXLU    = { kind = "LXLU", ktdf_arch.features = { ktdf_arch.feature.load = {
             word_size = #ktdf_arch.map<"LX" = 128> } } }
#LXSU    = { kind = "LXSU", ktdf_arch.features = { ktdf_arch.feature.store = {
             word_size = #ktdf_arch.map<"LX" = 128> } } }
#PT      = { kind = "PT", ktdf_arch.features = { ktdf_arch.feature.compute,
             ktdf_arch.feature.matrix = { shape = array<i64: 8, 8, 8>, dtypes = [f16] } } }
#SFP     = { kind = "SFP", ktdf_arch.features = { ktdf_arch.feature.compute,
             ktdf_arch.feature.simd = { lanes = #ktdf_arch.map<f16 = 64> },
             ktdf_arch.feature.throughput = {
               elementwise = #ktdf_arch.map<f16 = 64>,
               transcendental = #ktdf_arch.map<f16 = 8>,
               reduction = #ktdf_arch.map<f16 = 64> } } }

// One 128-byte stick per cycle between device memory and LX.
#STICK    = { ktdf_arch.transfer_granularity = array<i64: 128>,
              ktdf_arch.bandwidth = 128, ktdf_arch.latency = 150 }
#DMA_LX   = { ktdf_arch.transfer_granularity = array<i64: 128>,
              ktdf_arch.bandwidth = 128, ktdf_arch.latency = 2 }
#LX_PORT  = { ktdf_arch.transfer_granularity = array<i64: 128>,
              ktdf_arch.bandwidth = 128, ktdf_arch.latency = 3 }
#FIFO8    = { ktdf_arch.features = { ktdf_arch.feature.queue = { depth = 8, ordered } },
              ktdf_arch.bandwidth = 128, ktdf_arch.latency = 1 }

ktdf_arch.device @f16_vector_device attributes { ktdf_arch.clock_mhz = 1000 } {
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

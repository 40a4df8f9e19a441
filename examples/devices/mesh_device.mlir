// A device unlike the other two, to show that nothing about them is built
// in: 16 cores in a 4×4 mesh (64 B/cycle links, 2 cycles per hop), no
// sub-cores, a 512 KiB scratchpad (SPM) per core, one DMA engine per core
// that both loads and stores, a 16-lane f32 / 32-lane f16 vector unit, a
// 16×16×4 bf16/f16 matrix unit, FIFOs of depth 64, a 1.5 GHz clock and
// 16 GiB of HBM at 512 B/cycle. The DMA engine's 4 requests in flight
// (ktdf_arch.max_outstanding) are an estimate.

#HBM  = { kind = "HBM", size = 17179869184, ktdf_arch.bandwidth = 512 }
#SPM  = { kind = "SPM", size = 524288, ktdf_arch.bandwidth = 256 }
#TILE = { kind = "tile", ktdf_arch.instances = 16,
          ktdf_arch.interconnect = { topology = "mesh", dims = array<i64: 4, 4>,
                                     link_bandwidth = 64, hop_latency = 2 } }

#DMA = { kind = "DMA", ktdf_arch.max_outstanding = 4, ktdf_arch.features = {
         ktdf_arch.feature.load = { word_size = #ktdf_arch.map<"HBM" = 64, "SPM" = 64> },
         ktdf_arch.feature.store = { word_size = #ktdf_arch.map<"HBM" = 64, "SPM" = 64> } } }
#VLD = { kind = "VLD", ktdf_arch.features = { ktdf_arch.feature.load } }
#VST = { kind = "VST", ktdf_arch.features = { ktdf_arch.feature.store } }
#VPU = { kind = "VPU", ktdf_arch.features = { ktdf_arch.feature.compute,
         ktdf_arch.feature.simd = { lanes = #ktdf_arch.map<f32 = 16, f16 = 32> } } }
#MXU = { kind = "MXU", ktdf_arch.features = { ktdf_arch.feature.compute,
         ktdf_arch.feature.matrix = { shape = array<i64: 16, 16, 4>, dtypes = [bf16, f16] },
         ktdf_arch.feature.throughput = { matrix = #ktdf_arch.map<f16 = 128> } } }

#HBM_LINK = { ktdf_arch.transfer_granularity = array<i64: 64, 256>,
              ktdf_arch.bandwidth = 64, ktdf_arch.latency = 80 }
#DMA_SPM  = { ktdf_arch.bandwidth = 64, ktdf_arch.latency = 2 }
#SPM_PORT = { ktdf_arch.bandwidth = 128, ktdf_arch.latency = 2 }
#FIFO64   = { ktdf_arch.features = { ktdf_arch.feature.queue = { depth = 64 } } }

ktdf_arch.device @mesh_device attributes { ktdf_arch.clock_mhz = 1500 } {
  %hbm = memory #HBM
  group #TILE share(%hbm) {
    %spm = memory #SPM
    %dma = exec_unit #DMA
    datapath #HBM_LINK %hbm to %dma : memory, exec_unit
    datapath #DMA_SPM %dma to %spm : exec_unit, memory
    datapath #DMA_SPM %spm to %dma : memory, exec_unit
    datapath #HBM_LINK %dma to %hbm : exec_unit, memory

    %vld = exec_unit #VLD
    %vst = exec_unit #VST
    %vpu = exec_unit #VPU
    %mxu = exec_unit #MXU
    datapath #SPM_PORT %spm to %vld : memory, exec_unit
    datapath #FIFO64 %vld to %vpu : exec_unit, exec_unit
    datapath #FIFO64 %vld to %mxu : exec_unit, exec_unit
    datapath #FIFO64 %mxu to %vpu : exec_unit, exec_unit
    datapath #FIFO64 %mxu to %vst : exec_unit, exec_unit
    datapath #FIFO64 %vpu to %vst : exec_unit, exec_unit
    datapath #SPM_PORT %vst to %spm : exec_unit, memory
  }
}

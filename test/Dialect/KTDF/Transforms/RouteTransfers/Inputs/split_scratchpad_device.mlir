// sample_device with the scratchpad split in two: the DMA load unit fills
// L1A, which the compute unit is fed from, and the compute unit drains
// into L1B, which the DMA store unit empties. No unit that reads device
// memory fills L1B, so a scatter's indices cannot be staged where MNISU
// reads them.
#DDR   = { kind = "DDR", size = 8589934592, ktdf_arch.bandwidth = 256 }
#L1    = { kind = "L1", size = 1048576, ktdf_arch.bandwidth = 512 }
#L1B   = { kind = "L1B", size = 1048576, ktdf_arch.bandwidth = 512 }
#CORE  = { kind = "core", ktdf_arch.instances = 4 }
#SFU   = { kind = "SFU", ktdf_arch.features = { ktdf_arch.feature.compute,
           ktdf_arch.feature.simd = { lanes = #ktdf_arch.map<f16 = 64, f32 = 32> } } }
#MNILU = { kind = "MNILU", ktdf_arch.features = { ktdf_arch.feature.load = {
           word_size = #ktdf_arch.map<"DDR" = 64, "L1" = 64> } } }
#MNISU = { kind = "MNISU", ktdf_arch.features = { ktdf_arch.feature.store = {
           word_size = #ktdf_arch.map<"DDR" = 64, "L1B" = 64> } } }
#L1LU  = { kind = "L1LU", ktdf_arch.features = { ktdf_arch.feature.load = { word_size = #ktdf_arch.map<"L1" = 64> } } }
#L1SU  = { kind = "L1SU", ktdf_arch.features = { ktdf_arch.feature.store = { word_size = #ktdf_arch.map<"L1B" = 64> } } }
#DMA   = { ktdf_arch.bandwidth = 64, ktdf_arch.latency = 100 }
#PORT  = { ktdf_arch.bandwidth = 64, ktdf_arch.latency = 2 }
#FIFO  = { ktdf_arch.features = { ktdf_arch.feature.queue = { depth = 16, ordered } },
           ktdf_arch.bandwidth = 128, ktdf_arch.latency = 1 }
ktdf_arch.device @split_scratchpad attributes { ktdf_arch.clock_mhz = 1000 } {
  %ddr = memory #DDR
  group #CORE share(%ddr) {
    %l1 = memory #L1
    %l1b = memory #L1B
    %mnilu = exec_unit #MNILU
    %mnisu = exec_unit #MNISU
    %sfu = exec_unit #SFU
    %l1lu = exec_unit #L1LU
    %l1su = exec_unit #L1SU
    datapath #DMA %ddr to %mnilu : memory, exec_unit
    datapath #PORT %mnilu to %l1 : exec_unit, memory
    datapath #PORT %l1 to %l1lu : memory, exec_unit
    datapath #FIFO %l1lu to %sfu : exec_unit, exec_unit
    datapath #FIFO %sfu to %l1su : exec_unit, exec_unit
    datapath #PORT %l1su to %l1b : exec_unit, memory
    datapath #PORT %l1b to %mnisu : memory, exec_unit
    datapath #DMA %mnisu to %ddr : exec_unit, memory
  }
}

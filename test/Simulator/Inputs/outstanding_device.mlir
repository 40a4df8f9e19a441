// A one-core device for test/Simulator/dma-outstanding.mlir: DDR and L1,
// one DMA engine that keeps 4 transfers in flight and one that waits for
// each (default), each with its own datapaths (64 B/cycle; DDR side 100
// cycles, L1 side 2 cycles of latency). DDR states no bandwidth, so the
// two engines never contend.

#DDR = { kind = "DDR", size = 1048576 }
#L1  = { kind = "L1", size = 65536 }
#FAR  = { ktdf_arch.bandwidth = 64, ktdf_arch.latency = 100 }
#NEAR = { ktdf_arch.bandwidth = 64, ktdf_arch.latency = 2 }

ktdf_arch.device @outstanding_device {
  %ddr = memory #DDR
  group { kind = "core" } share(%ddr) {
    %l1 = memory #L1
    %fast = exec_unit { kind = "FAST", ktdf_arch.max_outstanding = 4,
                        ktdf_arch.features = { ktdf_arch.feature.load, ktdf_arch.feature.store } }
    %slow = exec_unit { kind = "SLOW",
                        ktdf_arch.features = { ktdf_arch.feature.load, ktdf_arch.feature.store } }
    datapath #FAR %ddr to %fast : memory, exec_unit
    datapath #NEAR %fast to %l1 : exec_unit, memory
    datapath #NEAR %l1 to %fast : memory, exec_unit
    datapath #FAR %fast to %ddr : exec_unit, memory
    datapath #FAR %ddr to %slow : memory, exec_unit
    datapath #NEAR %slow to %l1 : exec_unit, memory
    datapath #NEAR %l1 to %slow : memory, exec_unit
    datapath #FAR %slow to %ddr : exec_unit, memory
  }
}

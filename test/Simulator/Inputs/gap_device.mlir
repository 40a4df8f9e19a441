// A one-core device for test/Simulator/reservation-gap.mlir: DDR at 32
// B/cycle and L1 at 64 B/cycle with bandwidths of their own, two DMA
// engines A and B between them (32 B/cycle datapaths; DDR side 10 cycles
// of latency, L1 side 2) and an engine C that copies L1 to a second
// scratchpad L2 (no bandwidth of its own) over 64 B/cycle datapaths of 1
// cycle.

#DDR = { kind = "DDR", size = 1048576, ktdf_arch.bandwidth = 32 }
#L1  = { kind = "L1", size = 65536, ktdf_arch.bandwidth = 64 }
#L2  = { kind = "L2", size = 65536 }
#FAR  = { ktdf_arch.bandwidth = 32, ktdf_arch.latency = 10 }
#NEAR = { ktdf_arch.bandwidth = 32, ktdf_arch.latency = 2 }
#PORT = { ktdf_arch.bandwidth = 64, ktdf_arch.latency = 1 }

ktdf_arch.device @gap_device {
  %ddr = memory #DDR
  group { kind = "core" } share(%ddr) {
    %l1 = memory #L1
    %l2 = memory #L2
    %a = exec_unit { kind = "A",
                     ktdf_arch.features = { ktdf_arch.feature.load, ktdf_arch.feature.store } }
    %b = exec_unit { kind = "B",
                     ktdf_arch.features = { ktdf_arch.feature.load, ktdf_arch.feature.store } }
    %c = exec_unit { kind = "C",
                     ktdf_arch.features = { ktdf_arch.feature.load, ktdf_arch.feature.store } }
    datapath #FAR %ddr to %a : memory, exec_unit
    datapath #NEAR %a to %l1 : exec_unit, memory
    datapath #FAR %ddr to %b : memory, exec_unit
    datapath #NEAR %b to %l1 : exec_unit, memory
    datapath #PORT %l1 to %c : memory, exec_unit
    datapath #PORT %c to %l2 : exec_unit, memory
  }
}

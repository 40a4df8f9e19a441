// RUN: ktflow-opt %s -verify-diagnostics --ktdf-test-routing-graph

// The routes the scheduler finds between memories and compute units
// (include/ktflow/Device/RoutingGraph.h), reported by the test pass on a
// device drawn for it. Expected by hand:
//
// DDR to VPU: through DMA (latency 100 + 2) or PREFETCH (50 + 2), then
// L1 -> LU -> VPU (4 + 1): both 4 hops, PREFETCH's is shorter, 57 cycles;
// its narrowest datapath is DDR -> PREFETCH (32 bytes per cycle), its
// shallowest queue LU -> VPU (8). LU and LU2 feed VPU alike: the tie goes
// to LU, written first. Back: VPU -> SU -> L1 -> DMA -> DDR, 1 + 4 + 2 +
// 100 = 107 cycles at 64 bytes per cycle (PREFETCH only loads). MPU is fed
// only by VPU, and a route may not pass through a compute unit: nothing
// reaches it from a memory, though it drains through SU like VPU.
//
// From either memory SU and MPU are unreachable (only compute units feed
// them); LU and LU2 reach no memory (only through VPU). The verifier
// refuses a unit with no route to or from any memory, so no unit of a
// device that parses is isolated.

#DDR = {kind = "DDR", size = 1048576}
#L1 = {kind = "L1", size = 65536}
#DMA = {kind = "DMA", ktdf_arch.features = {ktdf_arch.feature.load, ktdf_arch.feature.store}}
#PREFETCH = {kind = "PREFETCH", ktdf_arch.features = {ktdf_arch.feature.load}}
#LU = {kind = "LU", ktdf_arch.features = {ktdf_arch.feature.load}}
#LU2 = {kind = "LU2", ktdf_arch.features = {ktdf_arch.feature.load}}
#SU = {kind = "SU", ktdf_arch.features = {ktdf_arch.feature.store}}
#VPU = {kind = "VPU", ktdf_arch.features = {ktdf_arch.feature.compute,
        ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 32>}}}
#MPU = {kind = "MPU", ktdf_arch.features = {ktdf_arch.feature.compute,
        ktdf_arch.feature.simd = {lanes = #ktdf_arch.map<f16 = 32>}}}
#SLOW = {ktdf_arch.bandwidth = 64, ktdf_arch.latency = 100}
#QUICK = {ktdf_arch.bandwidth = 32, ktdf_arch.latency = 50}
#NEAR = {ktdf_arch.bandwidth = 64, ktdf_arch.latency = 2}
#Q16 = {ktdf_arch.bandwidth = 128, ktdf_arch.latency = 4, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16}}}
#Q8 = {ktdf_arch.bandwidth = 128, ktdf_arch.latency = 1, ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 8}}}
// expected-remark @+1 {{isolated units: []}}
ktdf_arch.device @routes {
  // expected-remark @+1 {{unreachable from it: [core/SU, core/MPU]; not reaching it: [core/LU, core/LU2]}}
  %ddr = memory #DDR
  group {kind = "core"} share(%ddr) {
    // expected-remark @+1 {{unreachable from it: [core/SU, core/MPU]; not reaching it: [core/LU, core/LU2]}}
    %l1 = memory #L1
    %dma = exec_unit #DMA
    %prefetch = exec_unit #PREFETCH
    %lu = exec_unit #LU
    %lu2 = exec_unit #LU2
    %su = exec_unit #SU
    // expected-remark @+1 {{from DDR: DDR -> core/PREFETCH -> core/L1 -> core/LU -> core/VPU, 4 hops, latency 57, bandwidth 32, fifo depth 8; to DDR: core/VPU -> core/SU -> core/L1 -> core/DMA -> DDR, 4 hops, latency 107, bandwidth 64, fifo depth 8; from core/L1: core/L1 -> core/LU -> core/VPU, 2 hops, latency 5, bandwidth 128, fifo depth 8; to core/L1: core/VPU -> core/SU -> core/L1, 2 hops, latency 5, bandwidth 128, fifo depth 8}}
    %vpu = exec_unit #VPU
    // expected-remark @+1 {{from DDR: none; to DDR: core/MPU -> core/SU -> core/L1 -> core/DMA -> DDR, 4 hops, latency 107, bandwidth 64, fifo depth 8; from core/L1: none; to core/L1: core/MPU -> core/SU -> core/L1, 2 hops, latency 5, bandwidth 128, fifo depth 8}}
    %mpu = exec_unit #MPU
    datapath #SLOW %ddr to %dma : memory, exec_unit
    datapath #NEAR %dma to %l1 : exec_unit, memory
    datapath #QUICK %ddr to %prefetch : memory, exec_unit
    datapath #NEAR %prefetch to %l1 : exec_unit, memory
    datapath #Q16 %l1 to %lu : memory, exec_unit
    datapath #Q8 %lu to %vpu : exec_unit, exec_unit
    datapath #Q16 %l1 to %lu2 : memory, exec_unit
    datapath #Q8 %lu2 to %vpu : exec_unit, exec_unit
    datapath #Q8 %vpu to %su : exec_unit, exec_unit
    datapath #Q16 %su to %l1 : exec_unit, memory
    datapath #NEAR %l1 to %dma : memory, exec_unit
    datapath #SLOW %dma to %ddr : exec_unit, memory
    datapath #Q8 %vpu to %mpu : exec_unit, exec_unit
    datapath #Q8 %mpu to %su : exec_unit, exec_unit
  }
}

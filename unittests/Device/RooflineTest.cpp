//===- RooflineTest.cpp - Peak figures of the shipped devices -------------===//
//
// This file checks Roofline against figures computed by hand from the three
// shipped descriptions (the arithmetic is written next to each expectation)
// and against interconnects of every topology.
//
//===----------------------------------------------------------------------===//

#include "DeviceTestSupport.h"

#include "ktflow/Device/Roofline.h"

#include "mlir/IR/BuiltinTypes.h"
#include "gmock/gmock.h"

using namespace ktflow::device;
using mlir::ktdf_arch::OpClass;
using mlir::ktdf_arch::Topology;
using ktflow::device::testing::DeviceTest;

namespace {

class RooflineTest : public DeviceTest {
protected:
  const MemoryPeak &memoryPeak(const Roofline &roofline, llvm::StringRef name) {
    const MemoryPeak *peak = roofline.getMemoryPeak(node(name));
    EXPECT_TRUE(peak);
    static const MemoryPeak none;
    return peak ? *peak : none;
  }

  /// {per core, per device}, or {-1, -1} when the device has no such peak.
  std::pair<double, double> compute(const Roofline &roofline, OpClass cls,
                                    mlir::Type dtype) {
    const ComputePeak *peak = roofline.getComputePeak(cls, dtype);
    return peak ? std::make_pair(peak->perCore, peak->perDevice)
                : std::make_pair(-1.0, -1.0);
  }

  mlir::Type f16() { return mlir::Float16Type::get(&context); }
  mlir::Type bf16() { return mlir::BFloat16Type::get(&context); }
  mlir::Type f32() { return mlir::Float32Type::get(&context); }
  mlir::Type i32() { return mlir::IntegerType::get(&context, 32); }
};

using Peak = std::pair<double, double>;

TEST_F(RooflineTest, SampleDevice) {
  ASSERT_TRUE(loadExample("sample_device"));
  Roofline roofline(*model);

  // DDR: 4 cores x 64 B/cycle each way = 256 + 256, capped at the stated 256.
  const MemoryPeak &ddr = memoryPeak(roofline, "DDR");
  EXPECT_EQ(ddr.readBytesPerCycle, 256.0);
  EXPECT_EQ(ddr.writeBytesPerCycle, 256.0);
  EXPECT_EQ(ddr.totalBytesPerCycle, 256.0);
  EXPECT_EQ(ddr.statedBandwidth, 256.0);
  // L1 reads: 64 (MNISU) + 2 x 128 (L1LU) = 320; writes: 64 + 2 x 128 = 320;
  // 640 together, capped at the stated 512.
  const MemoryPeak &l1 = memoryPeak(roofline, "core/L1");
  EXPECT_EQ(l1.readBytesPerCycle, 320.0);
  EXPECT_EQ(l1.writeBytesPerCycle, 320.0);
  EXPECT_EQ(l1.totalBytesPerCycle, 512.0);
  // Register memory: one 256 B/cycle port each way, no stated cap.
  const MemoryPeak &rf = memoryPeak(roofline, "core/subcore[1]/SFU_Block/SFU_RF");
  EXPECT_EQ(rf.totalBytesPerCycle, 512.0);
  EXPECT_FALSE(rf.statedBandwidth);

  // Device memory: 256 for the device; per core min(64 + 64, 256 / 4) = 64.
  EXPECT_EQ(roofline.getDeviceMemoryBytesPerCycle(), 256.0);
  EXPECT_EQ(roofline.getDeviceMemoryBytesPerCyclePerCore(), 64.0);

  // Two SFUs per core, 64 f16 / 32 f32 / 32 i32 lanes; 4 cores.
  EXPECT_EQ(compute(roofline, OpClass::Elementwise, f16()), Peak(128, 512));
  EXPECT_EQ(compute(roofline, OpClass::Elementwise, f32()), Peak(64, 256));
  EXPECT_EQ(compute(roofline, OpClass::Reduction, i32()), Peak(64, 256));
  // Transcendental default lanes / 4: 2 x 16 per core; none for i32.
  EXPECT_EQ(compute(roofline, OpClass::Transcendental, f16()), Peak(32, 128));
  EXPECT_EQ(compute(roofline, OpClass::Transcendental, i32()), Peak(-1, -1));
  // No matrix unit: matrix products at the SFUs' f32 lanes, 2 x 32.
  EXPECT_EQ(compute(roofline, OpClass::Matrix, f16()), Peak(64, 256));
  // Ridge: 128 elements per cycle over 64 bytes per cycle.
  EXPECT_EQ(roofline.getRidgePoint(OpClass::Elementwise, f16()), 2.0);
  EXPECT_EQ(roofline.getRidgePoint(OpClass::Matrix, f16()), 1.0);

  // Ring of 4, both ways: 2 hops across, 2 links x 64 B/cycle cut.
  ASSERT_EQ(roofline.getInterconnects().size(), 1u);
  const InterconnectPeak &ring = roofline.getInterconnects()[0].second;
  EXPECT_EQ(ring.endpoints, 4);
  EXPECT_EQ(ring.diameterHops, 2);
  EXPECT_EQ(ring.bisectionBytesPerCycle, 128.0);
}

TEST_F(RooflineTest, SpyreLikeDevice) {
  ASSERT_TRUE(loadExample("spyre_like"));
  Roofline roofline(*model);

  // DDR: 32 x 128 = 4096 each way, capped at the stated 1024.
  const MemoryPeak &ddr = memoryPeak(roofline, "DDR");
  EXPECT_EQ(ddr.readBytesPerCycle, 1024.0);
  EXPECT_EQ(ddr.totalBytesPerCycle, 1024.0);
  // LX: reads 128 (DMA_OUT) + 2 corelets x 128 (LXLU) = 384, writes alike.
  const MemoryPeak &lx = memoryPeak(roofline, "core/LX");
  EXPECT_EQ(lx.readBytesPerCycle, 384.0);
  EXPECT_EQ(lx.writeBytesPerCycle, 384.0);
  EXPECT_EQ(lx.totalBytesPerCycle, 768.0);
  // Per core min(128 + 128, 1024 / 32) = 32.
  EXPECT_EQ(roofline.getDeviceMemoryBytesPerCycle(), 1024.0);
  EXPECT_EQ(roofline.getDeviceMemoryBytesPerCyclePerCore(), 32.0);

  // 8x8 PT: 64 MAC/cycle by default, 2 per core, 64 in the device.
  EXPECT_EQ(compute(roofline, OpClass::Matrix, f16()), Peak(128, 4096));
  EXPECT_EQ(roofline.getRidgePoint(OpClass::Matrix, f16()), 4.0);
  // The PT does not multiply f32: f32 products run on the SFPs, one
  // multiply-accumulate per f32 lane, 2 x 32 per core, 64 x 32 in all.
  EXPECT_EQ(compute(roofline, OpClass::Matrix, f32()), Peak(64, 2048));
  // SFP: 64 f16 lanes, 32 f32; transcendental stated as 8 (f32: 4) per
  // cycle; 2 corelets per core, 32 cores.
  EXPECT_EQ(compute(roofline, OpClass::Elementwise, f16()), Peak(128, 4096));
  EXPECT_EQ(compute(roofline, OpClass::Transcendental, f16()), Peak(16, 512));
  EXPECT_EQ(compute(roofline, OpClass::Elementwise, f32()), Peak(64, 2048));
  EXPECT_EQ(compute(roofline, OpClass::Transcendental, f32()), Peak(8, 256));
  // No i32 rates: the SFP cannot compute integers.
  EXPECT_EQ(compute(roofline, OpClass::Elementwise, i32()), Peak(-1, -1));

  // Ring of 32, both ways, 128 B/cycle per direction.
  ASSERT_EQ(roofline.getInterconnects().size(), 1u);
  const InterconnectPeak &ring = roofline.getInterconnects()[0].second;
  EXPECT_EQ(ring.spec.topology, Topology::Ring);
  EXPECT_TRUE(ring.spec.bidirectional);
  EXPECT_EQ(ring.endpoints, 32);
  EXPECT_EQ(ring.diameterHops, 16);
  EXPECT_EQ(ring.bisectionBytesPerCycle, 256.0);
}

TEST_F(RooflineTest, MeshDevice) {
  ASSERT_TRUE(loadExample("mesh_device"));
  Roofline roofline(*model);
  EXPECT_EQ(model->getClockMHz(), 1500.0);

  // HBM: 16 x 64 each way, capped at 512. SPM: reads 64 (DMA) + 128 (VLD)
  // = 192, writes 64 + 128 = 192, together capped at the stated 256.
  EXPECT_EQ(memoryPeak(roofline, "HBM").totalBytesPerCycle, 512.0);
  const MemoryPeak &spm = memoryPeak(roofline, "tile/SPM");
  EXPECT_EQ(spm.readBytesPerCycle, 192.0);
  EXPECT_EQ(spm.writeBytesPerCycle, 192.0);
  EXPECT_EQ(spm.totalBytesPerCycle, 256.0);
  // Per core min(64 + 64, 512 / 16) = 32.
  EXPECT_EQ(roofline.getDeviceMemoryBytesPerCyclePerCore(), 32.0);

  // MXU 16x16x4: bf16 by default 16 x 16 = 256, f16 stated 128.
  EXPECT_EQ(compute(roofline, OpClass::Matrix, bf16()), Peak(256, 4096));
  EXPECT_EQ(compute(roofline, OpClass::Matrix, f16()), Peak(128, 2048));
  EXPECT_EQ(roofline.getRidgePoint(OpClass::Matrix, bf16()), 8.0);
  // f32 products, which the MXU does not run, at the VPUs' 16 f32 lanes.
  EXPECT_EQ(compute(roofline, OpClass::Matrix, f32()), Peak(16, 256));
  // VPU: 16 f32 lanes, 32 f16 lanes; transcendental f32 = 16 / 4.
  EXPECT_EQ(compute(roofline, OpClass::Elementwise, f32()), Peak(16, 256));
  EXPECT_EQ(compute(roofline, OpClass::Reduction, f16()), Peak(32, 512));
  EXPECT_EQ(compute(roofline, OpClass::Transcendental, f32()), Peak(4, 64));
  EXPECT_EQ(roofline.getRidgePoint(OpClass::Transcendental, f32()), 0.125);

  // 4x4 mesh: 3 + 3 hops across; a cut between columns 2 and 3 crosses 4
  // links of 64 B/cycle.
  const InterconnectPeak &mesh = roofline.getInterconnects()[0].second;
  EXPECT_EQ(mesh.spec.topology, Topology::Mesh);
  EXPECT_EQ(mesh.diameterHops, 6);
  EXPECT_EQ(mesh.bisectionBytesPerCycle, 256.0);
}

TEST_F(RooflineTest, CrossbarAndOneWayRing) {
  ASSERT_TRUE(loadSource(R"mlir(
    ktdf_arch.device @links {
      %m = memory { kind = "M", size = 64 }
      group { kind = "cluster", ktdf_arch.instances = 8,
              ktdf_arch.interconnect = { topology = "crossbar", link_bandwidth = 32 } } share(%m) {
        group { kind = "core", ktdf_arch.instances = 5,
                ktdf_arch.interconnect = { topology = "ring", link_bandwidth = 16, hop_latency = 4 } } share(%m) {
          %s = memory { kind = "S", size = 8 }
          %u = exec_unit { kind = "U" }
          datapath %m to %u : memory, exec_unit
          datapath %u to %s : exec_unit, memory
        }
      }
    }
  )mlir"));
  Roofline roofline(*model);
  // The core is the level that first defines a memory: 8 x 5 = 40 cores.
  EXPECT_EQ(model->getNumCores(), 40);
  ASSERT_EQ(roofline.getInterconnects().size(), 2u);
  const InterconnectPeak &crossbar = roofline.getInterconnects()[0].second;
  EXPECT_EQ(crossbar.endpoints, 8);
  EXPECT_EQ(crossbar.diameterHops, 1);
  EXPECT_EQ(crossbar.bisectionBytesPerCycle, 4 * 32.0);
  const InterconnectPeak &ring = roofline.getInterconnects()[1].second;
  EXPECT_FALSE(ring.spec.bidirectional);
  EXPECT_EQ(ring.spec.hopLatency, 4);
  EXPECT_EQ(ring.diameterHops, 4);
  EXPECT_EQ(ring.bisectionBytesPerCycle, 16.0);
  // M feeds 40 datapaths of the default 64 B/cycle; no stated cap.
  EXPECT_EQ(memoryPeak(roofline, "M").readBytesPerCycle, 40 * 64.0);
  EXPECT_EQ(roofline.getDeviceMemoryBytesPerCyclePerCore(), 64.0);
}

} // namespace

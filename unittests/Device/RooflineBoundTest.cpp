//===- RooflineBoundTest.cpp - Unit classes and the three bounds ----------===//
//
// This file checks the unit classes Roofline forms on the shipped devices
// and the rules of computeRooflineBound on demands written by hand:
// operations one class computes, several classes compute or none computes;
// the latency of a kernel that computes nothing or moves nothing; which
// bound binds; and the lines and JSON `ktflow run` prints.
//
//===----------------------------------------------------------------------===//

#include "DeviceTestSupport.h"

#include "ktflow/Device/RooflineBound.h"

#include "mlir/IR/BuiltinTypes.h"
#include "gmock/gmock.h"

using namespace ktflow::device;
using ktflow::device::testing::DeviceTest;
using mlir::ktdf_arch::OpClass;

namespace {

class RooflineBoundTest : public DeviceTest {
protected:
  mlir::Type f16() { return mlir::Float16Type::get(&context); }
  mlir::Type f32() { return mlir::Float32Type::get(&context); }
  mlir::Type bf16() { return mlir::BFloat16Type::get(&context); }
  mlir::Type i64() { return mlir::IntegerType::get(&context, 64); }

  RooflineBound boundOf(const KernelDemand &demand, llvm::StringRef memory) {
    Roofline roofline(*model);
    return computeRooflineBound(*model, roofline, *model->findByKind(memory),
                                demand);
  }
};

TEST_F(RooflineBoundTest, UnitClassesPoolEveryCopy) {
  ASSERT_TRUE(loadExample("sample_device"));
  Roofline sample(*model);
  // The two sub-cores' SFUs are written out twice but share a kind and a
  // table: one class of 2 x 4 copies.
  ASSERT_EQ(sample.getUnitClasses().size(), 1u);
  const UnitClass &sfu = sample.getUnitClasses()[0];
  EXPECT_EQ(sfu.kind, "SFU");
  EXPECT_EQ(sfu.units.size(), 2u);
  EXPECT_EQ(sfu.instances, 8);
  EXPECT_EQ(sfu.getPeak(OpClass::Elementwise, f16()), 8 * 64.0);
  EXPECT_EQ(sfu.getPeak(OpClass::Transcendental, f16()), 8 * 16.0);
  // No matrix unit: the SFUs multiply matrices at their 32 f32 lanes.
  EXPECT_EQ(sfu.getPeak(OpClass::Matrix, f16()), 8 * 32.0);

  ASSERT_TRUE(loadExample("spyre_like"));
  Roofline spyre(*model);
  ASSERT_EQ(spyre.getUnitClasses().size(), 2u);
  // PT first (written first in the corelet): 8 x 8 MACs x 64 copies.
  EXPECT_EQ(spyre.getUnitClasses()[0].kind, "PT");
  EXPECT_EQ(spyre.getUnitClasses()[0].getPeak(OpClass::Matrix, f16()), 4096.0);
  EXPECT_EQ(spyre.getUnitClasses()[1].kind, "SFP");
  EXPECT_EQ(spyre.getUnitClasses()[1].getPeak(OpClass::Transcendental, f32()),
            4 * 64.0);
  // The PTs are the matrix units: the SFPs' default matrix rate is left out.
  EXPECT_EQ(spyre.getUnitClasses()[1].getPeak(OpClass::Matrix, f16()), 0.0);
}

TEST_F(RooflineBoundTest, OperationsGoToTheClassesThatComputeThem) {
  ASSERT_TRUE(loadExample("spyre_like"));
  KernelDemand demand;
  demand.addOperations(OpClass::Elementwise, f16(), 40960);
  demand.addOperations(OpClass::Transcendental, f32(), 2560);
  demand.addOperations(OpClass::Matrix, f16(), 81920);
  // No unit of spyre_like computes on i64.
  demand.addOperations(OpClass::Elementwise, i64(), 1000);
  RooflineBound bound = boundOf(demand, "DDR");
  // SFP: 40960 / 4096 + 2560 / 256 = 10 + 10; PT: 81920 / 4096 = 20. A
  // tie keeps the first class.
  ASSERT_EQ(bound.compute.perClass.size(), 2u);
  EXPECT_EQ(bound.compute.perClass[0].first, "PT");
  EXPECT_EQ(bound.compute.perClass[0].second, 20.0);
  EXPECT_EQ(bound.compute.perClass[1].second, 20.0);
  EXPECT_EQ(bound.compute.cycles, 20.0);
  EXPECT_EQ(bound.compute.bottleneck, "PT");
  EXPECT_EQ(bound.compute.operations, 40960.0 + 2560 + 81920);
  EXPECT_EQ(bound.compute.uncomputable, 1000.0);
  // Nothing moved: the other two bounds are 0 and compute binds.
  EXPECT_EQ(bound.memory.cycles, 0.0);
  EXPECT_EQ(bound.latency.cycles, 0.0);
  EXPECT_EQ(bound.binding, BoundKind::Compute);
}

TEST_F(RooflineBoundTest, Bf16OperationsCountAtTheF32RateTheyAreComputedAt) {
  ASSERT_TRUE(loadExample("spyre_like"));
  KernelDemand demand;
  demand.addOperations(OpClass::Elementwise, bf16(), 40960);
  demand.addOperations(OpClass::Transcendental, bf16(), 2560);
  RooflineBound bound = boundOf(demand, "DDR");
  // The SFP has no bf16 lanes and computes them in f32: 40960 / (32 x 64)
  // + 2560 / (4 x 64) = 20 + 10 (at its f16 rate it would be 10 + 5).
  ASSERT_EQ(bound.compute.perClass.size(), 1u);
  EXPECT_EQ(bound.compute.perClass[0].first, "SFP");
  EXPECT_EQ(bound.compute.cycles, 30.0);
  EXPECT_EQ(bound.compute.operations, 40960.0 + 2560);
  EXPECT_EQ(bound.compute.uncomputable, 0.0);
}

TEST_F(RooflineBoundTest, OperationsSeveralClassesComputeShareTheirPeaks) {
  ASSERT_TRUE(loadSource(R"mlir(
    ktdf_arch.device @two {
      %m = memory { kind = "M", size = 1048576, ktdf_arch.bandwidth = 16 }
      group { kind = "core", ktdf_arch.instances = 2 } share(%m) {
        %s = memory { kind = "S", size = 4096 }
        %d = exec_unit { kind = "D", ktdf_arch.features = { ktdf_arch.feature.load, ktdf_arch.feature.store } }
        %a = exec_unit { kind = "A", ktdf_arch.features = { ktdf_arch.feature.compute,
               ktdf_arch.feature.simd = { lanes = #ktdf_arch.map<f16 = 32, f32 = 16> } } }
        %b = exec_unit { kind = "B", ktdf_arch.features = { ktdf_arch.feature.compute,
               ktdf_arch.feature.simd = { lanes = #ktdf_arch.map<f16 = 16> } } }
        datapath { ktdf_arch.latency = 10 } %m to %d : memory, exec_unit
        datapath %d to %s : exec_unit, memory
        datapath %s to %d : memory, exec_unit
        datapath { ktdf_arch.latency = 10 } %d to %m : exec_unit, memory
        datapath %s to %a : memory, exec_unit
        datapath %a to %s : exec_unit, memory
        datapath %s to %b : memory, exec_unit
        datapath %b to %s : exec_unit, memory
      }
    }
  )mlir"));
  KernelDemand demand;
  demand.gridPoints = 64; // a point per route: none to spread a tile over
  // f16: A and B together, 2 x (32 + 16) = 96 per cycle: 9600 / 96.
  demand.addOperations(OpClass::Elementwise, f16(), 9600);
  // f32: A alone, 2 x 16: 1600 / 32.
  demand.addOperations(OpClass::Elementwise, f32(), 1600);
  demand.smallestLoad = 64;
  demand.smallestStore = 32;
  demand.chain = 3;
  demand.bytesRead = 1600;
  demand.bytesWritten = 1600;
  RooflineBound bound = boundOf(demand, "M");
  EXPECT_EQ(bound.compute.cycles, 100.0);
  EXPECT_EQ(bound.compute.bottleneck, "A+B");
  ASSERT_EQ(bound.compute.perClass.size(), 1u);
  EXPECT_EQ(bound.compute.perClass[0].second, 50.0);
  // 3200 bytes at 16 B/cycle.
  EXPECT_EQ(bound.memory.cycles, 200.0);
  // M -> D -> S -> A: 10 + 1 + 1 cycles, 64 bytes at 64 B/cycle; 3
  // operations; back 1 + 1 + 10, 32 bytes at 64.
  EXPECT_EQ(bound.latency.cycles, 12 + 1 + 3 + 12 + 0.5);
  EXPECT_EQ(bound.latency.via, "core/A");
  EXPECT_EQ(bound.binding, BoundKind::Memory);
  EXPECT_EQ(bound.cycles, 200.0);
}

TEST_F(RooflineBoundTest, LatencyOfACopyTurnsAtAMemory) {
  ASSERT_TRUE(loadExample("spyre_like"));
  KernelDemand demand;
  demand.gridPoints = 64; // a point per route: none to spread a tile over
  demand.smallestLoad = 256;
  demand.smallestStore = 256;
  demand.chain = 4; // ignored: nothing computes
  demand.bytesRead = demand.bytesWritten = 256;
  RooflineBound bound = boundOf(demand, "DDR");
  // DDR -> DMA_IN -> LX: 150 + 2 at 128 B/cycle; LX -> DMA_OUT -> DDR:
  // 2 + 150.
  EXPECT_EQ(bound.latency.via, "core/LX");
  EXPECT_EQ(bound.latency.loadLatency, 152);
  EXPECT_EQ(bound.latency.compute, 0.0);
  EXPECT_EQ(bound.latency.cycles, 152 + 2 + 152 + 2);
  EXPECT_EQ(bound.binding, BoundKind::Latency);
  // 512 bytes at 1024 B/cycle.
  EXPECT_EQ(bound.memory.cycles, 0.5);
}

TEST_F(RooflineBoundTest, PrintsTheThreeBoundsAndJson) {
  ASSERT_TRUE(loadExample("sample_device"));
  KernelDemand demand;
  demand.gridPoints = 64; // a point per route: none to spread a tile over
  demand.addOperations(OpClass::Elementwise, f16(), 6144);
  demand.bytesRead = 24576;
  demand.bytesWritten = 12288;
  demand.smallestLoad = demand.smallestStore = 256;
  demand.chain = 1;
  demand.addGap("branches whose condition is not known");
  RooflineBound bound = boundOf(demand, "DDR");
  std::string text;
  llvm::raw_string_ostream os(text);
  printRooflineBound(os, bound);
  // Memory: 36864 / 256 = 144; compute 6144 / 512 = 12; latency 107 + 4
  // + 1 + 107 + 4 = 223.
  EXPECT_EQ(text,
            "roofline: 223 cycles (latency bound)\n"
            "  compute: 12 cycles on SFU (6144 operations)\n"
            "  memory: 144 cycles (36864 bytes of device memory at 256 "
            "B/cycle)\n"
            "  latency: 223 cycles (load 107 + 4, compute 1, store 107 + 4, "
            "via core/subcore[0]/SFU_Block/SFU)\n"
            "  not counted: branches whose condition is not known\n");
  llvm::json::Object json = toJSON(bound);
  EXPECT_EQ(json.getNumber("cycles"), 223.0);
  EXPECT_EQ(json.getString("binding"), "latency");
  EXPECT_EQ(json.getObject("compute")->getString("bottleneck"), "SFU");
  EXPECT_EQ(json.getObject("memory")->getInteger("bytes"), 36864);
  EXPECT_EQ(json.getObject("latency")->getNumber("store_latency"), 107.0);
  EXPECT_EQ(json.getArray("gaps")->size(), 1u);
}

TEST_F(RooflineBoundTest, OneTileSpreadsOverTheRoutesNoPointNeeds) {
  ASSERT_TRUE(loadExample("spyre_like"));
  KernelDemand demand;
  demand.smallestLoad = demand.smallestStore = 16 << 20;
  demand.bytesRead = demand.bytesWritten = 16 << 20;
  RooflineBound bound = boundOf(demand, "DDR");
  // No grid: 32 cores' DDR -> DMA_IN -> LX routes of 128 B/cycle (4096
  // B/cycle), capped at DDR's 1024 B/cycle of reads (writes): 16 MiB /
  // 1024 = 16384 cycles each way, plus 152 of latency each way.
  EXPECT_EQ(bound.latency.split, 32);
  EXPECT_EQ(bound.latency.loadTransfer, 16384.0);
  EXPECT_EQ(bound.latency.cycles, 152 + 16384 + 152 + 16384);
  // A grid of 4 points leaves each 8 routes: 16 MiB / 1024 still.
  demand.gridPoints = 4;
  EXPECT_EQ(boundOf(demand, "DDR").latency.split, 8);
  // 64 points: one route each, 16 MiB / 128 = 131072 cycles each way.
  demand.gridPoints = 64;
  RooflineBound one = boundOf(demand, "DDR");
  EXPECT_EQ(one.latency.split, 1);
  EXPECT_EQ(one.latency.cycles, 152 + 131072 + 152 + 131072);
}

} // namespace

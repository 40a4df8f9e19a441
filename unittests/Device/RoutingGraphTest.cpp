//===- RoutingGraphTest.cpp - Routes and unreachable units ----------------===//
//
// This file tests RoutingGraph on the shipped devices (the routes arch-info
// prints, hop by hop, with their latency, bottleneck and FIFO depth) and on
// small descriptions built to have unreachable and isolated units.
//
//===----------------------------------------------------------------------===//

#include "DeviceTestSupport.h"

#include "ktflow/Device/RoutingGraph.h"

#include "gmock/gmock.h"

using namespace ktflow::device;
using ktflow::device::testing::DeviceTest;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAre;

namespace {

using RoutingGraphTest = DeviceTest;

TEST_F(RoutingGraphTest, SampleDeviceRoutesThroughL1AndFifo) {
  ASSERT_TRUE(loadExample("sample_device"));
  RoutingGraph routing(*model);

  std::optional<Route> load =
      routing.findRoute(node("DDR"), node("core/subcore[0]/SFU_Block/SFU"));
  ASSERT_TRUE(load);
  EXPECT_THAT(names(load->nodes),
              ElementsAre("DDR", "core/MNILU_Block/MNILU", "core/L1",
                          "core/subcore[0]/L1LU",
                          "core/subcore[0]/SFU_Block/SFU"));
  EXPECT_EQ(load->getNumHops(), 4u);
  // 100 (DDR -> MNILU) + 2 (MNILU -> L1) + 4 (L1 -> L1LU) + 1 (FIFO).
  EXPECT_EQ(load->latency, 107);
  // The DMA datapaths (64 B/cycle) are the bottleneck; the L1 side is 128.
  EXPECT_EQ(load->bandwidth, 64.0);
  EXPECT_EQ(load->minFifoDepth, 16);
  // 107 cycles of latency, then 4096 bytes at 64 B/cycle.
  EXPECT_EQ(load->getTransferCycles(4096), 107.0 + 64.0);

  std::optional<Route> store =
      routing.findRoute(node("core/subcore[1]/SFU_Block/SFU"), node("DDR"));
  ASSERT_TRUE(store);
  EXPECT_THAT(names(store->nodes),
              ElementsAre("core/subcore[1]/SFU_Block/SFU",
                          "core/subcore[1]/L1SU", "core/L1",
                          "core/MNISU_Block/MNISU", "DDR"));
  EXPECT_EQ(store->latency, 1 + 4 + 2 + 100);
}

TEST_F(RoutingGraphTest, ComputeUnitsOnlyStartOrEndRoutes) {
  ASSERT_TRUE(loadExample("sample_device"));
  RoutingGraph routing(*model);
  // The register memory is reached only through its SFU.
  EXPECT_FALSE(routing.findRoute(node("core/L1"),
                                 node("core/subcore[0]/SFU_Block/SFU_RF")));
  // Sub-cores exchange data only through the shared L1.
  std::optional<Route> across =
      routing.findRoute(node("core/subcore[0]/SFU_Block/SFU"),
                        node("core/subcore[1]/SFU_Block/SFU"));
  ASSERT_TRUE(across);
  EXPECT_THAT(names(across->nodes),
              ElementsAre("core/subcore[0]/SFU_Block/SFU",
                          "core/subcore[0]/L1SU", "core/L1",
                          "core/subcore[1]/L1LU",
                          "core/subcore[1]/SFU_Block/SFU"));
  // But the SFU itself reads its register memory in one hop.
  std::optional<Route> rf = routing.findRoute(
      node("core/subcore[0]/SFU_Block/SFU_RF"),
      node("core/subcore[0]/SFU_Block/SFU"));
  ASSERT_TRUE(rf);
  EXPECT_EQ(rf->getNumHops(), 1u);
  EXPECT_EQ(rf->bandwidth, 256.0);

  std::optional<Route> self = routing.findRoute(node("core/L1"),
                                                node("core/L1"));
  ASSERT_TRUE(self);
  EXPECT_EQ(self->getNumHops(), 0u);
  EXPECT_EQ(self->latency, 0);
}

TEST_F(RoutingGraphTest, SpyreAndMeshRoutes) {
  ASSERT_TRUE(loadExample("spyre_like"));
  {
    RoutingGraph routing(*model);
    std::optional<Route> route =
        routing.findRoute(node("DDR"), node("core/corelet/PT"));
    ASSERT_TRUE(route);
    EXPECT_THAT(names(route->nodes),
                ElementsAre("DDR", "core/DMA_IN", "core/LX",
                            "core/corelet/LXLU", "core/corelet/PT"));
    EXPECT_EQ(route->latency, 150 + 2 + 3 + 1);
    EXPECT_EQ(route->bandwidth, 128.0);
    EXPECT_EQ(route->minFifoDepth, 8);
    EXPECT_THAT(routing.getIsolatedUnits(), IsEmpty());
    // The store unit is fed only by compute units, the load unit feeds only
    // compute units: data passes through PT or SFP between them.
    EXPECT_THAT(names(routing.getUnitsUnreachableFrom(node("DDR"))),
                ElementsAre("core/corelet/LXSU"));
    EXPECT_THAT(names(routing.getUnitsNotReaching(node("DDR"))),
                ElementsAre("core/corelet/LXLU"));
  }
  ASSERT_TRUE(loadExample("mesh_device"));
  {
    RoutingGraph routing(*model);
    std::optional<Route> route =
        routing.findRoute(node("tile/MXU"), node("HBM"));
    ASSERT_TRUE(route);
    EXPECT_THAT(names(route->nodes),
                ElementsAre("tile/MXU", "tile/VST", "tile/SPM", "tile/DMA",
                            "HBM"));
    // FIFO (default 1 cycle, 64 B/cycle) + 2 + 2 + 80.
    EXPECT_EQ(route->latency, 1 + 2 + 2 + 80);
    EXPECT_EQ(route->bandwidth, 64.0);
    EXPECT_EQ(route->minFifoDepth, 64);
  }
}

// Fewest hops first, then least latency.
TEST_F(RoutingGraphTest, PrefersFewerHopsThenLowerLatency) {
  ASSERT_TRUE(loadSource(R"mlir(
    ktdf_arch.device @choice {
      %a = memory { kind = "A", size = 64 }
      %b = memory { kind = "B", size = 64 }
      %c = memory { kind = "C", size = 64 }
      %slow = exec_unit { kind = "SLOW" }
      %fast = exec_unit { kind = "FAST" }
      datapath { ktdf_arch.latency = 10 } %a to %slow : memory, exec_unit
      datapath { ktdf_arch.latency = 10 } %slow to %b : exec_unit, memory
      datapath { ktdf_arch.latency = 1, ktdf_arch.bandwidth = 16 } %a to %fast : memory, exec_unit
      datapath { ktdf_arch.latency = 1 } %fast to %b : exec_unit, memory
      datapath { ktdf_arch.latency = 1 } %fast to %c : exec_unit, memory
      datapath { ktdf_arch.latency = 1000 } %a to %c : memory, memory
    }
  )mlir"));
  RoutingGraph routing(*model);
  std::optional<Route> ab = routing.findRoute(node("A"), node("B"));
  ASSERT_TRUE(ab);
  EXPECT_THAT(names(ab->nodes), ElementsAre("A", "FAST", "B"));
  EXPECT_EQ(ab->latency, 2);
  EXPECT_EQ(ab->bandwidth, 16.0);
  EXPECT_FALSE(ab->minFifoDepth);

  std::optional<Route> ac = routing.findRoute(node("A"), node("C"));
  ASSERT_TRUE(ac);
  EXPECT_THAT(names(ac->nodes), ElementsAre("A", "C"));
  EXPECT_EQ(ac->latency, 1000);
  // Datapaths are one-way.
  EXPECT_FALSE(routing.findRoute(node("B"), node("A")));
}

constexpr llvm::StringLiteral kPartial = R"mlir(
  ktdf_arch.device @partial {
    %ddr = memory { kind = "DDR", size = 4096 }
    group { kind = "core" } share(%ddr) {
      %l1 = memory { kind = "L1", size = 1024 }
      %ld = exec_unit { kind = "LD" }
      %st = exec_unit { kind = "ST" }
      %fill = exec_unit { kind = "FILL" }
      %lu = exec_unit { kind = "LU" }
      %su = exec_unit { kind = "SU" }
      %alu1 = exec_unit { kind = "ALU1", ktdf_arch.features = { ktdf_arch.feature.compute } }
      %alu2 = exec_unit { kind = "ALU2", ktdf_arch.features = { ktdf_arch.feature.compute } }
      datapath %ddr to %ld : memory, exec_unit
      datapath %ld to %l1 : exec_unit, memory
      datapath %l1 to %st : memory, exec_unit
      datapath %st to %ddr : exec_unit, memory
      datapath %fill to %l1 : exec_unit, memory
      datapath %l1 to %lu : memory, exec_unit
      datapath %lu to %alu1 : exec_unit, exec_unit
      datapath %alu1 to %alu2 : exec_unit, exec_unit
      datapath %alu2 to %su : exec_unit, exec_unit
      datapath %su to %l1 : exec_unit, memory
      ISOLATED
    }
  }
)mlir";

TEST_F(RoutingGraphTest, ReportsUnitsOneDirectionCannotReach) {
  std::string source = kPartial.str();
  source.replace(source.find("ISOLATED"), 8, "");
  ASSERT_TRUE(loadSource(source));
  RoutingGraph routing(*model);
  // FILL has no input; ALU2 is fed only through compute unit ALU1, and SU
  // only through ALU2.
  EXPECT_THAT(names(routing.getUnitsUnreachableFrom(node("DDR"))),
              UnorderedElementsAre("core/FILL", "core/ALU2", "core/SU"));
  // LU drains only into ALU1, which ends every route.
  EXPECT_THAT(names(routing.getUnitsNotReaching(node("DDR"))),
              UnorderedElementsAre("core/LU", "core/ALU1"));
  EXPECT_THAT(routing.getIsolatedUnits(), IsEmpty());
}

TEST_F(RoutingGraphTest, ReportsIsolatedUnitsTheVerifierRejects) {
  std::string source = kPartial.str();
  source.replace(source.find("ISOLATED"), 8, R"mlir(
      %alu3 = exec_unit { kind = "ALU3", ktdf_arch.features = { ktdf_arch.feature.compute } }
      %dead = exec_unit { kind = "DEAD" }
      datapath %alu1 to %alu3 : exec_unit, exec_unit
      datapath %alu3 to %dead : exec_unit, exec_unit)mlir");
  {
    // The verifier rejects what the routing graph calls isolated.
    mlir::ScopedDiagnosticHandler silence(
        &context, [](mlir::Diagnostic &) { return mlir::success(); });
    EXPECT_FALSE(loadSource(source, /*verify=*/true));
  }
  ASSERT_TRUE(loadSource(source, /*verify=*/false));
  RoutingGraph routing(*model);
  EXPECT_THAT(names(routing.getIsolatedUnits()),
              UnorderedElementsAre("core/ALU3", "core/DEAD"));
  EXPECT_FALSE(routing.findRoute(node("DDR"), node("core/ALU3")));
  EXPECT_FALSE(routing.findRoute(node("core/DEAD"), node("core/L1")));
}

} // namespace

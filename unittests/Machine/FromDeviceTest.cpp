//===- FromDeviceTest.cpp - Tests of the device model adapter -------------===//
//
// This file checks that the shipped sample device expands into the machine
// the bundle and the simulator expect: instance counts and names, unit
// throughputs from the SIMD lanes, datapath timing and FIFO depths, and
// routes that relay through memories only.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Machine/FromDevice.h"
#include "ktflow/Registration/Registration.h"

#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace ktflow;
using namespace ktflow::machine;

namespace {

class SampleDevice : public ::testing::Test {
protected:
  void SetUp() override {
    registerAllDialects(registry);
    context = std::make_unique<mlir::MLIRContext>(registry);
    ModuleLoader loader(*context);
    auto m = loadMachine(loader, KTFLOW_SOURCE_DIR
                         "/examples/devices/sample_device.mlir");
    ASSERT_TRUE(succeeded(m));
    machine = std::move(*m);
  }
  mlir::DialectRegistry registry;
  std::unique_ptr<mlir::MLIRContext> context;
  Machine machine;
};

TEST_F(SampleDevice, InstancesEveryCoreAndSubcore) {
  EXPECT_EQ(machine.name, "sample_device");
  // DDR + per core (x4) an L1 and two SFU register files.
  EXPECT_EQ(machine.memories.size(), 1u + 4u * 3u);
  // Per core: MNILU, MNISU, and per sub-core (x2) SFU, L1LU, L1SU.
  EXPECT_EQ(machine.units.size(), 4u * (2u + 2u * 3u));
  EXPECT_TRUE(machine.findMemory("core[3]/L1"));
  EXPECT_TRUE(machine.findUnit("core[2]/subcore[1]/SFU_Block/SFU"));
  EXPECT_TRUE(machine.findUnit("core[0]/MNILU_Block/MNILU"));
  EXPECT_FALSE(machine.findUnit("core[4]/MNILU_Block/MNILU"));
  EXPECT_EQ(machine.memories[*machine.findMemory("core[1]/L1")].size, 1048576u);
  EXPECT_EQ(machine.memories[*machine.findMemory("DDR")].bandwidth, 256.0);
}

TEST_F(SampleDevice, CarriesUnitThroughputAndDatapathTiming) {
  const MachineUnit &sfu =
      machine.units[*machine.findUnit("core[0]/subcore[0]/SFU_Block/SFU")];
  EXPECT_EQ(sfu.getThroughput(OpClass::Elementwise, ElemType::f16), 64.0);
  EXPECT_EQ(sfu.getThroughput(OpClass::Elementwise, ElemType::f32), 32.0);
  // No matrix unit on the device: the SFU multiplies matrices at its f32
  // lanes, with no engine shape (no waves, no fill).
  EXPECT_EQ(sfu.getThroughput(OpClass::Matrix, ElemType::f16), 32.0);
  EXPECT_FALSE(sfu.matrix.isEngine());
  EXPECT_EQ(sfu.getThroughput(OpClass::Elementwise, ElemType::f64), 0.0);
  EXPECT_TRUE(sfu.roles & RoleVector);

  NodeRef ddr{NodeRef::Memory, *machine.findMemory("DDR")};
  NodeRef mnilu{NodeRef::Unit, *machine.findUnit("core[2]/MNILU_Block/MNILU")};
  auto link = machine.findLink(ddr, mnilu);
  ASSERT_TRUE(link);
  EXPECT_EQ(machine.links[*link].bandwidth, 64.0);
  EXPECT_EQ(machine.links[*link].latency, 100u);
  EXPECT_EQ(machine.links[*link].granularities, std::vector<uint32_t>{64});

  NodeRef l1lu{NodeRef::Unit, *machine.findUnit("core[1]/subcore[1]/L1LU")};
  NodeRef sfu11{NodeRef::Unit,
                *machine.findUnit("core[1]/subcore[1]/SFU_Block/SFU")};
  auto fifo = machine.findLink(l1lu, sfu11);
  ASSERT_TRUE(fifo);
  EXPECT_EQ(machine.links[*fifo].fifoDepth, 16u);
  // Sub-cores do not cross: core 1's load unit feeds only its own SFU.
  NodeRef sfu10{NodeRef::Unit,
                *machine.findUnit("core[1]/subcore[0]/SFU_Block/SFU")};
  EXPECT_FALSE(machine.findLink(l1lu, sfu10));
}

TEST_F(SampleDevice, RoutesRelayThroughMemoriesOnly) {
  NodeRef ddr{NodeRef::Memory, *machine.findMemory("DDR")};
  NodeRef l1{NodeRef::Memory, *machine.findMemory("core[0]/L1")};
  NodeRef mnilu{NodeRef::Unit, *machine.findUnit("core[0]/MNILU_Block/MNILU")};
  NodeRef sfu{NodeRef::Unit,
              *machine.findUnit("core[0]/subcore[0]/SFU_Block/SFU")};
  EXPECT_TRUE(machine.route(ddr, mnilu));
  EXPECT_TRUE(machine.route(mnilu, l1));
  // Reaching the SFU from DDR would need the DMA and load units to relay.
  EXPECT_FALSE(machine.route(ddr, sfu));
  // Core 0's DMA unit cannot write core 1's L1.
  NodeRef l1core1{NodeRef::Memory, *machine.findMemory("core[1]/L1")};
  EXPECT_FALSE(machine.route(mnilu, l1core1));
}

TEST_F(SampleDevice, SyncsBetweenCoresCrossTheRing) {
  // A bidirectional ring of 4 cores, 1 cycle per hop, sync latency 1.
  EXPECT_EQ(machine.interconnect.topology, MachineInterconnect::Ring);
  EXPECT_EQ(machine.interconnect.numCores, 4u);
  EXPECT_EQ(machine.interconnect.hops(0, 3), 1u);
  EXPECT_EQ(machine.interconnect.hops(0, 2), 2u);
  uint32_t a = *machine.findUnit("core[0]/MNISU_Block/MNISU");
  uint32_t b = *machine.findUnit("core[0]/subcore[1]/L1LU");
  uint32_t c = *machine.findUnit("core[2]/MNILU_Block/MNILU");
  EXPECT_EQ(machine.units[c].core, 2);
  EXPECT_EQ(machine.syncCycles(a, b), 1u);
  EXPECT_EQ(machine.syncCycles(a, c), 3u);
}

TEST_F(SampleDevice, RemoteDmasFollowTheShorterWayRound) {
  using Cores = std::vector<uint32_t>;
  const MachineInterconnect &ic = machine.interconnect;
  EXPECT_EQ(ic.path(0, 1), (Cores{0, 1}));
  EXPECT_EQ(ic.path(0, 3), (Cores{0, 3}));
  EXPECT_EQ(ic.path(3, 1), (Cores{3, 0, 1}));
  // Half way round either way is as short: increasing indices.
  EXPECT_EQ(ic.path(1, 3), (Cores{1, 2, 3}));
  EXPECT_EQ(ic.path(2, 2), (Cores{2}));
  for (uint32_t a = 0; a < 4; ++a)
    for (uint32_t b = 0; b < 4; ++b)
      EXPECT_EQ(ic.path(a, b).size(), ic.hops(a, b) + 1);
  // Scratchpads know their core; device memory belongs to none.
  EXPECT_EQ(machine.memories[*machine.findMemory("core[2]/L1")].core, 2);
  EXPECT_EQ(machine.memories[*machine.findMemory("DDR")].core, -1);
  // A one-way ring only goes up.
  MachineInterconnect oneWay = ic;
  oneWay.bidirectional = false;
  EXPECT_EQ(oneWay.path(1, 0), (Cores{1, 2, 3, 0}));
  // A crossbar goes straight; a mesh whose extents exceed its cores (a
  // malformed bundle) still gives a finite path.
  MachineInterconnect crossbar = ic;
  crossbar.topology = MachineInterconnect::Crossbar;
  EXPECT_EQ(crossbar.path(3, 1), (Cores{3, 1}));
  MachineInterconnect malformed = ic;
  malformed.topology = MachineInterconnect::Mesh;
  malformed.dims = {1u << 31, 1u << 31, 4, 4};
  EXPECT_EQ(malformed.path(0, 3), (Cores{0, 1, 2, 3}));
}

TEST(MeshDevice, HopsFollowTheMesh) {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  ModuleLoader loader(context);
  auto m = loadMachine(loader,
                       KTFLOW_SOURCE_DIR "/examples/devices/mesh_device.mlir");
  ASSERT_TRUE(succeeded(m));
  EXPECT_EQ(m->interconnect.topology, MachineInterconnect::Mesh);
  EXPECT_EQ(m->interconnect.numCores, 16u);
  // 4x4, x fastest: core 0 is (0,0), core 15 is (3,3), core 6 is (2,1).
  EXPECT_EQ(m->interconnect.hops(0, 15), 6u);
  EXPECT_EQ(m->interconnect.hops(6, 0), 3u);
  EXPECT_EQ(m->interconnect.hops(5, 5), 0u);
  // Along x first, then y: (0,0) -> (3,0) -> (3,3).
  EXPECT_EQ(m->interconnect.path(0, 15),
            (std::vector<uint32_t>{0, 1, 2, 3, 7, 11, 15}));
  EXPECT_EQ(m->interconnect.path(6, 0), (std::vector<uint32_t>{6, 5, 4, 0}));
  for (uint32_t a = 0; a < 16; ++a)
    for (uint32_t b = 0; b < 16; ++b)
      EXPECT_EQ(m->interconnect.path(a, b).size(),
                m->interconnect.hops(a, b) + 1);
}

} // namespace

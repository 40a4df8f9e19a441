//===- DeviceModelTest.cpp - Scopes, nodes, roles, memory tree -----------===//
//
// This file tests what DeviceModel derives from a description (cores,
// instance counts, unit roles from features and graph position, node
// lookup through yielding groups) and the memory tree. TargetTest.cpp tests
// target resolution.
//
//===----------------------------------------------------------------------===//

#include "DeviceTestSupport.h"

#include "ktflow/Device/MemoryTree.h"

#include "gmock/gmock.h"

using namespace ktflow::device;
using ktflow::device::testing::DeviceTest;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

namespace {

using DeviceModelTest = DeviceTest;

std::vector<std::string> roles(const Node &node) {
  std::vector<std::string> result;
  for (UnitRole role : getAllUnitRoles())
    if (node.hasRole(role))
      result.push_back(stringifyUnitRole(role).str());
  return result;
}

TEST_F(DeviceModelTest, SampleDeviceCoresUnitsAndRoles) {
  ASSERT_TRUE(loadExample("sample_device"));
  const DeviceModel &device = *model;
  EXPECT_EQ(device.getName(), "sample_device");
  EXPECT_EQ(device.getClockMHz(), 1000.0);
  EXPECT_EQ(device.getNumCores(), 4);
  EXPECT_EQ(device.getScope(device.getCoreScope()).path, "core");
  EXPECT_EQ(device.getMemories().size(), 4u); // DDR, L1, two SFU_RF
  EXPECT_EQ(device.getUnits().size(), 8u);

  EXPECT_THAT(roles(device.getNode(node("core/MNILU_Block/MNILU"))),
              ElementsAre("dma_load"));
  EXPECT_THAT(roles(device.getNode(node("core/MNISU_Block/MNISU"))),
              ElementsAre("dma_store"));
  EXPECT_THAT(roles(device.getNode(node("core/subcore[1]/L1LU"))),
              ElementsAre("scratchpad_load"));
  EXPECT_THAT(roles(device.getNode(node("core/subcore[1]/L1SU"))),
              ElementsAre("scratchpad_store"));
  EXPECT_THAT(roles(device.getNode(node("core/subcore[0]/SFU_Block/SFU"))),
              ElementsAre("vector_compute"));
  EXPECT_EQ(device.getUnitsWithRole(UnitRole::VectorCompute).size(), 2u);
  EXPECT_THAT(device.getUnitsWithRole(UnitRole::MatrixCompute), IsEmpty());

  // DDR is shared; everything else has one copy per core (the two sub-cores
  // are written out, so each of their nodes is its own template).
  EXPECT_EQ(device.getInstancesPerCore(node("DDR")), 0);
  EXPECT_EQ(device.getNode(node("DDR")).instances, 1);
  EXPECT_EQ(device.getInstancesPerCore(node("core/L1")), 1);
  EXPECT_EQ(device.getNode(node("core/subcore[0]/L1LU")).instances, 4);

  const Node &sfu = device.getNode(node("core/subcore[0]/SFU_Block/SFU"));
  ASSERT_TRUE(sfu.unit && sfu.unit->simd);
  mlir::Type f16 = mlir::Float16Type::get(&context);
  mlir::Type i32 = mlir::IntegerType::get(&context, 32);
  EXPECT_EQ(sfu.unit->getThroughput(mlir::ktdf_arch::OpClass::Elementwise, f16),
            64.0);
  EXPECT_EQ(
      sfu.unit->getThroughput(mlir::ktdf_arch::OpClass::Transcendental, f16),
      16.0);
  EXPECT_FALSE(
      sfu.unit->getThroughput(mlir::ktdf_arch::OpClass::Transcendental, i32));
}

TEST_F(DeviceModelTest, RolesComeFromGraphPositionNotKinds) {
  ASSERT_TRUE(loadExample("mesh_device"));
  // One engine moves data both ways between HBM and the scratchpad.
  EXPECT_THAT(roles(model->getNode(node("tile/DMA"))),
              ElementsAre("dma_load", "dma_store"));
  EXPECT_THAT(roles(model->getNode(node("tile/MXU"))),
              ElementsAre("matrix_compute"));
  EXPECT_EQ(model->getNumCores(), 16);

  // Same kinds as the sample device, reversed wiring: the roles follow the
  // wiring and the features, not the names.
  ASSERT_TRUE(loadSource(R"mlir(
    ktdf_arch.device @swapped {
      %ddr = memory { kind = "DDR", size = 4096 }
      group { kind = "core", ktdf_arch.instances = 3 } share(%ddr) {
        %l1 = memory { kind = "L1", size = 1024 }
        %mnilu = exec_unit { kind = "MNILU" }
        %l1su = exec_unit { kind = "L1SU" }
        %vec = exec_unit { kind = "MNISU", ktdf_arch.features = {
               ktdf_arch.feature.compute,
               ktdf_arch.feature.simd = { lanes = #ktdf_arch.map<f32 = 8> } } }
        datapath %l1 to %mnilu : memory, exec_unit
        datapath %mnilu to %ddr : exec_unit, memory
        datapath %l1 to %l1su : memory, exec_unit
        datapath %l1su to %vec : exec_unit, exec_unit
        datapath %vec to %l1 : exec_unit, memory
      }
    }
  )mlir"));
  EXPECT_THAT(roles(model->getNode(node("core/MNILU"))),
              ElementsAre("dma_store"));
  EXPECT_THAT(roles(model->getNode(node("core/L1SU"))),
              ElementsAre("scratchpad_load"));
  EXPECT_THAT(roles(model->getNode(node("core/MNISU"))),
              ElementsAre("vector_compute"));
  EXPECT_EQ(model->getNumCores(), 3);
}

TEST_F(DeviceModelTest, SpyreCoreletsAreInstancesOfOneTemplate) {
  ASSERT_TRUE(loadExample("spyre_like"));
  EXPECT_EQ(model->getNumCores(), 32);
  NodeId pt = node("core/corelet/PT");
  EXPECT_EQ(model->getInstancesPerCore(pt), 2);
  EXPECT_EQ(model->getNode(pt).instances, 64);
  const Scope &corelet = model->getScope(model->getNode(pt).scope);
  EXPECT_EQ(corelet.instances, 2);
  EXPECT_EQ(corelet.totalInstances, 64);
  EXPECT_EQ(corelet.depth, 2u);
  ASSERT_TRUE(model->getNode(pt).unit->matrix);
  EXPECT_EQ(model->getNode(pt).unit->matrix->m, 8);
  EXPECT_EQ(model->findByKind("SFP"), node("core/corelet/SFP"));
  EXPECT_FALSE(model->findByKind("SFU"));
  // A datapath inside the corelet has 64 copies in the device.
  const Datapath &port = model->getDatapath(model->getOutgoing(node("core/LX"))[1]);
  EXPECT_EQ(model->getNode(port.dst).name, "core/corelet/LXLU");
  EXPECT_EQ(port.instances, 64);
  EXPECT_EQ(model->getDatapathInstancesPerCore(port.id), 2);
}

TEST_F(DeviceModelTest, HandlesOfYieldingGroupsResolveToTheirUnit) {
  ASSERT_TRUE(loadExample("sample_device"));
  auto core = llvm::cast<mlir::ktdf_arch::GroupOp>(
      model->getScope(model->getCoreScope()).op);
  int found = 0;
  core.getBody().walk([&](mlir::ktdf_arch::DatapathOp datapath) {
    if (!llvm::isa<mlir::ktdf_arch::GroupOp>(datapath.getSrc().getDefiningOp()))
      return;
    std::optional<NodeId> src = model->lookup(datapath.getSrc());
    ASSERT_TRUE(src);
    EXPECT_TRUE(model->getNode(*src).isUnit());
    ++found;
  });
  // MNILU -> L1, MNISU -> DDR, and each SFU -> L1SU.
  EXPECT_EQ(found, 4);
}

TEST_F(DeviceModelTest, MemoryTreeLevelsCapacitiesAndLocality) {
  ASSERT_TRUE(loadExample("sample_device"));
  MemoryTree tree(*model);
  NodeId ddr = node("DDR"), l1 = node("core/L1"),
         rf = node("core/subcore[0]/SFU_Block/SFU_RF");
  EXPECT_THAT(names(tree.getRoots()), ElementsAre("DDR"));
  EXPECT_EQ(tree.getNumLevels(), 3u);
  EXPECT_EQ(tree.getLevel(ddr), 0u);
  EXPECT_EQ(tree.getLevel(l1), 1u);
  EXPECT_EQ(tree.getLevel(rf), 2u);
  EXPECT_EQ(tree.getParent(l1), ddr);
  EXPECT_EQ(tree.getParent(rf), l1);
  EXPECT_FALSE(tree.getParent(ddr));
  EXPECT_EQ(tree.getChildren(l1).size(), 2u);
  EXPECT_EQ(tree.getMemoriesAtLevel(2).size(), 2u);
  EXPECT_EQ(tree.getCapacity(l1), 1048576);
  EXPECT_EQ(tree.getCapacityPerCore(l1), 1048576);
  EXPECT_EQ(tree.getTotalCapacity(l1), 4 * 1048576);
  EXPECT_EQ(tree.getCapacityPerCore(ddr), 0);
  EXPECT_EQ(tree.getTotalCapacity(rf), 4 * 2048);
  // The SFU's own register memory is one hop away, L1 two (through L1LU and
  // L1SU); DDR lies beyond L1.
  EXPECT_THAT(
      names(tree.getLocalMemories(node("core/subcore[0]/SFU_Block/SFU"))),
      ElementsAre("core/subcore[0]/SFU_Block/SFU_RF", "core/L1"));
  EXPECT_THAT(names(tree.getLocalMemories(node("core/MNILU_Block/MNILU"))),
              ElementsAre("DDR", "core/L1"));

  ASSERT_TRUE(loadExample("spyre_like"));
  MemoryTree spyre(*model);
  EXPECT_EQ(spyre.getTotalCapacity(node("core/LX")), 32 * 2097152);
  EXPECT_EQ(spyre.getParent(node("core/LX")), node("DDR"));
}

TEST_F(DeviceModelTest, RefusesInstanceCountsThatWouldOverflow) {
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler capture(&context, [&](mlir::Diagnostic &diag) {
    diagnostics += diag.str();
    return mlir::success();
  });
  // The device verifier bounds the instances of nodes (2^18,
  // test/Dialect/KTDFArch/IR/limits.mlir); groups that hold no node cost it
  // nothing, so 4096 x 8192 = 2^25 copies of an empty group pass it. The
  // model still refuses products over 2^24, which keeps larger ones (2^32 x
  // 2^32) from wrapping to 0.
  EXPECT_FALSE(loadSource(R"mlir(
    ktdf_arch.device @empty_groups {
      %m = memory { kind = "M", size = 64 }
      %u = exec_unit { kind = "U" }
      datapath %m to %u : memory, exec_unit
      group { ktdf_arch.instances = 4096 } share(%m) {
        group { ktdf_arch.instances = 8192 } share(%m) {
        }
      }
    }
  )mlir"));
  EXPECT_NE(diagnostics.find("replicates its body 8192 times inside 4096 "
                             "copies of its parent: more than 16777216 "
                             "copies in the device"),
            std::string::npos)
      << diagnostics;
}

TEST_F(DeviceModelTest, CapacitiesSaturateInsteadOfWrapping) {
  ASSERT_TRUE(loadSource(R"mlir(
    ktdf_arch.device @big {
      %m = memory { kind = "M", size = 64 }
      group { ktdf_arch.instances = 4 } share(%m) {
        %s = memory { kind = "S", size = 4611686018427387904 }
        %u = exec_unit { kind = "U" }
        datapath %m to %u : memory, exec_unit
        datapath %u to %s : exec_unit, memory
      }
    }
  )mlir"));
  MemoryTree tree(*model);
  EXPECT_EQ(tree.getCapacityPerCore(node("group/S")), 4611686018427387904);
  EXPECT_EQ(tree.getTotalCapacity(node("group/S")),
            std::numeric_limits<int64_t>::max());
}

} // namespace

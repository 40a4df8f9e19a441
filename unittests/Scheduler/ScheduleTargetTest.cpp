//===- ScheduleTargetTest.cpp - The scheduler's view of a device ----------===//
//
// This file checks what ScheduleTarget finds in the shipped devices: the
// lanes of a core and their routes cut into hops, and the instance names the
// lowering gives units of each lane.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Scheduler/ScheduleTarget.h"
#include "ktflow/Registration/Registration.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace ktflow;
using namespace ktflow::sched;

namespace {

class ScheduleTargetTest : public ::testing::Test {
protected:
  ScheduleTargetTest() {
    mlir::DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// A kernel module that holds `device` (an example) and targets it.
  const ScheduleTarget *load(llvm::StringRef device, llvm::StringRef global,
                             llvm::StringRef local) {
    std::string path =
        std::string(KTFLOW_EXAMPLES_DIR) + "/devices/" + device.str() + ".mlir";
    module = mlir::parseSourceFile<mlir::ModuleOp>(path, &context);
    if (!module)
      return nullptr;
    mlir::OpBuilder b = mlir::OpBuilder::atBlockEnd(module->getBody());
    auto str = [&](llvm::StringRef s) { return b.getStringAttr(s); };
    mlir::ktdf_arch::TargetOp::create(
        b, module->getLoc(), mlir::FlatSymbolRefAttr::get(&context, device),
        mlir::StringAttr(),
        mlir::ktdf_arch::MapAttr::get(&context,
                                      {str("global"), str("ct_local")},
                                      {str(global), str(local)}));
    target = std::make_unique<ScheduleTarget>(*module);
    return target->isValid() ? target.get() : nullptr;
  }

  std::string name(NodeId id) { return target->getModel().getNode(id).name; }

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::unique_ptr<ScheduleTarget> target;
};

TEST_F(ScheduleTargetTest, SampleDeviceHasTwoSubcoreLanes) {
  const ScheduleTarget *t = load("sample_device", "DDR", "L1");
  ASSERT_TRUE(t);
  ASSERT_EQ(t->getLanes().size(), 2u);
  EXPECT_EQ(t->getNumCores(), 4);
  const Lane &first = t->getLanes()[0];
  const Lane &second = t->getLanes()[1];
  EXPECT_EQ(name(first.compute), "core/subcore[0]/SFU_Block/SFU");
  EXPECT_EQ(name(second.compute), "core/subcore[1]/SFU_Block/SFU");
  // DDR -> MNILU -> L1 -> L1LU -> SFU and back through L1SU and MNISU.
  ASSERT_EQ(first.inbound.hops.size(), 2u);
  EXPECT_EQ(first.inbound.hops[0].kind, Hop::Dma);
  EXPECT_EQ(name(first.inbound.hops[0].unit), "core/MNILU_Block/MNILU");
  EXPECT_EQ(first.inbound.hops[1].kind, Hop::Feed);
  EXPECT_EQ(name(first.inbound.hops[1].unit), "core/subcore[0]/L1LU");
  ASSERT_EQ(first.outbound.hops.size(), 2u);
  EXPECT_EQ(first.outbound.hops[0].kind, Hop::Drain);
  EXPECT_EQ(name(first.outbound.hops[1].unit), "core/MNISU_Block/MNISU");
  // The second lane's feed unit plays the first lane's part.
  NodeId feed = first.inbound.hops[1].unit;
  EXPECT_EQ(name(t->mapFromFirstLane(feed, second)), "core/subcore[1]/L1LU");
  EXPECT_EQ(t->getInstanceName(t->mapFromFirstLane(feed, second), 3, second),
            "core[3]/subcore[1]/L1LU");
  // Units shared by the lanes stay themselves.
  NodeId dma = first.inbound.hops[0].unit;
  EXPECT_EQ(t->mapFromFirstLane(dma, second), dma);
  EXPECT_EQ(t->getInstanceName(dma, 2, second), "core[2]/MNILU_Block/MNILU");
}

TEST_F(ScheduleTargetTest, SpyreLikeLanesAreCoreletInstances) {
  const ScheduleTarget *t = load("spyre_like", "DDR", "LX");
  ASSERT_TRUE(t);
  ASSERT_EQ(t->getLanes().size(), 2u);
  EXPECT_EQ(t->getNumCores(), 32);
  const Lane &second = t->getLanes()[1];
  EXPECT_EQ(t->getLanes()[0].compute, second.compute);
  EXPECT_EQ(t->getInstanceName(second.compute, 5, second),
            "core[5]/corelet[1]/SFP");
  EXPECT_EQ(t->getSimdLanes(second, mlir::Float16Type::get(&context)), 64);
  EXPECT_EQ(t->getSimdLanes(second, mlir::Float32Type::get(&context)), 32);
  EXPECT_FALSE(t->getSimdLanes(second, mlir::IntegerType::get(&context, 32)));
}

TEST_F(ScheduleTargetTest, MeshDeviceShareOneDmaForLoadsAndStores) {
  const ScheduleTarget *t = load("mesh_device", "HBM", "SPM");
  ASSERT_TRUE(t);
  ASSERT_EQ(t->getLanes().size(), 1u);
  const Lane &lane = t->getLanes()[0];
  EXPECT_EQ(lane.inbound.hops[0].unit, lane.outbound.hops[1].unit);
  EXPECT_EQ(t->getInstanceName(lane.inbound.hops[0].unit, 15, lane),
            "tile[15]/DMA");
}

TEST(ScheduleTargetCut, RoutesThatSkipAMoverAreRefused) {
  // cutRoute needs a unit between two memories; a route given by hand that
  // joins memories directly says which.
  mlir::MLIRContext context;
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  context.appendDialectRegistry(registry);
  auto module = mlir::parseSourceFile<mlir::ModuleOp>(
      std::string(KTFLOW_EXAMPLES_DIR) + "/devices/sample_device.mlir",
      &context);
  ASSERT_TRUE(module);
  mlir::ktdf_arch::DeviceOp device;
  module->walk([&](mlir::ktdf_arch::DeviceOp d) { device = d; });
  auto model = device::DeviceModel::build(device);
  ASSERT_TRUE(mlir::succeeded(model));
  device::MemoryTree tree(*model);
  device::Route route;
  route.nodes = {*model->findByKind("DDR"), *model->findByKind("L1")};
  route.datapaths = {0};
  std::string reason;
  EXPECT_TRUE(mlir::failed(cutRoute(*model, tree, route, reason)));
  EXPECT_NE(reason.find("without a unit that moves the data"),
            std::string::npos);
}

} // namespace

//===- DeviceTestSupport.h - Load devices in Device unit tests --*- C++ -*-===//
//
// This file gives the Device unit tests one way to load a shipped device or
// an inline description and build its model, failing the test on any error.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_UNITTESTS_DEVICE_DEVICETESTSUPPORT_H
#define KTFLOW_UNITTESTS_DEVICE_DEVICETESTSUPPORT_H

#include "ktflow/Device/DeviceModel.h"
#include "ktflow/Registration/Registration.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

#include <optional>
#include <string>

namespace ktflow::device::testing {

class DeviceTest : public ::testing::Test {
protected:
  DeviceTest() : context(makeRegistry()) { context.loadAllAvailableDialects(); }

  /// Loads examples/devices/<name>.mlir and builds the model of its device
  /// into `model`. Use as ASSERT_TRUE(loadExample(...)).
  bool loadExample(llvm::StringRef name) {
    std::string path =
        std::string(KTFLOW_EXAMPLES_DIR) + "/devices/" + name.str() + ".mlir";
    module = mlir::parseSourceFile<mlir::ModuleOp>(path, &context);
    return buildModel();
  }

  /// Parses `source` (verified unless `verify` is false, so that tests can
  /// build models the verifier would reject) and builds its device model.
  bool loadSource(llvm::StringRef source, bool verify = true) {
    mlir::ParserConfig config(&context, verify);
    module = mlir::parseSourceString<mlir::ModuleOp>(source, config);
    return buildModel();
  }

  /// The node named `name`; fails the test when there is none.
  NodeId node(llvm::StringRef name) const {
    for (const Node &candidate : model->getNodes())
      if (candidate.name == name)
        return candidate.id;
    ADD_FAILURE() << "no node named " << name.str();
    return 0;
  }

  std::vector<std::string> names(llvm::ArrayRef<NodeId> ids) const {
    std::vector<std::string> result;
    for (NodeId id : ids)
      result.push_back(model->getNode(id).name);
    return result;
  }

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::optional<DeviceModel> model;

private:
  static mlir::DialectRegistry makeRegistry() {
    mlir::DialectRegistry registry;
    registerAllDialects(registry);
    return registry;
  }

  bool buildModel() {
    model.reset();
    mlir::ktdf_arch::DeviceOp device;
    if (module)
      module->walk([&](mlir::ktdf_arch::DeviceOp op) { device = op; });
    if (!device)
      return false;
    mlir::FailureOr<DeviceModel> built = DeviceModel::build(device);
    if (failed(built))
      return false;
    model = std::move(*built);
    return true;
  }
};

} // namespace ktflow::device::testing

#endif // KTFLOW_UNITTESTS_DEVICE_DEVICETESTSUPPORT_H

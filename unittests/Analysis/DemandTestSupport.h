//===- DemandTestSupport.h - Kernels and devices for demand tests -*- C++
//-*-===//
//
// This file gives the Analysis unit tests one way to parse a kernel (a file
// or inline text), count its demand, and bound it on a shipped device.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_UNITTESTS_ANALYSIS_DEMANDTESTSUPPORT_H
#define KTFLOW_UNITTESTS_ANALYSIS_DEMANDTESTSUPPORT_H

#include "ktflow/Analysis/KernelDemand.h"
#include "ktflow/Device/DeviceModel.h"
#include "ktflow/Device/RooflineBound.h"
#include "ktflow/Dialect/KTDF/Transforms/DevicePatterns.h"
#include "ktflow/Registration/Registration.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

#include <optional>
#include <string>

namespace ktflow::analysis_testing {

class DemandTest : public ::testing::Test {
protected:
  DemandTest() : context(makeRegistry()) { context.loadAllAvailableDialects(); }

  /// Counts the kernel in `source` (verified KTIR text).
  device::KernelDemand countText(llvm::StringRef source,
                                 const ScalarArgs &args = ScalarArgs(),
                                 const IndexValues &indexValues = {}) {
    kernelModule = mlir::parseSourceString<mlir::ModuleOp>(source, &context);
    return count(args, indexValues);
  }

  /// Counts the kernel in unittests/Analysis/Inputs/<name>.
  device::KernelDemand countInput(llvm::StringRef name,
                                  const ScalarArgs &args = ScalarArgs()) {
    return countFile(std::string(KTFLOW_ANALYSIS_INPUTS_DIR) + "/" + name.str(),
                     args);
  }

  /// Counts the kernel in the file at `path`.
  device::KernelDemand countFile(const std::string &path,
                                 const ScalarArgs &args = ScalarArgs(),
                                 const IndexValues &indexValues = {}) {
    kernelModule = mlir::parseSourceFile<mlir::ModuleOp>(path, &context);
    return count(args, indexValues);
  }

  /// Counts the kernel in unittests/Analysis/Inputs/<name> as
  /// examples/devices/<device>.mlir's patterns rewrite its ops.
  device::KernelDemand countInputFor(llvm::StringRef name,
                                     llvm::StringRef device,
                                     const ScalarArgs &args = ScalarArgs()) {
    patternsModule = mlir::parseSourceFile<mlir::ModuleOp>(
        std::string(KTFLOW_EXAMPLES_DIR) + "/devices/" + device.str() + ".mlir",
        &context);
    EXPECT_TRUE(patternsModule);
    mlir::ktdf_arch::DeviceOp op;
    patternsModule->walk([&](mlir::ktdf_arch::DeviceOp d) { op = d; });
    kernelModule = mlir::parseSourceFile<mlir::ModuleOp>(
        std::string(KTFLOW_ANALYSIS_INPUTS_DIR) + "/" + name.str(), &context);
    llvm::SmallVector<mlir::FrozenRewritePatternSet> patterns =
        mlir::ktdf::getAllDevicePatterns(op);
    return count(args, {}, [patterns](mlir::ModuleOp probe) {
      return mlir::ktdf::applyAllDevicePatterns(probe, patterns);
    });
  }

  /// The bound of `demand` on examples/devices/<device>.mlir, whose tensors
  /// live in its memory of kind `memoryKind`.
  device::RooflineBound bound(const device::KernelDemand &demand,
                              llvm::StringRef device,
                              llvm::StringRef memoryKind) {
    std::string path =
        std::string(KTFLOW_EXAMPLES_DIR) + "/devices/" + device.str() + ".mlir";
    deviceModule = mlir::parseSourceFile<mlir::ModuleOp>(path, &context);
    EXPECT_TRUE(deviceModule);
    mlir::ktdf_arch::DeviceOp op;
    deviceModule->walk([&](mlir::ktdf_arch::DeviceOp d) { op = d; });
    mlir::FailureOr<device::DeviceModel> model = device::DeviceModel::build(op);
    EXPECT_TRUE(mlir::succeeded(model));
    std::optional<device::NodeId> memory = model->findByKind(memoryKind);
    EXPECT_TRUE(memory);
    device::Roofline roofline(*model);
    return device::computeRooflineBound(*model, roofline, *memory, demand);
  }

  /// The operations of `demand` of one class and element type (0 if none).
  double operations(const device::KernelDemand &demand,
                    mlir::ktdf_arch::OpClass opClass, mlir::Type type) {
    for (const auto &entry : demand.operations)
      if (entry.opClass == opClass && entry.type == type)
        return entry.count;
    return 0;
  }

  mlir::Type f16() { return mlir::Float16Type::get(&context); }
  mlir::Type f32() { return mlir::Float32Type::get(&context); }
  mlir::Type i32() { return mlir::IntegerType::get(&context, 32); }

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> kernelModule, deviceModule, patternsModule;

private:
  static mlir::DialectRegistry makeRegistry() {
    mlir::DialectRegistry registry;
    registerAllDialects(registry);
    return registry;
  }

  device::KernelDemand count(const ScalarArgs &args,
                             const IndexValues &indexValues = {},
                             const DevicePatterns &devicePatterns = {}) {
    EXPECT_TRUE(kernelModule);
    if (!kernelModule)
      return {};
    mlir::func::FuncOp kernel = findKernel(*kernelModule);
    EXPECT_TRUE(kernel);
    return kernel ? countKernelDemand(kernel, args, indexValues, devicePatterns)
                  : device::KernelDemand();
  }
};

} // namespace ktflow::analysis_testing

#endif // KTFLOW_UNITTESTS_ANALYSIS_DEMANDTESTSUPPORT_H

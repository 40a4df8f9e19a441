//===- Compile.cpp - Compile a KTIR module for a device -------------------===//
//
// This file points a kernel module at a device description and runs the
// scheduler's pass pipeline on it.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Compiler/Compile.h"
#include "ktflow/Device/DeviceModel.h"
#include "ktflow/Device/MemoryTree.h"
#include "ktflow/Device/Target.h"
#include "ktflow/Dialect/KTDFArch/IR/KTDFArch.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace ktflow;

LogicalResult ktflow::setTarget(ModuleOp module, StringRef devicePath,
                                ModuleLoader &loader) {
  OwningOpRef<ModuleOp> description = loader.load(devicePath);
  if (!description)
    return failure();
  return setTarget(module, *description, devicePath);
}

LogicalResult ktflow::setTarget(ModuleOp module, ModuleOp description,
                                StringRef devicePath) {
  MLIRContext *ctx = module.getContext();
  FailureOr<ktdf_arch::DeviceOp> found = device::findDevice(description);
  if (failed(found))
    return failure();
  ktdf_arch::DeviceOp device = *found;
  SmallString<256> absolute(devicePath);
  if (std::error_code ec = llvm::sys::fs::make_absolute(absolute))
    return emitError(UnknownLoc::get(ctx))
           << "cannot resolve '" << devicePath << "': " << ec.message();
  auto deviceRef = FlatSymbolRefAttr::get(ctx, device.getSymName());

  FailureOr<ktdf_arch::TargetOp> declared = device::findOptionalTarget(module);
  if (failed(declared))
    return failure();
  if (ktdf_arch::TargetOp target = *declared) {
    target.setDeviceAttr(deviceRef);
    target.setPathAttr(StringAttr::get(ctx, absolute));
    return target.verifyDevice(device);
  }
  FailureOr<device::DeviceModel> model = device::DeviceModel::build(device);
  if (failed(model))
    return failure();
  device::MemoryTree tree(*model);
  SmallVector<Attribute> keys, values;
  if (!tree.getRoots().empty()) {
    keys.push_back(StringAttr::get(ctx, "global"));
    values.push_back(StringAttr::get(
        ctx, model->getNode(tree.getRoots().front()).getKind()));
  }
  for (device::NodeId mem : tree.getMemoriesAtLevel(1))
    if (model->isWithin(model->getNode(mem).scope, model->getCoreScope())) {
      keys.push_back(StringAttr::get(ctx, "ct_local"));
      values.push_back(StringAttr::get(ctx, model->getNode(mem).getKind()));
      break;
    }
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  ktdf_arch::TargetOp::create(builder, module.getLoc(), deviceRef,
                              StringAttr::get(ctx, absolute),
                              ktdf_arch::MapAttr::get(ctx, keys, values));
  return success();
}

LogicalResult ktflow::compile(ModuleOp module, const CompileOptions &options,
                              CompileStage stage) {
  PassManager pm(module.getContext());
  buildMappingPipeline(pm, options);
  buildSchedulingPipeline(pm, options);
  if (stage == CompileStage::Dataflow)
    buildLoweringPipeline(pm, options);
  if (options.instrument && failed(options.instrument(pm)))
    return failure();
  return pm.run(module);
}

dfir::KernelOp ktflow::getCompiledKernel(ModuleOp module) {
  SmallVector<dfir::KernelOp> kernels(module.getOps<dfir::KernelOp>());
  if (kernels.size() == 1)
    return kernels.front();
  emitError(module.getLoc())
      << "expected one compiled kernel in the module, found "
      << kernels.size();
  return {};
}

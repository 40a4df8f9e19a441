//===- ImportTarget.cpp - Bring the target device into the module ---------===//
//
// This file implements --ktdf-import-target: the device a kernel imports
// from a description file is copied into the kernel module, so later passes
// and IR dumps need nothing but the module.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Support/ModuleLoader.h"

#include "mlir/IR/SymbolTable.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFIMPORTTARGET
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

namespace {
struct ImportTargetPass
    : public ktdf::impl::KTDFImportTargetBase<ImportTargetPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<ktdf_arch::TargetOp> targets;
    module.walk([&](ktdf_arch::TargetOp op) { targets.push_back(op); });
    if (targets.empty()) {
      module.emitError("the module declares no target device "
                       "(ktdf_arch.target); give the device with --arch");
      return signalPassFailure();
    }
    if (targets.size() > 1) {
      targets[1].emitError("the module declares more than one target");
      return signalPassFailure();
    }
    ktdf_arch::TargetOp target = targets.front();
    if (std::optional<StringRef> path = target.getPath()) {
      if (failed(importFrom(target, *path)))
        return signalPassFailure();
    }
    auto device = SymbolTable::lookupNearestSymbolFrom<ktdf_arch::DeviceOp>(
        target, target.getDeviceAttr());
    if (!device) {
      target.emitError("names no ktdf_arch.device ") << target.getDeviceAttr();
      return signalPassFailure();
    }
    if (failed(target.verifyDevice(device)))
      return signalPassFailure();
  }

  LogicalResult importFrom(ktdf_arch::TargetOp target, StringRef path) {
    std::string file = ktflow::resolvePathNextTo(target.getLoc(), path);
    ModuleOp module = getOperation();
    OwningOpRef<ModuleOp> imported;
    {
      // The loader reports problems inside the imported file itself; it must
      // be gone before this pass reports against the kernel.
      ktflow::ModuleLoader loader(getContext());
      imported = loader.load(file);
    }
    if (!imported)
      return target.emitError("cannot import device description '")
             << file << "'";
    auto device = dyn_cast_if_present<ktdf_arch::DeviceOp>(
        SymbolTable::lookupSymbolIn(*imported, target.getDeviceAttr().getAttr()));
    if (!device)
      return target.emitError("'")
             << file << "' defines no ktdf_arch.device "
             << target.getDeviceAttr();
    if (!SymbolTable::lookupSymbolIn(module, target.getDeviceAttr().getAttr())) {
      OpBuilder builder(module.getBodyRegion());
      builder.setInsertionPointToStart(module.getBody());
      builder.clone(*device.getOperation());
    }
    target.removePathAttr();
    return success();
  }
};
} // namespace

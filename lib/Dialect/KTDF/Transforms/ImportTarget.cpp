//===- ImportTarget.cpp - Bring the target device into the module ---------===//
//
// This file implements --ktdf-import-target: the device a kernel imports
// from a description file is copied into the kernel module, so later passes
// and IR dumps need nothing but the module.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Device/Target.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"

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
    FailureOr<ktflow::device::TargetDevice> resolved =
        ktflow::device::resolveTarget(module,
                                      ktflow::device::TargetImport::Load);
    if (failed(resolved))
      return signalPassFailure();
    if (!resolved->imported)
      return;
    ktdf_arch::TargetOp target = resolved->target;
    if (!SymbolTable::lookupSymbolIn(module, target.getDeviceAttr().getAttr())) {
      OpBuilder builder(module.getBodyRegion());
      builder.setInsertionPointToStart(module.getBody());
      builder.clone(*resolved->device.getOperation());
    }
    target.removePathAttr();
  }
};
} // namespace

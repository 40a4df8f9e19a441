//===- SetTarget.cpp - Point a kernel at a device description -------------===//
//
// This file implements --ktdf-set-target: setTarget (Compile.h) as a pass,
// so that ktflow-opt can be told the device as `ktflow compile` is.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Compiler/Compile.h"
#include "ktflow/Compiler/Passes.h"

namespace mlir {
#define GEN_PASS_DEF_KTDFSETTARGET
#include "ktflow/Compiler/Passes.h.inc"
} // namespace mlir

using namespace mlir;

namespace {
struct KTDFSetTargetPass : public impl::KTDFSetTargetBase<KTDFSetTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (arch.empty()) {
      module.emitError("--ktdf-set-target needs arch=FILE, the device "
                       "description");
      return signalPassFailure();
    }
    // The loader reports problems inside the description file against that
    // file; it is gone before anything is reported against the kernel, so
    // that those diagnostics reach the pass's handler (-verify-diagnostics).
    OwningOpRef<ModuleOp> description;
    {
      ktflow::ModuleLoader loader(getContext());
      description = loader.load(arch);
    }
    if (!description) {
      module.emitError() << "cannot load device description '" << arch << "'";
      return signalPassFailure();
    }
    if (failed(ktflow::setTarget(module, *description, arch)))
      signalPassFailure();
  }
};
} // namespace

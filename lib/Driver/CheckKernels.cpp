//===- CheckKernels.cpp - What `ktflow check` does ------------------------===//
//
// This file runs the legality pass on a module and summarises its kernels.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Driver/CheckKernels.h"

#include "ktflow/Dialect/KTDP/Transforms/Passes.h"
#include "ktflow/Support/CrashRecovery.h"
#include "ktflow/Support/ExitStatus.h"

#include "mlir/Pass/PassManager.h"

using namespace llvm;
using namespace ktflow;

Expected<std::vector<KernelSummary>> ktflow::checkKernels(mlir::ModuleOp module,
                                                          StringRef file) {
  {
    CrashPhase phase("passes", file);
    mlir::PassManager pm(module.getContext());
    pm.addPass(mlir::ktdp::createKTIRCheckLegality());
    if (mlir::failed(pm.run(module)))
      return reportedError();
  }
  CrashPhase phase("summarise", file);
  std::vector<KernelSummary> kernels = summarizeKernels(module);
  if (kernels.empty())
    return make_error<StatusError>(
        kUserErrorExitCode,
        (file + ": no kernel (a func.func with a body) found").str());
  return kernels;
}

void ktflow::printCheckReport(raw_ostream &os, StringRef file,
                              ArrayRef<KernelSummary> kernels) {
  size_t numKernels = llvm::count_if(
      kernels, [](const KernelSummary &k) { return k.isKernel(); });
  size_t numHelpers = kernels.size() - numKernels;
  os << file << ": " << numKernels << " kernel" << (numKernels == 1 ? "" : "s");
  if (numHelpers)
    os << " and " << numHelpers << " helper function"
       << (numHelpers == 1 ? "" : "s");
  os << ", legal\n";
  for (const KernelSummary &kernel : kernels)
    printKernelSummary(kernel, os);
}

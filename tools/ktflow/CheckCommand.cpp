//===- CheckCommand.cpp - `ktflow check` ----------------------------------===//
//
// This file implements `ktflow check FILE`: parse and verify a KTIR file,
// run the legality pass, and print a summary of every kernel in it.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "ktflow/Analysis/KernelSummary.h"
#include "ktflow/Dialect/KTDP/Transforms/Passes.h"
#include "ktflow/Registration/Registration.h"
#include "ktflow/Support/CrashRecovery.h"
#include "ktflow/Support/ModuleLoader.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

cl::SubCommand ktflow::driver::checkCommand(
    "check", "Parse, verify and check the legality of a KTIR file, then "
             "print a summary of its kernels");

static cl::opt<std::string> checkInput(cl::Positional, cl::Required,
                                       cl::desc("<kernel.mlir>"),
                                       cl::sub(ktflow::driver::checkCommand));

int ktflow::driver::runCheck() {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  ModuleLoader loader(context);
  mlir::OwningOpRef<mlir::ModuleOp> module = loader.load(checkInput);
  if (!module)
    return 1;

  {
    CrashPhase phase("passes", checkInput);
    mlir::PassManager pm(&context);
    pm.addPass(mlir::ktdp::createKTIRCheckLegality());
    if (mlir::failed(pm.run(*module)))
      return 1;
  }

  CrashPhase phase("summarise", checkInput);
  std::vector<KernelSummary> kernels = summarizeKernels(*module);
  if (kernels.empty()) {
    WithColor::error(errs(), "ktflow")
        << checkInput << ": no kernel (a func.func with a body) found\n";
    return 1;
  }
  size_t numKernels = llvm::count_if(
      kernels, [](const KernelSummary &k) { return k.isKernel(); });
  size_t numHelpers = kernels.size() - numKernels;
  outs() << checkInput << ": " << numKernels << " kernel"
         << (numKernels == 1 ? "" : "s");
  if (numHelpers)
    outs() << " and " << numHelpers << " helper function"
           << (numHelpers == 1 ? "" : "s");
  outs() << ", legal\n";
  for (const KernelSummary &kernel : kernels)
    printKernelSummary(kernel, outs());
  return 0;
}

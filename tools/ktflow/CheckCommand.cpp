//===- CheckCommand.cpp - `ktflow check` ----------------------------------===//
//
// This file implements `ktflow check FILE`: parse and verify a KTIR file,
// run the legality pass, and print a summary of every kernel in it (or,
// with `--json`, one JSON object).
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "ktflow/Driver/CheckKernels.h"
#include "ktflow/Driver/Reports.h"
#include "ktflow/Registration/Registration.h"
#include "ktflow/Support/ExitStatus.h"
#include "ktflow/Support/ModuleLoader.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace ktflow;

cl::SubCommand ktflow::driver::checkCommand(
    "check", "Parse, verify and check the legality of a KTIR file, then "
             "print a summary of its kernels");

static cl::opt<std::string> checkInput(cl::Positional, cl::Required,
                                       cl::desc("<kernel.mlir>"),
                                       cl::sub(ktflow::driver::checkCommand));
static cl::opt<bool>
    checkJson("json", cl::desc("Print one JSON object (docs/json-output.md)"),
              cl::sub(ktflow::driver::checkCommand));

static cl::opt<std::string>
    checkFunc("func",
              cl::desc("Summarise only this function (the whole file is "
                       "still verified and checked)"),
              cl::value_desc("NAME"), cl::sub(ktflow::driver::checkCommand));

int ktflow::driver::runCheck() {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  ModuleLoader loader(context);
  mlir::OwningOpRef<mlir::ModuleOp> module = loader.load(checkInput);
  if (!module)
    return 1;
  Expected<std::vector<KernelSummary>> kernels =
      checkKernels(*module, checkInput);
  if (!kernels)
    return reportError(kernels.takeError());
  if (!checkFunc.empty()) {
    auto named = llvm::find_if(*kernels, [](const KernelSummary &kernel) {
      return kernel.name == checkFunc;
    });
    if (named == kernels->end()) {
      std::string names;
      for (const KernelSummary &kernel : *kernels)
        names += (names.empty() ? "@" : ", @") + kernel.name;
      WithColor::error(errs(), "ktflow")
          << checkInput << " has no function @" << checkFunc << "; it has "
          << names << "\n";
      return 1;
    }
    KernelSummary only = *named;
    kernels->assign(1, only);
  }
  if (checkJson)
    writeReport(outs(), checkReport(checkInput, *kernels));
  else
    printCheckReport(outs(), checkInput, *kernels);
  return 0;
}

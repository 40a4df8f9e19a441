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
  if (checkJson)
    writeReport(outs(), checkReport(checkInput, *kernels));
  else
    printCheckReport(outs(), checkInput, *kernels);
  return 0;
}

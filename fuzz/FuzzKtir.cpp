//===- FuzzKtir.cpp - libFuzzer harness: KTIR parser, verifier, legality --===//
//
// Feeds each input, as a KTIR file, to what `ktflow check` runs: the
// loader's parse and verify (MlirInput.h), the legality pass
// (ktir-check-legality) and the kernel summaries, printed as text and as
// JSON. A hostile file must end in a diagnostic. Seeds: the kernels of
// examples/ and test/ (scripts/fuzz.sh collects them).
//
//===----------------------------------------------------------------------===//

#include "MlirInput.h"

#include "ktflow/Driver/CheckKernels.h"
#include "ktflow/Driver/Reports.h"
#include "ktflow/Support/JsonReport.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ktflow::fuzz::withLoadedModule(data, size, [](mlir::ModuleOp module) {
    auto kernels = ktflow::checkKernels(module, "fuzz-input.mlir");
    if (!kernels) {
      llvm::consumeError(kernels.takeError());
      return;
    }
    ktflow::printCheckReport(llvm::nulls(), "fuzz-input.mlir", *kernels);
    ktflow::writeReport(llvm::nulls(),
                        ktflow::checkReport("fuzz-input.mlir", *kernels));
  });
  return 0;
}

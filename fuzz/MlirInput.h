//===- MlirInput.h - A fuzz input as an MLIR file --------------*- C++ -*-===//
//
// The text harnesses (FuzzKtir.cpp, FuzzDevice.cpp, FuzzInterpreter.cpp)
// take an MLIR file as input and load it the way ktflow's tools do: on a
// thread with the tools' large stack (ktflow/Support/LargeStack.h; MLIR's
// parser and verifier recurse once per nesting level, and deeply nested
// input is legal), into a fresh context with every dialect registered,
// through ModuleLoader with its diagnostics discarded. A fresh context per
// input keeps one input's uniqued attributes and types from growing the
// next one's memory; the context runs no thread pool, which would be
// started and stopped for every input.
//
// Some upstream custom parsers crash after reporting an error at the input
// (linalg's `dimensions = [...]` with a malformed integer); the tools turn
// that into the parse error (ktflow/Support/CrashRecovery.h), and so does
// the harness: each input is first parsed alone under a
// CrashRecoveryContext, and one whose parse crashes after an error is
// skipped, its state leaked (the crash left it half-built) and kept out of
// the leak check. A parse that crashes without an error is an internal
// error: the harness then loads the input unguarded and libFuzzer reports
// the crash.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_FUZZ_MLIRINPUT_H
#define KTFLOW_FUZZ_MLIRINPUT_H

#include "ktflow/Registration/Registration.h"
#include "ktflow/Support/LargeStack.h"
#include "ktflow/Support/ModuleLoader.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

#include <sanitizer/lsan_interface.h>

#include <cstdint>
#include <optional>

namespace ktflow::fuzz {

/// ASan's SEGV handler pre-empts CrashRecoveryContext's; libFuzzer's own
/// handler still reports a SEGV outside parserCrashesAfterError. User
/// poisoning is off as in scripts/sanitizer-env.sh (LLVM's allocator in
/// our headers and in the uninstrumented libMLIR disagree). (Each
/// harness is one translation unit, so this is defined once per binary.)
extern "C" const char *__asan_default_options() { return "handle_segv=0:allow_user_poisoning=0"; }

/// Every dialect the tools register.
inline const mlir::DialectRegistry &getRegistry() {
  static const mlir::DialectRegistry registry = [] {
    mlir::DialectRegistry r;
    registerAllDialects(r);
    return r;
  }();
  return registry;
}

/// Whether parsing `text` crashes after reporting an error at it.
inline bool parserCrashesAfterError(llvm::StringRef text) {
  static const bool enabled = (llvm::CrashRecoveryContext::Enable(), true);
  (void)enabled;
  auto *context = new mlir::MLIRContext(getRegistry(),
                                        mlir::MLIRContext::Threading::DISABLED);
  bool errorReported = false;
  context->getDiagEngine().registerHandler([&](mlir::Diagnostic &diag) {
    errorReported |= diag.getSeverity() == mlir::DiagnosticSeverity::Error;
    return mlir::success();
  });
  __lsan_disable();
  llvm::CrashRecoveryContext recovery;
  bool finished = recovery.RunSafely([&] {
    mlir::ParserConfig config(context, /*verifyAfterParse=*/false);
    (void)mlir::parseSourceString<mlir::ModuleOp>(text, config);
  });
  __lsan_enable();
  if (finished)
    delete context;
  return !finished && errorReported;
}

/// Runs `body(module)` on the module `data` parses and verifies into, if it
/// does, on a thread with the tools' stack.
template <typename Body>
void withLoadedModule(const uint8_t *data, size_t size, Body body) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::thread worker(std::optional<unsigned>(kLargeStackBytes), [&] {
    if (parserCrashesAfterError(text))
      return;
    mlir::MLIRContext context(getRegistry(),
                              mlir::MLIRContext::Threading::DISABLED);
    context.printOpOnDiagnostic(false);
    ModuleLoader loader(context, llvm::nulls());
    mlir::OwningOpRef<mlir::ModuleOp> module =
        loader.loadText(text, "fuzz-input.mlir");
    if (module)
      body(*module);
  });
  worker.join();
}

} // namespace ktflow::fuzz

#endif // KTFLOW_FUZZ_MLIRINPUT_H

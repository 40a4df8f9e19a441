//===- FuzzInterpreter.cpp - libFuzzer harness: the KTIR interpreter ------===//
//
// Feeds each input, as a KTIR file, to what `ktflow interp --engine=interp`
// runs: the loader's parse and verify (MlirInput.h), the choice of the
// function, the arguments bound (every scalar and runtime_arg to the first
// of 1, 2, 4, ..., 128 it accepts, every tensor to its default contents
// with seed 0), the run and the outputs printed. Budgets keep a run
// bounded, so a long but legal kernel ends in the budget's error rather
// than in the fuzzer's timeout or memory limit: 200,000 element
// operations, 2 seconds, 64 MiB of touched memory. Seeds: the kernels of
// examples/ and test/ (scripts/fuzz.sh collects them).
//
//===----------------------------------------------------------------------===//

#include "MlirInput.h"

#include "ktflow/Interpreter/Bindings.h"
#include "ktflow/Interpreter/Interpreter.h"

#include <string>

using namespace ktflow::interp;

/// Binds every scalar and runtime_arg argument to a small value it accepts.
static void bindScalars(Interpreter &interpreter) {
  for (const ArgumentInfo &arg : interpreter.getArguments()) {
    if (arg.kind == ArgumentKind::Tensor)
      continue;
    std::string position = std::to_string(arg.position);
    for (int value = 1; value <= 128; value *= 2) {
      llvm::Error err = interpreter.setScalar(position, std::to_string(value));
      if (!err)
        break;
      llvm::consumeError(std::move(err));
    }
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ktflow::fuzz::withLoadedModule(data, size, [](mlir::ModuleOp module) {
    InterpreterOptions options;
    options.maxElementOps = 200000;
    options.maxSeconds = 2;
    options.maxMemoryBytes = 64 << 20;
    Interpreter interpreter(module, options);
    if (llvm::Error err = interpreter.selectFunction()) {
      llvm::consumeError(std::move(err));
      return;
    }
    bindScalars(interpreter);
    if (mlir::failed(interpreter.run()))
      return;
    printOutputs(llvm::nulls(), interpreter);
  });
  return 0;
}

//===- Engine.h - Which engine runs a bound kernel --------------*- C++ -*-===//
//
// This file declares the engine choice of `ktflow interp`: run a kernel
// whose arguments and inputs are bound in an interpreter on the compiled
// tier (CpuJit.h) or on the interpreter itself, say which ran, print its
// output lines and write its `--output` files. The command only parses
// options; the policy of which engine may run what lives here.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_CPUJIT_ENGINE_H
#define KTFLOW_CPUJIT_ENGINE_H

#include "ktflow/Interpreter/Bindings.h"
#include "ktflow/Interpreter/Interpreter.h"

namespace ktflow::jit {

enum class Engine {
  /// The compiled tier where the kernel lowers, the interpreter otherwise.
  Auto,
  /// The compiled tier; an error where the kernel does not lower.
  Jit,
  /// The tree-walking interpreter.
  Interp,
};

struct EngineOptions {
  Engine engine = Engine::Auto;
  /// Whether the user named the engine: a note then says so when the
  /// interpreter runs as asked (a note always says when the tier ran, or
  /// why the interpreter ran instead).
  bool explicitEngine = false;
  /// The first option given that only the interpreter implements (its
  /// budgets and scratchpad accounting, "--max-seconds"), or empty.
  std::string interpreterOnlyOption;
  interp::NumericsPolicy numerics = interp::NumericsPolicy::Accumulate;
  /// The kernel's file, for crash reports.
  std::string input;
  /// Print the `interp` JSON report (docs/json-output.md) instead of the
  /// output lines.
  bool json = false;
};

/// Runs the function `interpreter` selected and bound on the engine
/// `options` picks, prints its output lines (or report) to `os` and writes
/// `files`;
/// notes and errors go to stderr. Returns the exit code.
int runOnEngine(mlir::ModuleOp module, interp::Interpreter &interpreter,
                const EngineOptions &options,
                llvm::ArrayRef<interp::OutputFile> files,
                llvm::raw_ostream &os);

} // namespace ktflow::jit

#endif // KTFLOW_CPUJIT_ENGINE_H

//===- InterpreterImpl.h - State behind the Interpreter API -----*- C++ -*-===//
//
// This file declares Interpreter::Impl, the state the public interpreter
// API keeps between its calls (the selected kernel, its arguments and
// inputs, the last run), shared by the files that implement the API:
// Interpreter.cpp (binding, running, reading back) and InitialValues.cpp
// (a tensor's values before any store, for the compiled tier).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_INTERPRETER_INTERPRETERIMPL_H
#define KTFLOW_LIB_INTERPRETER_INTERPRETERIMPL_H

#include "ArgumentAnalysis.h"
#include "Executor.h"

#include "ktflow/Interpreter/Interpreter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/Error.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ktflow::interp {

inline llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The memory ceiling of a run: --max-memory-bytes, else the default.
inline int64_t memoryCeiling(const InterpreterOptions &options) {
  return options.maxMemoryBytes > 0 ? options.maxMemoryBytes
                                    : MemoryBudget::defaultLimit();
}

struct Interpreter::Impl {
  mlir::ModuleOp module;
  InterpreterOptions options;
  mlir::func::FuncOp fn;
  llvm::SmallVector<int64_t, 3> grid;
  std::vector<ArgumentInfo> args;
  std::vector<std::optional<Scalar>> scalars;
  std::vector<std::optional<host::InputSpec>> inputs;
  std::map<int64_t, host::InputSpec> literalInputs;
  /// The literal-address tensors of indices, by element address.
  std::map<int64_t, IndexTensorUse> literalIndexTensors;
  /// The `lx<K>@ADDR` inputs: by tile, then literal address.
  std::map<int64_t, std::map<int64_t, host::InputSpec>> scratchpadInputs;
  std::unique_ptr<RunState> state;

  std::string argName(unsigned i) const {
    return args[i].name.empty() ? std::to_string(i) : args[i].name;
  }
};

} // namespace ktflow::interp

#endif // KTFLOW_LIB_INTERPRETER_INTERPRETERIMPL_H

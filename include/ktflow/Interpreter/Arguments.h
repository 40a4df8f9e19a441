//===- Arguments.h - What a kernel's arguments are --------------*- C++ -*-===//
//
// This file declares how the interpreter classifies the arguments of a
// kernel function: the start address of a tensor (which the interpreter
// places and fills from an input spec), a scalar, or a runtime_arg, with
// what the kernel does with the tensor. The interpreter's facade reports
// them (Interpreter::getArguments) and its argument analysis computes them.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_INTERPRETER_ARGUMENTS_H
#define KTFLOW_INTERPRETER_ARGUMENTS_H

#include "ktflow/Analysis/IndexTensors.h"

#include "mlir/IR/Types.h"

#include <optional>
#include <string>

namespace ktflow::interp {

enum class ArgumentKind {
  /// An index (or runtime_arg) that feeds construct_memory_view offsets:
  /// the start address of a tensor, chosen by the interpreter.
  Tensor,
  /// A scalar value given by the caller.
  Scalar,
  /// A !ktdp.runtime_arg value given by the caller.
  RuntimeArg,
};

struct ArgumentInfo {
  unsigned position = 0;
  /// The SSA name in the source (`%A` -> "A"), or empty when unknown.
  std::string name;
  ArgumentKind kind = ArgumentKind::Scalar;
  mlir::Type type;
  /// Whether some load / store of the kernel may touch the tensor.
  bool loaded = false, stored = false;
  /// Set when indirect access tiles read the tensor's elements as
  /// coordinates (ktflow/Analysis/IndexTensors.h).
  std::optional<IndexTensorUse> index;
};

} // namespace ktflow::interp

#endif // KTFLOW_INTERPRETER_ARGUMENTS_H

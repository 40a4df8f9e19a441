//===- OpClass.h - Classes of compute operations ----------------*- C++ -*-===//
//
// This file declares the classes of operations whose throughput a compute
// unit states. It needs nothing but LLVM's ADT, so the architecture
// description, the device model and the simulator's MLIR-free machine all
// index throughput by this one enum.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDFARCH_IR_OPCLASS_H
#define KTFLOW_DIALECT_KTDFARCH_IR_OPCLASS_H

#include "llvm/ADT/StringRef.h"

namespace mlir::ktdf_arch {

/// Classes of operations whose throughput a compute unit states.
enum class OpClass { Elementwise, Transcendental, Reduction, Matrix };
inline constexpr unsigned kNumOpClasses = 4;

/// The class's name as the architecture description spells it. Inline so the
/// simulator can print it without linking the dialect.
inline llvm::StringRef stringifyOpClass(OpClass cls) {
  switch (cls) {
  case OpClass::Elementwise:
    return "elementwise";
  case OpClass::Transcendental:
    return "transcendental";
  case OpClass::Reduction:
    return "reduction";
  case OpClass::Matrix:
    return "matrix";
  }
  return "unknown";
}

} // namespace mlir::ktdf_arch

#endif // KTFLOW_DIALECT_KTDFARCH_IR_OPCLASS_H

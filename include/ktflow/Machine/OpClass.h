//===- OpClass.h - Classes of compute operations ----------------*- C++ -*-===//
//
// This file declares the classes of operations whose throughput a compute
// unit states. It belongs to the machine library and needs nothing but
// LLVM's ADT, so the machine, the architecture description (which re-exports
// it as ktdf_arch::OpClass), the device model and the simulator all index
// throughput by this one enum.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_MACHINE_OPCLASS_H
#define KTFLOW_MACHINE_OPCLASS_H

#include "llvm/ADT/StringRef.h"

namespace ktflow::machine {

/// Classes of operations whose throughput a compute unit states.
enum class OpClass { Elementwise, Transcendental, Reduction, Matrix };
inline constexpr unsigned kNumOpClasses = 4;

/// The class's name as the architecture description spells it. Inline so
/// the dialect can print it without linking the machine library.
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

} // namespace ktflow::machine

#endif // KTFLOW_MACHINE_OPCLASS_H

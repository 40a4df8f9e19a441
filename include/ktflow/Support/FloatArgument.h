//===- FloatArgument.h - The value of a float scalar argument ---*- C++ -*-===//
//
// This file declares how the tools read the value of a float scalar kernel
// argument (`--arg eps=1e-5` or `--arg eps=0x0054`): a decimal number
// rounded once, to nearest even, to the argument's type, or the bit pattern
// of that type in hexadecimal. The runtime and the interpreter both use it,
// so `ktflow run`, `sim` and `interp` bind the same value bit for bit.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_SUPPORT_FLOATARGUMENT_H
#define KTFLOW_SUPPORT_FLOATARGUMENT_H

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace ktflow {

/// `text` as a value of the float type `semantics` (exactly representable
/// in a double): a decimal (or C99 hexadecimal-float `0x1.8p3`) number
/// rounded to nearest even, or `0x` followed by at most as many hex digits
/// as the type has bits, taken as its bit pattern (`0x1E00` is the f16
/// 0.00586). None for anything else, including a number too large for the
/// type (rounding would make it infinite).
std::optional<double> parseFloatArgument(llvm::StringRef text,
                                         const llvm::fltSemantics &semantics);

} // namespace ktflow

#endif // KTFLOW_SUPPORT_FLOATARGUMENT_H

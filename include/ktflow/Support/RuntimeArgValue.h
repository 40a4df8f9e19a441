//===- RuntimeArgValue.h - What a runtime_arg value must be -----*- C++ -*-===//
//
// This file declares the one check of a value bound to a runtime_arg (a
// launch-time size: positive, a multiple of its granularity, at most its
// upperbound). The runtime and the interpreter both use it, so `ktflow sim`,
// `ktflow run` and `ktflow interp` accept and refuse the same values with
// the same message.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_SUPPORT_RUNTIMEARGVALUE_H
#define KTFLOW_SUPPORT_RUNTIMEARGVALUE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>

namespace ktflow {

/// Success when `value` may be bound to runtime argument `name` of this
/// granularity and upperbound (none: unconstrained), else the reason, e.g.
/// "runtime argument 'M' = 0 must be positive".
llvm::Error checkRuntimeArgValue(llvm::StringRef name, int64_t value,
                                 std::optional<int64_t> granularity,
                                 std::optional<int64_t> upperbound);

/// The same for a runtime_arg of floating-point type.
llvm::Error checkRuntimeArgValue(llvm::StringRef name, double value,
                                 std::optional<int64_t> granularity,
                                 std::optional<int64_t> upperbound);

} // namespace ktflow

#endif // KTFLOW_SUPPORT_RUNTIMEARGVALUE_H

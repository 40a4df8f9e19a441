//===- LaunchArguments.h - Scalars a kernel receives at launch --*- C++ -*-===//
//
// This file declares what the compiler treats as a launch-time scalar: a
// `!ktdp.runtime_arg` kernel argument (read with `runtime_arg_extract
// value`) or a plain integer or `index` kernel argument that no memory view
// starts at (the sizes, counts and offsets real kernels pass as `%n_rows:
// index` or `%n: i32`), and float scalars (`%eps: f16`) that compute
// units broadcast. All are symbols bound when the kernel is launched,
// never compile-time values: one compiled program serves every value within
// the argument's bounds.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_ANALYSIS_LAUNCHARGUMENTS_H
#define KTFLOW_ANALYSIS_LAUNCHARGUMENTS_H

#include "mlir/IR/Value.h"

#include <cstdint>
#include <optional>

namespace ktflow {

/// The values a launch-time scalar may take: an integer in [lower, upper]
/// that is a multiple of `granularity`.
struct LaunchArgumentBounds {
  int64_t lower = 1;
  int64_t upper = INT64_MAX;
  int64_t granularity = 1;
  /// Whether the kernel promises `lower` (a runtime_arg is positive) and
  /// `upper` (a runtime_arg's upperbound), rather than them being only the
  /// limits of the argument's type or of the runtime.
  bool lowerPromised = false, upperPromised = false;
};

/// Whether `arg` is a scalar of its kernel bound at launch: a
/// `!ktdp.runtime_arg`, or an integer or `index` argument of a function with
/// a body that is not (through arithmetic) the start address of a memory
/// view and has at least one use.
bool isLaunchScalar(mlir::BlockArgument arg);

/// Whether `arg` is a float scalar of its kernel bound at launch: an f16,
/// bf16 or f32 argument of a function with a body, with at least one use
/// (a norm's `%eps: f16`). Compute units read it as a broadcast operand;
/// it never takes part in addresses or loop bounds.
bool isFloatLaunchScalar(mlir::BlockArgument arg);

/// The launch-time scalar `v` is the value of: a `runtime_arg_extract value`
/// of a runtime argument, a plain launch scalar argument, or either through
/// `arith.index_cast` / `arith.index_castui`. Null otherwise.
mlir::BlockArgument getLaunchScalar(mlir::Value v);

/// The integer launch scalar `v` is the float value of: `arith.sitofp` of
/// what getLaunchScalar accepts (a layernorm's `sitofp(index_cast %N)`, the
/// divisor of its mean). Compute units read it, like a float launch scalar,
/// as the argument's value rounded once to the float type. Null otherwise.
mlir::BlockArgument getFloatOfLaunchScalar(mlir::Value v);

/// Where a memory view starts: a kernel argument (the tensor's start
/// address), plus `displacement` elements when the view is at a computed
/// address `arith.addi(argument, displacement)` (`ptr + pid * 128`,
/// `ptr + k * shard`), the displacement computed from no address.
struct ViewAddress {
  mlir::BlockArgument argument;
  /// Null when the view starts at the argument itself.
  mlir::Value displacement;
};

/// The start of a view at offset `offset` in those terms; none for a
/// literal address or any other computation.
std::optional<ViewAddress> getViewAddress(mlir::Value offset);

/// The values launch scalar `arg` may take: a runtime_arg's promise
/// (positive, its granularity, its upperbound or 2^31), or the range of a
/// plain argument's type (`index` and i64 as int64).
LaunchArgumentBounds getLaunchArgumentBounds(mlir::BlockArgument arg);

} // namespace ktflow

#endif // KTFLOW_ANALYSIS_LAUNCHARGUMENTS_H

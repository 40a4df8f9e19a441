//===- LaunchGrid.h - The `grid` attribute of KTIR kernels ------*- C++ -*-===//
//
// This file declares the reading of a kernel's launch grid. The grid is a
// discardable `grid` attribute on the kernel function (or an enclosing
// module), written `[32]`, `[32, 1]`, `[2, 1, 1]`, `[1 : index]` or
// `array<i64|i32: ...>`.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDP_UTILS_LAUNCHGRID_H
#define KTFLOW_DIALECT_KTDP_UTILS_LAUNCHGRID_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::ktdp {

/// The name of the discardable attribute that carries the launch grid.
inline constexpr StringLiteral kGridAttrName = "grid";

/// Parses a grid attribute value into its positive extents. Emits through
/// `emitError` and fails when the value is not a list of positive integers.
FailureOr<SmallVector<int64_t>>
parseGridAttr(Attribute attr, function_ref<InFlightDiagnostic()> emitError);

/// The closest ancestor of `op` (or `op` itself) that carries a `grid`.
Operation *getGridOwner(Operation *op);

/// The launch grid of the kernel enclosing `op`. Returns std::nullopt when
/// no ancestor has a grid; fails (with a diagnostic) when it is malformed.
FailureOr<std::optional<SmallVector<int64_t>>> getLaunchGrid(Operation *op);

/// Total number of compute tiles in `grid`.
int64_t getNumTiles(ArrayRef<int64_t> grid);

/// The multi-dimensional id of linear tile `linearId` (x fastest).
SmallVector<int64_t> delinearizeTileId(int64_t linearId,
                                       ArrayRef<int64_t> grid);

} // namespace mlir::ktdp

#endif // KTFLOW_DIALECT_KTDP_UTILS_LAUNCHGRID_H

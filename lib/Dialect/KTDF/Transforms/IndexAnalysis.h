//===- IndexAnalysis.h - How index values follow loop variables -*- C++ -*-===//
//
// This file declares the index arithmetic analyses of the scheduler's passes:
// the coefficients of an affine expression, the coefficient of an induction
// variable in an index value or an access tile's anchor, and an upper bound
// of an index value.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_INDEXANALYSIS_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_INDEXANALYSIS_H

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Value.h"

#include <optional>

namespace mlir::ktdf {

/// How `v` changes per unit of `iv`: its coefficient if it is `a + c * iv`
/// through additions and multiplications by constants, 0 if it does not
/// depend on `iv`, none otherwise.
std::optional<int64_t> coefficient(Value v, Value iv, int depth = 0);

/// The constant term and the coefficient of each of the `n` dimensions of
/// `expr`, when it is affine (a pure affine expression, evaluated at the
/// origin and at each unit vector).
std::optional<std::pair<int64_t, SmallVector<int64_t>>>
affineCoefficients(AffineExpr expr, size_t n);

/// The coefficient of `iv` in result `r` of an access tile's anchor.
std::optional<int64_t> anchorCoefficient(ktdp::ConstructAccessTileOp tile,
                                         unsigned r, Value iv);

/// The extent of the grid dimension `v` is the coordinate of: `v` is a tile
/// id, or the ktdf.parallel argument mapping turns a tile id into.
std::optional<int64_t> gridExtentOf(Value v);

/// An upper bound of an index value that follows from constants, the grid
/// (a tile id is below its grid extent) and the upper bounds runtime
/// arguments promise, through additions, multiplications, divisions by
/// positive constants and minima.
std::optional<int64_t> upperBoundOf(Value v, int depth = 0);

/// The value of index or i1 `v` when it follows from constants and the
/// values `leaf` gives (a tile id, a loop variable; none when unknown)
/// through integer arithmetic, selects and comparisons; divisions only of
/// values that are not negative by positive divisors, where signed and
/// unsigned agree.
std::optional<int64_t>
evaluateIndex(Value v, function_ref<std::optional<int64_t>(Value)> leaf,
              int depth = 0);

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_INDEXANALYSIS_H

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

/// Inclusive bounds of an index value, either end possibly unknown (`min(x,
/// 64)` is at most 64 whatever x is, at least x's lower bound).
struct Bounds {
  std::optional<int64_t> lo, hi;
};

/// How a clamp picks between its two values: `arith.minsi` and
/// `select(x < y, x, y)` take their minimum, `arith.maxsi` and
/// `select(x > y, x, y)` their maximum (Triton's clamps), any other select
/// either of them.
enum class Pick { Min, Max, Either };
struct Clamp {
  Pick pick;
  Value a, b;
};

/// `def` as a signed minimum, maximum or select of two values, or none.
std::optional<Clamp> clampOf(Operation *def);

/// Bounds of min(a, b), max(a, b) or one of a and b: an end of the minimum
/// below both operands' upper ends needs only one of them, its lower end
/// both; dually for the maximum.
Bounds combine(Pick pick, Bounds a, Bounds b);

/// Bounds of `arith.minui(a, b)`: read unsigned, a negative operand is
/// larger than any other, so only an operand known not to be negative
/// bounds the result (to [0, its upper end]); both do when both are.
Bounds unsignedMinimum(Bounds a, Bounds b);

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

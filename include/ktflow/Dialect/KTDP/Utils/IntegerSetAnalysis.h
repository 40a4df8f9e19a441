//===- IntegerSetAnalysis.h - Bounds and points of integer sets -*- C++ -*-===//
//
// This file declares the helpers that turn the integer sets of KTIR
// (coordinate sets, access-tile sets, tile-group sets) into numbers:
// evaluation at a point, bounding boxes, and point enumeration.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDP_UTILS_INTEGERSETANALYSIS_H
#define KTFLOW_DIALECT_KTDP_UTILS_INTEGERSETANALYSIS_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::ktdp {

/// Evaluates `expr` at integer dims and symbols. floordiv/ceildiv/mod follow
/// affine semantics (floor division, non-negative remainder). Returns
/// std::nullopt on division by zero, a result or intermediate outside
/// int64_t, or a position out of range.
std::optional<int64_t> evaluateAffineExpr(AffineExpr expr,
                                          ArrayRef<int64_t> dims,
                                          ArrayRef<int64_t> symbols);

/// One step of evaluateAffineExpr: `kind` (Add, Mul, FloorDiv, CeilDiv or
/// Mod) applied to evaluated operands; std::nullopt as there.
std::optional<int64_t> applyAffineBinary(AffineExprKind kind, int64_t lhs,
                                         int64_t rhs);

/// Whether the point (`dims`, `symbols`) satisfies every constraint of `set`.
bool containsPoint(IntegerSet set, ArrayRef<int64_t> dims,
                   ArrayRef<int64_t> symbols);

/// Whether every constraint of `set` involves at most one dimension, so the
/// set is a box once its symbols are fixed.
bool isBoxShaped(IntegerSet set);

/// The box 0 <= d_i < extents_i.
IntegerSet getBoxSet(ArrayRef<int64_t> extents, MLIRContext *ctx);

/// Inclusive per-dimension bounds.
struct IntegerBox {
  SmallVector<int64_t> lower;
  SmallVector<int64_t> upper;

  /// Number of points per dimension (0 for an empty dimension).
  SmallVector<int64_t> getExtents() const;
  bool isEmpty() const;
};

/// Constant bounds of every dimension of `set` with its symbols fixed to
/// `symbols` (projection, so skewed and triangular sets get their bounding
/// box too). Fails when a dimension is unbounded.
FailureOr<IntegerBox> getBoundingBox(IntegerSet set,
                                     ArrayRef<int64_t> symbols);

/// The upper bounds of dimension `d` of a set whose constraints on `d`
/// involve no other dimension, as the results of a map over the set's
/// symbols: `d` is at most their minimum (inclusive). Fails when `d` has no
/// upper bound or a constraint on it is not linear or involves another
/// dimension.
FailureOr<AffineMap> getUpperBoundMap(IntegerSet set, unsigned d);

/// The number of coordinates along dimension `d`, from 0, that both
/// `size` (none: unknown) and the constant upper bounds getUpperBoundMap
/// finds for `d` in `set` allow: the least of them, none when neither
/// bounds it.
std::optional<int64_t> getConstantExtent(IntegerSet set, unsigned d,
                                         std::optional<int64_t> size);

/// The extent of each dimension of `set` whose bounds do not depend on the
/// symbols (std::nullopt for the others, and for unbounded dimensions).
SmallVector<std::optional<int64_t>> getSymbolFreeExtents(IntegerSet set);

/// Every integer point of `set` (symbols fixed), in lexicographic order of
/// the dimensions. Fails when the set is unbounded or has more than
/// `maxPoints` points.
FailureOr<SmallVector<SmallVector<int64_t>>>
enumerateBoundedPoints(IntegerSet set, ArrayRef<int64_t> symbols,
                       int64_t maxPoints = 1 << 20);

} // namespace mlir::ktdp

#endif // KTFLOW_DIALECT_KTDP_UTILS_INTEGERSETANALYSIS_H

//===- IntegerSetAnalysis.cpp - Bounds and points of integer sets ---------===//
//
// This file implements evaluation, bounding boxes and enumeration of the
// integer sets KTIR uses. Bounding boxes come from MLIR's Presburger library
// (Fourier-Motzkin projection), so non-box sets get exact per-dim bounds.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "mlir/Analysis/FlatLinearValueConstraints.h"
#include "mlir/IR/AffineExprVisitor.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::ktdp;

std::optional<int64_t> mlir::ktdp::evaluateAffineExpr(AffineExpr expr,
                                                      ArrayRef<int64_t> dims,
                                                      ArrayRef<int64_t> symbols) {
  switch (expr.getKind()) {
  case AffineExprKind::Constant:
    return llvm::cast<AffineConstantExpr>(expr).getValue();
  case AffineExprKind::DimId: {
    unsigned pos = llvm::cast<AffineDimExpr>(expr).getPosition();
    if (pos >= dims.size())
      return std::nullopt;
    return dims[pos];
  }
  case AffineExprKind::SymbolId: {
    unsigned pos = llvm::cast<AffineSymbolExpr>(expr).getPosition();
    if (pos >= symbols.size())
      return std::nullopt;
    return symbols[pos];
  }
  default:
    break;
  }
  auto binary = llvm::cast<AffineBinaryOpExpr>(expr);
  std::optional<int64_t> lhs = evaluateAffineExpr(binary.getLHS(), dims, symbols);
  std::optional<int64_t> rhs = evaluateAffineExpr(binary.getRHS(), dims, symbols);
  if (!lhs || !rhs)
    return std::nullopt;
  return applyAffineBinary(expr.getKind(), *lhs, *rhs);
}

std::optional<int64_t> mlir::ktdp::applyAffineBinary(AffineExprKind kind,
                                                     int64_t lhs, int64_t rhs) {
  // Values a kernel computes (anchors of 2^62, constants of a mutated set)
  // can take an expression past 64 bits: no value, as for a division by 0.
  int64_t result;
  switch (kind) {
  case AffineExprKind::Add:
    if (__builtin_add_overflow(lhs, rhs, &result))
      return std::nullopt;
    return result;
  case AffineExprKind::Mul:
    if (__builtin_mul_overflow(lhs, rhs, &result))
      return std::nullopt;
    return result;
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv:
    if (rhs == 0 || (lhs == INT64_MIN && rhs == -1))
      return std::nullopt;
    return kind == AffineExprKind::FloorDiv ? llvm::divideFloorSigned(lhs, rhs)
                                            : llvm::divideCeilSigned(lhs, rhs);
  case AffineExprKind::Mod: {
    if (rhs == 0)
      return std::nullopt;
    if (rhs == -1)
      return 0;
    // r + |rhs| without |INT64_MIN|: r lies strictly between -|rhs| and 0.
    int64_t r = lhs % rhs;
    return r >= 0 ? r : rhs > 0 ? r + rhs : r - rhs;
  }
  default:
    return std::nullopt;
  }
}

bool mlir::ktdp::containsPoint(IntegerSet set, ArrayRef<int64_t> dims,
                               ArrayRef<int64_t> symbols) {
  for (auto [constraint, isEq] :
       llvm::zip(set.getConstraints(), set.getEqFlags())) {
    std::optional<int64_t> value = evaluateAffineExpr(constraint, dims, symbols);
    if (!value || (isEq ? *value != 0 : *value < 0))
      return false;
  }
  return true;
}

IntegerSet mlir::ktdp::getBoxSet(ArrayRef<int64_t> extents, MLIRContext *ctx) {
  SmallVector<AffineExpr> constraints;
  for (auto [i, n] : llvm::enumerate(extents)) {
    AffineExpr d = getAffineDimExpr(i, ctx);
    constraints.push_back(d);
    constraints.push_back(-d + (n - 1));
  }
  SmallVector<bool> eq(constraints.size(), false);
  return IntegerSet::get(extents.size(), 0, constraints, eq);
}

bool mlir::ktdp::isBoxShaped(IntegerSet set) {
  for (AffineExpr constraint : set.getConstraints()) {
    llvm::SmallBitVector used(set.getNumDims());
    constraint.walk([&](AffineExpr e) {
      if (auto dim = llvm::dyn_cast<AffineDimExpr>(e))
        used.set(dim.getPosition());
    });
    if (used.count() > 1)
      return false;
  }
  return true;
}

SmallVector<int64_t> IntegerBox::getExtents() const {
  SmallVector<int64_t> extents;
  for (auto [lo, hi] : llvm::zip(lower, upper))
    extents.push_back(hi < lo ? 0 : hi - lo + 1);
  return extents;
}

bool IntegerBox::isEmpty() const {
  return llvm::any_of(getExtents(), [](int64_t e) { return e == 0; });
}

FailureOr<IntegerBox> mlir::ktdp::getBoundingBox(IntegerSet set,
                                                 ArrayRef<int64_t> symbols) {
  if (symbols.size() != set.getNumSymbols())
    return failure();
  FlatLinearValueConstraints constraints(set);
  for (auto [i, value] : llvm::enumerate(symbols))
    constraints.addBound(presburger::BoundType::EQ, set.getNumDims() + i,
                         value);
  IntegerBox box;
  for (unsigned d = 0; d < set.getNumDims(); ++d) {
    std::optional<int64_t> lo =
        constraints.getConstantBound64(presburger::BoundType::LB, d);
    std::optional<int64_t> hi =
        constraints.getConstantBound64(presburger::BoundType::UB, d);
    if (!lo || !hi)
      return failure();
    box.lower.push_back(*lo);
    box.upper.push_back(*hi);
  }
  return box;
}

std::optional<int64_t>
mlir::ktdp::getConstantExtent(IntegerSet set, unsigned d,
                              std::optional<int64_t> size) {
  std::optional<int64_t> extent = size;
  FailureOr<AffineMap> upper = getUpperBoundMap(set, d);
  if (succeeded(upper))
    for (AffineExpr bound : upper->getResults())
      if (auto c = dyn_cast<AffineConstantExpr>(bound))
        extent = std::min(extent.value_or(INT64_MAX), c.getValue() + 1);
  return extent;
}

FailureOr<AffineMap> mlir::ktdp::getUpperBoundMap(IntegerSet set,
                                                  unsigned d) {
  unsigned numDims = set.getNumDims(), numSymbols = set.getNumSymbols();
  if (d >= numDims)
    return failure();
  MLIRContext *ctx = set.getContext();
  SmallVector<AffineExpr> bounds;
  for (auto [constraint, isEq] :
       llvm::zip(set.getConstraints(), set.getEqFlags())) {
    if (!constraint.isFunctionOfDim(d))
      continue;
    // [dims..., symbols..., constant] when the constraint is linear.
    SmallVector<int64_t> flat;
    if (failed(getFlattenedAffineExpr(constraint, numDims, numSymbols,
                                      &flat)) ||
        flat.size() != numDims + numSymbols + 1)
      return failure();
    int64_t coeff = flat[d];
    if (coeff == 0)
      continue;
    for (unsigned other = 0; other < numDims; ++other)
      if (other != d && flat[other] != 0)
        return failure();
    if (coeff > 0 && !isEq)
      continue; // coeff * d + rest >= 0 is a lower bound
    // coeff * d + rest >= 0 (== 0): d <= floor(rest / -coeff), or for an
    // equality with coeff > 0, d = -rest / coeff.
    AffineExpr rest = getAffineConstantExpr(flat.back(), ctx);
    for (unsigned s = 0; s < numSymbols; ++s)
      rest = rest + getAffineSymbolExpr(s, ctx) * flat[numDims + s];
    bounds.push_back(coeff < 0 ? rest.floorDiv(-coeff)
                               : (-rest).floorDiv(coeff));
  }
  if (bounds.empty())
    return failure();
  return AffineMap::get(0, numSymbols, bounds, ctx);
}

SmallVector<std::optional<int64_t>>
mlir::ktdp::getSymbolFreeExtents(IntegerSet set) {
  // A dimension constrained together with a symbol has no fixed extent,
  // even when another constraint caps it by a constant.
  llvm::SmallBitVector symbolic(set.getNumDims());
  for (AffineExpr constraint : set.getConstraints()) {
    llvm::SmallBitVector dims(set.getNumDims());
    bool hasSymbol = false;
    constraint.walk([&](AffineExpr e) {
      if (auto dim = llvm::dyn_cast<AffineDimExpr>(e))
        dims.set(dim.getPosition());
      hasSymbol |= llvm::isa<AffineSymbolExpr>(e);
    });
    if (hasSymbol)
      symbolic |= dims;
  }
  FlatLinearValueConstraints constraints(set);
  SmallVector<std::optional<int64_t>> extents;
  for (unsigned d = 0; d < set.getNumDims(); ++d) {
    if (symbolic.test(d)) {
      extents.push_back(std::nullopt);
      continue;
    }
    std::optional<int64_t> lo =
        constraints.getConstantBound64(presburger::BoundType::LB, d);
    std::optional<int64_t> hi =
        constraints.getConstantBound64(presburger::BoundType::UB, d);
    if (lo && hi)
      extents.push_back(*hi < *lo ? 0 : *hi - *lo + 1);
    else
      extents.push_back(std::nullopt);
  }
  return extents;
}

FailureOr<SmallVector<SmallVector<int64_t>>>
mlir::ktdp::enumerateBoundedPoints(IntegerSet set, ArrayRef<int64_t> symbols,
                                   int64_t maxPoints) {
  FailureOr<IntegerBox> box = getBoundingBox(set, symbols);
  if (failed(box))
    return failure();
  SmallVector<SmallVector<int64_t>> points;
  if (box->isEmpty())
    return points;
  int64_t boxPoints = 1;
  for (int64_t extent : box->getExtents()) {
    if (extent > maxPoints / boxPoints)
      return failure();
    boxPoints *= extent;
  }
  SmallVector<int64_t> point(box->lower);
  unsigned rank = point.size();
  for (int64_t n = 0; n < boxPoints; ++n) {
    if (containsPoint(set, point, symbols))
      points.push_back(point);
    // Advance the odometer, last dimension fastest.
    for (int d = static_cast<int>(rank) - 1; d >= 0; --d) {
      if (++point[d] <= box->upper[d])
        break;
      point[d] = box->lower[d];
    }
  }
  return points;
}

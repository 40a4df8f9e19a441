//===- AffineEval.cpp - Fast evaluation of affine maps and sets -----------===//
//
// This file implements precompiled integer sets. A
// box-shaped set's bounds come straight from its single-dim constraints
// (c * d + rest >= 0 gives d >= ceil(-rest / c) or d <= floor(rest / -c)),
// which is far cheaper than the Presburger projection that non-box sets
// need and that the interpreter would otherwise pay on every access tile.
//
//===----------------------------------------------------------------------===//

#include "AffineEval.h"

#include "mlir/IR/AffineExprVisitor.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace ktflow::interp;

SetPlan::SetPlan(IntegerSet set) : set(set) {
  unsigned numDims = set.getNumDims();
  for (auto [expr, isEq] : llvm::zip(set.getConstraints(), set.getEqFlags())) {
    DimConstraint c;
    c.expr = expr;
    c.isEq = isEq;
    for (unsigned d = 0; d < numDims; ++d) {
      if (!expr.isFunctionOfDim(d))
        continue;
      if (c.dim != -1)
        box = false;
      c.dim = static_cast<int>(d);
    }
    // `d0 mod 2 == 0` uses one dim but is not an interval.
    if (c.dim != -1 && !isLinearInDims(expr))
      box = false;
    constraints.push_back(c);
  }
}

FailureOr<ktdp::IntegerBox> SetPlan::bounds(ArrayRef<int64_t> symbols) const {
  if (symbols.size() != set.getNumSymbols())
    return failure();
  if (!box)
    return ktdp::getBoundingBox(set, symbols);
  unsigned numDims = set.getNumDims();
  ktdp::IntegerBox result;
  constexpr int64_t kNone = std::numeric_limits<int64_t>::min();
  result.lower.assign(numDims, kNone);
  result.upper.assign(numDims, std::numeric_limits<int64_t>::max());
  bool empty = false;
  SmallVector<int64_t, 4> dims(numDims, 0);
  for (const DimConstraint &c : constraints) {
    std::optional<int64_t> rest = ktdp::evaluateAffineExpr(c.expr, dims,
                                                           symbols);
    if (!rest)
      return failure();
    if (c.dim < 0) {
      empty |= c.isEq ? *rest != 0 : *rest < 0;
      continue;
    }
    dims[c.dim] = 1;
    std::optional<int64_t> one = ktdp::evaluateAffineExpr(c.expr, dims,
                                                          symbols);
    dims[c.dim] = 0;
    if (!one)
      return failure();
    // Constants near 2^63 (which negating or dividing below would
    // overflow) take the exact, arbitrary-precision way.
    int64_t coeff;
    if (__builtin_sub_overflow(*one, *rest, &coeff) || coeff == kNone ||
        *rest == kNone)
      return ktdp::getBoundingBox(set, symbols);
    int64_t &lo = result.lower[c.dim], &hi = result.upper[c.dim];
    if (coeff == 0) {
      empty |= c.isEq ? *rest != 0 : *rest < 0;
      continue;
    }
    if (c.isEq) {
      if (*rest % coeff != 0) {
        empty = true;
        continue;
      }
      int64_t v = -*rest / coeff;
      lo = lo == kNone ? v : std::max(lo, v);
      hi = std::min(hi, v);
    } else if (coeff > 0) {
      int64_t v = llvm::divideCeilSigned(-*rest, coeff);
      lo = lo == kNone ? v : std::max(lo, v);
    } else {
      hi = std::min(hi, llvm::divideFloorSigned(*rest, -coeff));
    }
  }
  for (unsigned d = 0; d < numDims; ++d) {
    if (empty) {
      // An empty set is bounded whatever its other constraints say.
      if (result.lower[d] == kNone)
        result.lower[d] = 0;
      result.upper[d] = result.lower[d] - 1;
      continue;
    }
    if (result.lower[d] == kNone ||
        result.upper[d] == std::numeric_limits<int64_t>::max())
      return failure();
  }
  return result;
}

bool SetPlan::contains(ArrayRef<int64_t> dims,
                       ArrayRef<int64_t> symbols) const {
  return ktdp::containsPoint(set, dims, symbols);
}

const SetPlan &SetPlanCache::get(IntegerSet set) {
  std::unique_ptr<SetPlan> &plan = plans[set];
  if (!plan)
    plan = std::make_unique<SetPlan>(set);
  return *plan;
}

FailureOr<SmallVector<int64_t, 4>>
ktflow::interp::evaluateMap(AffineMap map, ArrayRef<int64_t> dims,
                            ArrayRef<int64_t> symbols) {
  if (dims.size() != map.getNumDims() || symbols.size() != map.getNumSymbols())
    return failure();
  SmallVector<int64_t, 4> values;
  for (AffineExpr expr : map.getResults()) {
    std::optional<int64_t> v = ktdp::evaluateAffineExpr(expr, dims, symbols);
    if (!v)
      return failure();
    values.push_back(*v);
  }
  return values;
}

FailureOr<SmallVector<unsigned, 4>>
ktflow::interp::getOrderPermutation(AffineMap order) {
  if (!order.isPermutation())
    return failure();
  SmallVector<unsigned, 4> perm;
  for (AffineExpr expr : order.getResults())
    perm.push_back(cast<AffineDimExpr>(expr).getPosition());
  return perm;
}

//===- TileBounds.cpp - Where access tiles lie in their views -------------===//
//
// This file implements the range analyses of index values and access-tile
// anchors, and the static extent of a view: a view holds the coordinates
// of its coordinate_set (the reference interpreter masks every other one),
// which may be fewer than its sizes, so both bound it.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"
#include "IndexAnalysis.h"

#include "ktflow/Analysis/LaunchArguments.h"
#include "ktflow/Analysis/TensorExtent.h"
#include "ktflow/Dialect/KTDF/IR/KTDF.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

#include <numeric>

using namespace mlir;

namespace mlir::ktdf {

/// For a loop from `%lb` to `%lb + W` with a constant step, the offset of
/// its last iteration from `%lb` (W - 1 rounded down to the step).
static std::optional<int64_t> spanOf(scf::ForOp loop) {
  APInt step, width;
  auto end = loop.getUpperBound().getDefiningOp<arith::AddIOp>();
  if (!end || !matchPattern(loop.getStep(), m_ConstantInt(&step)) ||
      step.getSExtValue() <= 0)
    return std::nullopt;
  Value lb = loop.getLowerBound();
  Value other = end.getLhs() == lb   ? end.getRhs()
                : end.getRhs() == lb ? end.getLhs()
                                     : Value();
  if (!other || !matchPattern(other, m_ConstantInt(&width)) ||
      width.getSExtValue() <= 0)
    return std::nullopt;
  int64_t by = step.getSExtValue();
  return (width.getSExtValue() - 1) / by * by;
}

std::optional<std::pair<int64_t, int64_t>> rangeOf(Value v, int depth) {
  using Range = std::pair<int64_t, int64_t>;
  if (depth > 32)
    return std::nullopt;
  APInt k;
  if (matchPattern(v, m_ConstantInt(&k)))
    return Range{k.getSExtValue(), k.getSExtValue()};
  if (std::optional<int64_t> extent = gridExtentOf(v))
    return Range{0, *extent - 1};
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!loop || arg != loop.getInductionVar())
      return std::nullopt;
    if (auto span = spanOf(loop)) {
      // A loop over a window of known width at a varying start (`%b to
      // %b + 16 step 8`): the start's range, plus the last step's offset.
      auto start = rangeOf(loop.getLowerBound(), depth + 1);
      if (!start)
        return std::nullopt;
      return Range{start->first, start->second + *span};
    }
    APInt lb, step;
    if (!matchPattern(loop.getStep(), m_ConstantInt(&step)) ||
        step.getSExtValue() <= 0)
      return std::nullopt;
    // An upper bound known only at run time may still be bounded above (a
    // plain `index` row length clamped by `arith.minsi %N, %c1024`).
    std::optional<int64_t> ub = upperBoundOf(loop.getUpperBound());
    if (!matchPattern(loop.getLowerBound(), m_ConstantInt(&lb))) {
      // A cyclic distribution (`%tid to %n step %cN`): from the lowest
      // start to the last value below the upper bound.
      auto start = rangeOf(loop.getLowerBound(), depth + 1);
      if (!start || !ub || *ub <= start->first)
        return std::nullopt;
      return Range{start->first, std::max(start->first, *ub - 1)};
    }
    int64_t first = lb.getSExtValue(), by = step.getSExtValue();
    if (!ub || *ub <= first)
      return std::nullopt;
    // The last value is the last step that starts below the upper bound,
    // not ub - 1: a loop over 8-row tiles stepping by 8 ends at ub - 8.
    return Range{first, first + (*ub - 1 - first) / by * by};
  }
  Operation *def = v.getDefiningOp();
  if (auto min = dyn_cast_or_null<arith::MinUIOp>(def)) {
    // The unsigned minimum with a constant k >= 0 lies in [0, k] whatever
    // the other operand (a trip number clamped to the last one a view
    // holds).
    APInt k;
    if (!matchPattern(min.getRhs(), m_ConstantInt(&k)) || k.isNegative())
      return std::nullopt;
    int64_t hi = k.getSExtValue();
    auto a = rangeOf(min.getLhs(), depth + 1);
    if (a && a->first >= 0)
      return Range{std::min(a->first, hi), std::min(a->second, hi)};
    return Range{0, hi};
  }
  if (isa_and_present<arith::DivUIOp, arith::RemUIOp>(def)) {
    // Of a value that is not negative by a positive constant (a group
    // `pid / 4`, a lane `pid % 4`): monotone, resp. below the divisor.
    APInt divisor;
    auto a = rangeOf(def->getOperand(0), depth + 1);
    if (!a || a->first < 0 ||
        !matchPattern(def->getOperand(1), m_ConstantInt(&divisor)) ||
        divisor.getSExtValue() <= 0)
      return std::nullopt;
    int64_t k = divisor.getSExtValue();
    if (isa<arith::DivUIOp>(def))
      return Range{a->first / k, a->second / k};
    return a->second < k ? *a : Range{0, k - 1};
  }
  if (!isa_and_present<arith::AddIOp, arith::SubIOp, arith::MulIOp>(def))
    return std::nullopt;
  auto a = rangeOf(def->getOperand(0), depth + 1);
  auto b = rangeOf(def->getOperand(1), depth + 1);
  if (!a || !b)
    return std::nullopt;
  if (isa<arith::AddIOp>(def))
    return Range{a->first + b->first, a->second + b->second};
  if (isa<arith::SubIOp>(def))
    return Range{a->first - b->second, a->second - b->first};
  int64_t p[] = {a->first * b->first, a->first * b->second,
                 a->second * b->first, a->second * b->second};
  return Range{*std::min_element(p, p + 4), *std::max_element(p, p + 4)};
}

/// A lower bound of affine `expr` applied to `operands` (as dims).
static std::optional<int64_t> lowerBoundOf(AffineExpr expr,
                                           ValueRange operands, int depth) {
  auto affine = affineCoefficients(expr, operands.size());
  if (!affine)
    return std::nullopt;
  int64_t lo = affine->first;
  for (auto [coeff, operand] : llvm::zip(affine->second, operands)) {
    if (coeff == 0)
      continue;
    auto bound = coeff > 0 ? lowerBoundOf(operand, depth + 1)
                           : upperBoundOf(operand);
    if (!bound)
      return std::nullopt;
    lo += coeff * *bound;
  }
  return lo;
}

std::optional<int64_t> lowerBoundOf(Value v, int depth) {
  if (depth > 32)
    return std::nullopt;
  APInt k;
  if (matchPattern(v, m_ConstantInt(&k)))
    return k.getSExtValue();
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (isa<ParallelOp>(arg.getOwner()->getParentOp()))
      return 0;
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!loop || arg != loop.getInductionVar())
      return std::nullopt;
    return lowerBoundOf(loop.getLowerBound(), depth + 1);
  }
  // Runtime arguments are positive; plain scalar arguments may be anything.
  if (BlockArgument arg = ktflow::getLaunchScalar(v))
    return ktflow::getLaunchArgumentBounds(arg).lowerPromised
               ? std::optional<int64_t>(0)
               : std::nullopt;
  Operation *def = v.getDefiningOp();
  if (isa<ktdp::GetComputeTileIdOp>(def))
    return 0;
  if (auto apply = dyn_cast<affine::AffineApplyOp>(def))
    return lowerBoundOf(apply.getAffineMap().getResult(0),
                        apply.getMapOperands(), depth);
  if (!isa_and_present<arith::AddIOp, arith::SubIOp, arith::MulIOp,
                       arith::DivUIOp, arith::CeilDivUIOp, arith::MinSIOp,
                       arith::MaxSIOp>(def))
    return std::nullopt;
  auto a = lowerBoundOf(def->getOperand(0), depth + 1);
  if (isa<arith::SubIOp>(def)) {
    auto b = upperBoundOf(def->getOperand(1));
    return a && b ? std::optional<int64_t>(*a - *b) : std::nullopt;
  }
  APInt divisor;
  if (isa<arith::DivUIOp, arith::CeilDivUIOp>(def)) {
    if (!a || *a < 0 ||
        !matchPattern(def->getOperand(1), m_ConstantInt(&divisor)) ||
        divisor.getSExtValue() <= 0)
      return std::nullopt;
    int64_t d = divisor.getSExtValue();
    return isa<arith::CeilDivUIOp>(def) ? (*a + d - 1) / d : *a / d;
  }
  auto b = lowerBoundOf(def->getOperand(1), depth + 1);
  if (isa<arith::MaxSIOp>(def)) {
    if (a && b)
      return std::max(*a, *b);
    return a ? a : b;
  }
  if (!a || !b)
    return std::nullopt;
  if (isa<arith::AddIOp>(def))
    return *a + *b;
  if (isa<arith::MinSIOp>(def))
    return std::min(*a, *b);
  if (*a < 0 || *b < 0)
    return std::nullopt;
  return *a * *b;
}

std::optional<std::pair<int64_t, int64_t>>
anchorRange(ktdp::ConstructAccessTileOp tile, unsigned r) {
  auto affine = affineCoefficients(tile.getBaseMap().getResult(r),
                                   tile.getIndices().size());
  if (!affine)
    return std::nullopt;
  int64_t lo = affine->first, hi = affine->first;
  for (auto [coeff, index] : llvm::zip(affine->second, tile.getIndices())) {
    if (coeff == 0)
      continue;
    auto range = rangeOf(index);
    if (!range)
      return std::nullopt;
    lo += std::min(coeff * range->first, coeff * range->second);
    hi += std::max(coeff * range->first, coeff * range->second);
  }
  return std::make_pair(lo, hi);
}

std::optional<int64_t> anchorLowerBound(ktdp::ConstructAccessTileOp tile,
                                        unsigned r) {
  if (auto range = anchorRange(tile, r))
    return range->first;
  return lowerBoundOf(tile.getBaseMap().getResult(r), tile.getIndices(), 0);
}

std::optional<int64_t> staticViewExtent(ktdp::ConstructMemoryViewOp view,
                                        unsigned d) {
  std::optional<int64_t> extent;
  int64_t size = view.getStaticSizes()[d];
  if (!ShapedType::isDynamic(size))
    extent = size;
  auto upper = ktdp::getUpperBoundMap(view.getCoordinateSet(), d);
  if (succeeded(upper))
    for (AffineExpr bound : upper->getResults())
      if (auto c = dyn_cast<AffineConstantExpr>(bound))
        extent = std::min(extent.value_or(INT64_MAX), c.getValue() + 1);
  if (extent)
    extent = std::max<int64_t>(*extent, 0);
  return extent;
}

bool viewMayAlias(ktdp::ConstructMemoryViewOp view) {
  // Run-time strides: distinct when they are the sizes after them.
  if (!view.getStrides().empty())
    return ktflow::whyNotWrittenRowMajor(view).has_value();
  // Coordinates map to distinct elements when, taking the dimensions by
  // increasing stride, each stride exceeds the span of those before it
  // (mixed radix); a dimension of unknown extent can only come last.
  ArrayRef<int64_t> strides = view.getStaticStrides();
  SmallVector<unsigned> order(strides.size());
  std::iota(order.begin(), order.end(), 0);
  auto magnitude = [&](unsigned d) { return std::abs(strides[d]); };
  llvm::sort(order, [&](unsigned a, unsigned b) {
    return std::make_pair(magnitude(a), a) < std::make_pair(magnitude(b), b);
  });
  std::optional<int64_t> span = 0;
  for (unsigned d : order) {
    if (ShapedType::isDynamic(strides[d]))
      return true;
    std::optional<int64_t> extent = staticViewExtent(view, d);
    if (extent && *extent <= 1)
      continue;
    if (!span || magnitude(d) <= *span)
      return true;
    span = extent ? std::optional<int64_t>(*span + (*extent - 1) *
                                                       magnitude(d))
                  : std::nullopt;
  }
  return false;
}

bool mayLeaveView(ktdp::ConstructAccessTileOp tile, unsigned d) {
  auto view = ktdp::getAccessTileView(tile);
  auto box = ktdp::getBoundingBox(tile.getAccessTileSet(), {});
  if (!view || failed(box) || d >= box->lower.size() ||
      d >= view.getStaticSizes().size())
    return false;
  auto range = anchorRange(tile, d);
  auto extent = staticViewExtent(view, d);
  return !range || !extent || range->first < 0 ||
         range->second + box->getExtents()[d] > *extent;
}

bool mayLeaveView(ktdp::ConstructAccessTileOp tile) {
  for (unsigned d = 0; d < cast<ShapedType>(tile.getType()).getRank(); ++d)
    if (mayLeaveView(tile, d))
      return true;
  return false;
}

} // namespace mlir::ktdf

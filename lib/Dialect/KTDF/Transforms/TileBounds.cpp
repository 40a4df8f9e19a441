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
#include "llvm/Support/CheckedArithmetic.h"

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

static Bounds boundsOf(Value v, int depth);

/// Bounds of a loop's induction variable.
static Bounds inductionBounds(scf::ForOp loop, int depth) {
  if (auto span = spanOf(loop)) {
    // A loop over a window of known width at a varying start (`%b to
    // %b + 16 step 8`): the start's range, plus the last step's offset.
    Bounds start = boundsOf(loop.getLowerBound(), depth + 1);
    if (!start.lo || !start.hi)
      return {};
    return {start.lo, *start.hi + *span};
  }
  APInt lb, step;
  if (!matchPattern(loop.getStep(), m_ConstantInt(&step)) ||
      step.getSExtValue() <= 0)
    return {};
  // An upper bound known only at run time may still be bounded above (a
  // plain `index` row length clamped by `arith.minsi %N, %c1024`).
  std::optional<int64_t> ub = boundsOf(loop.getUpperBound(), depth + 1).hi;
  if (!matchPattern(loop.getLowerBound(), m_ConstantInt(&lb))) {
    // A varying start (a cyclic distribution `%tid to %n step %cN`, a
    // window `max(%q - 32, 0) to min(%q + 64, %n)`): from the lowest
    // start to the last value below the upper bound.
    std::optional<int64_t> first = boundsOf(loop.getLowerBound(), depth + 1).lo;
    if (!first || !ub)
      return {first, std::nullopt};
    if (*ub <= *first)
      return {};
    return {first, std::max(*first, *ub - 1)};
  }
  int64_t first = lb.getSExtValue(), by = step.getSExtValue();
  if (!ub)
    return {first, std::nullopt};
  if (*ub <= first)
    return {};
  // The last value is the last step that starts below the upper bound,
  // not ub - 1: a loop over 8-row tiles stepping by 8 ends at ub - 8.
  return {first, first + (*ub - 1 - first) / by * by};
}

static Bounds boundsOf(Value v, int depth) {
  if (depth > 32)
    return {};
  APInt k;
  if (matchPattern(v, m_ConstantInt(&k)))
    return {k.getSExtValue(), k.getSExtValue()};
  if (std::optional<int64_t> extent = gridExtentOf(v))
    return {0, *extent - 1};
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (loop && arg == loop.getInductionVar())
      return inductionBounds(loop, depth);
  }
  Operation *def = v.getDefiningOp();
  if (isa_and_present<arith::MinUIOp>(def))
    return unsignedMinimum(boundsOf(def->getOperand(0), depth + 1),
                           boundsOf(def->getOperand(1), depth + 1));
  if (isa_and_present<arith::DivUIOp, arith::RemUIOp>(def)) {
    // Of a value that is not negative by a positive constant (a group
    // `pid / 4`, a lane `pid % 4`): monotone, resp. below the divisor.
    APInt divisor;
    Bounds a = boundsOf(def->getOperand(0), depth + 1);
    if (!a.lo || !a.hi || *a.lo < 0 ||
        !matchPattern(def->getOperand(1), m_ConstantInt(&divisor)) ||
        divisor.getSExtValue() <= 0)
      return {};
    int64_t k = divisor.getSExtValue();
    if (isa<arith::DivUIOp>(def))
      return {*a.lo / k, *a.hi / k};
    return *a.hi < k ? a : Bounds{0, k - 1};
  }
  if (std::optional<Clamp> clamp = clampOf(def))
    return combine(clamp->pick, boundsOf(clamp->a, depth + 1),
                   boundsOf(clamp->b, depth + 1));
  if (isa_and_present<arith::AddIOp, arith::SubIOp>(def)) {
    Bounds a = boundsOf(def->getOperand(0), depth + 1);
    Bounds b = boundsOf(def->getOperand(1), depth + 1);
    // Without overflow, or unknown.
    auto sum = [](std::optional<int64_t> x, std::optional<int64_t> y,
                  int64_t sign) -> std::optional<int64_t> {
      if (!x || !y)
        return std::nullopt;
      return sign > 0 ? llvm::checkedAdd(*x, *y) : llvm::checkedSub(*x, *y);
    };
    if (isa<arith::AddIOp>(def))
      return {sum(a.lo, b.lo, 1), sum(a.hi, b.hi, 1)};
    return {sum(a.lo, b.hi, -1), sum(a.hi, b.lo, -1)};
  }
  if (isa_and_present<arith::MulIOp>(def)) {
    Bounds a = boundsOf(def->getOperand(0), depth + 1);
    Bounds b = boundsOf(def->getOperand(1), depth + 1);
    if (!a.lo || !a.hi || !b.lo || !b.hi)
      return {};
    SmallVector<int64_t, 4> p;
    for (int64_t x : {*a.lo, *a.hi})
      for (int64_t y : {*b.lo, *b.hi}) {
        std::optional<int64_t> product = llvm::checkedMul(x, y);
        if (!product)
          return {};
        p.push_back(*product);
      }
    return {*llvm::min_element(p), *llvm::max_element(p)};
  }
  // Launch scalars (a runtime_arg's promised bounds, through index_cast)
  // and whatever else the one-sided analyses know.
  return {lowerBoundOf(v, depth + 1), upperBoundOf(v, depth + 1)};
}

std::optional<std::pair<int64_t, int64_t>> rangeOf(Value v, int depth) {
  Bounds bounds = boundsOf(v, depth);
  if (!bounds.lo || !bounds.hi)
    return std::nullopt;
  return std::make_pair(*bounds.lo, *bounds.hi);
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
                           : upperBoundOf(operand, depth + 1);
    std::optional<int64_t> term =
        bound ? llvm::checkedMul(coeff, *bound) : std::nullopt;
    std::optional<int64_t> sum = term ? llvm::checkedAdd(lo, *term) : term;
    if (!sum)
      return std::nullopt;
    lo = *sum;
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
  if (std::optional<Clamp> clamp = clampOf(def))
    return combine(clamp->pick, {lowerBoundOf(clamp->a, depth + 1), {}},
                   {lowerBoundOf(clamp->b, depth + 1), {}})
        .lo;
  if (isa<arith::MinUIOp>(def)) {
    // Against a negative operand, the minimum is the other one.
    auto both = [&](Value x) {
      return Bounds{lowerBoundOf(x, depth + 1), upperBoundOf(x, depth + 1)};
    };
    return unsignedMinimum(both(def->getOperand(0)), both(def->getOperand(1)))
        .lo;
  }
  if (!isa_and_present<arith::AddIOp, arith::SubIOp, arith::MulIOp,
                       arith::DivUIOp, arith::CeilDivUIOp>(def))
    return std::nullopt;
  // Bounds of sums, differences and products are computed without
  // overflow, or not at all.
  auto a = lowerBoundOf(def->getOperand(0), depth + 1);
  if (isa<arith::SubIOp>(def)) {
    auto b = upperBoundOf(def->getOperand(1), depth + 1);
    return a && b ? llvm::checkedSub(*a, *b) : std::nullopt;
  }
  APInt divisor;
  if (isa<arith::DivUIOp, arith::CeilDivUIOp>(def)) {
    if (!a || *a < 0 ||
        !matchPattern(def->getOperand(1), m_ConstantInt(&divisor)) ||
        divisor.getSExtValue() <= 0)
      return std::nullopt;
    int64_t d = divisor.getSExtValue();
    return isa<arith::CeilDivUIOp>(def) && *a > 0 ? (*a - 1) / d + 1 : *a / d;
  }
  auto b = lowerBoundOf(def->getOperand(1), depth + 1);
  if (!a || !b)
    return std::nullopt;
  if (isa<arith::AddIOp>(def))
    return llvm::checkedAdd(*a, *b);
  if (*a < 0 || *b < 0)
    return std::nullopt;
  return llvm::checkedMul(*a, *b);
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
  int64_t size = view.getStaticSizes()[d];
  std::optional<int64_t> extent = ktdp::getConstantExtent(
      view.getCoordinateSet(), d,
      ShapedType::isDynamic(size) ? std::nullopt : std::optional(size));
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

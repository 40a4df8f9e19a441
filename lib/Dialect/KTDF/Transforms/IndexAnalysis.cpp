//===- IndexAnalysis.cpp - How index values follow loop variables ---------===//
//
// This file implements the index arithmetic analyses coarsening relies on:
// how an index (or an access tile's anchor) changes per step of an
// induction variable, and the largest value an index can take given the
// upper bounds runtime arguments promise (plain scalar arguments promise
// none).
//
//===----------------------------------------------------------------------===//

#include "IndexAnalysis.h"

#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"

#include "ktflow/Analysis/LaunchArguments.h"
#include "ktflow/Dialect/KTDF/IR/KTDF.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;

namespace mlir::ktdf {

/// The answers of one coefficient query by value and depth (the depth
/// bound makes the answer depend on both): a value read by several ops of
/// the index (`x + x`) is asked once, not once per path.
using CoefficientMemo =
    llvm::DenseMap<std::pair<void *, int>, std::optional<int64_t>>;

static std::optional<int64_t> coefficient(Value v, Value iv, int depth,
                                          CoefficientMemo &memo);

std::optional<int64_t> coefficient(Value v, Value iv, int depth) {
  CoefficientMemo memo;
  return coefficient(v, iv, depth, memo);
}

static std::optional<int64_t> coefficientOnce(Value v, Value iv, int depth,
                                              CoefficientMemo &memo) {
  if (v == iv)
    return 1;
  if (depth > 32)
    return std::nullopt;
  Operation *def = v.getDefiningOp();
  if (!def) // Another block argument: independent of iv.
    return 0;
  if (matchPattern(v, m_Constant()))
    return 0;
  // A cast keeps the value (an index that wraps its narrower type is not
  // an index a tile can use).
  if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::ExtUIOp>(def))
    return coefficient(def->getOperand(0), iv, depth + 1, memo);
  auto both = [&](int64_t sign) -> std::optional<int64_t> {
    auto a = coefficient(def->getOperand(0), iv, depth + 1, memo);
    auto b = coefficient(def->getOperand(1), iv, depth + 1, memo);
    if (!a || !b)
      return std::nullopt;
    return *a + sign * *b;
  };
  if (isa<arith::AddIOp>(def))
    return both(1);
  if (isa<arith::SubIOp>(def))
    return both(-1);
  if (isa<arith::MulIOp>(def)) {
    APInt k;
    for (int i = 0; i < 2; ++i)
      if (matchPattern(def->getOperand(i), m_ConstantInt(&k))) {
        auto c = coefficient(def->getOperand(1 - i), iv, depth + 1, memo);
        if (!c)
          return std::nullopt;
        return *c * k.getSExtValue();
      }
  }
  // Anything else is fine as long as it does not see iv.
  bool independent = true;
  for (Value operand : def->getOperands()) {
    auto c = coefficient(operand, iv, depth + 1, memo);
    independent &= c && *c == 0;
  }
  return independent ? std::optional<int64_t>(0) : std::nullopt;
}

static std::optional<int64_t> coefficient(Value v, Value iv, int depth,
                                          CoefficientMemo &memo) {
  std::pair<void *, int> key{v.getAsOpaquePointer(), depth};
  if (auto it = memo.find(key); it != memo.end())
    return it->second;
  std::optional<int64_t> c = coefficientOnce(v, iv, depth, memo);
  memo[key] = c;
  return c;
}

std::optional<std::pair<int64_t, SmallVector<int64_t>>>
affineCoefficients(AffineExpr expr, size_t n) {
  if (!expr.isPureAffine())
    return std::nullopt;
  SmallVector<int64_t> zeros(n, 0);
  auto c0 = ktdp::evaluateAffineExpr(expr, zeros, {});
  if (!c0)
    return std::nullopt;
  SmallVector<int64_t> coeffs;
  for (size_t d = 0; d < n; ++d) {
    SmallVector<int64_t> unit = zeros;
    unit[d] = 1;
    auto e = ktdp::evaluateAffineExpr(expr, unit, {});
    if (!e)
      return std::nullopt;
    coeffs.push_back(*e - *c0);
  }
  return std::make_pair(*c0, std::move(coeffs));
}

std::optional<int64_t> anchorCoefficient(ktdp::ConstructAccessTileOp tile,
                                         unsigned r, Value iv) {
  AffineMap base = tile.getBaseMap();
  // The indices are the map's operands, dims then symbols (`symbol(%s)`);
  // linear in a symbol is linear too.
  ValueRange operands = tile.getIndices();
  if (operands.size() != base.getNumInputs())
    return std::nullopt;
  SmallVector<AffineExpr> dims, symbols;
  for (unsigned d = 0; d < base.getNumInputs(); ++d)
    (d < base.getNumDims() ? dims : symbols)
        .push_back(getAffineDimExpr(d, tile.getContext()));
  AffineExpr expr = base.getResult(r).replaceDimsAndSymbols(dims, symbols);
  auto affine = affineCoefficients(expr, operands.size());
  if (!affine)
    return std::nullopt;
  int64_t total = 0;
  for (auto [perIndex, index] : llvm::zip(affine->second, operands)) {
    if (perIndex == 0)
      continue;
    auto c = coefficient(index, iv);
    if (!c)
      return std::nullopt;
    total += perIndex * *c;
  }
  return total;
}

std::optional<int64_t> gridExtentOf(Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (auto grid = dyn_cast<ParallelOp>(arg.getOwner()->getParentOp()))
      return grid.getExtents()[arg.getArgNumber()];
    return std::nullopt;
  }
  auto id = v.getDefiningOp<ktdp::GetComputeTileIdOp>();
  if (!id)
    return std::nullopt;
  auto grid = ktdp::getLaunchGrid(id);
  unsigned d = cast<OpResult>(v).getResultNumber();
  if (failed(grid) || !*grid || d >= (*grid)->size())
    return std::nullopt;
  return (**grid)[d];
}

std::optional<Clamp> clampOf(Operation *def) {
  if (isa_and_present<arith::MinSIOp, arith::MaxSIOp>(def))
    return Clamp{isa<arith::MinSIOp>(def) ? Pick::Min : Pick::Max,
                 def->getOperand(0), def->getOperand(1)};
  auto select = dyn_cast_or_null<arith::SelectOp>(def);
  if (!select)
    return std::nullopt;
  Value x = select.getTrueValue(), y = select.getFalseValue();
  Clamp either{Pick::Either, x, y};
  auto cmp = select.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!cmp)
    return either;
  bool less;
  switch (cmp.getPredicate()) {
  case arith::CmpIPredicate::slt:
  case arith::CmpIPredicate::sle:
    less = true;
    break;
  case arith::CmpIPredicate::sgt:
  case arith::CmpIPredicate::sge:
    less = false;
    break;
  default:
    return either;
  }
  if (cmp.getLhs() == y && cmp.getRhs() == x)
    less = !less;
  else if (cmp.getLhs() != x || cmp.getRhs() != y)
    return either;
  return Clamp{less ? Pick::Min : Pick::Max, x, y};
}

Bounds combine(Pick pick, Bounds a, Bounds b) {
  auto both = [](std::optional<int64_t> x, std::optional<int64_t> y,
                 bool smaller) -> std::optional<int64_t> {
    if (!x || !y)
      return std::nullopt;
    return smaller ? std::min(*x, *y) : std::max(*x, *y);
  };
  auto either = [&](std::optional<int64_t> x, std::optional<int64_t> y,
                    bool smaller) -> std::optional<int64_t> {
    return x && y ? both(x, y, smaller) : x ? x : y;
  };
  switch (pick) {
  case Pick::Min:
    return {both(a.lo, b.lo, true), either(a.hi, b.hi, true)};
  case Pick::Max:
    return {either(a.lo, b.lo, false), both(a.hi, b.hi, false)};
  case Pick::Either:
    return {both(a.lo, b.lo, true), both(a.hi, b.hi, false)};
  }
  llvm_unreachable("unknown pick");
}

Bounds unsignedMinimum(Bounds a, Bounds b) {
  auto nonNegative = [](Bounds x) { return x.lo && *x.lo >= 0; };
  auto negative = [](Bounds x) { return x.hi && *x.hi < 0; };
  if (nonNegative(a) && nonNegative(b))
    return combine(Pick::Min, a, b);
  for (auto [x, other] : {std::pair(a, b), std::pair(b, a)}) {
    if (!nonNegative(x))
      continue;
    // Against a negative operand (huge, read unsigned) the minimum is x;
    // against one of unknown sign, x or that operand when it is smaller.
    if (negative(other))
      return x;
    return {0, x.hi};
  }
  return {};
}

std::optional<int64_t> upperBoundOf(Value v, int depth) {
  APInt k;
  if (matchPattern(v, m_ConstantInt(&k)))
    return k.getSExtValue();
  if (depth > 32)
    return std::nullopt;
  if (BlockArgument arg = ktflow::getLaunchScalar(v)) {
    ktflow::LaunchArgumentBounds bounds = ktflow::getLaunchArgumentBounds(arg);
    if (!bounds.upperPromised)
      return std::nullopt;
    return bounds.upper;
  }
  if (std::optional<int64_t> extent = gridExtentOf(v))
    return *extent - 1;
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (std::optional<Clamp> clamp = clampOf(def))
    return combine(clamp->pick, {{}, upperBoundOf(clamp->a, depth + 1)},
                   {{}, upperBoundOf(clamp->b, depth + 1)})
        .hi;
  auto boundsOf = [&](Value x) {
    return Bounds{lowerBoundOf(x, depth + 1), upperBoundOf(x, depth + 1)};
  };
  // Read unsigned, a negative value is huge: unsigned operations and
  // products bound only operands that are not negative.
  auto nonNegative = [&](Value x) {
    std::optional<int64_t> lo = lowerBoundOf(x, depth + 1);
    return lo && *lo >= 0;
  };
  if (isa<arith::MinUIOp>(def))
    return unsignedMinimum(boundsOf(def->getOperand(0)),
                           boundsOf(def->getOperand(1)))
        .hi;
  if (isa<arith::DivUIOp, arith::DivSIOp, arith::CeilDivUIOp,
          arith::CeilDivSIOp>(def) &&
      matchPattern(def->getOperand(1), m_ConstantInt(&k)) &&
      k.getSExtValue() > 0) {
    if (isa<arith::DivUIOp, arith::CeilDivUIOp>(def) &&
        !nonNegative(def->getOperand(0)))
      return std::nullopt;
    auto a = upperBoundOf(def->getOperand(0), depth + 1);
    if (!a)
      return std::nullopt;
    int64_t divisor = k.getSExtValue();
    bool ceil = isa<arith::CeilDivUIOp, arith::CeilDivSIOp>(def);
    // ceil(a / d) is floor((a - 1) / d) + 1 for a > 0, which cannot overflow.
    return ceil && *a > 0 ? (*a - 1) / divisor + 1 : *a / divisor;
  }
  // Bounds of sums, differences and products are computed without
  // overflow, or not at all.
  if (isa<arith::SubIOp>(def)) {
    auto a = upperBoundOf(def->getOperand(0), depth + 1);
    auto b = lowerBoundOf(def->getOperand(1), depth + 1);
    return a && b ? llvm::checkedSub(*a, *b) : std::nullopt;
  }
  if (!isa<arith::AddIOp, arith::MulIOp>(def))
    return std::nullopt;
  // A sum is bounded by its operands' bounds whatever their signs (`%pid -
  // 1` as `%pid + -1`); a product only when neither operand is negative.
  if (isa<arith::MulIOp>(def) &&
      (!nonNegative(def->getOperand(0)) || !nonNegative(def->getOperand(1))))
    return std::nullopt;
  auto a = upperBoundOf(def->getOperand(0), depth + 1);
  auto b = upperBoundOf(def->getOperand(1), depth + 1);
  if (!a || !b)
    return std::nullopt;
  return isa<arith::AddIOp>(def) ? llvm::checkedAdd(*a, *b)
                                 : llvm::checkedMul(*a, *b);
}

std::optional<int64_t>
evaluateIndex(Value v, function_ref<std::optional<int64_t>(Value)> leaf,
              int depth) {
  if (depth > 64)
    return std::nullopt;
  APInt k;
  if (matchPattern(v, m_ConstantInt(&k)))
    return k.getBitWidth() == 1 ? int64_t(k.getZExtValue()) : k.getSExtValue();
  if (std::optional<int64_t> known = leaf(v))
    return known;
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(def))
    return evaluateIndex(def->getOperand(0), leaf, depth + 1);
  if (def->getNumOperands() != 2 && !isa<arith::SelectOp>(def))
    return std::nullopt;
  SmallVector<int64_t, 3> x;
  for (Value operand : def->getOperands()) {
    std::optional<int64_t> value = evaluateIndex(operand, leaf, depth + 1);
    if (!value)
      return std::nullopt;
    x.push_back(*value);
  }
  if (isa<arith::SelectOp>(def))
    return x[0] ? x[1] : x[2];
  int64_t r;
  if (isa<arith::AddIOp>(def))
    return __builtin_add_overflow(x[0], x[1], &r) ? std::nullopt
                                                  : std::optional<int64_t>(r);
  if (isa<arith::SubIOp>(def))
    return __builtin_sub_overflow(x[0], x[1], &r) ? std::nullopt
                                                  : std::optional<int64_t>(r);
  if (isa<arith::MulIOp>(def))
    return __builtin_mul_overflow(x[0], x[1], &r) ? std::nullopt
                                                  : std::optional<int64_t>(r);
  if (isa<arith::MinSIOp>(def))
    return std::min(x[0], x[1]);
  if (isa<arith::MaxSIOp>(def))
    return std::max(x[0], x[1]);
  if (isa<arith::DivUIOp, arith::DivSIOp, arith::RemUIOp, arith::RemSIOp>(
          def)) {
    if (x[0] < 0 || x[1] <= 0)
      return std::nullopt;
    return isa<arith::DivUIOp, arith::DivSIOp>(def) ? x[0] / x[1] : x[0] % x[1];
  }
  if (auto cmp = dyn_cast<arith::CmpIOp>(def)) {
    if (!cmp.getLhs().getType().isIndex())
      return std::nullopt;
    return int64_t(arith::applyCmpPredicate(
        cmp.getPredicate(), APInt(64, x[0], true), APInt(64, x[1], true)));
  }
  return std::nullopt;
}

} // namespace mlir::ktdf

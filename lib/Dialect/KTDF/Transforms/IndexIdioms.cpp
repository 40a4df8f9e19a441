//===- IndexIdioms.cpp - Coordinates in linalg bodies ---------------------===//
//
// This file implements IndexIdioms.h: interval arithmetic over the index
// values of a linalg.generic body, checking that f32 computes them
// exactly.
//
//===----------------------------------------------------------------------===//

#include "IndexIdioms.h"

#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::ktdf;

using IndexRange = std::pair<int64_t, int64_t>;

/// Integers f32 holds exactly.
static constexpr int64_t kExact = int64_t(1) << 24;

static bool isIndex(Type t) { return t.isIndex(); }

std::optional<std::pair<std::string, Operation *>>
mlir::ktdf::whyNotFloatIndexArithmetic(linalg::GenericOp generic) {
  Block &body = generic.getRegion().front();
  SmallVector<int64_t> extents = generic.getStaticLoopRanges();
  llvm::DenseMap<Value, IndexRange> ranges;
  auto fail = [](std::string why, Operation *op) {
    return std::make_optional(std::make_pair(std::move(why), op));
  };
  // The range of an operand: computed in the body, captured, or constant.
  auto rangeOfOperand = [&](Value v) -> std::optional<IndexRange> {
    if (auto it = ranges.find(v); it != ranges.end())
      return it->second;
    APInt c;
    if (matchPattern(v, m_ConstantInt(&c)))
      return IndexRange{c.getSExtValue(), c.getSExtValue()};
    if (v.getParentBlock() != &body)
      return rangeOf(v);
    return std::nullopt;
  };
  for (Operation &op : body.without_terminator()) {
    bool usesIndex = llvm::any_of(op.getOperandTypes(), isIndex) ||
                     llvm::any_of(op.getResultTypes(), isIndex);
    if (!usesIndex || isa<arith::ConstantOp>(op))
      continue;
    std::optional<IndexRange> result;
    if (auto index = dyn_cast<linalg::IndexOp>(op)) {
      int64_t extent = extents[index.getDim()];
      if (ShapedType::isDynamic(extent))
        return fail("linalg.index of a dynamic loop", &op);
      result = IndexRange{0, extent - 1};
    } else if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::CmpIOp>(
                   op)) {
      std::optional<IndexRange> a = rangeOfOperand(op.getOperand(0));
      std::optional<IndexRange> b = rangeOfOperand(op.getOperand(1));
      if (!a || !b)
        return fail("an index value of this body has no known range (the "
                    "unit computes coordinates in f32 and needs them "
                    "bounded: captured values must follow from tile ids, "
                    "loop bounds and constants)",
                    &op);
      if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
        arith::CmpIPredicate p = cmp.getPredicate();
        bool isUnsigned =
            p == arith::CmpIPredicate::ult || p == arith::CmpIPredicate::ule ||
            p == arith::CmpIPredicate::ugt || p == arith::CmpIPredicate::uge;
        if (isUnsigned && (a->first < 0 || b->first < 0))
          return fail("an unsigned comparison of index values that may be "
                      "negative is not supported (the unit compares "
                      "coordinates in f32)",
                      &op);
        continue;
      }
      int64_t lo, hi;
      if (isa<arith::AddIOp>(op)) {
        lo = a->first + b->first, hi = a->second + b->second;
      } else if (isa<arith::SubIOp>(op)) {
        lo = a->first - b->second, hi = a->second - b->first;
      } else {
        int64_t p[] = {a->first * b->first, a->first * b->second,
                       a->second * b->first, a->second * b->second};
        lo = *std::min_element(p, p + 4), hi = *std::max_element(p, p + 4);
      }
      result = IndexRange{lo, hi};
    } else {
      return fail("'" + op.getName().getStringRef().str() +
                      "' on index values in a linalg body is not supported "
                      "by the scheduler yet (only linalg.index, addi, subi, "
                      "muli and cmpi, which the unit computes in f32)",
                  &op);
    }
    for (Value operand : op.getOperands())
      if (std::optional<IndexRange> r = rangeOfOperand(operand);
          !r || r->first < -kExact || r->second > kExact)
        return fail("an index value of this body may exceed 2^24 in "
                    "magnitude (the unit computes coordinates in f32)",
                    &op);
    if (result->first < -kExact || result->second > kExact)
      return fail("an index value of this body may exceed 2^24 in "
                  "magnitude (the unit computes coordinates in f32)",
                  &op);
    ranges[op.getResult(0)] = *result;
  }
  return std::nullopt;
}

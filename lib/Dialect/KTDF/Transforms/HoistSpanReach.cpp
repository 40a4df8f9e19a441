//===- HoistSpanReach.cpp - Load a row span only as far as it is read -----===//
//
// This file clips the load of a row span (HoistCandidates.cpp) to the
// columns its loops reach at run time. A span is as wide as its view (plus
// a tile of zeros past it); loops over a run-time trip count may stop well
// short of that: row_center_dyn's two loops over `min(N, 1024)` read 512
// of X's 1024 columns at N = 512, yet each row's span moved 1,152 of them
// (2,304 bytes where 1,024 are read). The span's load reads its tile
// through a copy of the view whose last dimension holds only the columns
// before the end of the last block any of its loops reads (a run-time
// size), so the DMA lowering clamps the transfer there; the tile is marked
// `ktdf.zero_from` (the view's extent) so that the lowering zeroes only
// the columns past the view, which blocks may read as zeros, and not the
// unread ones before it.
//
//===----------------------------------------------------------------------===//

#include "HoistCandidates.h"

#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::hoisting;

namespace {
/// Builds values before `anchor`: a value that dominates it as it is, any
/// other from its side-effect-free computation, cloned (the bounds of the
/// sibling loops ktdf-merge-column-blocks computes after the first loop).
struct ValuesBefore {
  OpBuilder &b;
  Operation *anchor;
  IRMapping &map;
  DominanceInfo dominance;

  ValuesBefore(OpBuilder &b, IRMapping &map)
      : b(b), anchor(&*b.getInsertionPoint()), map(map),
        dominance(anchor->getParentOfType<func::FuncOp>()) {}

  /// Whether `v` can be had before the anchor: not where it needs a block
  /// argument (an induction variable) or an op with effects that does not
  /// dominate it.
  bool available(Value v, int depth = 0) {
    if (map.contains(v) || dominance.properlyDominates(v, anchor))
      return true;
    Operation *def = v.getDefiningOp();
    return def && depth <= 32 && def->getNumRegions() == 0 &&
           isMemoryEffectFree(def) &&
           llvm::all_of(def->getOperands(), [&](Value operand) {
             return available(operand, depth + 1);
           });
  }

  /// `v` before the anchor (`available(v)`).
  Value get(Value v) {
    if (Value mapped = map.lookupOrNull(v))
      return mapped;
    if (dominance.properlyDominates(v, anchor))
      return v;
    Operation *def = v.getDefiningOp();
    for (Value operand : def->getOperands())
      map.map(operand, get(operand));
    Operation *clone = b.clone(*def, map);
    return clone->getResult(cast<OpResult>(v).getResultNumber());
  }
};
} // namespace

/// The column past the last block `span`'s loop reads, built before the
/// anchor of `at`: lb + ceil(max(ub - lb, 0) / step) * step, plus what a
/// block wider than the step reaches past the next start.
static Value endOf(Span span, ValuesBefore &at) {
  OpBuilder &b = at.b;
  Location loc = span.slider.getLoc();
  Value lb = at.get(span.slider.getLowerBound());
  Value ub = at.get(span.slider.getUpperBound());
  Value step = at.get(span.slider.getStep());
  int64_t block = cast<ShapedType>(span.tile.getType()).getShape().back();
  int64_t over =
      std::max<int64_t>(block - *getConstantIntValue(span.slider.getStep()), 0);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value length = arith::MaxSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, ub, lb), zero);
  Value trips = arith::CeilDivUIOp::create(b, loc, length, step);
  Value end = arith::AddIOp::create(b, loc, lb,
                                    arith::MulIOp::create(b, loc, trips, step));
  if (over == 0)
    return end;
  return arith::AddIOp::create(b, loc, end,
                               arith::ConstantIndexOp::create(b, loc, over));
}

/// The extents of `view`'s coordinate set when it has static sizes and a
/// box from 0 as its coordinate set.
static std::optional<SmallVector<int64_t>>
boxExtents(ktdp::ConstructMemoryViewOp view) {
  IntegerSet set = view.getCoordinateSet();
  if (!view.getSizes().empty() || set.getNumSymbols() != 0 ||
      !ktdp::isBoxShaped(set))
    return std::nullopt;
  FailureOr<ktdp::IntegerBox> box = ktdp::getBoundingBox(set, {});
  if (failed(box) || llvm::any_of(box->lower, [](int64_t l) { return l; }))
    return std::nullopt;
  return box->getExtents();
}

/// A copy of `view` built before the anchor of `at`, its coordinate set
/// the box `extents` whose last dimension holds `count` coordinates from
/// 0 (a run-time size: the set's symbol).
static Value clippedView(ktdp::ConstructMemoryViewOp view,
                         ArrayRef<int64_t> extents, Value count,
                         ValuesBefore &at) {
  OpBuilder &b = at.b;
  for (Value operand : view->getOperands())
    at.map.map(operand, at.get(operand));
  auto clipped = cast<ktdp::ConstructMemoryViewOp>(b.clone(*view, at.map));
  SmallVector<int64_t> sizes(view.getStaticSizes());
  sizes.back() = ShapedType::kDynamic;
  clipped.setStaticSizes(sizes);
  clipped.getSizesMutable().assign(count);
  size_t last = extents.size() - 1;
  SmallVector<AffineExpr> constraints;
  for (auto [d, n] : llvm::enumerate(extents)) {
    AffineExpr dim = b.getAffineDimExpr(d);
    constraints.push_back(dim);
    constraints.push_back(d == last ? b.getAffineSymbolExpr(0) - 1 - dim
                                    : -dim + (n - 1));
  }
  clipped.setCoordinateSet(
      IntegerSet::get(extents.size(), 1, constraints,
                      SmallVector<bool>(constraints.size(), false)));
  return clipped;
}

Value hoisting::reachedView(Candidate &c, OpBuilder &b, IRMapping &outside) {
  Span &span = *c.span;
  SmallVector<Span *> loops{&span};
  for (Candidate &sharer : c.sharers)
    loops.push_back(&*sharer.span);
  // Loops of constant trips walk the whole view (spanOf).
  if (llvm::all_of(loops, [](Span *s) { return tripCount(s->slider); }))
    return {};
  auto view = span.tile.getBase().getDefiningOp<ktdp::ConstructMemoryViewOp>();
  std::optional<SmallVector<int64_t>> extents =
      view ? boxExtents(view) : std::nullopt;
  if (!extents || extents->back() != span.extent)
    return {};
  ValuesBefore at(b, outside);
  auto available = [&](Value v) { return at.available(v); };
  if (!llvm::all_of(view->getOperands(), available) ||
      !llvm::all_of(loops, [&](Span *s) {
        return llvm::all_of(s->slider->getOperands().take_front(3), available);
      }))
    return {};
  Location loc = span.tile.getLoc();
  Value reach;
  SmallVector<Span *> done;
  for (Span *loop : loops) {
    // Two loops over the same bounds in blocks as wide end together.
    auto same = [&](Span *other) {
      return other->slider->getOperands().take_front(3) ==
                 loop->slider->getOperands().take_front(3) &&
             other->tile.getType() == loop->tile.getType();
    };
    if (llvm::any_of(done, same))
      continue;
    done.push_back(loop);
    Value end = endOf(*loop, at);
    reach = reach ? arith::MaxSIOp::create(b, loc, reach, end) : end;
  }
  Value count = arith::MinSIOp::create(
      b, loc, reach, arith::ConstantIndexOp::create(b, loc, span.extent));
  return clippedView(view, *extents, count, at);
}

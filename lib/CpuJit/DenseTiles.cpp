//===- DenseTiles.cpp - Unguarded loads and stores of in-bounds tiles -----===//
//
// This file emits the fast path of ktdp.load / ktdp.store on a dense direct
// access tile in identity order: when, at run time, the whole tile lies
// inside its view's sizes and coordinate_set and inside the tensor's
// buffer, no position is masked and none is an error, so the accesses need
// no per-element guard. One check per tile execution decides it: the
// conditions are linear (the coordinate_set's constraints are pure affine,
// the address is affine in the coordinate, sizes and buffer are intervals),
// so the tile's box satisfies them iff its corners do. The loops then read
// or write row after row at `base + Σ t_d * stride_d`, which LLVM can hoist
// and vectorize. AccessLowering.cpp keeps the guarded loop nest as the
// other branch.
//
//===----------------------------------------------------------------------===//

#include "TileLowering.h"

#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace ktflow::jit;

/// Tiles of higher rank have too many corners to check for the gain.
static constexpr unsigned kMaxFastRank = 3;

static Value indexConstant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

bool ktflow::jit::hasFastPath(const TileLowering &tile) {
  unsigned rank = tile.perm.size();
  // A distributed view's parts each have a set and sizes of their own.
  if (tile.indirect || !tile.dense || rank == 0 || rank > kMaxFastRank ||
      !tile.view->parts.empty())
    return false;
  for (unsigned k = 0; k < rank; ++k)
    if (tile.perm[k] != k || tile.shape[k] <= 0)
      return false;
  // mod and floordiv make the view's set non-convex: corners do not tell.
  return llvm::all_of(tile.view->set.getConstraints(),
                      [](AffineExpr e) { return e.isPureAffine(); });
}

namespace {
/// The least and greatest value of an index over the grid.
using Interval = std::pair<int64_t, int64_t>;
} // namespace

static std::optional<Interval>
rangeOnGrid(Value v, ArrayRef<std::pair<Value, int64_t>> tileIds,
            unsigned depth = 0);

/// The values the induction variable of `loop` takes, when its step is a
/// positive constant and its lower bound a value rangeOnGrid bounds: from
/// the lower bound on, below the upper bound or, when the upper bound is
/// the lower bound plus a constant (`scf.for %i = %a to %a + 1024`), at
/// most that many steps on.
static std::optional<Interval>
inductionRange(scf::ForOp loop, ArrayRef<std::pair<Value, int64_t>> tileIds,
               unsigned depth) {
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!step || *step <= 0)
    return std::nullopt;
  std::optional<Interval> lower =
      rangeOnGrid(loop.getLowerBound(), tileIds, depth + 1);
  if (!lower)
    return std::nullopt;
  Value upperBound = loop.getUpperBound();
  auto add = upperBound.getDefiningOp<arith::AddIOp>();
  if (add) {
    for (unsigned k = 0; k < 2; ++k) {
      std::optional<int64_t> trip = getConstantIntValue(add->getOperand(1 - k));
      if (add->getOperand(k) != loop.getLowerBound() || !trip)
        continue;
      // Iterations lower + j * step for j * step < trip.
      if (*trip <= 0)
        return std::nullopt;
      std::optional<int64_t> last =
          llvm::checkedAdd(lower->second, (*trip - 1) / *step * *step);
      if (!last)
        return std::nullopt;
      return Interval{lower->first, *last};
    }
  }
  std::optional<Interval> upper = rangeOnGrid(upperBound, tileIds, depth + 1);
  if (!upper || upper->second <= lower->first)
    return std::nullopt;
  return Interval{lower->first, upper->second - 1};
}

/// The values `v` takes over the grid, when it is built from constants,
/// tile ids and the induction variables of loops over such bounds by
/// additions, subtractions and multiplications.
static std::optional<Interval>
rangeOnGrid(Value v, ArrayRef<std::pair<Value, int64_t>> tileIds,
            unsigned depth) {
  for (auto [id, extent] : tileIds)
    if (v == id)
      return Interval{0, extent - 1};
  if (std::optional<int64_t> constant = getConstantIntValue(v))
    return Interval{*constant, *constant};
  if (auto loop = scf::getForInductionVarOwner(v))
    return depth > 8 ? std::nullopt : inductionRange(loop, tileIds, depth);
  Operation *def = v.getDefiningOp();
  if (depth > 8 || !def ||
      !isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(def))
    return std::nullopt;
  std::optional<Interval> lhs =
      rangeOnGrid(def->getOperand(0), tileIds, depth + 1);
  std::optional<Interval> rhs =
      rangeOnGrid(def->getOperand(1), tileIds, depth + 1);
  if (!lhs || !rhs)
    return std::nullopt;
  SmallVector<std::optional<int64_t>> ends;
  if (isa<arith::AddIOp>(def))
    ends = {llvm::checkedAdd(lhs->first, rhs->first),
            llvm::checkedAdd(lhs->second, rhs->second)};
  else if (isa<arith::SubIOp>(def))
    ends = {llvm::checkedSub(lhs->first, rhs->second),
            llvm::checkedSub(lhs->second, rhs->first)};
  else
    for (int64_t a : {lhs->first, lhs->second})
      for (int64_t b : {rhs->first, rhs->second})
        ends.push_back(llvm::checkedMul(a, b));
  if (llvm::is_contained(ends, std::nullopt))
    return std::nullopt;
  auto values = llvm::map_range(ends, [](auto e) { return *e; });
  return Interval{*llvm::min_element(values), *llvm::max_element(values)};
}

bool ktflow::jit::liesInViewOnGrid(
    const TileLowering &tile, ArrayRef<std::pair<Value, int64_t>> tileIds) {
  const ViewLowering &view = *tile.view;
  if (!hasFastPath(tile) || !view.setSymbols.empty())
    return false;
  // The box every tile's coordinates lie in.
  unsigned rank = tile.shape.size();
  SmallVector<int64_t> lower(rank), upper(rank);
  for (unsigned d = 0; d < rank; ++d) {
    std::optional<Interval> anchor = rangeOnGrid(tile.anchor[d], tileIds);
    std::optional<int64_t> size = getConstantIntValue(view.sizes[d]);
    if (!anchor || !size)
      return false;
    lower[d] = anchor->first + tile.setLower[d];
    upper[d] = anchor->second + tile.setLower[d] + tile.shape[d] - 1;
    if (lower[d] < view.lower[d] || upper[d] - view.lower[d] >= *size)
      return false;
  }
  // The constraints are pure affine (hasFastPath): they hold on the box iff
  // on its corners.
  for (unsigned corner = 0; corner < (1u << rank); ++corner) {
    SmallVector<int64_t> point;
    for (unsigned d = 0; d < rank; ++d)
      point.push_back(corner >> d & 1 ? upper[d] : lower[d]);
    if (!ktdp::containsPoint(view.set, point, {}))
      return false;
  }
  return true;
}

Value ktflow::jit::emitTileInBounds(OpBuilder &b, Location loc,
                                    const TileLowering &tile, Value &base) {
  const ViewLowering &view = *tile.view;
  unsigned rank = tile.shape.size();
  Value all = arith::ConstantIntOp::create(b, loc, 1, 1);
  for (unsigned corner = 0; corner < (1u << rank); ++corner) {
    SmallVector<Value> coord;
    for (unsigned d = 0; d < rank; ++d) {
      int64_t offset =
          tile.setLower[d] + (corner >> d & 1 ? tile.shape[d] - 1 : 0);
      coord.push_back(arith::AddIOp::create(b, loc, tile.anchor[d],
                                            indexConstant(b, loc, offset)));
    }
    Value inView = emitContains(b, loc, view.set, coord, view.setSymbols);
    Value address, valid;
    emitViewAddress(b, loc, view, coord, address, valid);
    if (corner == 0)
      base = address;
    all = arith::AndIOp::create(b, loc, all,
                                arith::AndIOp::create(b, loc, inView, valid));
  }
  return all;
}

/// The element at tile position `ivs` (a prefix of the dimensions) added
/// to `start`.
static Value advance(OpBuilder &b, Location loc, const ViewLowering &view,
                     Value start, ValueRange ivs) {
  Value address = start;
  for (auto [d, iv] : llvm::enumerate(ivs))
    address = arith::AddIOp::create(
        b, loc, address, arith::MulIOp::create(b, loc, iv, view.strides[d]));
  return address;
}

Value ktflow::jit::emitDenseLoad(OpBuilder &b, Location loc,
                                 const TileLowering &tile, Value base,
                                 Value init) {
  SmallVector<Value> lbs, ubs, steps;
  for (int64_t extent : tile.shape) {
    lbs.push_back(indexConstant(b, loc, 0));
    ubs.push_back(indexConstant(b, loc, extent));
    steps.push_back(indexConstant(b, loc, 1));
  }
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, lbs, ubs, steps, ValueRange{init},
      [&](OpBuilder &nb, Location l, ValueRange ivs,
          ValueRange iterArgs) -> scf::ValueVector {
        Value address = advance(nb, l, *tile.view, base, ivs);
        Value v = memref::LoadOp::create(nb, l, tile.view->bufferValue,
                                         ValueRange{address});
        return {tensor::InsertOp::create(nb, l, v, iterArgs.front(), ivs)};
      });
  return nest.results.front();
}

void ktflow::jit::emitDenseStore(OpBuilder &b, Location loc,
                                 const TileLowering &tile, Value base,
                                 Value data, Value status) {
  const ViewLowering &view = *tile.view;
  unsigned last = tile.shape.size() - 1;
  Value zero = indexConstant(b, loc, 0);
  Value one = indexConstant(b, loc, 1);
  Value width = indexConstant(b, loc, tile.shape[last]);
  auto storeRow = [&](OpBuilder &rb, Location l, ValueRange outerIvs) {
    Value rowBase = advance(rb, l, view, base, outerIvs);
    scf::ForOp::create(
        rb, l, zero, width, one, ValueRange{},
        [&](OpBuilder &nb, Location, Value iv, ValueRange) {
          SmallVector<Value> ivs(outerIvs);
          ivs.push_back(iv);
          Value address = arith::AddIOp::create(
              nb, l, rowBase,
              arith::MulIOp::create(nb, l, iv, view.strides[last]));
          Value v = tensor::ExtractOp::create(nb, l, data, ivs);
          memref::StoreOp::create(nb, l, v, view.bufferValue,
                                  ValueRange{address});
          scf::YieldOp::create(nb, l);
        });
  };
  // Every element of a row was written: the ends of the first row of a
  // block bound its range, and the block's rows follow at the stride of
  // the dimension before the last. One report per block rather than per
  // row: logging RoPE 163840x128's 327,680 rows took a fifth of its
  // process's CPU time.
  auto reportBlock = [&](OpBuilder &rb, Location l, ValueRange outerIvs,
                         int64_t rows, Value step) {
    Value first = advance(rb, l, view, base, outerIvs);
    Value end = arith::AddIOp::create(
        rb, l, first,
        arith::MulIOp::create(rb, l, indexConstant(rb, l, tile.shape[last] - 1),
                              view.strides[last]));
    emitRowReport(rb, l, view.buffer, arith::MinSIOp::create(rb, l, first, end),
                  arith::MaxSIOp::create(rb, l, first, end),
                  indexConstant(rb, l, rows), step, status);
  };
  if (last == 0) {
    storeRow(b, loc, {});
    reportBlock(b, loc, {}, 1, zero);
    return;
  }
  // Blocks of the last two dimensions.
  auto storeBlock = [&](OpBuilder &bb, Location l, ValueRange outerIvs) {
    scf::ForOp::create(bb, l, zero, indexConstant(bb, l, tile.shape[last - 1]),
                       one, ValueRange{},
                       [&](OpBuilder &nb, Location, Value iv, ValueRange) {
                         SmallVector<Value> ivs(outerIvs);
                         ivs.push_back(iv);
                         storeRow(nb, l, ivs);
                         scf::YieldOp::create(nb, l);
                       });
    reportBlock(bb, l, outerIvs, tile.shape[last - 1], view.strides[last - 1]);
  };
  if (last == 1) {
    storeBlock(b, loc, {});
    return;
  }
  SmallVector<Value> lbs(last - 1, zero), ubs, steps(last - 1, one);
  for (unsigned d = 0; d + 1 < last; ++d)
    ubs.push_back(indexConstant(b, loc, tile.shape[d]));
  scf::buildLoopNest(b, loc, lbs, ubs, steps,
                     [&](OpBuilder &nb, Location l, ValueRange ivs) {
                       storeBlock(nb, l, ivs);
                     });
}

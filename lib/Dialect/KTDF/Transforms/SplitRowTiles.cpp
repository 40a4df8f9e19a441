//===- SplitRowTiles.cpp - A loop's row tiles cut to fill idle lanes ------===//
//
// This file implements --ktdf-split-row-tiles. ktdf-spread-iterations gives
// the instances a grid point leaves idle the iterations of its loop, at
// most one each: the shipped rmsnorm (no grid, 8 trips of 4 rows) used 8
// of mesh_device's 16 cores. Where the loop body computes row by row, its
// rows are independent, and the pass cuts each trip into F trips of R/F
// rows, so that ktdf-spread-iterations finds T * F trips for the idle
// instances. A loop whose trip count is known only at launch (a
// grid-stride block loop) keeps its trips and is wrapped in a loop of row
// slices, each running every trip on its slice of the tiles, which
// ktdf-spread-iterations deals with the trips. Each output element is
// computed by the same ops from the same operands in the same order: the
// numerics are the kernel's.
//
//===----------------------------------------------------------------------===//

#include "RowSlicePlan.h"
#include "TileSlices.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"
#include "ktflow/Scheduler/ScheduleTarget.h"
#include "ktflow/Scheduler/ScheduleTargetPass.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFSPLITROWTILES
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

/// `expr` with every dimension bound to `iv` replaced by `value`.
static AffineExpr bindLoopVariable(AffineExpr expr, ValueRange dims, Value iv,
                                   int64_t value) {
  for (auto [i, dim] : llvm::enumerate(dims))
    if (dim == iv)
      expr = expr.replace(getAffineDimExpr(i, expr.getContext()),
                          getAffineConstantExpr(value, expr.getContext()));
  return expr;
}

/// `anchor`'s expression over `into`'s dimensions and symbols, which gain
/// the operands `anchor` has and `into` lacks: two anchors over the same
/// values compare as expressions.
static AffineExpr unify(const RowAnchor &anchor, RowAnchor &into) {
  auto position = [](SmallVector<Value> &values, Value v) {
    auto it = llvm::find(values, v);
    if (it != values.end())
      return unsigned(it - values.begin());
    values.push_back(v);
    return unsigned(values.size() - 1);
  };
  MLIRContext *ctx = anchor.expr.getContext();
  SmallVector<AffineExpr> dims, symbols;
  for (Value dim : anchor.dims)
    dims.push_back(getAffineDimExpr(position(into.dims, dim), ctx));
  for (Value symbol : anchor.symbols)
    symbols.push_back(getAffineSymbolExpr(position(into.symbols, symbol), ctx));
  return anchor.expr.replaceDimsAndSymbols(dims, symbols);
}

LogicalResult RowSlicePlan::addTile(ktdp::ConstructAccessTileOp tile) {
  auto shape = cast<ktdp::AccessTileType>(tile.getType()).getShape();
  ktdp::ConstructMemoryViewOp view = ktdp::getAccessTileView(tile);
  auto space =
      view ? ktdp::normalizeMemorySpace(view.getMemorySpace()) : std::nullopt;
  if (tile->getParentOp() != loop || !isSliceableTile(tile) || !space ||
      space->kind != ktdp::MemoryKind::global ||
      llvm::is_contained(tile.getSymbolOperands(), iv) ||
      llvm::any_of(tile->getOperands(), [&](Value v) {
        return v != iv && !loop.isDefinedOutsideOfLoop(v);
      }))
    return failure();
  if (rows == 0)
    rows = shape.front();
  if (shape.front() != rows)
    return failure();
  // The loop variable only in the first coordinate, linearly, one trip's
  // tile right below the previous trip's.
  AffineMap base = tile.getBaseMap();
  SmallVector<Value> dims(tile.getIndices());
  for (auto [i, dim] : llvm::enumerate(dims))
    if (dim == iv)
      for (AffineExpr result : base.getResults().drop_front())
        if (result.isFunctionOfDim(i))
          return failure();
  AffineExpr first = base.getResult(0);
  bool nonlinear = false;
  first.walk([&](AffineExpr sub) {
    auto binary = dyn_cast<AffineBinaryOpExpr>(sub);
    if (binary && binary.getKind() != AffineExprKind::Add &&
        binary.getKind() != AffineExprKind::Mul)
      for (auto [i, dim] : llvm::enumerate(dims))
        nonlinear |= dim == iv && binary.isFunctionOfDim(i);
  });
  AffineExpr perTrip =
      simplifyAffineExpr(bindLoopVariable(first, dims, iv, 1) -
                             bindLoopVariable(first, dims, iv, 0),
                         base.getNumDims(), base.getNumSymbols());
  auto coefficient = dyn_cast<AffineConstantExpr>(perTrip);
  if (nonlinear || !coefficient || coefficient.getValue() * step != rows)
    return failure();
  // Every row tile covers the same rows in a trip, so the slices of
  // different trips touch different rows of every view.
  RowAnchor mine{first, dims, SmallVector<Value>(tile.getSymbolOperands())};
  if (!anchor)
    anchor = RowAnchor{AffineExpr(), {}, {}};
  AffineExpr unified = unify(mine, *anchor);
  if (!anchor->expr)
    anchor->expr = unified;
  auto simplified = [&](AffineExpr e) {
    return simplifyAffineExpr(e, anchor->dims.size(), anchor->symbols.size());
  };
  if (simplified(unified) != simplified(anchor->expr))
    return failure();
  tiles.insert(tile);
  return addTileData(tile, [&](Value v) { return add(v); });
}

/// A loop over the column blocks of the loop's row block (scale_matrix_dyn:
/// `scf.for %col = 0 to %n step 64` in the grid-stride loop of its row
/// blocks), run whole by each slice: alone in the body, it carries nothing
/// (a row sum carried across the columns is refused) and its trips do not
/// change with the row block.
LogicalResult RowSlicePlan::addColumnLoop(scf::ForOp inner) {
  if (!inPlaceSlices || columnLoop || inner->getParentOp() != loop ||
      inner.getNumRegionIterArgs() != 0 || inner.getNumResults() != 0 ||
      !matchPattern(inner.getStep(), m_Constant()) ||
      llvm::any_of(inner->getOperands(),
                   [&](Value v) { return !loop.isDefinedOutsideOfLoop(v); }))
    return failure();
  columnLoop = inner;
  return success();
}

LogicalResult RowSlicePlan::build() {
  WalkResult walk = loop.getBody()->walk([&](Operation *op) {
    if (auto inner = dyn_cast<scf::ForOp>(op))
      return failed(addColumnLoop(inner)) ? WalkResult::interrupt()
                                          : WalkResult::advance();
    if (isa<scf::IfOp, scf::WhileOp, func::CallOp,
            ktdp::ConstructIndirectAccessTileOp, ktdp::InterTileProduceOp,
            ktdp::InterTileReduceOp>(op))
      return WalkResult::interrupt();
    auto tile = dyn_cast<ktdp::ConstructAccessTileOp>(op);
    if (inPlaceSlices)
      return tile && failed(addInPlaceTile(tile)) ? WalkResult::interrupt()
                                                  : WalkResult::advance();
    if (tile && llvm::is_contained(tile->getOperands(), iv) &&
        failed(addTile(tile)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (walk.wasInterrupted() || tiles.empty() ||
      (inPlaceSlices && failed(checkInPlaceStores())))
    return failure();
  // The loop variable only places row tiles, and every store goes through
  // one: a trip's slices then differ only in their rows.
  for (Operation *user : iv.getUsers())
    if (!inPlaceSlices &&
        !tiles.contains(dyn_cast<ktdp::ConstructAccessTileOp>(user)))
      return failure();
  WalkResult stores = loop.getBody()->walk([&](ktdp::StoreOp store) {
    return tiles.contains(store.getAccessTile()
                              .getDefiningOp<ktdp::ConstructAccessTileOp>())
               ? WalkResult::advance()
               : WalkResult::interrupt();
  });
  if (stores.wasInterrupted())
    return failure();
  return propagate(
      worklist, [&](Value v) { return addDefinition(v); },
      [&](OpOperand &use) {
        return success(!loop->isAncestor(use.getOwner()) ||
                       succeeded(addUse(use)));
      });
}

/// What cutting `value` into row slices asks of the op that computes it.
LogicalResult RowSlicePlan::addDefinition(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return failure();
  // Only splat constants may come from outside the loop.
  if (!isa<arith::ConstantOp>(def) && !loop->isAncestor(def))
    return failure();
  if (std::optional<LogicalResult> leaf = addLeaf(def))
    return *leaf;
  if (auto generic = dyn_cast<linalg::GenericOp>(def))
    return addRowGeneric(generic, /*rowIndex=*/false);
  if (isElementwiseOnTensors(def) || isRowReduction(def)) {
    for (Value operand : def->getOperands())
      if (failed(add(operand)))
        return failure();
    for (Value result : def->getResults())
      if (failed(add(result)))
        return failure();
    return success();
  }
  return failure();
}

/// What cutting a value into row slices asks of one of its users.
LogicalResult RowSlicePlan::addUse(OpOperand &use) {
  Operation *user = use.getOwner();
  if (auto store = dyn_cast<ktdp::StoreOp>(user))
    return success(use.get() == store.getDataTile());
  if (auto fill = dyn_cast<linalg::FillOp>(user))
    return success(use.get() == fill.getOutputs()[0] &&
                   succeeded(add(fill.getResult(0))));
  if (auto generic = dyn_cast<linalg::GenericOp>(user))
    return addRowGeneric(generic, /*rowIndex=*/false);
  if (isElementwiseOnTensors(user) || isRowReduction(user))
    return addDefinition(user->getResult(0));
  return failure();
}

AffineMap RowSlicePlan::slicedAnchor(ktdp::ConstructAccessTileOp tile,
                                     int64_t slices) const {
  AffineMap base = tile.getBaseMap();
  SmallVector<Value> dims(tile.getIndices());
  unsigned trip = llvm::find(dims, iv) - dims.begin();
  SmallVector<AffineExpr> results(base.getResults());
  results.front() = bindLoopVariable(results.front(), dims, iv, lowerBound) +
                    getAffineDimExpr(trip, base.getContext()) * (rows / slices);
  return simplifyAffineMap(AffineMap::get(
      base.getNumDims(), base.getNumSymbols(), results, base.getContext()));
}

void mlir::ktdf::sliceValues(
    scf::ForOp loop, const RowSlicePlan &plan, int64_t rows,
    function_ref<Value(OpBuilder &, ktdp::ConstructAccessTileOp)> slice) {
  OpBuilder b(loop);
  DenseMap<Operation *, Value> sliced;
  for (ktdp::ConstructAccessTileOp tile : plan.getTiles()) {
    b.setInsertionPoint(tile);
    sliced[tile] = slice(b, tile);
    for (OpOperand &use : llvm::make_early_inc_range(tile->getUses()))
      if (auto store = dyn_cast<ktdp::StoreOp>(use.getOwner()))
        use.set(sliced[tile]);
  }
  for (Value value : plan.getValues()) {
    RankedTensorType type = withRows(value.getType(), rows);
    Operation *def = value.getDefiningOp();
    if (!isa<ktdp::LoadOp, tensor::EmptyOp, arith::ConstantOp>(def)) {
      value.setType(type);
      continue;
    }
    if (loop->isAncestor(def))
      b.setInsertionPoint(def);
    else
      b.setInsertionPointToStart(loop.getBody());
    Value replacement = remakeWithType(
        b, def, type,
        isa<ktdp::LoadOp>(def)
            ? sliced.lookup(
                  cast<ktdp::LoadOp>(def).getAccessTile().getDefiningOp())
            : Value());
    value.replaceUsesWithIf(replacement, [&](OpOperand &use) {
      return loop->isAncestor(use.getOwner());
    });
    if (def->use_empty())
      def->erase();
  }
  for (ktdp::ConstructAccessTileOp tile : plan.getTiles())
    tile.erase();
}

/// Rewrites `loop` into `trips * slices` trips of one row slice each.
static void sliceRows(scf::ForOp loop, const RowSlicePlan &plan, int64_t trips,
                      int64_t slices) {
  int64_t rows = plan.getRows() / slices;
  sliceValues(loop, plan, rows,
              [&](OpBuilder &b, ktdp::ConstructAccessTileOp tile) {
                SmallVector<int64_t> shape(
                    cast<ktdp::AccessTileType>(tile.getType()).getShape());
                shape.front() = rows;
                return buildBoxTile(b, tile, tile.getIndices(),
                                    plan.slicedAnchor(tile, slices), shape);
              });
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  loop.getLowerBoundMutable().assign(arith::ConstantIndexOp::create(b, loc, 0));
  loop.getUpperBoundMutable().assign(
      arith::ConstantIndexOp::create(b, loc, trips * slices));
  loop.getStepMutable().assign(arith::ConstantIndexOp::create(b, loc, 1));
}

/// The kernel's one loop whose trips ktdf-spread-iterations would spread:
/// directly in the function, constant bounds, nothing carried, and
/// outside it nothing but work that stages data into the scratchpad
/// (which every copy of the point repeats).
static scf::ForOp spreadableLoop(func::FuncOp func) {
  scf::ForOp loop;
  for (Operation &op : func.getBody().front()) {
    if (auto found = dyn_cast<scf::ForOp>(op)) {
      if (loop)
        return {};
      loop = found;
    }
  }
  if (!loop || loop.getNumRegionIterArgs() != 0)
    return {};
  WalkResult walk = func.walk([&](Operation *op) {
    if (isa<scf::IfOp, scf::WhileOp, ktdp::ConstructIndirectAccessTileOp,
            ktdp::InterTileProduceOp, ktdp::InterTileReduceOp>(op))
      return WalkResult::interrupt();
    auto store = dyn_cast<ktdp::StoreOp>(op);
    if (!store || loop->isAncestor(op))
      return WalkResult::advance();
    ktdp::ConstructMemoryViewOp view =
        ktdp::getAccessTileView(store.getAccessTile());
    auto space =
        view ? ktdp::normalizeMemorySpace(view.getMemorySpace()) : std::nullopt;
    return !space || space->kind == ktdp::MemoryKind::global
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return walk.wasInterrupted() ? scf::ForOp() : loop;
}

int64_t mlir::ktdf::mostSlices(int64_t rows, int64_t most) {
  int64_t slices = 1;
  for (int64_t f = 2; f <= rows && f <= most; ++f)
    if (rows % f == 0)
      slices = f;
  return slices;
}

namespace {
struct SplitRowTilesPass
    : public ktflow::sched::WithScheduleTarget<
          ktdf::impl::KTDFSplitRowTilesBase<SplitRowTilesPass>> {
  using Base::Base;
  void runOnOperation() override {
    const ktflow::sched::ScheduleTarget *target = requireScheduleTarget();
    if (!target)
      return;
    int64_t instances = target->getNumLaneInstances(useLanes);
    for (auto [func, grid] : gridKernels(getOperation())) {
      scf::ForOp loop = spreadableLoop(func);
      std::optional<APInt> tripCount =
          loop ? loop.getStaticTripCount() : std::nullopt;
      std::optional<int64_t> lb =
          loop ? getConstantIntValue(loop.getLowerBound()) : std::nullopt;
      std::optional<int64_t> step =
          loop ? getConstantIntValue(loop.getStep()) : std::nullopt;
      int64_t idle = instances / ktdp::getNumTiles(grid);
      if (maxFactor > 0)
        idle = std::min<int64_t>(idle, maxFactor);
      if (loop && !tripCount) {
        sliceGridStrideLoop(loop, ktdp::getNumTiles(grid), idle, *target);
        continue;
      }
      if (!tripCount || !lb || !step)
        continue;
      int64_t trips = tripCount->getSExtValue();
      if (trips < 1 || trips * 2 > idle)
        continue;
      RowSlicePlan plan(loop, *lb, *step);
      if (failed(plan.build()))
        continue;
      // The most slices of whole rows the idle instances take.
      int64_t slices = mostSlices(plan.getRows(), idle / trips);
      if (slices > 1)
        sliceRows(loop, plan, trips, slices);
    }
  }
};
} // namespace

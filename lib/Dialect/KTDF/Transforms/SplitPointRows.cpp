//===- SplitPointRows.cpp - Grid points of unequal work cut in two --------===//
//
// This file implements --ktdf-split-point-rows. ktdf-distribute deals grid
// points of unequal work in snake order, but only when they take two or
// more rounds: a causal attention of 64 query blocks on spyre_like's 64
// lanes runs one block a lane, and the lane of the last block walks 8 key
// blocks while the mean is 4.5. When a point's rows are independent, the
// pass cuts each point into two halves of R/2 rows (a last grid dimension
// of extent 2): the snake then deals lane k a half of point k and a half of
// the mirror point, the same work on every lane. A half keeps everything
// its point computes from the tile id (its loop bounds: the causal mask
// already handles its rows); its row tiles sit R/2 rows further for the
// second half, and so does the row number `linalg.index 0` its generics
// read. Each output row is computed by the same ops from the same operands
// in the same order: the numerics are the kernel's.
//
// Points of equal work are cut too when the halves fill idle lanes of the
// cores already used (no more than half as many points as instances, a
// multiple of the cores) and a point loads at least as many bytes that all
// its rows read (a paged attention's K and V pages; a gather read whole is
// no row value) as rows: the halves are then a first grid dimension, so
// instances k and k + cores, the two lanes of core k, run the halves of
// point k, and its DMA engine loads the shared bytes once for both
// (SharedLoads.cpp). The halves' matrix products run the point's waves
// each, whatever their rows; each vector unit does half the point's work.
// Rows in a block with unit dimensions of a view of higher rank (the field
// guide's Q and O, 1x8x128 blocks of [sequence, head, dim] views collapsed
// to and expanded from 8x128) count once those dimensions are merged into
// the view's next (ShapeIdioms.h), on a copy of the kernel kept where it
// splits.
//
// Points that leave many instances idle (at least 3 a point) are cut into
// more parts, as many as the idle instances take: the realworld
// sdpa_causal's 2 points of 16 query rows ran on 2 of mesh_device's 16
// vector units, 75 % busy, the other 14 idle. Each part re-reads what its
// rows read whole, so parts of products of loaded rows keep the matrix
// unit's rows, and a loop ktdf-spread-iterations spreads keeps its share
// of the idle instances. A gather whose first variable walks the point's
// rows (indexed_add's `ind(%IDX[%r0 + %d0])`) is cut with them
// (PointRowGathers.cpp): each part reads only its rows' indices, on the
// DMA engine of its own lane.
//
//===----------------------------------------------------------------------===//

#include "IndexAnalysis.h"
#include "MergeGridPoints.h"
#include "ShapeIdioms.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"
#include "ktflow/Scheduler/ScheduleTarget.h"
#include "ktflow/Scheduler/ScheduleTargetPass.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFSPLITPOINTROWS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

/// Whether some loop's bounds follow from `id`: the points' work differs.
static bool workFollowsId(func::FuncOp func, Value id) {
  return func
      .walk([&](scf::ForOp loop) {
        for (Value bound :
             {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()})
          if (coefficient(bound, id) != 0)
            return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether `func` loads at least as many bytes through tiles that are
/// none of the plan's row tiles as through them: data both halves of a
/// point read (an attention's keys and values), which the two lanes of a
/// core load once (SharedLoads.cpp), while the halves' rows split.
static bool loadsForBothHalves(func::FuncOp func, const PointRowPlan &plan) {
  int64_t rows = 0, shared = 0;
  func.walk([&](ktdp::LoadOp load) {
    auto type = cast<ShapedType>(load.getType());
    int64_t bytes = type.getNumElements() * type.getElementTypeBitWidth() / 8;
    Operation *tile = load.getAccessTile().getDefiningOp();
    if (llvm::is_contained(plan.getTiles(), tile) ||
        llvm::is_contained(plan.getGathers(), tile))
      rows += bytes;
    else
      shared += bytes;
  });
  return shared > 0 && shared >= rows;
}

/// Cuts the points of `func` (grid `grid`, of `equal` work or not) into
/// halves where a dimension's rows qualify; whether it did.
static bool splitRows(func::FuncOp func, ArrayRef<int64_t> grid, bool equal,
                      const ktflow::sched::ScheduleTarget &target) {
  auto ids = *func.getOps<ktdp::GetComputeTileIdOp>().begin();
  for (auto [d, extent] : llvm::enumerate(grid)) {
    Value id = ids.getResult(d);
    if (extent < 2 || (!equal && !workFollowsId(func, id)))
      continue;
    PointRowPlan plan(id, /*halves=*/true);
    if (failed(plan.build(func)) || plan.getRows() % 2 != 0)
      continue;
    if (equal) {
      // The halves' matrix units run the point's waves each; the
      // vector units' work halves.
      if (!loadsForBothHalves(func, plan))
        continue;
    } else {
      // Halves too short for the matrix unit would idle its rows.
      bool products =
          func->walk([](linalg::MatmulOp) { return WalkResult::interrupt(); })
              .wasInterrupted();
      if (products && matrixRowsFactor(target, plan.getRows() / 2) != 1)
        continue;
    }
    cutPointRows(func, grid, plan, /*parts=*/2, /*first=*/equal);
    return true;
  }
  return false;
}

/// Whether `value` is rows loaded from memory (a load, or its extf).
static bool isLoadedRows(Value value) {
  if (auto extend = value.getDefiningOp<arith::ExtFOp>())
    value = extend.getIn();
  return value.getDefiningOp<ktdp::LoadOp>() != nullptr;
}

/// The fewest rows a part may keep. Products that all multiply loaded
/// rows are the matrix unit's work: a part of fewer rows than the unit's
/// pads its product to them, so it cuts nothing there and re-reads the
/// right operand (matmul_k2048's 256 KiB B, once a part). A product of
/// computed rows (an attention's P.V) follows row work that the parts do
/// cut (the mask and softmax before it).
static int64_t fewestPartRows(func::FuncOp func,
                              const ktflow::sched::ScheduleTarget &target) {
  bool products = false, computedRows = false;
  func.walk([&](linalg::MatmulOp product) {
    products = true;
    computedRows |= !isLoadedRows(product.getInputs()[0]);
  });
  // The points to merge for one row to fill the unit: its rows.
  return products && !computedRows ? matrixRowsFactor(target, 1) : 1;
}

/// The most trips of the loops directly in `func` that carry nothing and
/// run a constant number of times: the idle instances
/// ktdf-spread-iterations gives those iterations (and ktdf-split-row-tiles
/// their rows), which keep a trip's transfers whole.
static int64_t spreadTrips(func::FuncOp func) {
  int64_t trips = 1;
  for (scf::ForOp loop : func.getBody().front().getOps<scf::ForOp>()) {
    std::optional<APInt> count = loop.getStaticTripCount();
    if (loop.getNumRegionIterArgs() == 0 && count)
      trips = std::max<int64_t>(trips, count->getSExtValue());
  }
  return trips;
}

/// Whether `func` holds a loop.
static bool hasLoop(func::FuncOp func) {
  return func->walk([](LoopLikeOpInterface) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// Cuts the points of `func` (grid `grid`) into the most parts of rows
/// that the `idle` instances a point has take, when that is 3 or more;
/// whether it did. Fewer parts are the halves' (splitRows), which pay only
/// where they balance or share.
static bool splitIntoParts(func::FuncOp func, ArrayRef<int64_t> grid,
                           int64_t idle,
                           const ktflow::sched::ScheduleTarget &target) {
  idle /= spreadTrips(func);
  if (idle < 3)
    return false;
  auto ids = *func.getOps<ktdp::GetComputeTileIdOp>().begin();
  int64_t fewestRows = fewestPartRows(func, target);
  for (auto [d, extent] : llvm::enumerate(grid)) {
    if (extent < 2)
      continue;
    PointRowPlan plan(ids.getResult(d), /*halves=*/true);
    if (failed(plan.build(func))) {
      // A point of column blocks holds all their rows. Only without a
      // loop: the trips of one ktdf-spread-iterations deals to the idle
      // instances whole, where each part would pay every trip's latency.
      if (hasLoop(func))
        continue;
      plan = PointRowPlan::placedBlocks(ids.getResult(d));
      if (failed(plan.build(func)))
        continue;
    }
    int64_t rows = plan.getRows(), parts = 1;
    for (int64_t p = 2; p <= std::min(rows / fewestRows, idle); ++p)
      if (rows % p == 0)
        parts = p;
    if (parts < 3)
      return false;
    cutPointRows(func, grid, plan, parts);
    return true;
  }
  return false;
}

/// splitRows on `func` with its unit-dimension tiles of views merged
/// (ShapeIdioms.h): the field guide's Q and O, 1x8x128 blocks of
/// [sequence, head, dim] views collapsed to and expanded from 8x128, are
/// then 8x128 tiles whose rows the plan sees (ktdf-generalize merges the
/// loads' later anyway). Tried on a copy, kept only where it splits.
static bool splitMergedRows(func::FuncOp func, ArrayRef<int64_t> grid,
                            const ktflow::sched::ScheduleTarget &target) {
  if (ktdp::getGridOwner(func) != func.getOperation())
    return false;
  func::FuncOp copy = func.clone();
  RewritePatternSet patterns(func.getContext());
  populateUnitTilePatterns(patterns);
  bool split = succeeded(applyPatternsGreedily(copy, std::move(patterns))) &&
               splitRows(copy, grid, /*equal=*/true, target);
  if (split) {
    func.getBody().takeBody(copy.getBody());
    func->setDiscardableAttrs(copy->getDiscardableAttrDictionary());
  }
  copy.erase();
  return split;
}

namespace {
struct SplitPointRowsPass
    : public ktflow::sched::WithScheduleTarget<
          ktdf::impl::KTDFSplitPointRowsBase<SplitPointRowsPass>> {
  using Base::Base;
  void runOnOperation() override {
    const ktflow::sched::ScheduleTarget *target = requireScheduleTarget();
    if (!target)
      return;
    int64_t instances = target->getNumLaneInstances(useLanes);
    for (auto [func, grid] : gridKernels(getOperation())) {
      // More points than instances are dealt in snake order already.
      if (ktdp::getNumTiles(grid) > instances)
        continue;
      SmallVector<ktdp::GetComputeTileIdOp> ids;
      func.walk([&](ktdp::GetComputeTileIdOp op) { ids.push_back(op); });
      if (ids.size() != 1 || ids.front()->getBlock() != &func.getBody().front())
        continue;
      int64_t points = ktdp::getNumTiles(grid);
      int64_t idle = instances / points;
      if (splitIntoParts(func, grid, idle, *target))
        continue;
      bool equal =
          llvm::none_of(ids.front().getResults(), [&, func = func](Value id) {
            return workFollowsId(func, id);
          });
      // Points of equal work are cut when the halves of each fill the
      // lanes left idle, on one core's two lanes (instance k runs point k
      // and shares its core with instance k + cores: the halves a first
      // grid dimension), where the loads their rows do not read go once
      // for both.
      if (equal &&
          (2 * points > instances || points % target->getNumCores() != 0))
        continue;
      if (!splitRows(func, grid, equal, *target) && equal)
        splitMergedRows(func, grid, *target);
    }
  }
};
} // namespace

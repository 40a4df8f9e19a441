//===- SpreadIterations.cpp - A grid point's iterations over idle lanes ---===//
//
// This file implements --ktdf-spread-iterations. A kernel whose grid has
// fewer points than the device has instances leaves lanes idle: a 32-point
// softmax on a 64-lane device computes at half the device's rate whatever
// the schedule of each lane. The iterations of a loop of one grid point are
// independent (ktdf-check-supported refuses kernels whose iterations
// communicate through memory, and loops that carry values; a loop that
// stores to one place every trip, which it cannot refuse when the trip
// count is known only at launch, is not spread), so K copies of
// the point can each run every K-th iteration (or, for a loop of constant
// bounds, a contiguous K-th of them, which ktdf-coarsen can still merge):
// the pass adds a grid dimension of extent K and gives each copy its share
// of every loop of the parallel body. A pipeline before the loops that
// only stages data into the scratchpad (a weight every iteration reads)
// runs on every copy, filling each lane's own region. Distribution then
// gives each copy its own instance.
// An all-reduce inside a spread loop is one per copy: copy j of each tile
// of a group exchanges with copy j of the others (the groups renumbered
// on the wider grid), through the exchange views of its own lane. The copy
// dimension then comes first, so that the tiles of one copy are
// consecutive points, which ktdf-distribute puts on consecutive cores,
// and K is chosen with each such group on distinct cores, as the ring
// needs.
//
//===----------------------------------------------------------------------===//

#include "IndexAnalysis.h"
#include "MemoryHazards.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Scheduler/ScheduleTarget.h"
#include "ktflow/Scheduler/ScheduleTargetPass.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFSPREADITERATIONS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

/// The loop's trip count when its bounds differ by a constant and its step
/// is constant (`%ub = %lb + C`, or both constant).
static std::optional<int64_t> knownTrips(scf::ForOp loop) {
  APInt step, lb, ub, c;
  if (!matchPattern(loop.getStep(), m_ConstantInt(&step)) ||
      step.getSExtValue() <= 0)
    return std::nullopt;
  std::optional<int64_t> span;
  Value lower = loop.getLowerBound(), upper = loop.getUpperBound();
  if (matchPattern(lower, m_ConstantInt(&lb)) &&
      matchPattern(upper, m_ConstantInt(&ub)))
    span = ub.getSExtValue() - lb.getSExtValue();
  else if (auto add = upper.getDefiningOp<arith::AddIOp>())
    for (auto [mine, other] : {std::pair{add.getLhs(), add.getRhs()},
                               std::pair{add.getRhs(), add.getLhs()}})
      if (mine == lower && matchPattern(other, m_ConstantInt(&c)))
        span = c.getSExtValue();
  if (!span)
    return std::nullopt;
  int64_t s = step.getSExtValue();
  return std::max<int64_t>(0, (*span + s - 1) / s);
}

/// Whether a pipeline directly in the parallel body only stages data into
/// the lane's scratchpad: none of its transfers writes device memory, so
/// each copy of the point can run it to fill its own lane's region (the
/// shipped rmsnorm's weight, staged once before its row loop).
static bool stagesIntoScratchpad(PipelineOp pipeline, StringRef globalKind) {
  WalkResult walk = pipeline.walk([&](Operation *op) {
    if (isa<IndDataTransferOp>(op))
      return WalkResult::interrupt();
    auto transfer = dyn_cast<DataTransferOp>(op);
    if (!transfer)
      return WalkResult::advance();
    ktdp::ConstructMemoryViewOp view =
        ktdp::getAccessTileView(transfer.getDst());
    auto kind =
        view ? view->getAttrOfType<StringAttr>("ktdf.memory") : StringAttr();
    if (view && (!kind || kind.getValue() == globalKind))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

/// Whether copies of a point on other lanes may each use their own copy of
/// a scratchpad view of the kernel: it is a carried value or a matrix
/// hand-over (every execution fills it before reading it), or every
/// transfer that writes it lies in one of `staging`, which each copy runs
/// before its loops.
static bool laneLocalView(ktdp::ConstructMemoryViewOp view,
                          ArrayRef<PipelineOp> staging) {
  // An exchange's views: every trip of the loop that holds the all-reduce
  // stores its partial into them before exchanging (spreadableLoops keeps
  // all-reduces out of the parallel body itself).
  if (view->hasAttr(kCarriedViewAttrName) ||
      view->hasAttr(kHandoverViewAttrName) || isExchangeView(view))
    return true;
  for (Operation *tile : view->getUsers()) {
    if (!isa<ktdp::ConstructAccessTileOp>(tile))
      return false;
    for (OpOperand &use : tile->getResult(0).getUses()) {
      auto transfer = dyn_cast<DataTransferOp>(use.getOwner());
      if (!transfer)
        return false;
      if (use.get() != transfer.getDst())
        continue;
      auto pipeline = transfer->getParentOfType<PipelineOp>();
      if (!llvm::is_contained(staging, pipeline))
        return false;
    }
  }
  return true;
}

/// The trip count of a loop whose bounds and step are constants: its
/// copies take contiguous blocks of iterations, which ktdf-coarsen can
/// still merge (merged iterations pay fewer DMA latencies). The chunk loop
/// of a split gather (`ktdf.spread_chunks`, DMA copies that merging would
/// only make bigger) is dealt round robin.
static std::optional<int64_t> blockTrips(scf::ForOp loop) {
  if (loop->hasAttr(kSpreadChunksAttrName) ||
      !matchPattern(loop.getLowerBound(), m_Constant()) ||
      !matchPattern(loop.getUpperBound(), m_Constant()))
    return std::nullopt;
  return knownTrips(loop);
}

/// Whether a coefficient of the induction variable (IndexAnalysis) is
/// known and not zero: the value is `a + c * iv` with `a` not changing with
/// `iv`, different on every trip (`iv mod 4`, whose coefficient is unknown,
/// repeats).
static bool movesEveryTrip(std::optional<int64_t> coefficientOfIv) {
  return coefficientOfIv && *coefficientOfIv != 0;
}

/// Whether a transfer in `loop` may write the same place of device memory
/// on two trips: its destination tile is not known to move with the
/// induction variable (it does not change with it, or changes in a way
/// that may repeat, `r mod 4`). One lane runs the trips in order, so the
/// last write wins as in the reference interpreter; copies on other lanes
/// would race (ktdf-check-supported refuses such stores only where it can
/// enumerate the trips).
static bool mayStoreInOnePlace(scf::ForOp loop, StringRef globalKind) {
  // The chunks ktdf-stream-wide-rows deals a gather into are disjoint by
  // construction (their coordinates are the loop variable's digits, which
  // no test of one coordinate sees).
  if (loop->hasAttr(kSpreadChunksAttrName))
    return false;
  Value iv = loop.getInductionVar();
  auto changes = [&](Value index) {
    return dependsOn(index, [&](Value v) { return v == iv; });
  };
  WalkResult walk = loop.walk([&](DataTransferOp transfer) {
    auto tile = transfer.getDst().getDefiningOp<ktdp::ConstructAccessTileOp>();
    ktdp::ConstructMemoryViewOp view =
        ktdp::getAccessTileView(transfer.getDst());
    auto kind =
        view ? view->getAttrOfType<StringAttr>("ktdf.memory") : StringAttr();
    if (!tile || (kind && kind.getValue() != globalKind))
      return WalkResult::advance();
    SmallVector<Value> operands(tile.getIndices());
    llvm::append_range(operands, tile.getSymbolOperands());
    bool tileMoves =
        llvm::any_of(llvm::seq<unsigned>(0, tile.getBaseMap().getNumResults()),
                     [&](unsigned r) {
                       return movesEveryTrip(anchorCoefficient(tile, r, iv));
                     });
    bool tileChanges = llvm::any_of(operands, changes);
    ValueRange blocks = transfer.getDstIndices();
    bool blockMoves = llvm::any_of(blocks, [&](Value index) {
      return movesEveryTrip(coefficient(index, iv));
    });
    bool blockChanges = llvm::any_of(blocks, changes);
    if ((tileMoves && !blockChanges) || (blockMoves && !tileChanges))
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  return walk.wasInterrupted();
}

/// The loop of a trip count known only at launch that `loop`, of constant
/// trips, holds alone (ktdf-split-row-tiles' row slices of a grid-stride
/// loop): copies can take both a slice and every C-th trip of it.
static scf::ForOp slicedStrideLoop(scf::ForOp loop, StringRef globalKind) {
  if (!blockTrips(loop))
    return {};
  scf::ForOp inner;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (auto found = dyn_cast<scf::ForOp>(op)) {
      if (inner)
        return {};
      inner = found;
      continue;
    }
    if (!isPure(&op) || op.getNumRegions() != 0)
      return {};
  }
  if (!inner || inner.getNumRegionIterArgs() != 0 || knownTrips(inner) ||
      !matchPattern(inner.getStep(), m_Constant()) ||
      llvm::any_of(inner->getOperands(),
                   [&](Value v) { return !loop.isDefinedOutsideOfLoop(v); }) ||
      mayStoreInOnePlace(inner, globalKind))
    return {};
  return inner;
}

/// Whether `op` holds an all-reduce.
static bool holdsAllReduce(Operation *op) {
  return op->walk([](AllReduceOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// The loops of the parallel body to spread, or none when the body does
/// not qualify.
static SmallVector<scf::ForOp> spreadableLoops(ParallelOp parallel,
                                               StringRef globalKind) {
  SmallVector<scf::ForOp> loops;
  SmallVector<PipelineOp> staging;
  for (Operation &op : parallel.getBody().front()) {
    // An exchange outside the loops would run once per copy.
    if (isa<AllReduceOp, TileCopyOp>(op))
      return {};
    if (auto pipeline = dyn_cast<PipelineOp>(op)) {
      // Any other pipeline outside the loops would do its work K times.
      if (!stagesIntoScratchpad(pipeline, globalKind))
        return {};
      staging.push_back(pipeline);
      continue;
    }
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop)
      continue;
    // A loop with a constant lower bound and step whose trip count is not
    // known is one ktdf-coarsen may merge; spreading would take its tiles
    // apart. Not one holding an all-reduce: each trip exchanges its own
    // partial, and ktdf-coarsen keeps its trips apart.
    if (loop.getNumRegionIterArgs() != 0 ||
        (matchPattern(loop.getLowerBound(), m_Constant()) &&
         matchPattern(loop.getStep(), m_Constant()) && !blockTrips(loop) &&
         !loop->hasAttr(kSpreadChunksAttrName) && !holdsAllReduce(loop)) ||
        mayStoreInOnePlace(loop, globalKind))
      return {};
    if (loop->walk([](PipelineOp) { return WalkResult::interrupt(); })
            .wasInterrupted())
      loops.push_back(loop);
  }
  WalkResult views = parallel.walk([&](ktdp::ConstructMemoryViewOp view) {
    auto kind = view->getAttrOfType<StringAttr>("ktdf.memory");
    if (kind && kind.getValue() == globalKind)
      return WalkResult::advance();
    return laneLocalView(view, staging) ? WalkResult::advance()
                                        : WalkResult::interrupt();
  });
  if (views.wasInterrupted())
    return {};
  return loops;
}

namespace {
struct SpreadIterationsPass
    : public ktflow::sched::WithScheduleTarget<
          ktdf::impl::KTDFSpreadIterationsBase<SpreadIterationsPass>> {
  using Base::Base;
  void runOnOperation() override {
    const ktflow::sched::ScheduleTarget *target = requireScheduleTarget();
    if (!target)
      return;
    int64_t instances = target->getNumLaneInstances(useLanes);
    getOperation().walk([&](ParallelOp parallel) {
      int64_t k = instances / std::max<int64_t>(1, parallel.getNumPoints());
      if (maxFactor > 0)
        k = std::min<int64_t>(k, maxFactor);
      SmallVector<scf::ForOp> loops =
          spreadableLoops(parallel, target->getGlobalKind());
      // Copies beyond a sliced loop's slices take every C-th trip of the
      // loop it holds.
      for (scf::ForOp loop : loops)
        if (std::optional<int64_t> trips = knownTrips(loop))
          if (!slicedStrideLoop(loop, target->getGlobalKind()))
            k = std::min(k, *trips);
      // Contiguous blocks are equal: K divides every constant trip count
      // (or, for a sliced loop, is a multiple of it).
      auto divides = [&](int64_t k) {
        return llvm::all_of(loops, [&](scf::ForOp loop) {
          std::optional<int64_t> trips = blockTrips(loop);
          return !trips || *trips % k == 0 ||
                 (slicedStrideLoop(loop, target->getGlobalKind()) &&
                  k % *trips == 0);
        });
      };
      while (k > 1 &&
             (!divides(k) || !ringsOnDistinctCores(parallel, k, *target)))
        --k;
      if (k < 2 || loops.empty())
        return;
      spread(parallel, loops, k, target->getGlobalKind());
    });
  }

  /// The grid with K copies: a last dimension of extent K, or, when the
  /// grid holds an all-reduce, a first one.
  static SmallVector<int64_t> copiedExtents(ParallelOp parallel, int64_t k) {
    SmallVector<int64_t> extents(parallel.getExtents());
    extents.insert(holdsAllReduce(parallel) ? extents.begin() : extents.end(),
                   k);
    return extents;
  }

  /// The groups of `op` with K copies of each tile along a new first grid
  /// dimension (the fastest of the linear tile id): copy j of tile t is
  /// j + K t.
  static SmallVector<SmallVector<int64_t>> copiedGroups(AllReduceOp op,
                                                        int64_t k) {
    SmallVector<SmallVector<int64_t>> groups;
    for (int64_t j = 0; j < k; ++j)
      for (ArrayRef<int64_t> group : op.getMembers()) {
        SmallVector<int64_t> copy;
        for (int64_t t : group)
          copy.push_back(j + k * t);
        groups.push_back(copy);
      }
    return groups;
  }

  /// Whether, with K copies, the tiles of every group of every all-reduce
  /// run on distinct cores (one point per instance, instance p on core
  /// p mod cores: ktdf-distribute).
  static bool
  ringsOnDistinctCores(ParallelOp parallel, int64_t k,
                       const ktflow::sched::ScheduleTarget &target) {
    SmallVector<int64_t> extents = copiedExtents(parallel, k);
    int64_t cores = target.getNumCores();
    WalkResult walk = parallel.walk([&](AllReduceOp op) {
      for (const auto &group : copiedGroups(op, k)) {
        llvm::SmallDenseSet<int64_t> used;
        for (int64_t t : group)
          if (!used.insert(pointOfTile(t, extents) % cores).second)
            return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return !walk.wasInterrupted();
  }

  void spread(ParallelOp parallel, ArrayRef<scf::ForOp> loops, int64_t k,
              StringRef globalKind) {
    bool first = holdsAllReduce(parallel);
    parallel.setExtents(copiedExtents(parallel, k));
    parallel.walk([&](AllReduceOp op) {
      Builder b(op);
      SmallVector<Attribute> groups;
      for (const auto &group : copiedGroups(op, k))
        groups.push_back(b.getDenseI64ArrayAttr(group));
      op.setGroupsAttr(b.getArrayAttr(groups));
    });
    Block &body = parallel.getBody().front();
    Type index = IndexType::get(&getContext());
    Value copy = first ? body.insertArgument(0u, index, parallel.getLoc())
                       : body.addArgument(index, parallel.getLoc());
    for (scf::ForOp loop : loops) {
      std::optional<int64_t> trips = blockTrips(loop);
      scf::ForOp inner = slicedStrideLoop(loop, globalKind);
      if (trips && inner && k > *trips) {
        spreadSlices(loop, inner, copy, *trips, k / *trips);
        continue;
      }
      if (trips)
        spreadBlocks(loop, copy, *trips / k);
      else
        spreadCyclic(loop, copy, k);
    }
  }

  /// Copy j runs slice j mod S of `loop`'s S slices, and of it the trips
  /// (j div S), (j div S) + C, ... of `inner`.
  void spreadSlices(scf::ForOp loop, scf::ForOp inner, Value copy,
                    int64_t slices, int64_t c) {
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    Value s = arith::ConstantIndexOp::create(b, loc, slices);
    Value slice = arith::RemUIOp::create(b, loc, copy, s);
    Value trip = arith::DivUIOp::create(b, loc, copy, s);
    spreadBlocks(loop, slice, 1);
    spreadCyclic(inner, trip, c);
  }

  /// Copy j runs iterations j, j + K, ... of `loop`.
  void spreadCyclic(scf::ForOp loop, Value copy, int64_t k) {
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    Value step = loop.getStep();
    Value first =
        arith::AddIOp::create(b, loc, loop.getLowerBound(),
                              arith::MulIOp::create(b, loc, copy, step));
    // A constant step stays constant (the index analyses read it).
    APInt constant;
    Value wider =
        matchPattern(step, m_ConstantInt(&constant))
            ? arith::ConstantIndexOp::create(b, loc,
                                             constant.getSExtValue() * k)
                  .getResult()
            : arith::MulIOp::create(b, loc, step,
                                    arith::ConstantIndexOp::create(b, loc, k))
                  .getResult();
    loop.getLowerBoundMutable().assign(first);
    loop.getStepMutable().assign(wider);
  }

  /// Copy j runs iterations [j * B, (j + 1) * B) of `loop`, whose bounds and
  /// step are constants: the loop keeps constant bounds, B iterations, and
  /// its body sees the induction variable shifted by j * B steps, so
  /// ktdf-coarsen can merge a copy's iterations as it would the loop's.
  void spreadBlocks(scf::ForOp loop, Value copy, int64_t block) {
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    APInt lb, step;
    matchPattern(loop.getLowerBound(), m_ConstantInt(&lb));
    matchPattern(loop.getStep(), m_ConstantInt(&step));
    int64_t span = block * step.getSExtValue();
    loop.getUpperBoundMutable().assign(
        arith::ConstantIndexOp::create(b, loc, lb.getSExtValue() + span));
    Value shift = arith::MulIOp::create(
        b, loc, copy, arith::ConstantIndexOp::create(b, loc, span));
    b.setInsertionPointToStart(loop.getBody());
    Value iv = loop.getInductionVar();
    auto shifted = arith::AddIOp::create(b, loc, iv, shift);
    iv.replaceAllUsesExcept(shifted, shifted);
  }
};
} // namespace

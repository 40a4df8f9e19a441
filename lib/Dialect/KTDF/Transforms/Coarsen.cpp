//===- Coarsen.cpp - Fewer, larger transfers ------------------------------===//
//
// This file implements --ktdf-coarsen. A DMA pays the route's latency once
// per transfer, so moving one small tile per iteration leaves the data
// movers waiting. When the tiles of consecutive iterations of the loop (or
// grid dimension) that drives a pipeline lie next to each other along the
// first dimension, F iterations are merged into one: the loop steps F
// times as far, every tile that moves with it grows F times along its first
// dimension, its buffers grow with it and the streamed stages run over F
// times as many rows. Tiles that do not move with the loop stay as they are.
// F comes from the cost model, which weighs fewer DMA latencies against
// the overlap of loads, compute and stores that fewer iterations leave.
// What may be merged is found by CoarsenAnalysis.cpp and the cost model's
// query is built by CoarsenCost.cpp; this file runs the pass and rewrites.
//
//===----------------------------------------------------------------------===//

#include "Coarsening.h"

#include "ktflow/Dialect/KTDF/Transforms/MatrixStages.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Scheduler/ScheduleTargetPass.h"

#include "mlir/IR/Matchers.h"

#include <numeric>

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFCOARSEN
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::coarsen;

/// Makes the driver step F times as far: the grid shrinks F times (the
/// point index is scaled back), or the loop's step grows. With a run-time
/// trip count, returns the iterations the current merged iteration covers
/// (all F but in the last).
static Value mergeIterations(const Driver &d, int64_t f) {
  OpBuilder b(d.iv.getContext());
  if (ParallelOp parallel = d.parallel) {
    SmallVector<int64_t> extents(parallel.getExtents());
    extents[d.gridDim] /= f;
    parallel.setExtents(extents);
    Block &body = parallel.getBody().front();
    b.setInsertionPointToStart(&body);
    Value scale = arith::ConstantIndexOp::create(b, parallel.getLoc(), f);
    Value iv = d.iv;
    auto scaled = arith::MulIOp::create(b, parallel.getLoc(), iv, scale);
    iv.replaceAllUsesExcept(scaled, scaled);
    return {};
  }
  scf::ForOp loop = d.loop;
  b.setInsertionPoint(loop);
  loop.getStepMutable().assign(
      arith::ConstantIndexOp::create(b, loop.getLoc(), d.step * f));
  if (!d.dynamic)
    return {};
  Location loc = loop.getLoc();
  b.setInsertionPointToStart(loop.getBody());
  return DeriveSizeOp::create(b, loc, arith::ConstantIndexOp::create(b, loc, f),
                              d.iv, loop.getUpperBound());
}

/// Replaces `tile` by one F times taller along its first dimension; with
/// a run-time trip count, the transfers of the new tile move `validRows`.
static void growTile(OpBuilder &b, ktdp::ConstructAccessTileOp tile, int64_t f,
                     Value validRows) {
  auto box = *ktdp::getBoundingBox(tile.getAccessTileSet(), {});
  SmallVector<int64_t> extents = box.getExtents();
  extents[0] *= f;
  SmallVector<AffineExpr> constraints;
  for (auto [d, e] : llvm::enumerate(extents)) {
    AffineExpr dim = b.getAffineDimExpr(d);
    constraints.push_back(dim);
    constraints.push_back(-dim + (e - 1));
  }
  IntegerSet set =
      IntegerSet::get(extents.size(), 0, constraints,
                      SmallVector<bool>(constraints.size(), false));
  b.setInsertionPoint(tile);
  auto taller = ktdp::ConstructAccessTileOp::create(
      b, tile.getLoc(), ktdp::AccessTileType::get(tile.getContext(), extents),
      tile.getBase(), tile.getIndices(), tile.getSymbolOperands(),
      tile.getBaseMapAttr(), IntegerSetAttr::get(set),
      tile.getAccessTileOrderAttr());
  tile.getResult().replaceAllUsesWith(taller.getResult());
  tile.erase();
  if (validRows)
    for (Operation *user : taller->getUsers())
      if (auto transfer = dyn_cast<DataTransferOp>(user))
        transfer.getRowsMutable().assign(validRows);
}

/// Makes the 2-d buffers of `pipeline` F times taller and its streamed
/// stages loop over F times as many rows (`validRows` with a run-time trip
/// count).
static void growBuffersAndRowLoops(OpBuilder &b, PipelineOp pipeline, int64_t f,
                                   Value validRows) {
  int64_t rows = 0;
  for (auto priv : pipeline.getBody().front().getOps<PrivateOp>())
    if (auto type = dyn_cast<MemRefType>(priv.getType());
        type && type.getRank() == 2) {
      rows = type.getDimSize(0);
      SmallVector<int64_t> shape(type.getShape());
      shape[0] *= f;
      priv.getResult().setType(getBufferType(shape, type.getElementType(),
                                             getBufferMemoryKind(type)));
    }
  for (auto stage : pipeline.getBody().front().getOps<StageOp>()) {
    auto rowLoop =
        dyn_cast_if_present<scf::ForOp>(llvm::find_singleton<Operation>(
            stage.getBody().front(), [](Operation &op, bool) {
              return isa<scf::ForOp>(op) ? &op : nullptr;
            }));
    APInt ub;
    if (!rowLoop ||
        !matchPattern(rowLoop.getUpperBound(), m_ConstantInt(&ub)) ||
        ub.getSExtValue() != rows)
      continue;
    b.setInsertionPoint(rowLoop);
    rowLoop.getUpperBoundMutable().assign(
        validRows
            ? validRows
            : arith::ConstantIndexOp::create(b, rowLoop.getLoc(), rows * f));
  }
}

/// Grows the moving tiles of `pipeline` (tiles `height` rows tall) F
/// times along their first dimension, with its buffers and the rows of
/// its streamed stages; with a run-time trip count, `valid` merged
/// iterations limit the rows.
static void grow(PipelineOp pipeline,
                 ArrayRef<ktdp::ConstructAccessTileOp> moving, int64_t height,
                 int64_t f, Value valid) {
  OpBuilder b(pipeline.getContext());
  Value validRows;
  if (valid) {
    b.setInsertionPointAfterValue(valid);
    Location loc = valid.getLoc();
    validRows =
        height == 1
            ? valid
            : arith::MulIOp::create(
                  b, loc, valid, arith::ConstantIndexOp::create(b, loc, height))
                  .getResult();
  }
  for (ktdp::ConstructAccessTileOp tile : moving)
    growTile(b, tile, f, validRows);
  growBuffersAndRowLoops(b, pipeline, f, validRows);
}

namespace {
struct CoarsenPass : public ktflow::sched::WithScheduleTarget<
                         ktdf::impl::KTDFCoarsenBase<CoarsenPass>> {
  using Base::Base;

  void runOnOperation() override {
    const ktflow::sched::ScheduleTarget *target = requireScheduleTarget();
    if (!target)
      return;
    // Sibling pipelines (independent compute groups under the same loop or
    // grid) share the driver's iterations: they are coarsened together.
    llvm::MapVector<Operation *, SmallVector<PipelineOp>> siblings;
    getOperation().walk(
        [&](PipelineOp p) { siblings[p->getParentOp()].push_back(p); });
    for (auto &[driver, pipelines] : siblings)
      coarsen(*target, driver, pipelines);
  }

  /// The tuner's neighbour of the cost model's `f` (`factor-scale`): f
  /// times 2^factorScale, or `f` where that merges no iteration or more
  /// than `bound`, or does not divide a static `bound`.
  int64_t scaleFactor(int64_t f, int64_t bound, bool dynamic) const {
    int64_t shift = std::min<int64_t>(std::abs(factorScale), 16);
    int64_t scaled =
        factorScale > 0 ? std::max<int64_t>(f, 1) << shift : f >> shift;
    if (scaled < 1 || scaled > bound || (!dynamic && bound % scaled != 0))
      return f;
    return scaled;
  }

  /// Merges F iterations of the driver `parent` of `pipelines` when every
  /// pipeline under it has tiles that move with it and the cost model (or
  /// the `factor` option) gives an F over 1 that divides the iterations.
  void coarsen(const ktflow::sched::ScheduleTarget &target, Operation *parent,
               ArrayRef<PipelineOp> pipelines) {
    std::optional<Driver> driver = analyzeDriver(parent);
    if (!driver)
      return;
    // Tiles that exchange data must stay one per lane, and a loop's trips
    // one exchange each (an RMSNorm's row loop all-reduces one row's sum).
    if (parent
            ->walk([](Operation *op) {
              return isa<AllReduceOp, TileCopyOp>(op) ? WalkResult::interrupt()
                                                      : WalkResult::advance();
            })
            .wasInterrupted())
      return;
    // A pipeline nested more deeply (in a loop of the grid) would see its
    // tiles move without its own rows growing.
    size_t under = 0;
    parent->walk([&](PipelineOp) { ++under; });
    if (under != pipelines.size())
      return;
    // A matrix stage's tiles are whole operands of its products, which
    // merging would make taller without the products growing.
    if (llvm::any_of(pipelines, hasMatrixStage))
      return;
    SmallVector<SmallVector<ktdp::ConstructAccessTileOp>> moving;
    for (PipelineOp pipeline : pipelines) {
      auto tiles = findMovingTiles(pipeline, *driver);
      if (!tiles)
        return;
      moving.push_back(std::move(*tiles));
    }
    const Driver &d = *driver;

    // F: from the cost model, dividing both the trip count and the
    // iterations of one instance so that instances stay balanced.
    int64_t bound = d.dynamic ? d.trips : std::gcd(d.trips, d.perInstance);
    int64_t f = factor > 0 ? factor
                           : ktflow::sched::chooseCoarsening(describeCoarsening(
                                 target, pipelines, d, bound));
    if (factor <= 0 && factorScale != 0)
      f = scaleFactor(f, bound, d.dynamic);
    if (f <= 1 || f > bound || (!d.dynamic && bound % f != 0))
      return;
    // A tile several siblings move grows once; each pipeline counts its
    // rows in the height its tiles had.
    SmallVector<int64_t> heights;
    llvm::SmallPtrSet<Operation *, 8> seen;
    for (SmallVector<ktdp::ConstructAccessTileOp> &tiles : moving) {
      heights.push_back(ktdp::getBoundingBox(tiles.front().getAccessTileSet(),
                                             {})
                            ->getExtents()
                            .front());
      llvm::erase_if(tiles, [&](ktdp::ConstructAccessTileOp tile) {
        return !seen.insert(tile).second;
      });
    }
    Value valid = mergeIterations(d, f);
    for (auto [pipeline, tiles, height] :
         llvm::zip(pipelines, moving, heights))
      grow(pipeline, tiles, height, f, valid);
  }
};
} // namespace

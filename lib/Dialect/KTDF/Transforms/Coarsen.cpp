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
//
//===----------------------------------------------------------------------===//

#include "IndexAnalysis.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Scheduling/CostModel.h"
#include "ktflow/Scheduling/ScheduleTarget.h"

#include "mlir/IR/AffineExprVisitor.h"
#include "mlir/IR/Matchers.h"

#include <numeric>

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFCOARSEN
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

namespace {
struct CoarsenPass : public ktdf::impl::KTDFCoarsenBase<CoarsenPass> {
  using Base::Base;

  void runOnOperation() override {
    auto &target = getAnalysis<ktflow::sched::ScheduleTarget>();
    if (!target.isValid())
      return signalPassFailure();
    markAnalysesPreserved<ktflow::sched::ScheduleTarget>();
    // Sibling pipelines (independent compute groups under the same loop or
    // grid) share the driver's iterations: they are coarsened together.
    llvm::MapVector<Operation *, SmallVector<PipelineOp>> siblings;
    getOperation().walk(
        [&](PipelineOp p) { siblings[p->getParentOp()].push_back(p); });
    for (auto &[driver, pipelines] : siblings)
      coarsen(target, driver, pipelines);
  }

  /// The loop, or the one wide grid dimension, that drives pipelines.
  struct Driver {
    Value iv;
    int64_t step = 1, trips = 0, perInstance = 0;
    /// A loop whose trip count is only known at run time: the last merged
    /// iteration may be partial, its transfers and row loops limited to the
    /// rows that remain.
    bool dynamic = false;
    ParallelOp parallel;
    scf::ForOp loop;
    unsigned gridDim = 0;
  };

  static std::optional<Driver> analyzeDriver(Operation *parent) {
    Driver d;
    d.parallel = dyn_cast<ParallelOp>(parent);
    d.loop = dyn_cast<scf::ForOp>(parent);
    if (ParallelOp parallel = d.parallel) {
      ArrayRef<int64_t> extents = parallel.getExtents();
      unsigned wide = 0;
      for (auto [i, e] : llvm::enumerate(extents))
        if (e > 1)
          ++wide, d.gridDim = i;
      if (wide != 1)
        return std::nullopt;
      d.iv = parallel.getBody().getArgument(d.gridDim);
      d.trips = extents[d.gridDim];
      int64_t instances = parallel.getNumInstances().value_or(1);
      d.perInstance = (parallel.getNumPoints() + instances - 1) / instances;
    } else if (scf::ForOp loop = d.loop) {
      APInt lb, ub, st;
      if (!matchPattern(loop.getLowerBound(), m_ConstantInt(&lb)) ||
          !matchPattern(loop.getStep(), m_ConstantInt(&st)) ||
          st.getSExtValue() <= 0)
        return std::nullopt;
      d.iv = loop.getInductionVar();
      d.step = st.getSExtValue();
      if (matchPattern(loop.getUpperBound(), m_ConstantInt(&ub))) {
        d.trips = (ub.getSExtValue() - lb.getSExtValue()) / d.step;
        if ((ub.getSExtValue() - lb.getSExtValue()) % d.step != 0)
          return std::nullopt;
      } else {
        // The most iterations the loop can run sizes the candidates.
        auto most = upperBoundOf(loop.getUpperBound());
        if (!most || d.step != 1)
          return std::nullopt;
        d.dynamic = true;
        d.trips = *most - lb.getSExtValue();
      }
      d.perInstance = d.trips;
    } else {
      return std::nullopt;
    }
    if (d.trips <= 1)
      return std::nullopt;
    return d;
  }

  /// The 2-d tiles of `pipeline` that move with the driver, each by its own
  /// height along its first dimension (rows are what the streamed stages
  /// iterate over); none when some tile moves otherwise or a 2-d tile
  /// stays put (it would have to be repeated F times).
  std::optional<SmallVector<ktdp::ConstructAccessTileOp>>
  movingTiles(PipelineOp pipeline, const Driver &d) {
    auto tiles = tilesOf(pipeline);
    SmallVector<ktdp::ConstructAccessTileOp> moving;
    std::optional<int64_t> height;
    for (auto [transfer, tile] : tiles) {
      if (tile.getBaseMap().getNumResults() == 0)
        continue; // A scalar: the same for every iteration.
      auto box = ktdp::getBoundingBox(tile.getAccessTileSet(), {});
      if (failed(box))
        return std::nullopt;
      SmallVector<int64_t> extents = box->getExtents();
      bool dependent = false;
      for (unsigned r = 0; r < tile.getBaseMap().getNumResults(); ++r) {
        auto c = anchorCoefficient(tile, r, d.iv);
        if (!c)
          return std::nullopt;
        if (*c == 0)
          continue;
        if (r != 0 || *c * d.step != extents[0] || extents.size() < 2 ||
            (d.dynamic && extents.size() != 2))
          return std::nullopt;
        dependent = true;
      }
      if (!dependent || llvm::is_contained(moving, tile))
        continue;
      // The rows a partial merged iteration leaves are counted in one
      // height per pipeline.
      if (d.dynamic && height && *height != extents[0])
        return std::nullopt;
      height = extents[0];
      moving.push_back(tile);
    }
    if (moving.empty())
      return std::nullopt;
    for (auto [transfer, tile] : tiles)
      if (tile.getType().getRank() >= 2 && !llvm::is_contained(moving, tile))
        return std::nullopt;
    // A 1-d tile that stays put is either one value per column (broadcast
    // over the rows, still right for F times as many rows) or one value per
    // row (which would have to grow F times). Merge only when its length is
    // the row length and not the tiles' height as well.
    SmallVector<int64_t> movingExtents =
        ktdp::getBoundingBox(moving.front().getAccessTileSet(), {})
            ->getExtents();
    for (auto [transfer, tile] : tiles) {
      if (tile.getType().getRank() != 1 || llvm::is_contained(moving, tile))
        continue;
      auto box = ktdp::getBoundingBox(tile.getAccessTileSet(), {});
      if (failed(box))
        return std::nullopt;
      int64_t length = box->getExtents().front();
      if (length > 1 && (length != movingExtents.back() ||
                         length == movingExtents.front()))
        return std::nullopt;
    }
    return moving;
  }

  /// The tiles the pipeline's DMA stages move.
  SmallVector<std::pair<DataTransferOp, ktdp::ConstructAccessTileOp>>
  tilesOf(PipelineOp pipeline) {
    SmallVector<std::pair<DataTransferOp, ktdp::ConstructAccessTileOp>> tiles;
    pipeline.walk([&](DataTransferOp op) {
      for (Value end : {op.getSrc(), op.getDst()})
        if (auto tile = end.getDefiningOp<ktdp::ConstructAccessTileOp>())
          tiles.push_back({op, tile});
    });
    return tiles;
  }

  void coarsen(const ktflow::sched::ScheduleTarget &target, Operation *parent,
               ArrayRef<PipelineOp> pipelines) {
    std::optional<Driver> driver = analyzeDriver(parent);
    if (!driver)
      return;
    // A pipeline nested more deeply (in a loop of the grid) would see its
    // tiles move without its own rows growing.
    size_t under = 0;
    parent->walk([&](PipelineOp) { ++under; });
    if (under != pipelines.size())
      return;
    SmallVector<SmallVector<ktdp::ConstructAccessTileOp>> moving;
    for (PipelineOp pipeline : pipelines) {
      auto tiles = movingTiles(pipeline, *driver);
      if (!tiles)
        return;
      moving.push_back(std::move(*tiles));
    }
    const Driver &d = *driver;

    // F: from the cost model, dividing both the trip count and the
    // iterations of one instance so that instances stay balanced. Sibling
    // pipelines run one after another on the same units: their transfers,
    // compute and buffers add up.
    int64_t bound = d.dynamic ? d.trips : std::gcd(d.trips, d.perInstance);
    ktflow::sched::CoarsenQuery query;
    for (int64_t f = 1; f <= bound; ++f)
      if (d.dynamic || bound % f == 0)
        query.candidates.push_back(f);
    const ktflow::sched::Lane &lane = target.getLanes().front();
    query.iterations = d.perInstance;
    // The DMA hops pay their latency per transfer; the feed and drain
    // routes theirs once per execution of the compute stage.
    double feedLatency = fifoLatency(target, lane.inbound);
    double drainLatency = fifoLatency(target, lane.outbound);
    query.latency = lane.inbound.route.latency - feedLatency;
    query.bandwidth = lane.inbound.route.bandwidth;
    query.handoverCycles = feedLatency + drainLatency;
    // DMA units outside the lane's own scopes serve every lane of a core.
    const ktflow::device::DeviceModel &model = target.getModel();
    NodeIdOrNone dmaUnit = lane.inbound.hops.front().kind ==
                                   ktflow::sched::Hop::Dma
                               ? NodeIdOrNone(lane.inbound.hops.front().unit)
                               : std::nullopt;
    if (dmaUnit && model.getInstancesPerCore(*dmaUnit) <
                       static_cast<int64_t>(target.getLanes().size()))
      query.dmaSharing = target.getLanes().size();
    // One engine that loads and stores runs an execution's stages in order.
    const ktflow::sched::Hop &lastOut = lane.outbound.hops.back();
    query.sharedDma = dmaUnit && lastOut.kind == ktflow::sched::Hop::Dma &&
                      lastOut.unit == *dmaUnit;
    // Requests in flight overlap the latency of back-to-back transfers.
    if (dmaUnit && model.getNode(*dmaUnit).unit)
      query.maxOutstanding = model.getNode(*dmaUnit).unit->maxOutstanding;
    std::optional<StringRef> kind;
    for (PipelineOp pipeline : pipelines) {
      addTransfers(pipeline, query);
      query.computeCycles += estimateCompute(target, pipeline);
      for (auto priv : pipeline.getBody().front().getOps<PrivateOp>())
        if (auto type = dyn_cast<MemRefType>(priv.getType())) {
          query.bytesPerCopy += type.getNumElements() *
                                ((type.getElementTypeBitWidth() + 7) / 8);
          kind = getBufferMemoryKind(type);
        }
    }
    if (kind)
      if (auto node = target.getModel().findByKind(*kind))
        query.capacity = target.getMemoryTree().getCapacity(*node) /
                         static_cast<int64_t>(target.getLanes().size());
    int64_t f = factor > 0 ? factor : ktflow::sched::chooseCoarsening(query);
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

  /// The bytes each DMA load and store stage of `pipeline` moves.
  static void addTransfers(PipelineOp pipeline,
                           ktflow::sched::CoarsenQuery &query) {
    for (auto stage : pipeline.getBody().front().getOps<StageOp>()) {
      bool loads = stage.isApplicable(UnitRole::dma_load);
      if (!loads && !stage.isApplicable(UnitRole::dma_store))
        continue;
      stage.walk([&](DataTransferOp op) {
        auto type = dyn_cast<MemRefType>(
            (loads ? op.getDst() : op.getSrc()).getType());
        if (type)
          (loads ? query.loadBytes : query.storeBytes)
              .push_back(type.getNumElements() *
                         ((type.getElementTypeBitWidth() + 7) / 8));
      });
    }
  }

  using NodeIdOrNone = std::optional<ktflow::device::NodeId>;

  /// The latency of the datapaths of `chain` between the buffer the feed
  /// reads (or the drain writes) and the compute unit.
  static double fifoLatency(const ktflow::sched::ScheduleTarget &target,
                            const ktflow::sched::HopChain &chain) {
    const ktflow::device::Route &route = chain.route;
    for (const ktflow::sched::Hop &hop : chain.hops) {
      bool feed = hop.kind == ktflow::sched::Hop::Feed;
      NodeIdOrNone buffer = feed ? hop.from : hop.to;
      if (hop.kind == ktflow::sched::Hop::Dma || !buffer)
        continue;
      auto it = llvm::find(route.nodes, *buffer);
      size_t at = it - route.nodes.begin();
      double latency = 0;
      for (auto [i, dp] : llvm::enumerate(route.datapaths))
        if (feed ? i >= at : i < at)
          latency += target.getModel().getDatapath(dp).spec.latency;
      return latency;
    }
    return 0;
  }

  /// Cycles the compute unit spends on one execution of the pipeline's
  /// compute stage, charged as the lowering and the simulator charge them:
  /// per chunk-level generic, a broadcast of each row value it reads, the
  /// ops of its body (a reduction's combining op apart), and for a
  /// reduction the reduce and the fold of its result into the
  /// accumulator; a FIFO write per chunk; all times the loops around.
  double estimateCompute(const ktflow::sched::ScheduleTarget &target,
                         PipelineOp pipeline) {
    const ktflow::sched::Lane &lane = target.getLanes().front();
    const auto &unit = *target.getModel().getNode(lane.compute).unit;
    auto charge = [&](ktdf_arch::OpClass cls, Type type, double elements) {
      double rate =
          type ? unit.getThroughput(cls, getElementTypeOrSelf(type)).value_or(1)
               : 1;
      return std::ceil(elements / std::max(rate, 1e-9));
    };
    auto timesAround = [](Operation *op) {
      double times = 1;
      for (Operation *p = op->getParentOp(); p && !isa<StageOp>(p);
           p = p->getParentOp())
        if (auto loop = dyn_cast<scf::ForOp>(p)) {
          APInt lb, ub, st;
          if (matchPattern(loop.getLowerBound(), m_ConstantInt(&lb)) &&
              matchPattern(loop.getUpperBound(), m_ConstantInt(&ub)) &&
              matchPattern(loop.getStep(), m_ConstantInt(&st)) &&
              st.getSExtValue() > 0)
            times *= std::max<int64_t>(
                0, (ub.getSExtValue() - lb.getSExtValue() + st.getSExtValue() -
                    1) /
                       st.getSExtValue());
        }
      return times;
    };
    double fifoBandwidth = 0;
    for (const ktflow::sched::Hop &hop : lane.outbound.hops)
      if (hop.fifo)
        fifoBandwidth = target.getModel().getDatapath(*hop.fifo).spec.bandwidth;
    double cycles = 0;
    pipeline.walk([&](WriteToFifoOp op) {
      auto type = dyn_cast<ShapedType>(op.getValue().getType());
      if (type && type.hasStaticShape() && fifoBandwidth > 0)
        cycles += timesAround(op) * type.getNumElements() *
                  ((type.getElementTypeBitWidth() + 7) / 8) / fifoBandwidth;
    });
    pipeline.walk([&](linalg::GenericOp op) {
      double elements = 1;
      for (int64_t r : op.getStaticLoopRanges())
        elements *= ShapedType::isDynamic(r) ? 1 : r;
      double cost = 0;
      // Inputs with fewer elements than the iteration space are broadcast.
      for (Value in : op.getDpsInputs())
        if (auto t = dyn_cast<RankedTensorType>(in.getType());
            t && t.hasStaticShape() && t.getNumElements() < elements)
          cost += charge(ktdf_arch::OpClass::Elementwise, t, elements);
      Block &body = op.getRegion().front();
      Operation *combine = nullptr;
      if (op.getNumReductionLoops() > 0)
        combine = body.getTerminator()->getOperand(0).getDefiningOp();
      for (Operation &inner : body.without_terminator()) {
        if (inner.getNumResults() != 1 || isa<arith::ConstantOp>(inner))
          continue;
        Type rateType;
        auto cls = ktflow::sched::getComputeOpClass(&inner, rateType);
        if (&inner != combine) {
          cost += charge(cls, rateType, elements);
          continue;
        }
        // The reduce over the chunk, then one fold per result element.
        cost += charge(ktdf_arch::OpClass::Reduction, rateType, elements) +
                charge(cls, rateType, 1);
      }
      cycles += timesAround(op) * cost;
    });
    return cycles;
  }

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
    return DeriveSizeOp::create(b, loc,
                                arith::ConstantIndexOp::create(b, loc, f),
                                d.iv, loop.getUpperBound());
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
      validRows = height == 1
                      ? valid
                      : arith::MulIOp::create(
                            b, loc, valid,
                            arith::ConstantIndexOp::create(b, loc, height))
                            .getResult();
    }
    // Taller tiles.
    for (ktdp::ConstructAccessTileOp tile : moving) {
      auto box = *ktdp::getBoundingBox(tile.getAccessTileSet(), {});
      SmallVector<int64_t> extents = box.getExtents();
      extents[0] *= f;
      SmallVector<AffineExpr> constraints;
      for (auto [d, e] : llvm::enumerate(extents)) {
        AffineExpr dim = b.getAffineDimExpr(d);
        constraints.push_back(dim);
        constraints.push_back(-dim + (e - 1));
      }
      IntegerSet set = IntegerSet::get(extents.size(), 0, constraints,
                                       SmallVector<bool>(constraints.size(),
                                                         false));
      b.setInsertionPoint(tile);
      auto taller = ktdp::ConstructAccessTileOp::create(
          b, tile.getLoc(),
          ktdp::AccessTileType::get(tile.getContext(), extents), tile.getBase(),
          tile.getIndices(), tile.getSymbolOperands(), tile.getBaseMapAttr(),
          IntegerSetAttr::get(set), tile.getAccessTileOrderAttr());
      tile.getResult().replaceAllUsesWith(taller.getResult());
      tile.erase();
      if (validRows)
        for (Operation *user : taller->getUsers())
          if (auto transfer = dyn_cast<DataTransferOp>(user))
            transfer.getRowsMutable().assign(validRows);
    }
    // Taller buffers, and more rows in the streamed stages.
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
      auto rowLoop = dyn_cast_if_present<scf::ForOp>(
          llvm::find_singleton<Operation>(
              stage.getBody().front(),
              [](Operation &op, bool) {
                return isa<scf::ForOp>(op) ? &op : nullptr;
              }));
      APInt ub;
      if (!rowLoop ||
          !matchPattern(rowLoop.getUpperBound(), m_ConstantInt(&ub)) ||
          ub.getSExtValue() != rows)
        continue;
      b.setInsertionPoint(rowLoop);
      rowLoop.getUpperBoundMutable().assign(
          validRows ? validRows
                    : arith::ConstantIndexOp::create(b, rowLoop.getLoc(),
                                                     rows * f));
    }
  }
};
} // namespace

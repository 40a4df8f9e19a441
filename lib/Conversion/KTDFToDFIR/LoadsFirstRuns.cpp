//===- LoadsFirstRuns.cpp - A block's pipelines, loads before stores ------===//
//
// A unit that loads and stores for one lane (mesh_device's one DMA engine
// a tile) runs the pipelines of a block one after the other: the first
// one's loads, its stores, which wait for its compute, then the second
// one's loads. Where the pipelines are independent (the pieces of a tile
// that straddles a distributed view's cut, ResolveDistributedViews.cpp;
// the row pieces of a coarsened point), the second's loads waited behind
// the first's compute and store, and its compute for a second route
// latency: halves_add on mesh_device (`--trace`, tile[8]) loaded the
// second piece at cycle 189, after the first piece's store, and its VLD
// waited for it until 304.
//
// A run of consecutive such pipelines is emitted loads first: every
// pipeline's loads, then every pipeline's stores, in block order.
//
//   loads(p0); loads(p1); ...; stores(p0); stores(p1); ...
//
// The loads of p_k wait only for p_k's own copies, handed back by p_k's
// readers of an earlier execution; the stores of p_k for p_k's drains,
// which need nothing of this unit after p_k's loads: no new cycle of
// waits. That holds when this unit's stages of each pipeline load and
// then store (transfersLoadThenStore, with any number of copies: the
// pipelines have buffers of their own), the pipelines yield nothing (no staging
// a later op reads) and no region channel (a scratchpad view or device-memory
// hand-over, a receive taken before the pipeline) has an end among this
// unit's stages of the run. Units with separate load and store engines
// (spyre_like, sample_device) never both load and store a pipeline.
//
// Memory this unit stores and then reloads orders the pipelines by program
// order alone (no region channel joins two stages of one unit), and loads
// first moves the loads of a later pipeline of the run ahead of the stores
// of the earlier ones: a run stops before a pipeline whose loads here may
// touch what the stores here of an earlier pipeline of the run touch, one
// of them writing (stagesMayConflict: one device tensor or two literal
// addresses, scratchpad views that may share bytes, a tile of unknown
// memory). softmax_reload_dyn on mesh_device stores Y and reloads it in
// the next pipeline: loads first read it before the store (max error
// 4.6). Every other pair keeps its order: a later pipeline's store over
// memory an earlier one loads stays after that load (every load of the
// run comes first), and loads among themselves and stores among
// themselves keep block order.
//
// Loads ahead of exchanges (unitOrder): such a unit also sends an
// all-reduce's ring, whose remote DMAs wait for the partners' combines; a
// later pipeline whose stages here only load device memory into its own
// buffers waited behind them (allreduce_colsum's second row chunk,
// sharded_ffn's row of X). It goes before the all-reduces just before it
// in this unit's program, when its loads touch nothing the ring touches
// and no region channel reaches its stages here: they wait only for its
// own copies, handed back by readers of earlier executions. Only the ring's
// send is passed: its feed may be followed by a feed of what it leaves.
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

/// Whether a region channel orders `pipeline`'s stages on `unit` for lane
/// instance `li`: one of its ends is such a stage, or it is received on the
/// unit right before the pipeline.
static bool regionChannelReaches(const KernelLowering &kernel, StringRef unit,
                                 PipelineOp pipeline, const LaneInstance &li) {
  auto here = [&](StageOp stage) {
    return stage->getParentOp() == pipeline && kernel.unitOf(stage, li) == unit;
  };
  for (const PipelineInfo &other : kernel.pipelines)
    for (const Channel &ch : other.regionChannels)
      if (here(ch.from) || here(ch.to) ||
          (ch.receiveBefore == pipeline.getOperation() &&
           kernel.unitOf(ch.to, li) == unit))
        return true;
  return false;
}

bool ProgramBuilder::loadsFirstMember(PipelineOp pipeline,
                                      const LaneInstance &li) {
  if (pipeline.getPerInstance() || pipeline->getNumResults() != 0 ||
      iterationPartner(pipeline) || !transfersLoadThenStore(pipeline, li))
    return false;
  // Only the pipeline's own hand-overs order this unit's stages of it.
  return !regionChannelReaches(kernel, unit, pipeline, li);
}

bool ProgramBuilder::overtakesRunStores(PipelineOp pipeline,
                                        ArrayRef<PipelineOp> run,
                                        const LaneInstance &li) {
  // This unit's stages of `of` that store (wait for another unit) when
  // `stores`, else those that load.
  auto here = [&](PipelineOp of, bool stores) {
    const PipelineInfo &info = kernel.infoOf(of);
    return llvm::make_filter_range(work[&li], [&, of, stores](StageOp stage) {
      return stage->getParentOp() == of &&
             waitsForOtherUnit(stage, info, li) == stores;
    });
  };
  for (PipelineOp earlier : run)
    for (StageOp store : here(earlier, /*stores=*/true))
      for (StageOp load : here(pipeline, /*stores=*/false))
        if (stagesMayConflict(store, load))
          return true;
  return false;
}

SmallVector<PipelineOp> ProgramBuilder::loadsFirstRun(Operation &from,
                                                      const LaneInstance &li) {
  if (work.size() != 1)
    return {};
  SmallVector<PipelineOp> run;
  for (Operation *op = &from; op; op = op->getNextNode()) {
    if (!runsIn(op, li))
      continue;
    auto pipeline = dyn_cast<PipelineOp>(op);
    if (!pipeline || !loadsFirstMember(pipeline, li) ||
        overtakesRunStores(pipeline, run, li))
      break;
    run.push_back(pipeline);
  }
  if (run.size() < 2)
    return {};
  return run;
}

LogicalResult ProgramBuilder::emitLoadsFirstRun(ArrayRef<PipelineOp> run,
                                                IRMapping &map,
                                                SmallVector<Value> &executions,
                                                const LaneInstance &li) {
  for (StagePart part : {StagePart::Loads, StagePart::Stores})
    for (PipelineOp pipeline : run)
      if (failed(emitPipeline(pipeline, map,
                              executions[kernel.infoOf(pipeline).index], li,
                              part)))
        return failure();
  for (PipelineOp pipeline : run) {
    Value &count = executions[kernel.infoOf(pipeline).index];
    count =
        arith::AddIOp::create(*builder, pipeline.getLoc(), count, constant(1));
  }
  return success();
}

bool ProgramBuilder::sendsExchangeOnly(PipelineOp pipeline,
                                       const LaneInstance &li) {
  if (pipeline.getPerInstance() || pipeline->getNumResults() != 0 ||
      iterationPartner(pipeline))
    return false;
  bool sends = false;
  for (StageOp stage : work[&li]) {
    if (stage->getParentOp() != pipeline)
      continue;
    // The ring's send (its feed, combine and drain read what it receives).
    if (!getAllReduce(stage) || stage.getName() != "send")
      return false;
    sends = true;
  }
  return sends;
}

bool ProgramBuilder::onlyLoadsAhead(PipelineOp pipeline,
                                    const LaneInstance &li) {
  if (work.size() != 1 || pipeline.getPerInstance() ||
      iterationPartner(pipeline))
    return false;
  const PipelineInfo &info = kernel.infoOf(pipeline);
  bool loads = false;
  for (StageOp stage : work[&li]) {
    if (stage->getParentOp() != pipeline)
      continue;
    if (stage.isCompute() || getAllReduce(stage) || getTileCopy(stage) ||
        waitsForOtherUnit(stage, info, li))
      return false;
    // Loads from device memory into the pipeline's own buffers.
    bool fromDevice = true;
    stage.walk([&](DataTransferOp transfer) {
      fromDevice &= isa<ktdp::AccessTileType>(transfer.getSrc().getType()) &&
                    !isScratchpadTile(transfer.getSrc()) &&
                    !isa<ktdp::AccessTileType>(transfer.getDst().getType());
    });
    if (!fromDevice)
      return false;
    loads = true;
  }
  if (!loads)
    return false;
  // No region channel orders its stages here (loadsFirstMember).
  if (regionChannelReaches(kernel, unit, pipeline, li))
    return false;
  // A staging pipeline emitted where it stands (not with a loop's first
  // loads, LateStaging.cpp).
  return pipeline->getNumResults() == 0 || (!loadsBeforeStaging(pipeline, li) &&
                                            !loadsAfterFirstTrip(pipeline, li));
}

SmallVector<Operation *> ProgramBuilder::unitOrder(Block &block,
                                                   const LaneInstance &li) {
  SmallVector<Operation *> order;
  for (Operation &op : block) {
    order.push_back(&op);
    auto pipeline = dyn_cast<PipelineOp>(op);
    if (!pipeline || !runsIn(pipeline, li) || !onlyLoadsAhead(pipeline, li))
      continue;
    // Back over the all-reduces this unit sends and what it only passes
    // (ops it does not run, pipelines with no stage here), to just before
    // the earliest such all-reduce whose stages its loads cannot touch.
    auto loadsTouch = [&](PipelineOp exchange) {
      for (StageOp send : work[&li])
        for (StageOp load : work[&li])
          if (send->getParentOp() == exchange &&
              load->getParentOp() == pipeline && stagesMayConflict(send, load))
            return true;
      return false;
    };
    size_t to = order.size() - 1;
    for (size_t at = to; at-- > 0;) {
      Operation *earlier = order[at];
      auto other = dyn_cast<PipelineOp>(earlier);
      bool stagesHere = other && llvm::any_of(work[&li], [&](StageOp stage) {
                          return stage->getParentOp() == other;
                        });
      if (!runsIn(earlier, li) ||
          (other && !stagesHere && !other.getPerInstance() &&
           other->getNumResults() == 0))
        continue;
      if (!other || !sendsExchangeOnly(other, li) || loadsTouch(other))
        break;
      // Not the second of an iteration-ordered pair (IterationOrder.cpp).
      auto before = dyn_cast_or_null<PipelineOp>(other->getPrevNode());
      if (before && iterationPartner(before) == other)
        break;
      to = at;
    }
    if (to + 1 == order.size())
      continue;
    order.pop_back();
    order.insert(order.begin() + to, pipeline.getOperation());
  }
  return order;
}

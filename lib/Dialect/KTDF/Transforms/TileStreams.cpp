//===- TileStreams.cpp - Compute, feed and drain stages in chunks ---------===//
//
// This file implements --ktdf-tile-streams. After routing, a pipeline's
// compute stage still works on whole tiles. Here it becomes
//
//   for each row r:
//     row values known before any pass (initial values of reductions)
//     for each pass p:
//       for each chunk c of the row (iter_args: reductions of pass p):
//         read the chunks of the inputs pass p needs, compute, fold the
//         chunk into the reductions, write the outputs of pass p
//       row values that pass p made known
//     write the per-row outputs
//
// with every linalg.generic rewritten over one chunk (a 1-d tensor of W
// elements) or over a row value (a 0-d tensor). The feed and drain stages
// get the same loops, one transfer per slot read or written, so each FIFO
// carries its entries in exactly the order the compute unit consumes them.
//
//===----------------------------------------------------------------------===//

#include "StreamTiler.h"

#include "ktflow/Device/ComputeOpClass.h"
#include "ktflow/Dialect/KTDF/Transforms/MatrixStages.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Scheduler/CostModel.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFTILESTREAMS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::detail;

//===----------------------------------------------------------------------===//
// Decisions
//===----------------------------------------------------------------------===//

FailureOr<PipelineStages>
mlir::ktdf::detail::findPipelineStages(PipelineOp pipeline) {
  PipelineStages stages;
  for (auto stage : pipeline.getBody().front().getOps<StageOp>()) {
    if (stage.isApplicable(UnitRole::scratchpad_load))
      stages.feed = stage;
    else if (stage.isCompute())
      stages.compute = stage;
    else if (stage.isApplicable(UnitRole::scratchpad_store))
      stages.drain = stage;
  }
  if (!stages.feed || !stages.compute || !stages.drain)
    return pipeline.emitError("pipeline has no feed, compute and drain "
                              "stages; run --ktdf-route-transfers first");
  return stages;
}

LogicalResult StreamTiler::chooseWidth() {
  int64_t cols = plan.cols;
  if (fixedChunk > 0) {
    if (cols % fixedChunk != 0)
      return compute.emitError("chunk of ")
             << fixedChunk << " elements does not divide a row of "
             << cols;
    width = fixedChunk;
    return success();
  }
  const ktflow::sched::Lane &lane = target.getLanes().front();
  const ktflow::device::DeviceModel &model = target.getModel();
  // A stick: the granularity of the datapath that feeds the load unit,
  // in elements of the widest slot, else the unit's SIMD width.
  // A stage that reads nothing (a constant written out) takes the
  // element type of what it writes.
  SmallVector<ShapedType> ends;
  for (ReadFromFifoOp read : plan.reads)
    ends.push_back(cast<ShapedType>(read.getType()));
  if (ends.empty())
    for (WriteToFifoOp write : plan.writes)
      ends.push_back(cast<ShapedType>(write.getValue().getType()));
  int64_t elemBytes = 1;
  for (ShapedType end : ends)
    elemBytes =
        std::max<int64_t>(elemBytes, (end.getElementTypeBitWidth() + 7) / 8);
  const ktflow::sched::Hop &feedHop = lane.inbound.hops.back();
  int64_t granule = 0;
  for (auto dp : model.getIncoming(feedHop.unit))
    for (int64_t g : model.getDatapath(dp).spec.transferGranularity)
      granule = std::max(granule, g / elemBytes);
  if (granule == 0 && !ends.empty())
    granule =
        target.getSimdLanes(lane, ends.front().getElementType()).value_or(1);
  ktflow::sched::ChunkQuery query;
  query.cols = cols;
  query.granule = std::max<int64_t>(granule, 1);
  if (!useCostModel) {
    width = std::gcd(cols, query.granule);
    if (cols < query.granule)
      width = cols;
    return success();
  }
  const auto &unit = *model.getNode(lane.compute).unit;
  for (auto [op, role] : plan.roles) {
    if (role == OpRole::RowOp)
      continue;
    for (Block &block : op->getRegions().front())
      for (Operation &inner : block.without_terminator()) {
        Type t;
        auto cls = ktflow::device::getComputeOpClass(&inner, t);
        query.opRates.push_back(
            t ? unit.getThroughput(cls, t).value_or(1) : 1);
      }
  }
  double bytes = 0;
  for (ReadFromFifoOp read : plan.reads)
    bytes += cast<ShapedType>(read.getType()).getElementTypeBitWidth() / 8.0;
  query.fifoBytesPerElement = bytes;
  query.fifoBandwidth = model.getDatapath(*feedHop.fifo).spec.bandwidth;
  width = ktflow::sched::chooseChunk(query);
  // The tuner (`--tune`) tries widths next to the cost model's: a power of
  // two times it that still divides the row in whole sticks.
  int64_t scaled = chunkScale >= 0
                       ? width << std::min<int64_t>(chunkScale, 16)
                       : width >> std::min<int64_t>(-chunkScale, 16);
  if (scaled >= query.granule && scaled % query.granule == 0 &&
      cols % scaled == 0)
    width = scaled;
  return success();
}

/// The buffer each read slot is fed from and each written slot drains to.
LogicalResult StreamTiler::findBuffers() {
  // Sources and destinations are buffers, or access tiles the load and
  // store units reach directly (a scratchpad view the kernel manages).
  auto shapeOf = [](Value end) -> std::optional<ShapedType> {
    if (auto m = dyn_cast<MemRefType>(end.getType()))
      return cast<ShapedType>(m);
    if (auto t = dyn_cast<ktdp::AccessTileType>(end.getType());
        t && t.getRank() <= 2)
      return cast<ShapedType>(t);
    return std::nullopt;
  };
  for (auto transfer : feed.getBody().front().getOps<DataTransferOp>()) {
    if (!shapeOf(transfer.getSrc()))
      return feed.emitError("the compute unit can only be fed from a buffer "
                            "or an access tile of rank 1 or 2");
    source[transfer.getDst()] = transfer.getSrc();
  }
  for (auto transfer : drain.getBody().front().getOps<DataTransferOp>()) {
    if (!shapeOf(transfer.getDst()))
      return drain.emitError("the compute unit can only drain into a buffer "
                             "or an access tile of rank 1 or 2");
    source[transfer.getSrc()] = transfer.getDst();
  }
  for (ReadFromFifoOp read : plan.reads)
    if (!source.count(read.getSlot()))
      return read.emitError("no feed transfer fills this slot");
  for (WriteToFifoOp write : plan.writes) {
    if (!source.count(write.getSlot()))
      return write.emitError("no drain transfer empties this slot");
    auto buffer = cast<ShapedType>(source[write.getSlot()].getType());
    if (!plan.isStreamed(write.getValue()) && buffer.getRank() > 1)
      return write.emitError("per-row outputs of tiles with more than two "
                             "dimensions are not supported yet");
  }
  return success();
}

void StreamTiler::planPasses() {
  if (plan.columnMajor)
    return;
  passes.resize(plan.numPasses);
  for (auto [op, role] : plan.roles)
    if (role == OpRole::RowReduction)
      passes[plan.passOf(op->getResult(0)) - 1].reductions.push_back(op);
  for (WriteToFifoOp write : plan.writes)
    if (plan.isStreamed(write.getValue()))
      passes[plan.passOf(write.getValue())].writes.push_back(write);
  for (PassContents &pass : passes) {
    SmallVector<Value> worklist;
    for (auto op : pass.reductions)
      for (Value v : op.getDpsInputs())
        worklist.push_back(v);
    for (auto write : pass.writes)
      worklist.push_back(write.getValue());
    llvm::SmallPtrSet<Operation *, 16> needed;
    while (!worklist.empty()) {
      Value v = worklist.pop_back_val();
      Operation *def = v.getDefiningOp();
      if (!def || !plan.isStreamed(v) || !needed.insert(def).second)
        continue;
      for (Value operand : def->getOperands())
        worklist.push_back(operand);
    }
    for (ReadFromFifoOp read : plan.reads)
      if (needed.contains(read))
        pass.reads.push_back(read);
    for (auto [op, role] : plan.roles)
      if (role == OpRole::Stream && needed.contains(op))
        pass.streamOps.insert(op);
  }
}

LogicalResult StreamTiler::checkCarriedRewrites() {
  auto carriedView = [&](Value slot) -> Operation * {
    Value end = source.lookup(slot);
    if (!end || !isa<ktdp::AccessTileType>(end.getType()))
      return nullptr;
    auto view = ktdp::getAccessTileView(end);
    return isCarriedView(view) ? view.getOperation() : nullptr;
  };
  for (size_t p = 0; p < passes.size(); ++p)
    for (WriteToFifoOp write : passes[p].writes)
      if (Operation *view = carriedView(write.getSlot()))
        for (size_t q = p + 1; q < passes.size(); ++q)
          for (ReadFromFifoOp read : passes[q].reads)
            if (carriedView(read.getSlot()) == view) {
              InFlightDiagnostic diag = read.emitError(
                  "the value a loop carries is read again in a later pass "
                  "over the row (after a reduction) than the one that "
                  "writes its next value; the scratchpad holding it is "
                  "rewritten in place, so this is not supported yet");
              diag.attachNote(write.getLoc()) << "written here";
              return diag;
            }
  return success();
}

void StreamTiler::retypeSlots() {
  for (ReadFromFifoOp read : plan.reads)
    retype(read.getSlot(), plan.isStreamed(read.getResult()) ? width : 1);
  for (WriteToFifoOp write : plan.writes)
    retype(write.getSlot(), plan.isStreamed(write.getValue()) ? width : 1);
}

void StreamTiler::retype(Value slot, int64_t elements) {
  auto type = cast<FifoSlotType>(slot.getType());
  slot.setType(FifoSlotType::get(type.getContext(), type.getSrc(),
                                 type.getDst(), {elements},
                                 type.getElementType()));
}

namespace {

struct TileStreamsPass : public ktdf::impl::KTDFTileStreamsBase<TileStreamsPass> {
  using Base::Base;
  void runOnOperation() override {
    auto &target = getAnalysis<ktflow::sched::ScheduleTarget>();
    if (!target.isValid())
      return signalPassFailure();
    markAnalysesPreserved<ktflow::sched::ScheduleTarget>();
    SmallVector<PipelineOp> pipelines;
    getOperation().walk([&](PipelineOp p) { pipelines.push_back(p); });
    for (PipelineOp pipeline : pipelines) {
      // A DMA-only copy (ktdf-route-transfers) has no compute to stream.
      if (llvm::none_of(pipeline.getBody().front().getOps<StageOp>(),
                        [](StageOp s) { return s.isCompute(); }))
        continue;
      if (failed(hasMatrixStage(pipeline)
                     ? tileMatrixStage(target, pipeline)
                     : StreamTiler(target, pipeline, chunk, useCostModel,
                                   chunkScale)
                           .run()))
        return signalPassFailure();
    }
  }
};
} // namespace

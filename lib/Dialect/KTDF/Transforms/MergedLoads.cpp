//===- MergedLoads.cpp - One transfer for a lane's executions -------------===//
//
// This file implements the part of --ktdf-row-blocks that applies where a
// core's lanes share their DMA load engine (where row blocks do not): a
// lane's consecutive grid points load consecutive rows of a tensor into
// consecutive copies of a buffer, so one transfer can carry the tiles of K
// executions. Fewer, larger transfers pass the engine's few slots sooner,
// but the first execution's tile lands later; the cost model walks the
// engine, the lanes' compute and the shared store engine for each choice
// of (lane, tensor) pairs (sched::chooseMergedLoads) and the stage gets,
// per lane, the executions its transfers carry.
//
//===----------------------------------------------------------------------===//

#include "Coarsening.h"

#include "ktflow/Dialect/KTDF/Transforms/MergedLoads.h"
#include "ktflow/Dialect/KTDF/Transforms/RowBlocks.h"
#include "ktflow/Scheduler/MergedLoads.h"
#include "ktflow/Support/ElementBytes.h"

using namespace mlir;
using namespace mlir::ktdf;
using ktflow::sched::Hop;

/// Bytes of `buffer` (a static memref).
static int64_t bytesOf(Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  return type.getNumElements() * ktflow::bytesPerElement(type.getElementType());
}

void ktdf::decideMergedLoads(const ktflow::sched::ScheduleTarget &target,
                             PipelineOp pipeline, int64_t executions,
                             MergeLoads mode) {
  if (mode == MergeLoads::None || pipeline.getPerInstance() ||
      !isa<ParallelOp>(pipeline->getParentOp()))
    return;
  const ktflow::sched::Lane &lane = target.getLanes().front();
  const ktflow::device::DeviceModel &model = target.getModel();
  const Hop &in = lane.inbound.hops.front(), &out = lane.outbound.hops.back();
  if (in.kind != Hop::Dma || out.kind != Hop::Dma || in.unit == out.unit ||
      !model.getNode(in.unit).unit || !model.getNode(out.unit).unit)
    return;
  int64_t lanes = target.getLanesPerInstance(in.unit);
  // The copies a merged transfer fills: a divisor of the executions and
  // of the copies (a group's copies never wrap around).
  int64_t merge = 1;
  for (int64_t k = 2; k <= std::min(pipeline.getNumCopies(), executions); ++k)
    if (executions % k == 0 && pipeline.getNumCopies() % k == 0)
      merge = k;
  if (lanes < 2 || merge < 2)
    return;
  SmallVector<StageOp> loads;
  ktflow::sched::MergedLoadQuery query;
  std::optional<StringRef> loadUnit, storeUnit;
  int64_t rows = 1;
  for (auto stage : pipeline.getBody().front().getOps<StageOp>()) {
    if (stage.isApplicable(UnitRole::dma_load)) {
      Value buffer = getLoadedBuffer(stage);
      if (!buffer || isRowBlockStore(stage) ||
          (loadUnit && stage.getUnit() != loadUnit))
        return;
      loadUnit = stage.getUnit();
      loads.push_back(stage);
      query.loadBytes.push_back(bytesOf(buffer));
      rows = std::max(rows, cast<MemRefType>(buffer.getType()).getDimSize(0));
    } else if (stage.isApplicable(UnitRole::dma_store)) {
      Value buffer = getLoadedBuffer(stage);
      if (!buffer || (storeUnit && stage.getUnit() != storeUnit))
        return;
      storeUnit = stage.getUnit();
      query.storeBytes.push_back(bytesOf(buffer));
    }
  }
  if (loads.empty() || !storeUnit || storeUnit == loadUnit)
    return;
  query.lanes = lanes;
  query.executions = executions;
  query.merge = merge;
  query.copies = pipeline.getNumCopies();
  double share = coarsen::deviceMemoryShare(target, pipeline, lanes);
  auto routeOf = [&](const ktflow::sched::HopChain &chain,
                     ktflow::device::NodeId unit) {
    return ktflow::sched::EngineRoute{
        chain.route.latency - coarsen::fifoLatency(target, chain),
        std::min<double>(chain.route.bandwidth, share),
        model.getNode(unit).unit->maxOutstanding};
  };
  query.load = routeOf(lane.inbound, in.unit);
  query.store = routeOf(lane.outbound, out.unit);
  // The feed's first row before the compute, the drain's last after it.
  query.compute = coarsen::estimateCompute(target, pipeline);
  query.firstRow = query.compute / static_cast<double>(rows);
  query.drain = query.firstRow;
  SmallVector<bool> merged = mode == MergeLoads::All
                                 ? SmallVector<bool>(lanes * loads.size(), true)
                                 : ktflow::sched::chooseMergedLoads(query);
  for (auto [t, stage] : llvm::enumerate(loads)) {
    SmallVector<int64_t> perLane;
    for (int64_t l = 0; l < lanes; ++l)
      perLane.push_back(merged[l * loads.size() + t] ? merge : 1);
    if (llvm::any_of(perLane, [](int64_t k) { return k > 1; }))
      stage->setAttr(kMergedExecutionsAttrName,
                     DenseI64ArrayAttr::get(stage.getContext(), perLane));
  }
}

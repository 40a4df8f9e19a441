//===- SkewedPointPipelines.cpp - A point's pipelines loaded ahead --------===//
//
// A unit that loads and stores for one lane (mesh_device's one DMA engine
// a tile) walks the lane's grid points in order: a point's loads, then
// its stores, which wait for the point's compute. Where a point runs one
// pipeline, SkewedLoops.cpp (emitSkewedPoints) issues the next point's
// loads before this point's stores. A point of several pipelines (the
// paged attention: the products of Q and the 8 K pages, then the online
// softmax over the 8 V pages and scores, its O stored at the end) waited
// the same way: the engine, done with the point's 17 loads after ~2,400
// of its ~11,000 cycles, stored O only after the vector unit's last page
// and only then loaded the next point's Q, K_0 and V_0, so the vector unit
// waited ~770 cycles before the next point's first scores (the index
// read, the page's gather and the product).
//
// Here the unit issues, in round j, the loads of every pipeline of point
// j + 1 (two pipelines run by iteration stay so, IterationOrder.cpp), then
// the stores of point j (the walk of SkewedLoops.cpp, emitSkewedPointWalk):
//
//   loads(0)
//   for j in 0..points: { if j + 1 < points: loads(j + 1); stores(j) }
//
// The loads of point j + 1 take copy (j + 1) mod N of their buffers (N >=
// 2 copies each), handed back by the readers of point j + 1 - N <= j - 1,
// which need nothing of this unit after the loads of that point: no new
// cycle of waits. The stores of point j wait for its drains only. This
// holds when, for every pipeline of the body, this unit's stages are
// transfers that load and then store (loadsThenStores without the one
// pipeline), and no channel between pipelines reaches this unit (the
// scores' views go from the store unit to the load unit).
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

SmallVector<PipelineOp>
ProgramBuilder::skewablePointPipelines(const LaneInstance &li) {
  if (work.size() != 1 || li.count < 2)
    return {};
  SmallVector<PipelineOp> pipelines;
  for (Operation &op : kernel.parallel.getBody().front()) {
    if (!runsIn(&op, li))
      continue;
    auto pipeline = dyn_cast<PipelineOp>(op);
    // A per-instance pipeline may stage what the points read; a loop
    // walks its own order.
    if (!pipeline || pipeline.getPerInstance() ||
        pipeline->getNumResults() != 0)
      return {};
    pipelines.push_back(pipeline);
  }
  if (pipelines.size() < 2)
    return {};
  // No channel between pipelines ends on this unit.
  for (const PipelineInfo &info : kernel.pipelines)
    for (const Channel &ch : info.regionChannels)
      if (kernel.unitOf(ch.from, li) == unit ||
          kernel.unitOf(ch.to, li) == unit)
        return {};
  bool stores = false;
  for (PipelineOp pipeline : pipelines) {
    const PipelineInfo &info = kernel.infoOf(pipeline);
    bool trails = false, any = false;
    for (StageOp stage : work[&li]) {
      if (stage->getParentOp() != pipeline)
        continue;
      if (getAllReduce(stage) || getTileCopy(stage) || stage.isCompute())
        return {};
      any = true;
      if (waitsForOtherUnit(stage, info, li))
        trails = true;
      else if (trails)
        return {};
    }
    // One copy: the next point's loads wait for this point's readers.
    if (any && info.copies < 2)
      return {};
    stores |= trails;
  }
  return stores ? pipelines : SmallVector<PipelineOp>();
}

LogicalResult ProgramBuilder::emitSkewedPointPipelines(
    ArrayRef<PipelineOp> pipelines,
    function_ref<IRMapping(const LaneInstance *, Value)> pointAt,
    ValueRange zeros, SmallVector<Value> &totals) {
  const LaneInstance &li = *work.begin()->first;
  LogicalResult result = success();
  auto indexOf = [&](PipelineOp p) { return kernel.infoOf(p).index; };
  // This unit's stages of every pipeline at point `j`, the loads or the
  // stores; two pipelines run by iteration are merged as emitBlock merges
  // them.
  auto emitAt = [&](Value j, ValueRange executions, StagePart part) {
    IRMapping map = pointAt(&li, j);
    Block *into = builder->getInsertionBlock();
    for (size_t k = 0; k < pipelines.size(); ++k) {
      PipelineOp first = pipelines[k];
      PipelineOp second = k + 1 < pipelines.size() &&
                                  iterationPartner(first) == pipelines[k + 1]
                              ? pipelines[k + 1]
                              : PipelineOp();
      if (part != StagePart::Loads || !second) {
        if (failed(
                emitPipeline(first, map, executions[indexOf(first)], li, part)))
          result = failure();
        continue;
      }
      Operation *before = into->empty() ? nullptr : &into->back();
      SmallVector<SegmentMark> marks;
      segmentMarks = &marks;
      segmentPipe = 0;
      if (failed(
              emitPipeline(first, map, executions[indexOf(first)], li, part)))
        result = failure();
      segmentPipe = 1;
      markSegment(SegmentMark::Prologue);
      if (failed(
              emitPipeline(second, map, executions[indexOf(second)], li, part)))
        result = failure();
      segmentMarks = nullptr;
      segmentPipe = 0;
      orderByIteration(into, before, first, second, marks);
      ++k;
    }
  };
  emitSkewedPointWalk(li, pipelines, zeros, emitAt, {}, totals);
  return result;
}

//===- SkewedLoops.cpp - Loads one iteration ahead on a shared engine -----===//
//
// This file emits the loop of a unit that both loads a pipeline's inputs
// and stores its outputs (mesh_device's one DMA engine per core). Emitted
// in order, each iteration's stores wait for its compute, and the next
// iteration's loads wait behind them: the engine and the compute unit take
// turns, and nothing overlaps (the 256x4096 RMSNorm on mesh_device kept
// its DMA engines 15 % busy). Skewed, the unit issues the loads of
// iteration i + 1 before the stores of iteration i, so the next row
// arrives while this one is computed. With N copies of its buffers it
// runs D = N - 1 iterations ahead, so that rows arrive while several are
// computed (one ahead, the loads of i + 1 were issued only once i's
// compute had ended, behind nothing but i's stores, and an execution
// shorter than the route's latency left the compute unit waiting):
//
//   loads(lb), ..., loads(lb + (D - 1) step)    (each if before ub)
//   for i in lb..ub: { if i + D step < ub: loads(i + D step); stores(i) }
//
// The loads of execution e + D wait only for the feed to free their copy
// (execution e + D - N = e - 1, which needs no store), and the stores of
// execution e for its drain, which needs nothing of this unit after the
// loads of e: no new cycle of waits. With one copy (N = 1) the loads of
// e + 1 wait for the compute of e anyway, so such loops stay as they are. The
// skewed loop is marked `dfir.skewed` for the estimate
// (lib/Machine/Estimate.cpp), which then overlaps the engine's transfers
// with the compute instead of summing them.
//
// A unit that serves one lane walks the lane's grid points the same way
// when each point runs one such pipeline (in a loop ktdf-coarsen merged to
// one trip, or directly): the next point's loads before this point's
// stores. Grid points are independent, so no store of one point is a load
// of the next.
//
// A row span (ktdf-hoist-invariant-transfers) is loaded by a pipeline of
// its own at the top of the row loop, and the row's passes follow in
// other pipelines. When that pipeline only loads, into two or more copies
// that other units read, the unit issues the next row's span before the
// rest of this row (its stores): the load waits only for its copy, handed
// back at the end of the row N - 1 rows before, whose stores the unit has
// already issued.
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

/// Whether a channel into `stage` hands it a buffer another unit filled in
/// the same execution (a drain's full channel into a store).
bool ProgramBuilder::waitsForOtherUnit(StageOp stage, const PipelineInfo &info,
                                       const LaneInstance &li) {
  for (const Channel &ch : info.channels)
    if (ch.to == stage && ch.copies == 0 && !ch.exported &&
        kernel.unitOf(ch.from, li) != unit)
      return true;
  return false;
}

PipelineOp ProgramBuilder::skewablePipeline(scf::ForOp loop,
                                            const LaneInstance &li) {
  PipelineOp only;
  for (Operation &op : *loop.getBody()) {
    if (isa<scf::ForOp>(op) && runsIn(&op, li))
      return {};
    auto pipeline = dyn_cast<PipelineOp>(op);
    if (!pipeline || !runsIn(pipeline, li))
      continue;
    if (only || pipeline.getPerInstance() || pipeline->getNumResults() != 0)
      return {};
    only = pipeline;
  }
  return only && loadsThenStores(only, li) ? only : PipelineOp();
}

bool ProgramBuilder::loadsThenStores(PipelineOp only, const LaneInstance &li) {
  // Only the buffer hand-overs within the pipeline order its stages: no
  // scratchpad view or device-memory channel to or from another pipeline.
  for (const PipelineInfo &info : kernel.pipelines)
    for (const Channel &ch : info.regionChannels)
      if (ch.from->getParentOp() == only || ch.to->getParentOp() == only)
        return false;
  // With one copy of its buffers, the next execution's loads wait for this
  // one's compute to free them: skewed or not, nothing overlaps.
  if (kernel.infoOf(only).copies < 2)
    return false;
  return transfersLoadThenStore(only, li);
}

bool ProgramBuilder::transfersLoadThenStore(PipelineOp pipeline,
                                            const LaneInstance &li) {
  const PipelineInfo &info = kernel.infoOf(pipeline);
  bool leads = false, trails = false;
  for (StageOp stage : work[&li]) {
    if (stage->getParentOp() != pipeline)
      continue;
    if (getAllReduce(stage) || getTileCopy(stage) || stage.isCompute())
      return false;
    if (waitsForOtherUnit(stage, info, li))
      trails = true;
    else if (trails)
      return false;
    else
      leads = true;
  }
  return leads && trails;
}

PipelineOp ProgramBuilder::skewablePoints(const LaneInstance &li,
                                          scf::ForOp &once) {
  if (work.size() != 1 || li.count < 2)
    return {};
  Block *block = &kernel.parallel.getBody().front();
  once = {};
  PipelineOp only;
  for (Operation &op : *block) {
    if (!runsIn(&op, li) ||
        (isa<PipelineOp>(op) && cast<PipelineOp>(op).getPerInstance()))
      continue;
    if (only || once)
      return {};
    if (auto loop = dyn_cast<scf::ForOp>(op); loop && runsOnce(loop)) {
      once = loop;
      for (Operation &inner : *loop.getBody()) {
        if (!runsIn(&inner, li))
          continue;
        auto pipeline = dyn_cast<PipelineOp>(inner);
        if (only || !pipeline)
          return {};
        only = pipeline;
      }
      continue;
    }
    only = dyn_cast<PipelineOp>(op);
    if (!only)
      return {};
  }
  if (!only || only.getPerInstance() || only->getNumResults() != 0 ||
      !loadsThenStores(only, li))
    return {};
  return only;
}

LogicalResult ProgramBuilder::emitLoadAheadLoop(
    scf::ForOp loop, PipelineOp ahead, StagePart part, IRMapping &map,
    SmallVector<Value> &executions, const LaneInstance &li,
    function_ref<LogicalResult(Value iv, ValueRange args,
                               SmallVector<Value> &after)>
        rest,
    int64_t distance) {
  OpBuilder &b = *builder;
  Location loc = loop.getLoc();
  auto lb = materialize(loop.getLowerBound(), map),
       ub = materialize(loop.getUpperBound(), map),
       step = materialize(loop.getStep(), map);
  if (failed(lb) || failed(ub) || failed(step))
    return failure();
  unsigned index = kernel.infoOf(ahead).index;
  LogicalResult result = success();
  auto loadAt = [&](Value iv, Value execution) {
    IRMapping inner = map;
    inner.map(loop.getInductionVar(), iv);
    if (failed(emitPipeline(ahead, inner, execution, li, part)))
      result = failure();
  };
  Value c1 = constant(1);
  // The first iteration's loads may have been issued before a staging
  // pipeline (LateStaging.cpp).
  if (aheadIssued == loop.getOperation())
    aheadIssued = nullptr;
  else if (failed(emitFirstAhead(loop, ahead, part, map, executions, li)))
    return failure();
  // The iterations after the first that are loaded before the loop.
  // The trips ahead compare signed, as the loop: no unsigned loop gets
  // here (ktdf-uplift-while signs those it can, ktdf-check-supported
  // refuses the others).
  for (int64_t k = 1; k < distance; ++k) {
    Value iv = arith::AddIOp::create(
        b, loc, *lb,
        arith::MulIOp::create(b, loc, *step, constant(k)).getResult());
    Value execution =
        arith::AddIOp::create(b, loc, executions[index], constant(k));
    emitIf(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, iv, *ub),
           [&] { loadAt(iv, execution); });
  }
  auto cloned = scf::ForOp::create(
      b, loc, *lb, *ub, *step, executions,
      [&](OpBuilder &, Location, Value iv, ValueRange args) {
        Value aheadIv = arith::AddIOp::create(
            b, loc, iv,
            distance == 1
                ? *step
                : arith::MulIOp::create(b, loc, *step, constant(distance))
                      .getResult());
        Value aheadExecution =
            arith::AddIOp::create(b, loc, args[index], constant(distance));
        emitIf(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, aheadIv,
                                     *ub),
               [&] { loadAt(aheadIv, aheadExecution); });
        SmallVector<Value> after(args);
        after[index] = arith::AddIOp::create(b, loc, args[index], c1);
        if (failed(rest(iv, args, after)))
          result = failure();
        emitBlockEnd(*loop.getBody(), li);
        scf::YieldOp::create(b, loc, after);
      });
  if (failed(result))
    return failure();
  dfir::DFIRDialect::SkewedAttrHelper(b.getContext())
      .setAttr(cloned, b.getI64IntegerAttr(distance));
  executions.assign(cloned.getResults().begin(), cloned.getResults().end());
  return success();
}

LogicalResult ProgramBuilder::emitSkewedLoop(scf::ForOp loop,
                                             PipelineOp pipeline,
                                             IRMapping &map,
                                             SmallVector<Value> &executions,
                                             const LaneInstance &li) {
  const PipelineInfo &info = kernel.infoOf(pipeline);
  unsigned index = info.index;
  return emitLoadAheadLoop(
      loop, pipeline, StagePart::Loads, map, executions, li,
      [&](Value iv, ValueRange args, SmallVector<Value> &) {
        IRMapping inner = map;
        inner.map(loop.getInductionVar(), iv);
        return emitPipeline(pipeline, inner, args[index], li,
                            StagePart::Stores);
      },
      std::max<int64_t>(info.copies - 1, 1));
}

PipelineOp ProgramBuilder::leadingPipeline(scf::ForOp loop,
                                           const LaneInstance &li) {
  PipelineOp first;
  for (Operation &op : *loop.getBody()) {
    if (!runsIn(&op, li))
      continue;
    if (first)
      return first;
    first = dyn_cast<PipelineOp>(op);
    if (!first || first.getPerInstance())
      return {};
  }
  return {};
}

bool ProgramBuilder::receivesBefore(Operation *op) const {
  for (const PipelineInfo &info : kernel.pipelines)
    for (const Channel &ch : info.regionChannels)
      if (ch.receiveBefore == op)
        return true;
  return false;
}

PipelineOp ProgramBuilder::leadingSpanLoads(scf::ForOp loop,
                                            const LaneInstance &li) {
  PipelineOp span = leadingPipeline(loop, li);
  if (!span || span->getNumResults() == 0)
    return {};
  // With one copy, the next row's load waits for this row's readers anyway.
  const PipelineInfo &info = kernel.infoOf(span);
  if (info.copies < 2)
    return {};
  for (const PipelineInfo &other : kernel.pipelines)
    for (const Channel &ch : other.regionChannels)
      if (ch.from->getParentOp() == span || ch.to->getParentOp() == span ||
          ch.receiveBefore == span.getOperation())
        return {};
  // A reader on this unit would find the next iteration's copy.
  for (const Channel &ch : info.channels)
    if (kernel.unitOf(ch.from, li) == unit && kernel.unitOf(ch.to, li) == unit)
      return {};
  bool loads = false;
  for (StageOp stage : work[&li]) {
    if (stage->getParentOp() != span)
      continue;
    if (!stage.getDependsIn().empty() || waitsForOtherUnit(stage, info, li))
      return {};
    loads = true;
  }
  return loads ? span : PipelineOp();
}

LogicalResult ProgramBuilder::emitSpanAheadLoop(scf::ForOp loop,
                                                PipelineOp span, IRMapping &map,
                                                SmallVector<Value> &executions,
                                                const LaneInstance &li) {
  return emitLoadAheadLoop(
      loop, span, StagePart::All, map, executions, li,
      [&](Value iv, ValueRange, SmallVector<Value> &after) {
        IRMapping inner = map;
        inner.map(loop.getInductionVar(), iv);
        LogicalResult result = success();
        for (Operation &op : *loop.getBody())
          if (&op != span.getOperation() && runsIn(&op, li) &&
              (failed(emitDeferredReceives(op, inner, li)) ||
               failed(emitOp(op, inner, after, li))))
            result = failure();
        return result;
      });
}

LogicalResult ProgramBuilder::emitSkewedPoints(
    function_ref<IRMapping(const LaneInstance *, Value)> pointAt,
    ValueRange zeros, SmallVector<Value> &totals) {
  if (work.size() != 1)
    return success();
  const LaneInstance &li = *work.begin()->first;
  scf::ForOp once;
  PipelineOp pipeline = skewablePoints(li, once);
  if (!pipeline) {
    SmallVector<PipelineOp> pipelines = skewablePointPipelines(li);
    if (!pipelines.empty())
      return emitSkewedPointPipelines(pipelines, pointAt, zeros, totals);
    scf::ForOp loop;
    if (PipelineOp only = skewablePointLoop(li, loop))
      return emitSkewedPointLoops(loop, only, pointAt, zeros, totals);
    return success();
  }
  LogicalResult result = success();
  auto emitAt = [&](Value j, ValueRange executions, StagePart part) {
    IRMapping map = pointAt(&li, j);
    if (once) {
      auto lb = materialize(once.getLowerBound(), map);
      if (failed(lb)) {
        result = failure();
        return;
      }
      map.map(once.getInductionVar(), *lb);
    }
    if (failed(emitPipeline(pipeline, map,
                            executions[kernel.infoOf(pipeline).index], li,
                            part)))
      result = failure();
  };
  emitSkewedPointWalk(li, {pipeline}, zeros, emitAt, once, totals);
  return result;
}

void ProgramBuilder::emitSkewedPointWalk(
    const LaneInstance &li, ArrayRef<PipelineOp> pipelines, ValueRange zeros,
    function_ref<void(Value, ValueRange, StagePart)> emitAt, scf::ForOp once,
    SmallVector<Value> &totals) {
  OpBuilder &b = *builder;
  Location loc = kernel.parallel.getLoc();
  Value c0 = constant(0), c1 = constant(1), count = constant(li.count);
  emitAt(c0, zeros, StagePart::Loads);
  auto points = scf::ForOp::create(
      b, loc, c0, count, c1, zeros,
      [&](OpBuilder &, Location, Value j, ValueRange args) {
        Value next = arith::AddIOp::create(b, loc, j, c1);
        SmallVector<Value> after(args);
        for (PipelineOp p : pipelines) {
          unsigned index = kernel.infoOf(p).index;
          after[index] = arith::AddIOp::create(b, loc, args[index], c1);
        }
        emitIf(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, next,
                                     count),
               [&] { emitAt(next, after, StagePart::Loads); });
        emitAt(j, args, StagePart::Stores);
        if (once)
          emitBlockEnd(*once.getBody(), li);
        emitBlockEnd(kernel.parallel.getBody().front(), li);
        scf::YieldOp::create(b, loc, after);
      });
  dfir::DFIRDialect::SkewedAttrHelper(b.getContext())
      .setAttr(points, b.getI64IntegerAttr(1));
  totals.assign(points.getResults().begin(), points.getResults().end());
}

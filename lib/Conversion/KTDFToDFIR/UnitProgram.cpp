//===- UnitProgram.cpp - One unit instance's DataflowIR program -----------===//
//
// This file builds the program of one unit instance. The unit walks the
// grid points of every lane instance it serves (together, loop iteration
// by loop iteration, when it serves several lanes: LaneInterleaving.cpp),
// and for each point replays the part of the kernel's control flow that
// contains its stages: loops are cloned, index arithmetic is cloned on
// demand where a transfer needs it, and each execution of a pipeline
// becomes its stages' synchronisation plus transfers or compute
// (PipelineExecution.cpp). The program counts each pipeline's executions
// in the lane, which pick the copy of an N-buffered resource. The index
// values it clones are in UnitIndexValues.cpp.
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

Value TransferEmitter::constant(int64_t v) {
  return arith::ConstantIndexOp::create(*builder, builder->getUnknownLoc(), v);
}

Value TransferEmitter::copyOf(Value buffer, Value copy,
                              const LaneInstance &li) {
  if (!kernel.exported.count(buffer))
    return copy;
  Value exporters = exportedCopy.lookup({buffer, &li});
  return exporters ? exporters : constant(0);
}

bool ProgramBuilder::runsIn(Operation *op, const LaneInstance &li) {
  auto it = work.find(&li);
  if (it == work.end())
    return false;
  bool found = false;
  op->walk([&](StageOp stage) {
    if (llvm::is_contained(it->second, stage))
      found = true;
  });
  // A unit also passes the pipelines whose scratchpad writes it waits for,
  // and those exporting buffers it reads.
  op->walk([&](PipelineOp pipeline) {
    const PipelineInfo &info = kernel.infoOf(pipeline);
    for (const Channel &ch : info.regionChannels)
      if (kernel.unitOf(ch.to, li) == unit)
        found = true;
    for (const Channel &ch : info.channels)
      if (ch.exported && ch.copies == 0 && kernel.unitOf(ch.to, li) == unit)
        found = true;
  });
  return found;
}

void TransferEmitter::emitIf(Value condition, function_ref<void()> body) {
  OpBuilder &b = *builder;
  Location loc = b.getUnknownLoc();
  Value c0 = constant(0), c1 = constant(1);
  auto n = arith::SelectOp::create(b, loc, condition, c1, c0);
  auto guard =
      scf::ForOp::create(b, loc, c0, n, c1, ValueRange{},
                         [&](OpBuilder &, Location, Value, ValueRange) {
                           body();
                           scf::YieldOp::create(b, loc);
                         });
  locateGuard(guard, n);
}

void TransferEmitter::locateGuard(scf::ForOp guard, arith::SelectOp trips) {
  for (Operation &op : *guard.getBody())
    if (!isa<UnknownLoc>(op.getLoc())) {
      guard->setLoc(op.getLoc());
      trips->setLoc(op.getLoc());
      return;
    }
}

LogicalResult ProgramBuilder::build(OpBuilder &b) {
  builder = &b;
  Location loc = kernel.func.getLoc();
  ArrayRef<int64_t> extents = kernel.parallel.getExtents();
  int64_t maxCount = 0;
  for (auto &[li, stages] : work)
    maxCount = std::max(maxCount, li->count);
  Value c0 = constant(0), c1 = constant(1);
  // Per lane, one execution counter per pipeline, carried through every
  // loop: the copy of a buffer an execution uses, and how many tokens are
  // left to take at the end, follow from it (and the tokens taken of a
  // buffer loaded for two lanes: SharedLoads.cpp).
  collectSharedFrees();
  size_t numPipelines = countersPerLane();
  SmallVector<Value> zeros(work.size() * numPipelines, c0);
  LogicalResult result = success();
  // Per-instance pipelines run before the lane's first point; the loads of
  // a lane that reads an earlier lane's staged buffers become hand-overs,
  // after all loads. Their buffers a pipeline of the points reads late are
  // waited for in its first execution (LateStaging.cpp).
  SmallVector<DeferredExport> deferred;
  for (bool shared : {false, true})
    for (auto &[li, stages] : work)
      for (auto pipeline :
           kernel.parallel.getBody().front().getOps<PipelineOp>()) {
        if (!pipeline.getPerInstance() || !runsIn(pipeline, *li))
          continue;
        bool loads = llvm::any_of(stages, [&](StageOp stage) {
          return stage->getParentOp() == pipeline;
        });
        if (shared !=
            (loads && kernel.stagingSourceOf(kernel.infoOf(pipeline), *li)))
          continue;
        IRMapping map;
        if (shared) {
          emitSharedStagingSends(pipeline, *li);
          continue;
        }
        deferExportWaits(pipeline, kernel.parallel.getBody().front(), zeros,
                         *li, deferred);
        if (failed(emitPipeline(pipeline, map, c0, *li)))
          return failure();
      }
  // The coordinates of a lane's point in round j, first dimension
  // slowest: start + j, or dealt in snake order over n instances
  // j * n + start, with n - 1 - 2 * start more in odd rounds.
  auto pointAt = [&](const LaneInstance *li, Value j) {
    int64_t n = *kernel.parallel.getNumInstances();
    Value t;
    if (kernel.parallel.getSnake()) {
      Value odd = arith::RemUIOp::create(b, loc, j, constant(2));
      Value back =
          arith::MulIOp::create(b, loc, odd, constant(n - 1 - 2 * li->start));
      Value round = arith::MulIOp::create(b, loc, j, constant(n));
      t = arith::AddIOp::create(
          b, loc, arith::AddIOp::create(b, loc, round, constant(li->start)),
          back);
    } else {
      t = arith::AddIOp::create(b, loc, constant(li->start), j);
    }
    IRMapping map;
    int64_t stride = kernel.parallel.getNumPoints();
    for (auto [d, extent] : llvm::enumerate(extents)) {
      stride /= extent;
      Value q = arith::DivUIOp::create(b, loc, t, constant(stride));
      map.map(kernel.parallel.getBody().getArgument(d),
              arith::RemUIOp::create(b, loc, q, constant(extent)));
    }
    return map;
  };
  SmallVector<Value> totals;
  if (failed(emitSkewedPoints(pointAt, zeros, totals)))
    return failure();
  if (totals.empty()) {
    auto points = scf::ForOp::create(
        b, loc, c0, constant(maxCount), c1, zeros,
        [&](OpBuilder &, Location, Value j, ValueRange counters) {
          auto pointOf = [&](const LaneInstance *li) { return pointAt(li, j); };
          if (work.size() > 1) {
            // A unit several lanes share walks their points together.
            SmallVector<LaneWalk> lanes;
            for (auto [k, entry] : llvm::enumerate(work)) {
              const LaneInstance *li = entry.first;
              Value active;
              if (li->count != maxCount)
                active = arith::CmpIOp::create(
                    b, loc, arith::CmpIPredicate::ult, j, constant(li->count));
              ValueRange mine = counters.slice(k * numPipelines, numPipelines);
              lanes.push_back({li, pointOf(li), active,
                               SmallVector<Value>(mine.begin(), mine.end())});
            }
            SmallVector<std::optional<int64_t>> laneWork;
            for (LaneWalk &lane : lanes)
              laneWork.push_back(executionsOf(*lane.li));
            if (llvm::all_of(laneWork, [](auto w) { return w.has_value(); }))
              for (auto [lane, w] : llvm::zip(lanes, laneWork))
                lane.work = *w;
            if (failed(emitLanesTogether(kernel.parallel.getBody().front(),
                                         lanes)))
              result = failure();
            SmallVector<Value> next;
            for (LaneWalk &lane : lanes)
              next.append(lane.executions);
            scf::YieldOp::create(b, loc, next);
            return;
          }
          SmallVector<Value> next;
          for (auto [k, entry] : llvm::enumerate(work)) {
            const LaneInstance *li = entry.first;
            ValueRange mine = counters.slice(k * numPipelines, numPipelines);
            auto body = [&](ValueRange executions) -> SmallVector<Value> {
              IRMapping map = pointOf(li);
              auto after = emitBlock(kernel.parallel.getBody().front(), map,
                                     executions, *li);
              if (failed(after)) {
                result = failure();
                return SmallVector<Value>(executions);
              }
              return *after;
            };
            if (li->count == maxCount) {
              next.append(body(mine));
              continue;
            }
            // Lanes with fewer points skip the last rounds: a loop of 0 or 1.
            Value active = arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::ult, j, constant(li->count));
            Value n = arith::SelectOp::create(b, loc, active, c1, c0);
            auto guard = scf::ForOp::create(
                b, loc, c0, n, c1, mine,
                [&](OpBuilder &, Location, Value, ValueRange args) {
                  scf::YieldOp::create(b, loc, body(args));
                });
            next.append(guard.getResults().begin(), guard.getResults().end());
          }
          scf::YieldOp::create(b, loc, next);
        });
    if (failed(result))
      return failure();
    totals.assign(points.getResults().begin(), points.getResults().end());
  }

  if (!deferred.empty())
    takeDeferredExports(deferred, totals, *work.begin()->first);
  // Take the tokens of the last executions that handed buffers back.
  for (auto [k, entry] : llvm::enumerate(work)) {
    const LaneInstance *li = entry.first;
    for (const PipelineInfo &info : kernel.pipelines) {
      Value total = totals[k * numPipelines + info.index];
      for (const Channel &ch : info.channels) {
        if (ch.copies == 0 || kernel.unitOf(ch.to, *li) != unit)
          continue;
        auto mine = MutableArrayRef<Value>(totals).slice(k * numPipelines,
                                                         numPipelines);
        Value n =
            llvm::is_contained(sharedFrees, &ch)
                ? arith::SubIOp::create(b, loc, total, freedOf(ch, mine))
                      .getResult()
                : arith::MinUIOp::create(b, loc, total, constant(ch.copies))
                      .getResult();
        scf::ForOp::create(b, loc, c0, n, c1, ValueRange{},
                           [&](OpBuilder &, Location, Value, ValueRange) {
          dfir::SyncRecvOp::create(b, loc,
                                   KernelLowering::perLane(ch.base, *li));
          scf::YieldOp::create(b, loc);
        });
      }
    }
  }
  return success();
}

FailureOr<SmallVector<Value>>
ProgramBuilder::emitBlock(Block &block, IRMapping map, ValueRange executionsIn,
                          const LaneInstance &li) {
  SmallVector<Value> executions(executionsIn);
  SmallVector<DeferredExport> deferred;
  // Two pipelines whose stages this unit runs by iteration
  // (IterationOrder.cpp): the first, the second, the op before them.
  PipelineOp first, second;
  Operation *before = nullptr;
  SmallVector<SegmentMark> marks;
  Block *into = builder->getInsertionBlock();
  // Pipelines emitted with an earlier one, loads first (LoadsFirstRuns.cpp).
  llvm::SmallPtrSet<Operation *, 4> emitted;
  // Loads ahead of the all-reduces before them (LoadsFirstRuns.cpp).
  for (Operation *next : unitOrder(block, li)) {
    Operation &op = *next;
    if (!runsIn(&op, li) || emitted.contains(&op))
      continue;
    if (!first && isa<PipelineOp>(op)) {
      SmallVector<PipelineOp> run = loadsFirstRun(op, li);
      if (!run.empty()) {
        if (failed(emitDeferredReceives(op, map, li)) ||
            failed(emitLoadsFirstRun(run, map, executions, li)))
          return failure();
        for (PipelineOp pipeline : run)
          emitted.insert(pipeline);
        continue;
      }
    }
    if (first && &op == second.getOperation()) {
      segmentPipe = 1;
      markSegment(SegmentMark::Prologue);
    } else if (first) {
      first = {};
      segmentMarks = nullptr;
    } else if (auto p = dyn_cast<PipelineOp>(op);
               p && builder->getInsertionPoint() == into->end()) {
      if ((second = iterationPartner(p))) {
        first = p;
        before = into->empty() ? nullptr : &into->back();
        marks.clear();
        segmentMarks = &marks;
        segmentPipe = 0;
      }
    }
    if (failed(emitDeferredReceives(op, map, li)))
      return failure();
    auto staging = dyn_cast<PipelineOp>(op);
    // A per-instance pipeline ran before the lane's first point.
    if (staging && !staging.getPerInstance()) {
      deferExportWaits(staging, block, executions, li, deferred);
      // The staging loads after the next loop's first iteration's.
      if (deferStagingLoads(staging, {&li})) {
        markSegment(SegmentMark::Broken);
        continue;
      }
      // The next loop's first loads before the staging loads.
      if (scf::ForOp loop = loadsBeforeStaging(staging, li)) {
        markSegment(SegmentMark::Broken);
        StagePart part;
        PipelineOp ahead = aheadPipelineOf(loop, li, part);
        if (failed(emitFirstAhead(loop, ahead, part, map, executions, li)))
          return failure();
        aheadIssued = loop;
      }
    }
    if (failed(emitOp(op, map, executions, li)))
      return failure();
    if (first && &op == second.getOperation()) {
      segmentMarks = nullptr;
      orderByIteration(into, before, first, second, marks);
      first = {};
    }
  }
  segmentMarks = nullptr;
  takeDeferredExports(deferred, executions, li);
  emitBlockEnd(block, li);
  return executions;
}

LogicalResult ProgramBuilder::emitOp(Operation &op, IRMapping &map,
                                     SmallVector<Value> &executions,
                                     const LaneInstance &li) {
  OpBuilder &b = *builder;
  if (auto pipeline = dyn_cast<PipelineOp>(op)) {
    if (pipeline.getPerInstance())
      return success();
    Value &count = executions[kernel.infoOf(pipeline).index];
    if (failed(emitPipeline(pipeline, map, count, li)))
      return failure();
    count = arith::AddIOp::create(b, pipeline.getLoc(), count, constant(1));
    return success();
  }
  auto loop = dyn_cast<scf::ForOp>(op);
  if (!loop)
    return op.emitError("unit '")
           << unit << "' cannot run '" << op.getName() << "' around its stages";
  if (const LanePipeline *lp = lanePipelineOf(loop, li))
    return emitLanePipelinedLoop(loop, *lp, map, executions, li);
  StagePart part;
  PipelineOp ahead = aheadPipelineOf(loop, li, part);
  if (ahead && part == StagePart::Loads)
    return emitSkewedLoop(loop, ahead, map, executions, li);
  if (PipelineOp stores = storesBehind(loop, li))
    return emitStoresBehindLoop(loop, stores, ahead, map, executions, li);
  if (ahead)
    return emitSpanAheadLoop(loop, ahead, map, executions, li);
  scf::ForOp nested;
  if (PipelineOp feed = feedAheadNest(loop, nested, li))
    return emitFeedAhead(loop, nested, feed, map, executions, li);
  if (PipelineOp feed = leadingFeed(loop, li))
    return emitFeedAhead({}, loop, feed, map, executions, li);
  auto lb = materialize(loop.getLowerBound(), map),
       ub = materialize(loop.getUpperBound(), map),
       step = materialize(loop.getStep(), map);
  if (failed(lb) || failed(ub) || failed(step))
    return failure();
  Location loc = loop.getLoc();
  LogicalResult result = success();
  auto cloned = scf::ForOp::create(
      b, loc, *lb, *ub, *step, executions,
      [&](OpBuilder &, Location, Value iv, ValueRange args) {
        IRMapping inner = map;
        inner.map(loop.getInductionVar(), iv);
        auto after = emitBlock(*loop.getBody(), inner, args, li);
        if (succeeded(after) && stagingAfterFirstTrip.count({loop, &li})) {
          LaneWalk lane{&li, map, Value(), {}, 0};
          after = emitStagingAfterFirstTrip(
              loop,
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, iv, *lb),
              lane, *after);
        }
        if (failed(after))
          result = failure();
        scf::YieldOp::create(b, loc,
                             succeeded(after) ? ValueRange(*after) : args);
      });
  if (failed(result))
    return failure();
  executions.assign(cloned.getResults().begin(), cloned.getResults().end());
  return success();
}

bool ProgramBuilder::receivesLater(const Channel &ch) const {
  return ch.receiveBefore && work.size() == 1;
}

LogicalResult ProgramBuilder::emitDeferredReceives(Operation &op,
                                                   const IRMapping &map,
                                                   const LaneInstance &li) {
  for (const PipelineInfo &info : kernel.pipelines)
    for (const Channel &ch : info.regionChannels) {
      if (ch.receiveBefore != &op || !receivesLater(ch) ||
          kernel.unitOf(ch.to, li) != unit)
        continue;
      // One token per execution of the sender: its loop nest again.
      std::function<LogicalResult(size_t, IRMapping &)> nest =
          [&](size_t depth, IRMapping &m) -> LogicalResult {
        if (depth == ch.sendLoops.size()) {
          emitRegionToken(op.getLoc(), ch, li, /*send=*/false);
          return success();
        }
        return emitLoopCopy(ch.sendLoops[depth], m, [&](IRMapping &inner) {
          return nest(depth + 1, inner);
        });
      };
      IRMapping outer = map;
      if (failed(nest(0, outer)))
        return failure();
    }
  return success();
}

LogicalResult
ProgramBuilder::emitLoopCopy(scf::ForOp loop, IRMapping &map,
                             function_ref<LogicalResult(IRMapping &)> body) {
  auto lb = materialize(loop.getLowerBound(), map),
       ub = materialize(loop.getUpperBound(), map),
       step = materialize(loop.getStep(), map);
  if (failed(lb) || failed(ub) || failed(step))
    return failure();
  LogicalResult result = success();
  auto copy =
      scf::ForOp::create(*builder, loop.getLoc(), *lb, *ub, *step, ValueRange{},
                         [&](OpBuilder &b, Location loc, Value iv, ValueRange) {
                           IRMapping inner = map;
                           inner.map(loop.getInductionVar(), iv);
                           result = body(inner);
                           scf::YieldOp::create(b, loc);
                         });
  // A loop of a pipeline that runs only its synchronisation here may be
  // left with nothing to do.
  if (syncOnly && llvm::all_of(copy.getBody()->without_terminator(),
                               [](Operation &op) { return isPure(&op); }))
    copy.erase();
  return result;
}

void ProgramBuilder::emitBlockEnd(Block &block, const LaneInstance &li) {
  // Buffers exported in this block are no longer read: hand them back.
  for (auto pipeline : block.getOps<PipelineOp>())
    for (const Channel &ch : kernel.infoOf(pipeline).channels)
      if (ch.exported && ch.copies > 0 && kernel.unitOf(ch.from, li) == unit)
        dfir::SyncSendOp::create(*builder, pipeline.getLoc(),
                                 KernelLowering::perLane(ch.base, li));
}

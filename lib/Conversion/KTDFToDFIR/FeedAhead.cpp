//===- FeedAhead.cpp - A feed one iteration ahead of the unit's other work ===//
//
// This file emits the loop of a load unit whose body opens with the feed of
// a pipeline on whole tiles (a matrix product's operands, loaded by another
// unit) and goes on with more of the unit's work that waits for that
// pipeline's results (the SwiGLU's SiLU, fed from the products' hand-over
// views). In order, the unit fed the next iteration's operands only after
// this iteration's products were computed, drained and fed on, and the
// matrix unit waited for them every iteration (mesh_device: 1,615 of each
// 9,869-cycle trip). Here the unit feeds iteration i + 1 before the rest
// of iteration i:
//
//   feed(first)                          (if the nest runs at all)
//   for each iteration i: { if i has a next: feed(next(i)); rest(i) }
//
// where next(i) is the lexicographically next iteration of the loop, or of
// a nest of two loops whose outer body runs only the inner loop (of
// constant bounds, at least one trip) on this unit: the GateColumns parts
// of a SwiGLU's hidden chunk.
//
// No new cycle of waits: the feed of i + 1 waits only for its loads, on
// units that run nothing else in the loop (their copies were handed back by
// the feed of i), and hands its entries to a compute unit that runs
// nothing else in the loop and takes every entry it reads before it writes
// any, so nothing it waits for needs this unit's work of iteration i. The
// later stages of the pipeline (the drain, which may wait for this unit's
// rest of i before it overwrites what the rest reads) come after the
// compute has taken the feed's entries.
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

/// Whether `compute` reads all of its FIFO entries, in its body and not in
/// a loop, before it writes anything.
static bool readsBeforeWrites(StageOp compute) {
  Block &body = compute.getBody().front();
  Operation *lastRead = nullptr;
  bool nested = false;
  compute.walk([&](ReadFromFifoOp read) {
    if (read->getBlock() == &body)
      lastRead = read;
    else
      nested = true;
  });
  if (nested || !lastRead)
    return false;
  bool writes = false;
  for (Operation &op : body) {
    if (&op == lastRead)
      break;
    op.walk([&](Operation *inner) {
      if (isa<WriteToFifoOp, DataTransferOp>(inner))
        writes = true;
    });
  }
  return !writes;
}

PipelineOp ProgramBuilder::leadingFeed(scf::ForOp loop,
                                       const LaneInstance &li) {
  if (work.size() != 1)
    return {};
  PipelineOp first = leadingPipeline(loop, li);
  if (!first || first->getNumResults() != 0)
    return {};
  // The unit's one stage of the pipeline: a feed.
  StageOp feed;
  for (StageOp stage : work[&li]) {
    if (stage->getParentOp() != first)
      continue;
    if (feed || stage.isCompute() || getAllReduce(stage) || getTileCopy(stage))
      return {};
    feed = stage;
  }
  if (!feed)
    return {};
  // The stages the feed waits for (its loads) and the one that reads its
  // entries (the compute), each on a unit that runs nothing else in the loop.
  const PipelineInfo &info = kernel.infoOf(first);
  SmallVector<StageOp> others;
  for (const Channel &ch : info.channels)
    if (ch.to == feed && ch.copies == 0) {
      if (ch.exported || kernel.unitOf(ch.from, li) == unit)
        return {};
      others.push_back(ch.from);
    }
  StageOp compute;
  for (StageOp stage : first.getOps<StageOp>())
    if (llvm::any_of(stage.getDependsIn(),
                     [&](Value t) { return t.getDefiningOp() == feed; })) {
      if (compute || !stage.isCompute() || !readsBeforeWrites(stage))
        return {};
      compute = stage;
    }
  if (!compute)
    return {};
  others.push_back(compute);
  for (const PipelineInfo &other : kernel.pipelines)
    for (const Channel &ch : other.regionChannels)
      if (ch.to == feed || ch.receiveBefore == first.getOperation() ||
          llvm::is_contained(others, ch.to))
        return {};
  bool alone = true;
  loop.getBody()->walk([&](StageOp stage) {
    if (stage->getParentOp() == first)
      return;
    for (StageOp other : others)
      if (kernel.unitOf(stage, li) == kernel.unitOf(other, li))
        alone = false;
  });
  return alone ? first : PipelineOp();
}

PipelineOp ProgramBuilder::feedAheadNest(scf::ForOp outer, scf::ForOp &inner,
                                         const LaneInstance &li) {
  inner = {};
  for (Operation &op : *outer.getBody()) {
    if (!runsIn(&op, li))
      continue;
    if (inner)
      return {};
    inner = dyn_cast<scf::ForOp>(op);
    if (!inner)
      return {};
  }
  if (!inner || receivesBefore(inner))
    return {};
  // The next iteration after the inner loop's last is the next outer
  // iteration's first: the inner loop runs at least once, with the same
  // bounds, in every outer iteration.
  std::optional<int64_t> lb = getConstantIntValue(inner.getLowerBound()),
                         ub = getConstantIntValue(inner.getUpperBound()),
                         step = getConstantIntValue(inner.getStep());
  if (!lb || !ub || !step || *step <= 0 || *ub <= *lb)
    return {};
  return leadingFeed(inner, li);
}

LogicalResult ProgramBuilder::emitFeedAhead(scf::ForOp outer, scf::ForOp loop,
                                            PipelineOp feed, IRMapping &map,
                                            SmallVector<Value> &executions,
                                            const LaneInstance &li) {
  OpBuilder &b = *builder;
  unsigned index = kernel.infoOf(feed).index;
  auto bounds = [&](scf::ForOp l) -> FailureOr<std::array<Value, 3>> {
    auto lb = materialize(l.getLowerBound(), map),
         ub = materialize(l.getUpperBound(), map),
         step = materialize(l.getStep(), map);
    if (failed(lb) || failed(ub) || failed(step))
      return failure();
    return std::array<Value, 3>{*lb, *ub, *step};
  };
  auto inner = bounds(loop);
  auto outerBounds = outer ? bounds(outer) : inner;
  if (failed(inner) || failed(outerBounds))
    return failure();
  Value lb = (*inner)[0], ub = (*inner)[1], step = (*inner)[2];
  Value outerLb = (*outerBounds)[0], outerUb = (*outerBounds)[1],
        outerStep = (*outerBounds)[2];
  Location loc = loop.getLoc();
  LogicalResult result = success();
  // The feed of iteration (i, j) of the nest (j alone without one).
  auto feedAt = [&](Value i, Value j, Value execution) {
    IRMapping at = map;
    if (outer)
      at.map(outer.getInductionVar(), i);
    at.map(loop.getInductionVar(), j);
    if (failed(emitPipeline(feed, at, execution, li)))
      result = failure();
  };
  // Signed, as every loop here: ktdf-uplift-while signs an unsigned loop
  // with bounds known not to be negative, ktdf-check-supported refuses
  // the others.
  auto lt = [&](Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, y)
        .getResult();
  };
  emitIf(lt(outerLb, outerUb), [&] { feedAt(outerLb, lb, executions[index]); });
  Value c1 = constant(1);
  auto innerLoop = [&](IRMapping &outerMap, Value i,
                       ValueRange in) -> SmallVector<Value> {
    auto cloned = scf::ForOp::create(
        b, loc, lb, ub, step, in,
        [&](OpBuilder &, Location, Value j, ValueRange args) {
          Value nextJ = arith::AddIOp::create(b, loc, j, step);
          Value nextExecution = arith::AddIOp::create(b, loc, args[index], c1);
          if (!outer) {
            emitIf(lt(nextJ, ub), [&] { feedAt(i, nextJ, nextExecution); });
          } else {
            // After the inner loop's last iteration, the next outer one's
            // first.
            Value wraps = arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::sge, nextJ, ub);
            Value nextI = arith::AddIOp::create(b, loc, i, outerStep);
            Value aheadI = arith::SelectOp::create(b, loc, wraps, nextI, i);
            Value aheadJ = arith::SelectOp::create(b, loc, wraps, lb, nextJ);
            emitIf(lt(aheadI, outerUb),
                   [&] { feedAt(aheadI, aheadJ, nextExecution); });
          }
          IRMapping body = outerMap;
          body.map(loop.getInductionVar(), j);
          SmallVector<Value> after(args);
          after[index] = nextExecution;
          for (Operation &op : *loop.getBody())
            if (&op != feed.getOperation() && runsIn(&op, li) &&
                (failed(emitDeferredReceives(op, body, li)) ||
                 failed(emitOp(op, body, after, li))))
              result = failure();
          emitBlockEnd(*loop.getBody(), li);
          scf::YieldOp::create(b, loc, after);
        });
    return SmallVector<Value>(cloned.getResults());
  };
  if (!outer) {
    executions = innerLoop(map, Value(), executions);
    return result;
  }
  auto cloned =
      scf::ForOp::create(b, loc, outerLb, outerUb, outerStep, executions,
                         [&](OpBuilder &, Location, Value i, ValueRange args) {
                           IRMapping outerMap = map;
                           outerMap.map(outer.getInductionVar(), i);
                           SmallVector<Value> after =
                               innerLoop(outerMap, i, args);
                           emitBlockEnd(*outer.getBody(), li);
                           scf::YieldOp::create(b, loc, after);
                         });
  executions.assign(cloned.getResults().begin(), cloned.getResults().end());
  return result;
}

//===- LanePipelining.cpp - The next trip's partial before this trip's use ===//
//
// This file emits the loop of a lane's units (feed, compute, drain) whose
// body loads a row span, makes a partial from it, exchanges the partial
// (an all-reduce) and uses the result with the row again: an RMSNorm's
// rows split over tiles, each trip's sum of squares summed over the tiles
// before the row is normalised. In order, the lane waits for each trip's
// ring between its partial and its use (~60 cycles a trip on sample_device,
// ~126 on mesh_device). Pipelined, it makes the next trip's partial while
// the ring runs:
//
//   partial(0)                                 (if trips > 0)
//   for t in 0..trips:
//     { exchange(t); if t + 1 < trips: partial(t + 1); use(t) }
//
// ktdf-hoist-invariant-transfers gives the span a third copy for such a
// loop (where it pays: enough trips a lane); the lowering pipelines only
// loops whose span has three or more copies, so that the span of trip
// t + 2 loads while the lane holds rows t and t + 1.
//
// What keeps it in order:
// * Each unit runs the pipelines of the lane in the same new order, so the
//   FIFOs between them carry the same sequence. Every unit with a stage of
//   the partial has one of the use, and every unit that moves the use's
//   FIFOs has one of the partial; each serves one lane.
// * The partial of trip t + 1 writes what the use of trip t (and the
//   exchange before it) touched: the all-reduce combines in place, so the
//   view of the partial holds the result the use loads. A back channel
//   from each use stage touching it (on another unit: on the same unit the
//   loop is not pipelined) to the partial's stage hands it over right
//   after the use's last access, in every trip but the last; the partial
//   of trip t + 1 waits for it. The exchange's stages are ordered before
//   it by program order (on the partial's unit or the back channel's
//   sender) or by a region channel into the sending stage, which waits for
//   it before its first access. The exchange of trip t + 1 on other tiles
//   writes here only after this lane's partial of trip t + 1 went out.
// * The waits a unit takes when its program passes the partial (region
//   channels into the exchange or the use) move with it to the start of
//   the next trip: taken one trip early, the feed would wait for the drain
//   of the next partial, which waits for the feed's use.
// * The use of trip t reads the span's copy of trip t, not that of trip
//   t + 1, which the unit passed since.
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/SaveAndRestore.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

/// Whether `stage` moves a FIFO slot or computes (talks to the lane's other
/// units through FIFOs).
static bool usesFifos(StageOp stage) {
  if (stage.isCompute())
    return true;
  return stage
      ->walk([](DataTransferOp op) {
        return isa<FifoSlotType>(op.getSrc().getType()) ||
                       isa<FifoSlotType>(op.getDst().getType())
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// The last op of `stage` (descending into loops of one trip) that holds a
/// transfer touching a scratchpad view or device memory.
static Operation *lastAccessOf(StageOp stage) {
  auto touches = [](Operation *op) {
    return op
        ->walk([](DataTransferOp transfer) {
          return isa<ktdp::AccessTileType>(transfer.getSrc().getType()) ||
                         isa<ktdp::AccessTileType>(transfer.getDst().getType())
                     ? WalkResult::interrupt()
                     : WalkResult::advance();
        })
        .wasInterrupted();
  };
  Operation *last = nullptr;
  Block *block = &stage.getBody().front();
  while (block) {
    Operation *found = nullptr;
    for (Operation &op : llvm::reverse(*block))
      if (touches(&op)) {
        found = &op;
        break;
      }
    if (!found)
      return last;
    last = found;
    auto loop = dyn_cast<scf::ForOp>(found);
    block = loop && runsOnce(loop) ? loop.getBody() : nullptr;
  }
  return last;
}

void KernelLowering::collectLanePipelines() {
  auto stagesOf = [](PipelineOp p) {
    return llvm::to_vector(p.getBody().front().getOps<StageOp>());
  };
  auto exchanges = [](StageOp s) { return getAllReduce(s) || getTileCopy(s); };
  unsigned id = 0;
  parallel.walk([&](scf::ForOp loop) {
    SmallVector<PipelineOp> body;
    for (Operation &op : *loop.getBody()) {
      if (auto p = dyn_cast<PipelineOp>(op))
        body.push_back(p);
      else if (op.getNumRegions() != 0)
        return;
    }
    if (body.size() != 4)
      return;
    LanePipeline lp{body[0], body[1], body[2], body[3], {}, {}};
    const PipelineInfo &span = infoOf(lp.span);
    if (lp.span->getNumResults() != 1 || span.copies < 3 ||
        lp.span.getPerInstance())
      return;
    for (PipelineOp p : {lp.span, lp.partial, lp.exchange, lp.use}) {
      const PipelineInfo &info = infoOf(p);
      if ((p != lp.span && p->getNumResults() != 0) || p.getPerInstance() ||
          info.workTiles)
        return;
      // Receipts of the body's channels deferred past loops would move.
      for (const PipelineInfo &other : pipelines)
        for (const Channel &ch : other.regionChannels)
          if (ch.receiveBefore == p.getOperation() ||
              (ch.from->getParentOp() == p && ch.receiveBefore))
            return;
    }
    if (!llvm::any_of(stagesOf(lp.exchange),
                      [](StageOp s) { return getAllReduce(s) != nullptr; }))
      return;
    SmallVector<StageOp> partial = stagesOf(lp.partial), use = stagesOf(lp.use);
    if (llvm::any_of(partial, exchanges) || llvm::any_of(use, exchanges))
      return;
    // The lane's units: those of the partial, which all run the use; and
    // every unit moving the use's FIFOs runs the partial.
    auto onUnitOf = [](ArrayRef<StageOp> stages, StageOp s) {
      return llvm::any_of(stages, [&](StageOp o) { return onSameUnit(o, s); });
    };
    for (StageOp s : partial)
      if (!onUnitOf(use, s))
        return;
    for (StageOp s : use)
      if (usesFifos(s) && !onUnitOf(partial, s))
        return;
    for (StageOp s : stagesOf(lp.span))
      if (onUnitOf(partial, s))
        return;
    // Each lane unit serves one lane instance.
    for (StageOp s : partial) {
      llvm::StringSet<> seen;
      for (const LaneInstance &li : instances)
        if (!seen.insert(unitOf(s, li)).second)
          return;
    }
    // The partial of trip t + 1 after the use of trip t.
    for (StageOp u : use)
      for (StageOp p : partial) {
        if (!stagesConflict(u, p))
          continue;
        // The sender hands it over only where it runs the loop pipelined.
        if (onSameUnit(u, p) || u.isCompute() || p.isCompute() ||
            !onUnitOf(partial, u))
          return;
        Operation *after = lastAccessOf(u);
        if (!after)
          return;
        lp.back.push_back({u, p, 0, "lane" + std::to_string(id++)});
        lp.sendAfter.push_back(after);
      }
    // ... and after the exchange of trip t.
    const PipelineInfo &exchangeInfo = infoOf(lp.exchange);
    for (StageOp x : stagesOf(lp.exchange))
      for (StageOp p : partial) {
        if (onSameUnit(x, p) || !stagesConflict(x, p))
          continue;
        bool ordered = llvm::any_of(lp.back, [&](const Channel &back) {
          if (back.to != p)
            return false;
          return onSameUnit(x, back.from) ||
                 llvm::any_of(exchangeInfo.regionChannels,
                              [&](const Channel &ch) {
                                return ch.from == x && ch.to == back.from;
                              });
        });
        if (!ordered)
          return;
      }
    // The span and the stages before and after the loop keep their order:
    // the span is loaded as before, and only the partial moves.
    for (StageOp s : stagesOf(lp.span))
      for (StageOp o : llvm::concat<StageOp>(partial, use))
        if (stagesConflict(s, o))
          return;
    lanePipelines[loop.getOperation()] = std::move(lp);
  });
}

const LanePipeline *ProgramBuilder::lanePipelineOf(scf::ForOp loop,
                                                   const LaneInstance &li) {
  auto it = kernel.lanePipelines.find(loop.getOperation());
  if (it == kernel.lanePipelines.end() || work.size() != 1)
    return nullptr;
  const LanePipeline &lp = it->second;
  bool runsPartial = llvm::any_of(
      work[&li], [&](StageOp s) { return s->getParentOp() == lp.partial; });
  return runsPartial ? &lp : nullptr;
}

void ProgramBuilder::emitPassReceipts(const PipelineInfo &info,
                                      const LaneInstance &li) {
  OpBuilder &b = *builder;
  Location loc = info.op->getLoc();
  for (const Channel &ch : info.regionChannels)
    if (kernel.unitOf(ch.to, li) == unit && !receivesLater(ch) &&
        !waitsInStage(ch, li))
      for (size_t k = 0; k < tokensOf(ch); ++k)
        emitRegionToken(loc, ch, li, /*send=*/false);
  // Wait for the buffers this pipeline exports to stages of this unit.
  for (const Channel &ch : info.channels)
    if (ch.exported && ch.copies == 0 && kernel.unitOf(ch.to, li) == unit &&
        !deferredExports.count(&ch))
      dfir::SyncRecvOp::create(b, loc, KernelLowering::perLane(ch.base, li));
}

LogicalResult ProgramBuilder::emitLanePipelinedLoop(
    scf::ForOp loop, const LanePipeline &lp, IRMapping &map,
    SmallVector<Value> &executions, const LaneInstance &li) {
  OpBuilder &b = *builder;
  Location loc = loop.getLoc();
  Operation *spanOp = lp.span, *partialOp = lp.partial, *useOp = lp.use;
  Value c0 = constant(0), c1 = constant(1);
  FailureOr<TripWalk> walk = tripWalkOf(loop, map, c0, c1);
  if (failed(walk))
    return failure();
  auto ivAt = [&](Value t) { return ivAtTrip(*walk, t, loc); };
  const PipelineInfo &span = kernel.infoOf(lp.span);
  const PipelineInfo &partial = kernel.infoOf(lp.partial);
  llvm::SaveAndRestore<const LanePipeline *> current(lanePipeline, &lp);
  LogicalResult result = success();
  // The span and the partial of trip t, their receipts left for the trip.
  auto ahead = [&](Value t, ValueRange in, bool waitBack) {
    IRMapping inner = map;
    inner.map(loop.getInductionVar(), ivAt(t));
    SmallVector<Value> after(in);
    if (failed(emitOp(*spanOp, inner, after, li)))
      result = failure();
    llvm::SaveAndRestore<bool> defer(deferPassReceipts, true);
    llvm::SaveAndRestore<bool> wait(backWaits, waitBack);
    if (failed(emitOp(*partialOp, inner, after, li)))
      result = failure();
    return after;
  };
  SmallVector<Value> init = emitGuarded(
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, walk->trips, c0),
      executions, [&](ValueRange in) { return ahead(c0, in, false); });
  Block &body = *loop.getBody();
  auto cloned = scf::ForOp::create(
      b, loc, c0, walk->trips, c1, init,
      [&](OpBuilder &, Location, Value t, ValueRange args) {
        IRMapping inner = map;
        inner.map(loop.getInductionVar(), ivAt(t));
        SmallVector<Value> after(args);
        emitPassReceipts(partial, li);
        // The span's copy of this trip: the unit passed it once more.
        Value spanCopy = arith::RemUIOp::create(
            b, loc, arith::SubIOp::create(b, loc, args[span.index], c1),
            constant(span.copies));
        Value next = arith::AddIOp::create(b, loc, t, c1);
        Value more = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           next, walk->trips);
        for (Operation &op : body) {
          if (&op == spanOp || &op == partialOp || !runsIn(&op, li))
            continue;
          if (&op == useOp) {
            after = emitGuarded(more, after, [&](ValueRange in) {
              return ahead(next, in, true);
            });
            exportedCopy[{spanOp->getResult(0), &li}] = spanCopy;
            llvm::SaveAndRestore<Value> guard(backSendGuard, more);
            if (failed(emitOp(op, inner, after, li)))
              result = failure();
            continue;
          }
          if (failed(emitOp(op, inner, after, li)))
            result = failure();
        }
        emitBlockEnd(body, li);
        scf::YieldOp::create(b, loc, after);
      });
  if (failed(result))
    return failure();
  executions.assign(cloned.getResults().begin(), cloned.getResults().end());
  return success();
}

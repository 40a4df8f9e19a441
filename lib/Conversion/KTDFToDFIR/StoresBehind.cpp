//===- StoresBehind.cpp - An exchange ahead of the previous trip's stores -===//
//
// This file emits the loop of a unit that runs an exchange (an all-reduce's
// send, a tile copy) in a loop and then stores the trip's result (a row
// loop's normalised row, an all-reduced RMSNorm's): spyre_like's and
// sample_device's store engines, which serve both lanes of a core. Emitted
// in order, the exchange of trip i + 1 waits behind the stores of trip i,
// which wait for trip i's whole compute after its exchange: the ring, the
// compute after it and the stores run one after the other on every trip
// (rmsnorm_256x4096_2x2 on spyre_like: 172 cycles of ring, 330 of
// normalising and 454 of the two lanes' stores, 961 a row). Instead the
// unit runs the stores one trip behind:
//
//   for t in 0..trips + 1:
//     { if t < trips: the body but the stores (t);
//       if t > 0: stores(t - 1) }
//
// so the exchange of trip t goes out as soon as its partial is made, and
// the stores of trip t - 1 follow it, while the compute unit normalises.
// The stores of trip t - 1 wait for the drain of that trip only, which
// every unit runs before anything of trip t; the rest of trip t waits for
// nothing they hand back but the copy the drain of trip t + 1 fills
// (copy t + 1 - N of the N >= 2 copies, freed by the stores of trip
// t + 1 - N <= t - 1, issued before): no new cycle of waits. Nothing else
// orders the stores: no later stage loads what they store in the loop (a
// device-memory region channel), and they touch no scratchpad view.
//
// A unit that also loads the body's row span ahead (SkewedLoops.cpp,
// leadingSpanLoads: mesh_device's one DMA engine a core) issues the span
// of trip t + 1 first in iteration t. It waits for the copy the readers of
// trip t + 1 - N hand back (N >= 2 copies), in trip t - 1 or before.
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

PipelineOp ProgramBuilder::storesBehind(scf::ForOp loop,
                                        const LaneInstance &li) {
  SmallVector<Operation *> ops;
  for (Operation &op : *loop.getBody())
    if (runsIn(&op, li))
      ops.push_back(&op);
  if (ops.size() < 2)
    return {};
  auto stores = dyn_cast<PipelineOp>(ops.back());
  if (!stores || stores.getPerInstance() || stores->getNumResults() != 0)
    return {};
  const PipelineInfo &info = kernel.infoOf(stores);
  if (info.copies < 2)
    return {};
  // The rest of the body holds an exchange this unit runs.
  bool exchanges = false;
  for (Operation *op : ArrayRef(ops).drop_back())
    op->walk([&](StageOp stage) {
      exchanges |= (getAllReduce(stage) || getTileCopy(stage)) &&
                   llvm::is_contained(work[&li], stage);
    });
  if (!exchanges)
    return {};
  // Nothing but the hand-overs orders this unit's stages of it: no region
  // channel from or to them (a later load of what they store), none this
  // unit takes when passing it (it would take it after the next trip's
  // stages), and none taken just before it.
  auto mine = [&](StageOp stage) {
    return stage->getParentOp() == stores &&
           llvm::is_contained(work[&li], stage);
  };
  for (const PipelineInfo &other : kernel.pipelines)
    for (const Channel &ch : other.regionChannels)
      if (mine(ch.from) || mine(ch.to) ||
          ch.receiveBefore == stores.getOperation() ||
          (&other == &info && kernel.unitOf(ch.to, li) == unit))
        return {};
  bool any = false;
  for (StageOp stage : work[&li]) {
    if (stage->getParentOp() != stores)
      continue;
    if (stage.isCompute() || getAllReduce(stage) || getTileCopy(stage) ||
        !waitsForOtherUnit(stage, info, li))
      return {};
    any = true;
  }
  return any ? stores : PipelineOp();
}

scf::ForOp ProgramBuilder::emitStoresBehind(
    Location loc, Value trips, ValueRange init,
    function_ref<SmallVector<Value>(Value t, ValueRange)> rest,
    function_ref<SmallVector<Value>(Value t, ValueRange)> storesOf) {
  OpBuilder &b = *builder;
  Value c0 = constant(0), c1 = constant(1);
  return scf::ForOp::create(
      b, loc, c0, arith::AddIOp::create(b, loc, trips, c1), c1, init,
      [&](OpBuilder &, Location, Value t, ValueRange args) {
        SmallVector<Value> next = rest(t, args);
        next = storesOf(t, next);
        scf::YieldOp::create(b, loc, next);
      });
}

LogicalResult ProgramBuilder::emitStoresBehindLoop(
    scf::ForOp loop, PipelineOp stores, PipelineOp span, IRMapping &map,
    SmallVector<Value> &executions, const LaneInstance &li) {
  OpBuilder &b = *builder;
  Location loc = loop.getLoc();
  Value c0 = constant(0), c1 = constant(1);
  FailureOr<TripWalk> walk = tripWalkOf(loop, map, c0, c1);
  if (failed(walk))
    return failure();
  Value trips = walk->trips;
  auto ivAt = [&](Value t) { return ivAtTrip(*walk, t, loc); };
  LogicalResult result = success();
  // The span of the first trip, unless issued before a staging pipeline
  // (LateStaging.cpp).
  if (span) {
    if (aheadIssued == loop.getOperation())
      aheadIssued = nullptr;
    else if (failed(emitFirstAhead(loop, span, StagePart::All, map, executions,
                                   li)))
      return failure();
  }
  Block &body = *loop.getBody();
  auto rest = [&](Value t, ValueRange in) {
    Value has =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, t, trips);
    return emitGuarded(has, in, [&](ValueRange in) {
      IRMapping inner = map;
      inner.map(loop.getInductionVar(), ivAt(t));
      SmallVector<Value> after(in);
      // The span of trip t + 1 before the rest of trip t.
      if (span) {
        unsigned index = kernel.infoOf(span).index;
        Value next = arith::AddIOp::create(b, loc, t, c1);
        emitIf(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, next,
                                     trips),
               [&] {
                 IRMapping ahead = map;
                 ahead.map(loop.getInductionVar(), ivAt(next));
                 if (failed(emitPipeline(
                         span, ahead,
                         arith::AddIOp::create(b, loc, in[index], c1), li)))
                   result = failure();
               });
        after[index] = arith::AddIOp::create(b, loc, in[index], c1);
      }
      for (Operation &op : body)
        if (&op != stores.getOperation() && &op != span.getOperation() &&
            runsIn(&op, li) &&
            (failed(emitDeferredReceives(op, inner, li)) ||
             failed(emitOp(op, inner, after, li))))
          result = failure();
      emitBlockEnd(body, li);
      return after;
    });
  };
  auto storesOf = [&](Value t, ValueRange in) {
    Value behind =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, t, c0);
    return emitGuarded(behind, in, [&](ValueRange in) {
      IRMapping inner = map;
      inner.map(loop.getInductionVar(),
                ivAt(arith::SubIOp::create(b, loc, t, c1)));
      SmallVector<Value> after(in);
      if (failed(emitOp(*stores.getOperation(), inner, after, li)))
        result = failure();
      return after;
    });
  };
  scf::ForOp behind = emitStoresBehind(loc, trips, executions, rest, storesOf);
  if (failed(result))
    return failure();
  // Iteration t loads trip t + 1 and stores trip t - 1: two ahead.
  if (span)
    dfir::DFIRDialect::SkewedAttrHelper(b.getContext())
        .setAttr(behind, b.getI64IntegerAttr(2));
  executions.assign(behind.getResults().begin(), behind.getResults().end());
  return success();
}

PipelineOp ProgramBuilder::storesBehind(scf::ForOp loop,
                                        ArrayRef<LaneWalk *> runs) {
  PipelineOp stores;
  for (LaneWalk *lane : runs) {
    PipelineOp mine = storesBehind(loop, *lane->li);
    if (!mine || (stores && mine != stores))
      return {};
    stores = mine;
  }
  return stores;
}

FailureOr<SmallVector<Value>>
ProgramBuilder::emitLanesStoresBehind(scf::ForOp loop, PipelineOp stores,
                                      ArrayRef<LaneWalk *> runs,
                                      const LaneTrips &lanes, ValueRange init) {
  OpBuilder &b = *builder;
  Location loc = loop.getLoc();
  size_t numPipelines = countersPerLane();
  Value c0 = constant(0), c1 = constant(1);
  auto ivOf = [&](size_t k, Value t) -> Value {
    return arith::AddIOp::create(
        b, loc, lanes.lbs[k], arith::MulIOp::create(b, loc, t, lanes.steps[k]));
  };
  LogicalResult result = success();
  Block &body = *loop.getBody();
  // Trip t of every lane that has it, op by op, but the stores.
  auto rest = [&](Value t, ValueRange in) {
    SmallVector<LaneWalk> nested;
    for (size_t k = 0; k < runs.size(); ++k) {
      Value has = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, t,
                                        lanes.trips[k]);
      IRMapping inner = runs[k]->map;
      inner.map(loop.getInductionVar(), ivOf(k, t));
      auto mine = in.slice(k * numPipelines, numPipelines);
      nested.push_back({runs[k]->li, std::move(inner), has,
                        SmallVector<Value>(mine), runs[k]->work});
    }
    if (failed(emitLanesTogether(body, nested, stores)))
      result = failure();
    SmallVector<Value> next;
    for (LaneWalk &lane : nested)
      next.append(lane.executions);
    return next;
  };
  // The stores of trip t - 1 of every lane that had it.
  auto storesOf = [&](Value t, ValueRange in) {
    SmallVector<Value> next;
    for (size_t k = 0; k < runs.size(); ++k) {
      Value had = arith::AndIOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, t, c0),
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, t,
                                lanes.trips[k]));
      auto mine = in.slice(k * numPipelines, numPipelines);
      next.append(emitGuarded(had, mine, [&](ValueRange in) {
        IRMapping inner = runs[k]->map;
        inner.map(loop.getInductionVar(),
                  ivOf(k, arith::SubIOp::create(b, loc, t, c1)));
        SmallVector<Value> after(in);
        if (failed(emitOp(*stores.getOperation(), inner, after, *runs[k]->li)))
          result = failure();
        return after;
      }));
    }
    return next;
  };
  scf::ForOp behind = emitStoresBehind(loc, lanes.most, init, rest, storesOf);
  if (failed(result))
    return failure();
  return SmallVector<Value>(behind.getResults());
}

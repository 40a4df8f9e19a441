//===- LaneInterleaving.cpp - A shared unit's walk over several lanes -----===//
//
// This file emits the program of a unit that several lane instances share
// (a core's DMA engines, which serve all its sub-cores or corelets). Run
// lane by lane, such a unit would go through one lane's whole loop before
// the next lane's: it can run ahead of a lane's compute unit by only the
// copies of its buffers, so the other lanes starve while it waits for a
// free copy, and the lanes end up taking turns (sample_device's softmax
// kept its compute units 51 % busy). Instead the unit walks the lanes
// together, operation by operation of the parallel body: a loop several of
// them run becomes one loop over the most trips any of them has, whose
// iteration t runs iteration t of every lane that has one, its inner loops
// again walked together (RoPE's 20 heads per lane and chunk, walked one
// lane after the other, started the second lane's compute unit 53,349
// cycles late on sample_device: 412,855 cycles, together 336,105). Each
// lane still sees its own stages in its own order, so the synchronisation
// with the lanes' other units is unchanged; only the order in which the
// shared unit serves the lanes changes. That order puts the lanes with the
// most work first (the pipeline executions of their grid points, the
// loops' trip counts folded at each point): a causal attention's last query
// blocks walk 8 key blocks where the first walk 1, and the core's DMA
// engine loading their first keys first starts the longest lanes ~3,800
// cycles earlier. When the first lane has the most iterations of a loop,
// the unit serves an iteration lane after lane (each lane's inner loops
// whole), provided no other shared unit waits in the body's loops and no
// lane's writer can wait for the unit within the iteration (its trips fit
// in the copies the unit hands back): the longest lane's stores are not
// held behind another lane's (layernorm_rows on spyre_like: 899 -> 853).
//
// Lanes of one core can take part in different exchanges between cores
// (two all-reduce groups' rings, tile copies of different tiles). By work,
// core 0's DMA engine sent group B's ring before A's and core 1's A's
// before B's, each waiting for the other (colcenter_uneven_3 deadlocked on
// sample_device). An op holding an exchange orders its lanes alike on
// every core, by group then grid point, none of its loops led by the
// longest lane: every unit takes the exchanges in one order. Only their
// stages wait for other cores (a pipeline's channels stay in a lane), so
// other ops keep the work order. A block two lanes of a core load at the
// same trip goes once into one buffer (SharedLoads.cpp). The trip counts
// and guards of these walks are LaneTrips.cpp's.
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

/// The all-reduces and tile copies the stages of `op` hold: the exchanges
/// whose units wait for units of other cores.
static SmallVector<Operation *> exchangesIn(Operation &op) {
  SmallVector<Operation *> exchanges;
  op.walk([&](StageOp stage) {
    if (AllReduceOp allReduce = getAllReduce(stage))
      exchanges.push_back(allReduce);
    else
      for (TileCopyOp copy : getTileCopies(stage))
        exchanges.push_back(copy);
  });
  return exchanges;
}

/// The smallest tile `tile` exchanges with in `exchange` (itself
/// included): its all-reduce group's first member, or the smallest tile a
/// tile copy links it to, from source to consumers and on.
static int64_t groupOf(Operation *exchange, int64_t tile) {
  if (auto allReduce = dyn_cast<AllReduceOp>(exchange)) {
    for (ArrayRef<int64_t> group : allReduce.getMembers())
      if (llvm::is_contained(group, tile))
        return group.front(); // Ascending.
    return tile;
  }
  ArrayRef<int64_t> sources = cast<TileCopyOp>(exchange).getSources();
  auto tiles = llvm::seq<int64_t>(0, sources.size());
  SmallVector<int64_t> least(tiles.begin(), tiles.end());
  for (bool changed = true; changed;) {
    changed = false;
    for (auto [consumer, source] : llvm::enumerate(sources))
      if (source >= 0 && source < static_cast<int64_t>(sources.size()) &&
          least[consumer] != least[source]) {
        least[consumer] = least[source] =
            std::min(least[consumer], least[source]);
        changed = true;
      }
  }
  return tile < static_cast<int64_t>(least.size()) ? least[tile] : tile;
}

/// The order every core's units serve `li` in an op holding `exchanges`:
/// its group in each, then its grid point.
///
/// Safe as long as the op's lanes walk op by op: each exchange op is then
/// served in one order on every core. A loop whose body issues a loop's
/// first loads ahead is served iteration by iteration, lane after lane;
/// with two crossing groupings there (a core serving lanes x1 then x2,
/// another a lane y in x2's group of the first exchange and x1's of the
/// second), x1's second exchange waits for y's second, which follows y's
/// first, which waits for x2's first, which follows x1's second: a cycle
/// this key does not rule out.
/// Not reached so far: a group's tiles run on different cores (else the
/// all-reduce is refused), and every loop holding an exchange that a unit
/// serves for several lanes walked them op by op: the crossing [2, 2]
/// kernels of test/EndToEnd/exchange-crossing-groups.test and every
/// EndToEnd, realworld and bench kernel on the three devices
/// (2026-12-05). Such a loop would need a skewed loop (a unit that loads
/// and stores: mesh_device's one engine per core, none of which served a
/// loop holding an exchange for two lanes) or a row span loaded by a
/// pipeline of its own in its body.
static SmallVector<int64_t> exchangeOrderOf(ArrayRef<Operation *> exchanges,
                                            const LaneInstance &li,
                                            ArrayRef<int64_t> extents) {
  SmallVector<int64_t> order;
  // An exchange needs one tile per lane (else the op is refused anyway).
  if (li.count == 1)
    for (Operation *exchange : exchanges)
      order.push_back(groupOf(exchange, tileOfPoint(li.start, extents)));
  order.push_back(li.start);
  return order;
}

bool ProgramBuilder::walksTogether(Block &body, ArrayRef<LaneWalk *> runs) {
  for (LaneWalk *lane : runs)
    for (Operation &op : body) {
      if (!runsIn(&op, *lane->li))
        continue;
      StagePart part;
      if (auto pipeline = dyn_cast<PipelineOp>(op);
          pipeline && loadsBeforeStaging(pipeline, *lane->li))
        return false;
      if (auto loop = dyn_cast<scf::ForOp>(op);
          loop && aheadPipelineOf(loop, *lane->li, part))
        return false;
    }
  return true;
}

bool ProgramBuilder::othersWaitIn(scf::ForOp loop, ArrayRef<LaneWalk *> runs) {
  // The stages of the loop, and those that wait where a unit's program
  // passes its pipelines (as in runsIn).
  SmallVector<StageOp> waiting;
  loop.walk([&](StageOp stage) { waiting.push_back(stage); });
  loop.walk([&](PipelineOp pipeline) {
    const PipelineInfo &info = kernel.infoOf(pipeline);
    for (const Channel &ch : info.regionChannels)
      waiting.push_back(ch.to);
    for (const Channel &ch : info.channels)
      if (ch.exported && ch.copies == 0)
        waiting.push_back(ch.to);
  });
  for (StageOp stage : waiting)
    for (LaneWalk *a : runs) {
      std::string other = kernel.unitOf(stage, *a->li);
      if (other == unit)
        continue;
      for (LaneWalk *b : runs)
        if (b != a && kernel.unitOf(stage, *b->li) == other)
          return true;
    }
  return false;
}

bool ProgramBuilder::turnLoops(Block &body, ArrayRef<LaneWalk *> runs,
                               SmallVector<TurnLoop> &loops) {
  loops.clear();
  auto none = [&] {
    loops.clear();
    return false;
  };
  for (auto loop : body.getOps<scf::ForOp>()) {
    if (othersWaitIn(loop, runs))
      return none();
    if (llvm::none_of(runs,
                      [&](LaneWalk *lane) { return runsIn(loop, *lane->li); }))
      continue;
    // The fewest copies of a buffer this unit hands back in the loop. A
    // lane would wait for a buffer it hands on (a load), and a pipeline of
    // it in a deeper loop runs an unknown number of times.
    std::optional<int64_t> copies;
    for (Operation &op : *loop.getBody()) {
      if (auto inner = dyn_cast<scf::ForOp>(op)) {
        if (llvm::any_of(
                runs, [&](LaneWalk *lane) { return runsIn(inner, *lane->li); }))
          return none();
        continue;
      }
      auto pipeline = dyn_cast<PipelineOp>(op);
      if (!pipeline)
        continue;
      for (const Channel &ch : kernel.infoOf(pipeline).channels) {
        if (llvm::none_of(runs, [&](LaneWalk *lane) {
              return kernel.unitOf(ch.from, *lane->li) == unit;
            }))
          continue;
        if (ch.copies == 0)
          return none();
        copies = std::min(copies.value_or(ch.copies), ch.copies);
      }
    }
    loops.push_back({loop, copies});
  }
  return !loops.empty();
}

LogicalResult ProgramBuilder::emitLanesTogether(Block &block,
                                                MutableArrayRef<LaneWalk> lanes,
                                                Operation *skip) {
  OpBuilder &b = *builder;
  LogicalResult result = success();
  Operation *skipped = nullptr;
  for (Operation &op : block) {
    if (&op == skip || &op == skipped)
      continue;
    SmallVector<LaneWalk *> runs;
    for (LaneWalk &lane : lanes)
      if (runsIn(&op, *lane.li))
        runs.push_back(&lane);
    SmallVector<Operation *> exchanges = exchangesIn(op);
    if (exchanges.empty()) {
      llvm::stable_sort(runs, [](const LaneWalk *a, const LaneWalk *b) {
        return a->work > b->work;
      });
    } else {
      ArrayRef<int64_t> extents = kernel.parallel.getExtents();
      llvm::stable_sort(runs, [&](const LaneWalk *a, const LaneWalk *b) {
        return exchangeOrderOf(exchanges, *a->li, extents) <
               exchangeOrderOf(exchanges, *b->li, extents);
      });
    }
    // The staging loads after the next loop's first iteration's.
    if (auto staging = dyn_cast<PipelineOp>(op);
        staging && !staging.getPerInstance()) {
      SmallVector<const LaneInstance *> instances;
      for (LaneWalk *lane : runs)
        instances.push_back(lane->li);
      if (deferStagingLoads(staging, instances))
        continue;
    }
    // Two pipelines whose stages the unit runs by iteration, for every
    // lane (IterationOrder.cpp).
    if (auto pipeline = dyn_cast<PipelineOp>(op)) {
      PipelineOp second = iterationPartner(pipeline);
      FailureOr<bool> merged =
          second && second->getBlock() == &block && second != skip
              ? emitLanesByIteration(pipeline, second, runs)
              : FailureOr<bool>(false);
      if (failed(merged))
        return failure();
      if (*merged) {
        skipped = second;
        continue;
      }
    }
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop || runs.size() < 2) {
      if (auto pipeline = dyn_cast<PipelineOp>(op);
          pipeline && failed(emitSharedLoadWaits(pipeline, runs)))
        return failure();
      for (LaneWalk *lane : runs)
        lane->executions =
            emitGuarded(lane->active, lane->executions, [&](ValueRange in) {
              // Values computed under a guard do not dominate what follows it.
              IRMapping map = lane->map;
              SmallVector<Value> executions(in);
              if (failed(emitOp(op, map, executions, *lane->li)))
                result = failure();
              return executions;
            });
      sharedTurns.clear();
      if (failed(result))
        return failure();
      continue;
    }
    // Each lane's trips: ceil(max(ub - lb, 0) / step), none when inactive.
    Location loc = loop.getLoc();
    Value c0 = constant(0), c1 = constant(1), most = c0;
    SmallVector<Value> lbs, steps, trips, init;
    for (LaneWalk *lane : runs) {
      FailureOr<Value> n = tripsOf(loop, lane->map, c0, c1);
      if (failed(n))
        return failure();
      // (Cloned when counting the trips.)
      Value lb = *materialize(loop.getLowerBound(), lane->map),
            step = *materialize(loop.getStep(), lane->map);
      if (lane->active)
        *n = arith::SelectOp::create(b, loc, lane->active, *n, c0);
      most = arith::MaxUIOp::create(b, loc, most, *n);
      lbs.push_back(lb);
      steps.push_back(step);
      trips.push_back(*n);
      init.append(lane->executions);
    }
    size_t numPipelines = countersPerLane();
    Block &body = *loop.getBody();
    // The lanes' iterations t walk together too (their inner loops trip by
    // trip), unless the body issues a loop's first loads ahead, which
    // emitBlock orders lane by lane.
    bool nested = walksTogether(body, runs);
    SmallVector<TurnLoop> inTurn;
    Value leads;
    if (nested && exchanges.empty() && turnLoops(body, runs, inTurn)) {
      // The first lane has the most iterations, and more than another.
      leads = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, trips[0],
                                    most);
      Value fewer;
      for (Value n : ArrayRef<Value>(trips).drop_front()) {
        Value less = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, n,
                                           trips[0]);
        fewer = fewer ? arith::OrIOp::create(b, loc, fewer, less) : less;
      }
      leads = arith::AndIOp::create(b, loc, leads, fewer);
    }
    // An exchange's lanes walked op by op: their stores may go a trip
    // behind (StoresBehind.cpp).
    if (PipelineOp stores = nested && inTurn.empty() && !exchanges.empty()
                                ? storesBehind(loop, runs)
                                : PipelineOp()) {
      auto out = emitLanesStoresBehind(loop, stores, runs,
                                       {lbs, steps, trips, most}, init);
      if (failed(out))
        return failure();
      for (auto [k, lane] : llvm::enumerate(runs)) {
        auto mine = ArrayRef<Value>(*out).slice(k * numPipelines, numPipelines);
        lane->executions.assign(mine.begin(), mine.end());
      }
      continue;
    }
    auto together = scf::ForOp::create(
        b, loc, c0, most, c1, init,
        [&](OpBuilder &, Location, Value t, ValueRange args) {
          // Whether lane k has iteration t, computed where first needed.
          SmallVector<Value> has(runs.size());
          auto hasOf = [&](size_t k) {
            if (!has[k])
              has[k] = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                             t, trips[k]);
            return has[k];
          };
          auto ivOf = [&](size_t k) -> Value {
            return arith::AddIOp::create(
                b, loc, lbs[k], arith::MulIOp::create(b, loc, t, steps[k]));
          };
          // Iteration t of each lane whole, one lane after the other.
          auto laneByLane = [&](ValueRange in) {
            SmallVector<Value> next;
            for (size_t k = 0; k < runs.size(); ++k) {
              ValueRange mine = in.slice(k * numPipelines, numPipelines);
              next.append(emitGuarded(hasOf(k), mine, [&](ValueRange in) {
                IRMapping inner = runs[k]->map;
                inner.map(loop.getInductionVar(), ivOf(k));
                auto after = emitBlock(body, inner, in, *runs[k]->li);
                if (failed(after)) {
                  result = failure();
                  return SmallVector<Value>(in);
                }
                return *after;
              }));
            }
            return next;
          };
          // Iteration t of the lanes op by op, inner loops trip by trip.
          auto opByOp = [&](ValueRange in) {
            SmallVector<LaneWalk> nestedLanes;
            for (size_t k = 0; k < runs.size(); ++k) {
              Value hasT = hasOf(k);
              IRMapping inner = runs[k]->map;
              inner.map(loop.getInductionVar(), ivOf(k));
              auto mine = in.slice(k * numPipelines, numPipelines);
              nestedLanes.push_back({runs[k]->li, std::move(inner), hasT,
                                     SmallVector<Value>(mine), runs[k]->work});
            }
            if (failed(emitLanesTogether(body, nestedLanes)))
              result = failure();
            SmallVector<Value> next;
            for (LaneWalk &lane : nestedLanes)
              next.append(lane.executions);
            return next;
          };
          SmallVector<Value> next;
          if (!nested) {
            next = laneByLane(args);
          } else if (inTurn.empty()) {
            next = opByOp(args);
          } else {
            // Both walks below are guarded: a lane's compare made first
            // inside one of them would not dominate its use in the other
            // (tripsFit makes none when no turn loop hands copies back).
            for (size_t k = 0; k < runs.size(); ++k)
              hasOf(k);
            FailureOr<Value> fits = tripsFit(loop, inTurn, runs, hasOf, ivOf);
            if (failed(fits)) {
              result = failure();
              next.assign(args.begin(), args.end());
            } else {
              *fits = arith::AndIOp::create(b, loc, *fits, leads);
              next = emitGuarded(*fits, args, laneByLane);
              // Not xori with `true`, which reads as -1 in the program.
              Value fitsOnce = arith::SelectOp::create(b, loc, *fits, c1, c0);
              next = emitGuarded(arith::CmpIOp::create(b, loc,
                                                       arith::CmpIPredicate::eq,
                                                       fitsOnce, c0),
                                 next, opByOp);
            }
          }
          // A lane without a first iteration has no point here (constant
          // bounds: loadsAfterFirstTrip).
          SmallVector<LaneWalk> staging;
          for (auto [k, lane] : llvm::enumerate(runs))
            staging.push_back(
                {lane->li,
                 lane->map,
                 arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, t,
                                       trips[k]),
                 {},
                 0});
          auto after = emitStagingAfterFirstTrip(
              loop,
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, t, c0),
              staging, next);
          if (failed(after))
            result = failure();
          else
            next = *after;
          scf::YieldOp::create(b, loc, next);
        });
    if (failed(result))
      return failure();
    for (auto [k, lane] : llvm::enumerate(runs)) {
      auto out = together.getResults().slice(k * numPipelines, numPipelines);
      lane->executions.assign(out.begin(), out.end());
    }
  }
  for (LaneWalk &lane : lanes)
    emitGuarded(lane.active, {}, [&](ValueRange) {
      emitBlockEnd(block, *lane.li);
      return SmallVector<Value>();
    });
  return success();
}

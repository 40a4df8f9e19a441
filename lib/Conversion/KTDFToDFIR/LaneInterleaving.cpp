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
// cycles earlier.
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

/// The value of integer or index `v` when the values in `known` hold (a
/// grid point's coordinates): side-effect free arith ops folded, memoised in
/// `known`; none when `v` depends on anything else (a loop's induction
/// variable, a runtime argument).
static std::optional<int64_t> foldAt(Value v,
                                     llvm::DenseMap<Value, int64_t> &known) {
  if (auto it = known.find(v); it != known.end())
    return it->second;
  Operation *def = v.getDefiningOp();
  if (!def || !def->getDialect() ||
      def->getDialect()->getNamespace() != "arith" ||
      def->getNumResults() != 1 || def->getNumRegions() || !isPure(def) ||
      !v.getType().isIntOrIndex())
    return std::nullopt;
  SmallVector<Attribute> operands;
  for (Value operand : def->getOperands()) {
    std::optional<int64_t> c = foldAt(operand, known);
    if (!c || !operand.getType().isIntOrIndex())
      return std::nullopt;
    operands.push_back(IntegerAttr::get(operand.getType(), *c));
  }
  SmallVector<OpFoldResult> results;
  if (failed(def->fold(operands, results)) || results.size() != 1)
    return std::nullopt;
  std::optional<int64_t> value;
  if (auto attr = dyn_cast<Attribute>(results[0])) {
    if (auto integer = dyn_cast<IntegerAttr>(attr))
      value = integer.getValue().getSExtValue();
  } else {
    value = foldAt(cast<Value>(results[0]), known);
  }
  if (value)
    known[v] = *value;
  return value;
}

/// The pipeline executions of `block` at the point `known` describes; none
/// when a loop's bounds do not fold there.
static std::optional<int64_t>
executionsIn(Block &block, llvm::DenseMap<Value, int64_t> &known) {
  int64_t total = 0;
  for (Operation &op : block) {
    if (isa<PipelineOp>(op)) {
      ++total;
      continue;
    }
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop)
      continue;
    std::optional<int64_t> lb = foldAt(loop.getLowerBound(), known),
                           ub = foldAt(loop.getUpperBound(), known),
                           step = foldAt(loop.getStep(), known);
    std::optional<int64_t> inner = executionsIn(*loop.getBody(), known);
    if (!lb || !ub || !step || *step <= 0 || !inner)
      return std::nullopt;
    total += std::max<int64_t>(0, (*ub - *lb + *step - 1) / *step) * *inner;
  }
  return total;
}

std::optional<int64_t>
ProgramBuilder::executionsOf(const LaneInstance &li) const {
  ParallelOp parallel = kernel.parallel;
  Block &body = parallel.getBody().front();
  ArrayRef<int64_t> extents = parallel.getExtents();
  int64_t n = *parallel.getNumInstances();
  int64_t total = 0;
  for (int64_t j = 0; j < li.count; ++j) {
    // The point of round j, as ProgramBuilder::build's pointOf walks them.
    int64_t t = parallel.getSnake()
                    ? j * n + li.start + (j % 2) * (n - 1 - 2 * li.start)
                    : li.start + j;
    llvm::DenseMap<Value, int64_t> known;
    int64_t stride = parallel.getNumPoints();
    for (auto [d, extent] : llvm::enumerate(extents)) {
      stride /= extent;
      known[body.getArgument(d)] = t / stride % extent;
    }
    std::optional<int64_t> executions = executionsIn(body, known);
    if (!executions)
      return std::nullopt;
    total += *executions;
  }
  return total;
}

SmallVector<Value>
ProgramBuilder::emitGuarded(Value active, ValueRange in,
                            function_ref<SmallVector<Value>(ValueRange)> body) {
  if (!active)
    return body(in);
  OpBuilder &b = *builder;
  Location loc = b.getUnknownLoc();
  Value c0 = constant(0), c1 = constant(1);
  Value n = arith::SelectOp::create(b, loc, active, c1, c0);
  auto guard =
      scf::ForOp::create(b, loc, c0, n, c1, in,
                         [&](OpBuilder &, Location, Value, ValueRange args) {
                           scf::YieldOp::create(b, loc, body(args));
                         });
  return SmallVector<Value>(guard.getResults());
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

LogicalResult
ProgramBuilder::emitLanesTogether(Block &block,
                                  MutableArrayRef<LaneWalk> lanes) {
  OpBuilder &b = *builder;
  LogicalResult result = success();
  for (Operation &op : block) {
    SmallVector<LaneWalk *> runs;
    for (LaneWalk &lane : lanes)
      if (runsIn(&op, *lane.li))
        runs.push_back(&lane);
    llvm::stable_sort(runs, [](const LaneWalk *a, const LaneWalk *b) {
      return a->work > b->work;
    });
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop || runs.size() < 2) {
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
      if (failed(result))
        return failure();
      continue;
    }
    // Each lane's trips: ceil(max(ub - lb, 0) / step), none when inactive.
    Location loc = loop.getLoc();
    Value c0 = constant(0), c1 = constant(1), most = c0;
    SmallVector<Value> lbs, steps, trips, init;
    for (LaneWalk *lane : runs) {
      auto lb = materialize(loop.getLowerBound(), lane->map),
           ub = materialize(loop.getUpperBound(), lane->map),
           step = materialize(loop.getStep(), lane->map);
      if (failed(lb) || failed(ub) || failed(step))
        return failure();
      Value span = arith::MaxSIOp::create(
          b, loc, arith::SubIOp::create(b, loc, *ub, *lb), c0);
      Value n = arith::DivUIOp::create(
          b, loc,
          arith::AddIOp::create(b, loc, span,
                                arith::SubIOp::create(b, loc, *step, c1)),
          *step);
      if (lane->active)
        n = arith::SelectOp::create(b, loc, lane->active, n, c0);
      most = arith::MaxUIOp::create(b, loc, most, n);
      lbs.push_back(*lb);
      steps.push_back(*step);
      trips.push_back(n);
      init.append(lane->executions);
    }
    size_t numPipelines = kernel.pipelines.size();
    // The lanes' iterations t walk together too (their inner loops trip by
    // trip), unless the body issues a loop's first loads ahead, which
    // emitBlock orders lane by lane.
    bool nested = walksTogether(*loop.getBody(), runs);
    SmallVector<LaneWalk> nestedLanes;
    auto together = scf::ForOp::create(
        b, loc, c0, most, c1, init,
        [&](OpBuilder &, Location, Value t, ValueRange args) {
          SmallVector<Value> next;
          for (size_t k = 0; k < runs.size(); ++k) {
            LaneWalk *lane = runs[k];
            ValueRange mine = args.slice(k * numPipelines, numPipelines);
            Value has = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                              t, trips[k]);
            if (nested) {
              IRMapping inner = lane->map;
              inner.map(loop.getInductionVar(),
                        arith::AddIOp::create(
                            b, loc, lbs[k],
                            arith::MulIOp::create(b, loc, t, steps[k])));
              nestedLanes.push_back({lane->li, std::move(inner), has,
                                     SmallVector<Value>(mine), lane->work});
              continue;
            }
            next.append(emitGuarded(has, mine, [&](ValueRange in) {
              IRMapping inner = lane->map;
              Value iv = arith::AddIOp::create(
                  b, loc, lbs[k], arith::MulIOp::create(b, loc, t, steps[k]));
              inner.map(loop.getInductionVar(), iv);
              auto after = emitBlock(*loop.getBody(), inner, in, *lane->li);
              if (failed(after)) {
                result = failure();
                return SmallVector<Value>(in);
              }
              return *after;
            }));
          }
          if (nested) {
            if (failed(emitLanesTogether(*loop.getBody(), nestedLanes)))
              result = failure();
            for (LaneWalk &lane : nestedLanes)
              next.append(lane.executions);
          }
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

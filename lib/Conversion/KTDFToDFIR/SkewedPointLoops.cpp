//===- SkewedPointLoops.cpp - Loads ahead across a lane's points ----------===//
//
// A unit that loads and stores for one lane (mesh_device's one DMA engine
// a tile) whose grid points each run a loop of one skewable pipeline
// (SkewedLoops.cpp: Triton's cyclic row loop, `for r = pid to n step P`)
// skewed each point's loop on its own: the loads of the next point's first
// rows waited behind this point's last stores. softmax_rows on mesh_device
// (2 points a tile, 2 rows each) loaded point 1's rows at ~210 cycles,
// after point 0's stores, and the vector unit waited ~90 cycles for them.
//
// Here the lane's executions are one stream across its points: the loads
// of execution e + D (D = copies - 1, as a skewed loop) go before the
// stores of execution e, wherever e + D lies. A cursor (the next
// execution to load, its point and its row) walks ahead of the stores:
//
//   cursor = (e0, point 0, lb(0)); catch up to e0 + D
//   for j in points: for iv in lb(j)..ub(j) step s(j):
//     catch up to e + D + 1; stores(j, iv, e); e += 1
//
// where catching up to t loads, while the cursor's execution is below t,
// the cursor's row and steps it on, moving to the next point's first row
// past a point's last (a point of no rows is passed over). Each catch-up
// is a loop of D + points steps (scalar steps cost nothing): at most D
// loads and a move past every point. The loads of e + D wait only for the
// feed of e + D - N = e - 1 to free their copy, which needs nothing of
// this unit after e - 1's loads: no new cycle of waits, as in a skewed
// loop. The point loop is marked dfir.skewed for the estimate.
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

/// Lanes of at most this many points: a catch-up steps past each point.
static constexpr int64_t kMaxSkewedPoints = 8;

PipelineOp ProgramBuilder::skewablePointLoop(const LaneInstance &li,
                                             scf::ForOp &loop) {
  if (work.size() != 1 || li.count < 2 || li.count > kMaxSkewedPoints)
    return {};
  loop = {};
  for (Operation &op : kernel.parallel.getBody().front()) {
    if (!runsIn(&op, li))
      continue;
    auto only = dyn_cast<scf::ForOp>(op);
    if (loop || !only || runsOnce(only) || only->getNumResults() != 0)
      return {};
    loop = only;
  }
  if (!loop || lanePipelineOf(loop, li))
    return {};
  StagePart part;
  PipelineOp pipeline = aheadPipelineOf(loop, li, part);
  if (!pipeline || part != StagePart::Loads)
    return {};
  return pipeline;
}

LogicalResult ProgramBuilder::emitSkewedPointLoops(
    scf::ForOp loop, PipelineOp pipeline,
    function_ref<IRMapping(const LaneInstance *, Value)> pointAt,
    ValueRange zeros, SmallVector<Value> &totals) {
  OpBuilder &b = *builder;
  Location loc = loop.getLoc();
  const LaneInstance &li = *work.begin()->first;
  const PipelineInfo &info = kernel.infoOf(pipeline);
  unsigned index = info.index;
  int64_t distance = std::max<int64_t>(info.copies - 1, 1);
  Value c0 = constant(0), c1 = constant(1), count = constant(li.count);
  LogicalResult result = success();
  // Point `j`'s map and loop bounds.
  struct Bounds {
    IRMapping map;
    Value lb, ub, step;
  };
  auto boundsAt = [&](Value j) {
    Bounds at{pointAt(&li, j), {}, {}, {}};
    auto lb = materialize(loop.getLowerBound(), at.map),
         ub = materialize(loop.getUpperBound(), at.map),
         step = materialize(loop.getStep(), at.map);
    if (failed(lb) || failed(ub) || failed(step)) {
      result = failure();
      at.lb = at.ub = at.step = c0;
      return at;
    }
    at.lb = *lb;
    at.ub = *ub;
    at.step = *step;
    return at;
  };
  auto select = [&](Value cond, Value yes, Value no) {
    return arith::SelectOp::create(b, loc, cond, yes, no).getResult();
  };
  auto cmp = [&](arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y).getResult();
  };
  // Loads the cursor (next execution, point, row) up to execution
  // `target`; returns the cursor after.
  auto catchUp = [&](ValueRange cursor, Value target) {
    auto steps = scf::ForOp::create(
        b, loc, c0, constant(distance + li.count), c1, cursor,
        [&](OpBuilder &, Location, Value, ValueRange at) {
          Value e = at[0], j = at[1], row = at[2];
          Bounds point = boundsAt(j);
          Value inLane = cmp(arith::CmpIPredicate::slt, j, count);
          Value inPoint = arith::AndIOp::create(
              b, loc, inLane, cmp(arith::CmpIPredicate::slt, row, point.ub));
          Value load = arith::AndIOp::create(
              b, loc, inPoint, cmp(arith::CmpIPredicate::slt, e, target));
          emitIf(load, [&] {
            IRMapping inner = point.map;
            inner.map(loop.getInductionVar(), row);
            if (failed(emitPipeline(pipeline, inner, e, li, StagePart::Loads)))
              result = failure();
          });
          Value stepped = arith::AddIOp::create(b, loc, row, point.step);
          row = select(load, stepped, row);
          e = select(load, arith::AddIOp::create(b, loc, e, c1), e);
          // Past the point's last row (or a point of none): the next
          // point's first.
          Value past = arith::AndIOp::create(
              b, loc, inLane, cmp(arith::CmpIPredicate::sge, row, point.ub));
          Value nextPoint = arith::AddIOp::create(b, loc, j, c1);
          Value nextRow = boundsAt(nextPoint).lb;
          scf::YieldOp::create(b, loc,
                               ValueRange{e, select(past, nextPoint, j),
                                          select(past, nextRow, row)});
        });
    return SmallVector<Value>(steps.getResults());
  };
  Value first = zeros[index];
  SmallVector<Value> cursor =
      catchUp(ValueRange{first, c0, boundsAt(c0).lb},
              arith::AddIOp::create(b, loc, first, constant(distance)));
  SmallVector<Value> carried(zeros);
  carried.append(cursor);
  size_t n = zeros.size();
  auto points = scf::ForOp::create(
      b, loc, c0, count, c1, carried,
      [&](OpBuilder &, Location, Value j, ValueRange args) {
        Bounds point = boundsAt(j);
        auto rows = scf::ForOp::create(
            b, loc, point.lb, point.ub, point.step, args,
            [&](OpBuilder &, Location, Value iv, ValueRange state) {
              Value e = state[index];
              SmallVector<Value> after(state.take_front(n));
              after.append(catchUp(
                  state.drop_front(n),
                  arith::AddIOp::create(b, loc, e, constant(distance + 1))));
              IRMapping inner = point.map;
              inner.map(loop.getInductionVar(), iv);
              if (failed(
                      emitPipeline(pipeline, inner, e, li, StagePart::Stores)))
                result = failure();
              after[index] = arith::AddIOp::create(b, loc, e, c1);
              emitBlockEnd(*loop.getBody(), li);
              scf::YieldOp::create(b, loc, after);
            });
        emitBlockEnd(kernel.parallel.getBody().front(), li);
        scf::YieldOp::create(b, loc, rows.getResults());
      });
  if (failed(result))
    return failure();
  dfir::DFIRDialect::SkewedAttrHelper(b.getContext())
      .setAttr(points, b.getI64IntegerAttr(distance));
  totals.assign(points.getResults().begin(), points.getResults().begin() + n);
  return success();
}

//===- LaneTrips.cpp - Trips and guards of a walk over several lanes ------===//
//
// The pieces a unit that several lane instances share builds its walk
// from (LaneInterleaving.cpp, StoresBehind.cpp): a lane's trips of a loop
// under its grid point, the induction variable of trip t, a lane's part
// under a 0/1-trip guard, and whether every lane's trips of the loops it
// serves lane after lane fit in the copies it hands back.
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

SmallVector<Value>
ProgramBuilder::emitGuarded(Value active, ValueRange in,
                            function_ref<SmallVector<Value>(ValueRange)> body) {
  if (!active)
    return body(in);
  OpBuilder &b = *builder;
  Location loc = b.getUnknownLoc();
  Value c0 = constant(0), c1 = constant(1);
  auto n = arith::SelectOp::create(b, loc, active, c1, c0);
  auto guard =
      scf::ForOp::create(b, loc, c0, n, c1, in,
                         [&](OpBuilder &, Location, Value, ValueRange args) {
                           scf::YieldOp::create(b, loc, body(args));
                         });
  locateGuard(guard, n);
  return SmallVector<Value>(guard.getResults());
}

FailureOr<Value> ProgramBuilder::tripsOf(scf::ForOp loop, IRMapping &map,
                                         Value c0, Value c1) {
  auto lb = materialize(loop.getLowerBound(), map),
       ub = materialize(loop.getUpperBound(), map),
       step = materialize(loop.getStep(), map);
  if (failed(lb) || failed(ub) || failed(step))
    return failure();
  OpBuilder &b = *builder;
  Location loc = loop.getLoc();
  Value span = arith::MaxSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, *ub, *lb), c0);
  return Value(arith::DivUIOp::create(
      b, loc,
      arith::AddIOp::create(b, loc, span,
                            arith::SubIOp::create(b, loc, *step, c1)),
      *step));
}

FailureOr<ProgramBuilder::TripWalk> ProgramBuilder::tripWalkOf(scf::ForOp loop,
                                                               IRMapping &map,
                                                               Value c0,
                                                               Value c1) {
  FailureOr<Value> trips = tripsOf(loop, map, c0, c1);
  auto lb = materialize(loop.getLowerBound(), map),
       step = materialize(loop.getStep(), map);
  if (failed(trips) || failed(lb) || failed(step))
    return failure();
  return TripWalk{*trips, *lb, *step};
}

Value ProgramBuilder::ivAtTrip(const TripWalk &walk, Value t, Location loc) {
  OpBuilder &b = *builder;
  return arith::AddIOp::create(b, loc, walk.lb,
                               arith::MulIOp::create(b, loc, t, walk.step));
}

FailureOr<Value> ProgramBuilder::tripsFit(scf::ForOp outer,
                                          ArrayRef<TurnLoop> loops,
                                          ArrayRef<LaneWalk *> runs,
                                          function_ref<Value(size_t)> hasOf,
                                          function_ref<Value(size_t)> ivOf) {
  OpBuilder &b = *builder;
  Location loc = outer.getLoc();
  Value fits;
  for (auto [k, lane] : llvm::enumerate(runs)) {
    IRMapping map = lane->map;
    map.map(outer.getInductionVar(), ivOf(k));
    for (const TurnLoop &turn : loops) {
      if (!turn.copies)
        continue;
      FailureOr<Value> n = tripsOf(turn.loop, map, constant(0), constant(1));
      if (failed(n))
        return failure();
      // A lane without iteration t runs none of it.
      Value mine = arith::SelectOp::create(b, loc, hasOf(k), *n, constant(0));
      Value fit = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, mine,
                                        constant(*turn.copies));
      fits = fits ? arith::AndIOp::create(b, loc, fits, fit) : fit;
    }
  }
  // Trips of loops that hand nothing back are not limited. (A compare, not
  // an i1 constant: the program emitter sign-extends `true` to -1.)
  return fits ? fits
              : arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      constant(0), constant(0));
}

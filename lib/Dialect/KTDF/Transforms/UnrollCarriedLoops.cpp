//===- UnrollCarriedLoops.cpp - Loops carrying values become straight code ===//
//
// This file implements --ktdf-unroll-carried-loops: the scheduler turns the
// tensor computation of one block into one compute group whose values live
// in the compute unit, so a value an scf.for carries from one iteration to
// the next (iter_args) has no place in its pipelines. A loop that carries
// values and runs a known, small number of times is unrolled instead: its
// iterations become one block, the carried value one chain of SSA values
// the compute unit keeps (never a round trip through device memory). A
// carrying loop whose results nothing uses is erased first. A loop holding
// an inter-tile consume is unrolled the same way, carrying or not (a loop
// holding a reduction is not: its all-reduce stays in the loop body,
// ktdf-lower-inter-tile). What is left (a trip count known only at run time, or
// too many trips) is refused at the loop by ktdf-check-supported.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFUNROLLCARRIEDLOOPS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

/// The induction variable's values of `loop`, if its bounds and step are
/// constants and it runs at most `maxTrips` times.
static std::optional<SmallVector<APInt>> constantTrips(scf::ForOp loop,
                                                       int64_t maxTrips) {
  APInt lb, ub, step;
  if (!matchPattern(loop.getLowerBound(), m_ConstantInt(&lb)) ||
      !matchPattern(loop.getUpperBound(), m_ConstantInt(&ub)) ||
      !matchPattern(loop.getStep(), m_ConstantInt(&step)) ||
      !step.isStrictlyPositive())
    return std::nullopt;
  bool isSigned = !loop.getUnsignedCmp();
  SmallVector<APInt> values;
  APInt iv = lb;
  while (isSigned ? iv.slt(ub) : iv.ult(ub)) {
    if (static_cast<int64_t>(values.size()) == maxTrips)
      return std::nullopt;
    values.push_back(iv);
    bool overflow = false;
    iv = isSigned ? iv.sadd_ov(step, overflow) : iv.uadd_ov(step, overflow);
    if (overflow)
      break;
  }
  return values;
}

/// Replaces `loop` by its iterations, one after another, each reading the
/// values the previous one yielded.
static void unroll(scf::ForOp loop, ArrayRef<APInt> ivs) {
  OpBuilder builder(loop);
  Location loc = loop.getLoc();
  Type ivType = loop.getInductionVar().getType();
  SmallVector<Value> carried(loop.getInitArgs());
  Block *body = loop.getBody();
  for (const APInt &iv : ivs) {
    IRMapping mapping;
    mapping.map(loop.getInductionVar(),
                arith::ConstantOp::create(
                    builder, loc, ivType,
                    builder.getIntegerAttr(ivType, iv.getSExtValue())));
    mapping.map(loop.getRegionIterArgs(), carried);
    for (Operation &op : body->without_terminator())
      builder.clone(op, mapping);
    carried.clear();
    for (Value v : body->getTerminator()->getOperands())
      carried.push_back(mapping.lookupOrDefault(v));
  }
  loop->replaceAllUsesWith(carried);
  loop.erase();
}

bool mlir::ktdf::isUnrolledCarriedLoop(scf::ForOp loop) {
  return isOpTriviallyDead(loop) ||
         constantTrips(loop, kMaxUnrolledTrips).has_value();
}

bool mlir::ktdf::unrollConstantLoop(scf::ForOp loop, int64_t maxTrips) {
  std::optional<SmallVector<APInt>> ivs = constantTrips(loop, maxTrips);
  if (ivs)
    unroll(loop, *ivs);
  return ivs.has_value();
}

/// Whether `loop` holds an inter-tile consume: the tile copy it becomes
/// exchanges scratchpad views between tiles once per kernel, so a loop of
/// known trips around it is unrolled like a carrying loop. (An all-reduce
/// stays in its loop: rmsnorm_2x2's row loop of 8 trips, unrolled, took
/// 1,849 / 2,218 / 1,388 cycles on spyre_like / mesh_device / sample_device;
/// kept, its trips spread over idle lanes, 392 / 621 / 906.)
static bool holdsInterTileConsume(scf::ForOp loop) {
  return loop
      ->walk([](Operation *op) {
        return isa<ktdp::InterTileConsumeOp>(op) ? WalkResult::interrupt()
                                                 : WalkResult::advance();
      })
      .wasInterrupted();
}

namespace {
struct UnrollCarriedLoopsPass
    : public ktdf::impl::KTDFUnrollCarriedLoopsBase<UnrollCarriedLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    // Innermost first (post-order). Unrolling an outer loop copies the
    // loops it holds, whose bounds may then be constants: repeat until a
    // round unrolls nothing.
    bool changed = true;
    while (changed) {
      changed = false;
      SmallVector<scf::ForOp> loops;
      getOperation().walk([&](scf::ForOp loop) {
        if (loop.getNumRegionIterArgs() != 0 || holdsInterTileConsume(loop))
          loops.push_back(loop);
      });
      // Each loop is processed before any loop enclosing it, and erasing
      // or unrolling it touches no loop later in the list.
      for (scf::ForOp loop : loops) {
        if (isOpTriviallyDead(loop)) {
          loop.erase();
          continue;
        }
        changed |= unrollConstantLoop(loop, maxTrips);
      }
    }
  }
};
} // namespace

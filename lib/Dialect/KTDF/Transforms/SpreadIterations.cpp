//===- SpreadIterations.cpp - A grid point's iterations over idle lanes ---===//
//
// This file implements --ktdf-spread-iterations. A kernel whose grid has
// fewer points than the device has instances leaves lanes idle: a 32-point
// softmax on a 64-lane device computes at half the device's rate whatever
// the schedule of each lane. The iterations of a loop of one grid point are
// independent (ktdf-check-supported refuses kernels whose iterations
// communicate through memory, and loops that carry values), so K copies of
// the point can each run every K-th iteration: the pass adds a grid
// dimension of extent K and makes each loop of the parallel body start K
// different iterations apart. Distribution then gives each copy its own
// instance.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Scheduler/ScheduleTarget.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFSPREADITERATIONS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

/// The loop's trip count when its bounds differ by a constant and its step
/// is constant (`%ub = %lb + C`, or both constant).
static std::optional<int64_t> knownTrips(scf::ForOp loop) {
  APInt step, lb, ub, c;
  if (!matchPattern(loop.getStep(), m_ConstantInt(&step)) ||
      step.getSExtValue() <= 0)
    return std::nullopt;
  std::optional<int64_t> span;
  Value lower = loop.getLowerBound(), upper = loop.getUpperBound();
  if (matchPattern(lower, m_ConstantInt(&lb)) &&
      matchPattern(upper, m_ConstantInt(&ub)))
    span = ub.getSExtValue() - lb.getSExtValue();
  else if (auto add = upper.getDefiningOp<arith::AddIOp>())
    for (auto [mine, other] : {std::pair{add.getLhs(), add.getRhs()},
                               std::pair{add.getRhs(), add.getLhs()}})
      if (mine == lower && matchPattern(other, m_ConstantInt(&c)))
        span = c.getSExtValue();
  if (!span)
    return std::nullopt;
  int64_t s = step.getSExtValue();
  return std::max<int64_t>(0, (*span + s - 1) / s);
}

/// The loops of the parallel body to spread, or none when the body does
/// not qualify.
static SmallVector<scf::ForOp> spreadableLoops(ParallelOp parallel,
                                               StringRef globalKind) {
  SmallVector<scf::ForOp> loops;
  bool ok = true;
  parallel.walk([&](ktdp::ConstructMemoryViewOp view) {
    // A carried value or a matrix hand-over lives in each lane's own part
    // of the scratchpad and every execution fills it before reading it, so
    // copies on other lanes do not share it.
    auto kind = view->getAttrOfType<StringAttr>("ktdf.memory");
    if ((!kind || kind.getValue() != globalKind) &&
        !view->hasAttr(kCarriedViewAttrName) &&
        !view->hasAttr(kHandoverViewAttrName))
      ok = false;
  });
  for (Operation &op : parallel.getBody().front()) {
    if (isa<PipelineOp>(op))
      return {};
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop)
      continue;
    if (loop.getNumRegionIterArgs() != 0 ||
        (matchPattern(loop.getLowerBound(), m_Constant()) &&
         matchPattern(loop.getStep(), m_Constant()) &&
         !loop->hasAttr(kSpreadChunksAttrName)))
      return {};
    if (loop->walk([](PipelineOp) { return WalkResult::interrupt(); })
            .wasInterrupted())
      loops.push_back(loop);
  }
  if (!ok)
    return {};
  return loops;
}

namespace {
struct SpreadIterationsPass
    : public ktdf::impl::KTDFSpreadIterationsBase<SpreadIterationsPass> {
  using Base::Base;
  void runOnOperation() override {
    auto &target = getAnalysis<ktflow::sched::ScheduleTarget>();
    if (!target.isValid())
      return signalPassFailure();
    markAnalysesPreserved<ktflow::sched::ScheduleTarget>();
    int64_t instances = target.getNumLaneInstances();
    getOperation().walk([&](ParallelOp parallel) {
      int64_t k = instances / std::max<int64_t>(1, parallel.getNumPoints());
      if (maxFactor > 0)
        k = std::min<int64_t>(k, maxFactor);
      SmallVector<scf::ForOp> loops =
          spreadableLoops(parallel, target.getGlobalKind());
      for (scf::ForOp loop : loops)
        if (std::optional<int64_t> trips = knownTrips(loop))
          k = std::min(k, *trips);
      if (k < 2 || loops.empty())
        return;
      spread(parallel, loops, k);
    });
  }

  void spread(ParallelOp parallel, ArrayRef<scf::ForOp> loops, int64_t k) {
    SmallVector<int64_t> extents(parallel.getExtents());
    extents.push_back(k);
    parallel.setExtents(extents);
    Block &body = parallel.getBody().front();
    Value copy =
        body.addArgument(IndexType::get(&getContext()), parallel.getLoc());
    for (scf::ForOp loop : loops) {
      OpBuilder b(loop);
      Location loc = loop.getLoc();
      Value step = loop.getStep();
      Value first =
          arith::AddIOp::create(b, loc, loop.getLowerBound(),
                                arith::MulIOp::create(b, loc, copy, step));
      // A constant step stays constant (the index analyses read it).
      APInt constant;
      Value wider =
          matchPattern(step, m_ConstantInt(&constant))
              ? arith::ConstantIndexOp::create(b, loc,
                                               constant.getSExtValue() * k)
                    .getResult()
              : arith::MulIOp::create(b, loc, step,
                                      arith::ConstantIndexOp::create(b, loc, k))
                    .getResult();
      loop.getLowerBoundMutable().assign(first);
      loop.getStepMutable().assign(wider);
    }
  }
};
} // namespace

//===- LowerIf.cpp - scf.if becomes selects and loops ---------------------===//
//
// This file implements --ktdf-lower-if: the scheduler's passes know loops,
// not conditionals, and a branch is a loop of at most one trip. MLIR's
// scf.if canonicalization turns value-only ifs into arith.select; what
// only a branch uses sinks into it (controlFlowSink), so a compute group
// a writer predicate guards ends up whole inside its loop.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/ControlFlowSinkUtils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFLOWERIF
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

/// Whether `op` may move from before `branch` into one of its regions: it
/// has no side effects, or it is a load that no store between it and
/// `branch` in their block may have written (any store counts).
static bool maySink(Operation *op, scf::IfOp branch) {
  // Every tile of a group takes part in an exchange, even those that do
  // not use its result.
  if (isa<ktdp::InterTileProduceOp, ktdp::InterTileReduceOp,
          ktdp::InterTileConsumeOp>(op))
    return false;
  if (isMemoryEffectFree(op))
    return true;
  if (!isa<ktdp::LoadOp>(op) || op->getBlock() != branch->getBlock())
    return false;
  auto isStore = [](ktdp::StoreOp) { return WalkResult::interrupt(); };
  for (Operation *p = op->getNextNode(); p && p != branch; p = p->getNextNode())
    if (p->walk(isStore).wasInterrupted())
      return false;
  return true;
}

/// Replaces `branch` (no results) with one loop per non-empty region, of
/// one trip when the region runs and none otherwise.
static void lowerToLoops(scf::IfOp branch) {
  OpBuilder b(branch);
  Location loc = branch.getLoc();
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
  auto emit = [&](Region &region, Value taken, Value notTaken) {
    if (region.empty() || region.front().without_terminator().empty())
      return;
    Value trips =
        arith::SelectOp::create(b, loc, branch.getCondition(), taken, notTaken);
    auto loop = scf::ForOp::create(b, loc, c0, trips, c1);
    Block &src = region.front();
    Block *body = loop.getBody();
    body->getOperations().splice(body->getTerminator()->getIterator(),
                                 src.getOperations(), src.begin(),
                                 std::prev(src.end()));
  };
  emit(branch.getThenRegion(), c1, c0);
  emit(branch.getElseRegion(), c0, c1);
  branch.erase();
}

bool mlir::ktdf::isLowerableIf(scf::IfOp branch) {
  // MLIR's canonicalization makes selects of the results whose yields are
  // all defined outside the if; any other result stays.
  for (Region &region : branch->getRegions()) {
    if (region.empty())
      continue;
    for (Value v : region.front().getTerminator()->getOperands())
      if (branch->isAncestor(v.getParentBlock()->getParentOp()))
        return false;
  }
  return true;
}

namespace {
struct LowerIfPass : public ktdf::impl::KTDFLowerIfBase<LowerIfPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ifs;
    getOperation().walk([&](scf::IfOp op) { ifs.push_back(op); });
    if (ifs.empty())
      return;
    RewritePatternSet patterns(&getContext());
    scf::IfOp::getCanonicalizationPatterns(patterns, &getContext());
    GreedyRewriteConfig config;
    config.enableFolding(false);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    (void)applyOpPatternsGreedily(ifs, std::move(patterns), config);

    // Innermost first: an outer branch's body is then free of ifs.
    SmallVector<scf::IfOp> remaining;
    getOperation().walk([&](scf::IfOp op) { remaining.push_back(op); });
    bool failed = false;
    for (scf::IfOp branch : remaining) {
      if (branch.getNumResults() != 0) {
        branch.emitError("scf.if with results is supported only when its "
                         "branches yield values defined outside it (it "
                         "becomes arith.select)");
        failed = true;
        continue;
      }
      DominanceInfo dominance(branch->getParentOp());
      SmallVector<Region *> regions;
      for (Region &region : branch->getRegions())
        if (!region.empty())
          regions.push_back(&region);
      // Sinking an op can let its operands sink too: repeat until stable.
      while (controlFlowSink(
                 regions, dominance,
                 [&](Operation *op, Region *) { return maySink(op, branch); },
                 [](Operation *op, Region *region) {
                   op->moveBefore(&region->front(), region->front().begin());
                 }) != 0)
        ;
      lowerToLoops(branch);
    }
    if (failed)
      signalPassFailure();
  }
};
} // namespace

//===- UpliftWhile.cpp - Counted scf.while loops become scf.for -----------===//
//
// This file implements --ktdf-uplift-while: a `scf.while` that counts (a
// grid-stride row loop of a persistent kernel, say) becomes the `scf.for`
// the scheduler's passes handle, through MLIR's upliftWhileToForLoop. The
// upstream rewrite knows only the signed `slt` condition; an unsigned one
// is the same comparison when both sides are known not to be negative,
// which this pass proves first. A while loop that does not count is an
// error at the loop.
//
// For the same reason an `scf.for unsigned` whose bounds are known not to
// be negative becomes a signed scf.for: the scheduler's passes rebuild,
// clone and count loops, and the machine's loops compare signed, so none
// of them has to carry the flag. ktdf-check-supported refuses an unsigned
// loop left (a bound that may be negative: -2 to 3 runs no trip unsigned,
// five signed).
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFUPLIFTWHILE
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

/// Whether an index value is known not to be negative.
static bool isNonNegative(Value v) {
  std::optional<int64_t> lower = lowerBoundOf(v);
  return lower && *lower >= 0;
}

/// Whether an index value is known to be positive: positive constants and
/// runtime arguments.
static bool isPositive(Value v) {
  APInt k;
  if (matchPattern(v, m_ConstantInt(&k)))
    return k.isStrictlyPositive();
  return v.getDefiningOp<ktdp::RuntimeArgExtractOp>() != nullptr;
}

/// The reason `loop` is not a counted loop the uplift handles, or none;
/// with `rewrite`, turns an unsigned `ult` condition into `slt` where the
/// two agree.
static std::optional<std::string> countedLoopReason(scf::WhileOp loop,
                                                    bool rewrite) {
  Block &before = loop.getBefore().front();
  auto condition = cast<scf::ConditionOp>(before.getTerminator());
  auto cmp = condition.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!cmp || cmp->getBlock() != &before || &before.front() != cmp)
    return std::string("its condition must be one arith.cmpi of the carried "
                       "index with a bound defined outside the loop");
  auto counter = dyn_cast<BlockArgument>(cmp.getLhs());
  if (!counter || counter.getOwner() != &before ||
      !cmp.getRhs().getParentRegion()->isProperAncestor(&loop.getBefore()))
    return std::string("its condition must compare the carried index "
                       "(left) with a bound defined outside the loop (right)");
  // The value the body adds to the counter: the step.
  Block &after = loop.getAfter().front();
  auto yield = cast<scf::YieldOp>(after.getTerminator());
  unsigned position = counter.getArgNumber();
  int forwarded = -1;
  for (auto [i, arg] : llvm::enumerate(condition.getArgs()))
    if (arg == counter)
      forwarded = i;
  auto add = forwarded < 0
                 ? nullptr
                 : yield.getOperand(position).getDefiningOp<arith::AddIOp>();
  Value step;
  if (add && add.getLhs() == after.getArgument(forwarded))
    step = add.getRhs();
  else if (add && add.getRhs() == after.getArgument(forwarded))
    step = add.getLhs();
  if (!step || !isPositive(step))
    return std::string("its body must add a positive constant or runtime "
                       "argument to the carried index");
  switch (cmp.getPredicate()) {
  case arith::CmpIPredicate::slt:
    return std::nullopt;
  case arith::CmpIPredicate::ult:
    // Counting up from a start that is not negative, the counter stays
    // non-negative; against a non-negative bound, slt and ult agree.
    if (!isNonNegative(loop.getInits()[position]) ||
        !isNonNegative(cmp.getRhs()))
      return std::string("an unsigned (ult) condition needs a start and a "
                         "bound known not to be negative");
    if (rewrite)
      cmp.setPredicate(arith::CmpIPredicate::slt);
    return std::nullopt;
  default:
    return std::string("its condition must be `slt` or `ult` (the carried "
                       "index below the bound)");
  }
}

std::optional<std::string> mlir::ktdf::whyNotCountedWhile(scf::WhileOp loop) {
  return countedLoopReason(loop, /*rewrite=*/false);
}

bool mlir::ktdf::isSignedForEquivalent(scf::ForOp loop) {
  return isNonNegative(loop.getLowerBound()) &&
         isNonNegative(loop.getUpperBound());
}

namespace {
struct UpliftWhilePass
    : public ktdf::impl::KTDFUpliftWhileBase<UpliftWhilePass> {
  void runOnOperation() override {
    SmallVector<scf::WhileOp> loops;
    // Inner loops first: an outer loop's body is then free of while loops.
    getOperation().walk([&](scf::WhileOp loop) { loops.push_back(loop); });
    IRRewriter rewriter(&getContext());
    bool failed = false;
    for (scf::WhileOp loop : loops) {
      if (std::optional<std::string> reason =
              countedLoopReason(loop, /*rewrite=*/true)) {
        loop.emitError("scf.while is supported as a counted loop only: ")
            << *reason;
        failed = true;
        continue;
      }
      rewriter.setInsertionPoint(loop);
      if (mlir::failed(scf::upliftWhileToForLoop(rewriter, loop))) {
        loop.emitError("scf.while is supported as a counted loop only: "
                       "MLIR's upliftWhileToForLoop does not recognise "
                       "this one");
        failed = true;
      }
    }
    getOperation().walk([](scf::ForOp loop) {
      if (loop.getUnsignedCmp() && isSignedForEquivalent(loop))
        loop.setUnsignedCmp(false);
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace

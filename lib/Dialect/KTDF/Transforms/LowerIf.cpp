//===- LowerIf.cpp - scf.if becomes selects and loops ---------------------===//
//
// This file implements --ktdf-lower-if: the scheduler's passes know loops,
// not conditionals, and a branch is a loop of at most one trip. MLIR's
// scf.if canonicalization turns value-only ifs into arith.select; what
// only a branch uses sinks into it (controlFlowSink), so a compute group
// a writer predicate guards ends up whole inside its loop. An if whose
// branches compute its results loses them first: scalars by computing both
// before it, tensors by cloning their users into both branches.
//
//===----------------------------------------------------------------------===//

#include "ScalarIdioms.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/ControlFlowSinkUtils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/SetVector.h"

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

/// The ops after `branch` in its block that use its results, directly or
/// through each other (nested uses count at their ancestor in the block),
/// in block order; none when one of them reaches the block's terminator
/// (the results leave the block: a loop's carried values, a return) or
/// holds an if (its clones would escape the pass's list of ifs).
static std::optional<SmallVector<Operation *>> usersAfter(scf::IfOp branch) {
  Block *block = branch->getBlock();
  llvm::SmallPtrSet<Operation *, 16> inSlice;
  SmallVector<Value> pending(branch->getResults());
  while (!pending.empty()) {
    Value v = pending.pop_back_val();
    for (Operation *user : v.getUsers()) {
      Operation *op = block->findAncestorOpInBlock(*user);
      if (!op || op == branch || op->hasTrait<OpTrait::IsTerminator>())
        return std::nullopt;
      if (inSlice.insert(op).second)
        llvm::append_range(pending, op->getResults());
    }
  }
  SmallVector<Operation *> slice;
  auto isIf = [](scf::IfOp) { return WalkResult::interrupt(); };
  for (Operation &op :
       llvm::make_range(std::next(branch->getIterator()), block->end())) {
    if (!inSlice.contains(&op))
      continue;
    if (op.walk(isIf).wasInterrupted())
      return std::nullopt;
    slice.push_back(&op);
  }
  return slice;
}

/// The side-effect-free ops after `branch` that `slice` reads (and what
/// they read), each after its operands, to move before it so that `slice`
/// can be cloned into its branches. None when one of them has effects or
/// regions, or when an op between `branch` and the slice's last op with
/// memory effects would change places with the slice's.
static std::optional<llvm::SetVector<Operation *>>
operandsToHoist(ArrayRef<Operation *> slice, scf::IfOp branch) {
  llvm::SmallPtrSet<Operation *, 16> inSlice(slice.begin(), slice.end());
  Block *block = branch->getBlock();
  llvm::SetVector<Operation *> hoisted;
  bool ok = true;
  std::function<void(Value)> need = [&](Value v) {
    Operation *def = v.getDefiningOp();
    Operation *op = def ? block->findAncestorOpInBlock(*def) : nullptr;
    if (!op || op == branch || op->isBeforeInBlock(branch) ||
        inSlice.contains(op) || hoisted.contains(op))
      return;
    if (!isMemoryEffectFree(op) || op->getNumRegions() != 0) {
      ok = false;
      return;
    }
    for (Value operand : op->getOperands())
      need(operand);
    hoisted.insert(op);
  };
  for (Operation *op : slice)
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        need(operand);
    });
  if (!ok)
    return std::nullopt;
  if (llvm::all_of(slice, isMemoryEffectFree))
    return hoisted;
  for (Operation *op = branch->getNextNode(); op != slice.back();
       op = op->getNextNode())
    if (!inSlice.contains(op) && !hoisted.contains(op) &&
        !isMemoryEffectFree(op))
      return std::nullopt;
  return hoisted;
}

/// Gives `branch`'s results to their users by cloning the users into each
/// branch, after its own ops, and returns the if without results: an if
/// whose branches compute the tensors they yield becomes two branches that
/// each compute and store their own (the compute unit cannot pick whole
/// tensors by a scalar condition). Fails, changing nothing, when a result
/// leaves the block or a user cannot move.
static FailureOr<scf::IfOp> sinkUsersIntoBranches(scf::IfOp branch) {
  std::optional<SmallVector<Operation *>> slice = usersAfter(branch);
  if (!slice)
    return failure();
  std::optional<llvm::SetVector<Operation *>> hoisted =
      operandsToHoist(*slice, branch);
  if (!hoisted)
    return failure();
  for (Operation *op : *hoisted)
    op->moveBefore(branch);
  for (Region *region : {&branch.getThenRegion(), &branch.getElseRegion()}) {
    auto yield = cast<scf::YieldOp>(region->front().getTerminator());
    IRMapping map;
    map.map(branch->getResults(), yield.getOperands());
    OpBuilder b(yield);
    for (Operation *op : *slice)
      b.clone(*op, map);
    yield->setOperands({});
  }
  for (Operation *op : llvm::reverse(*slice))
    op->erase();
  OpBuilder b(branch);
  auto sunk = scf::IfOp::create(b, branch.getLoc(), TypeRange(),
                                branch.getCondition(), /*withElse=*/false);
  sunk.getThenRegion().takeBody(branch.getThenRegion());
  sunk.getElseRegion().takeBody(branch.getElseRegion());
  branch.erase();
  return sunk;
}

/// The pure ops of `branch`'s regions that compute scalars from values
/// defined before it (or by such ops), in order: moved before it, an if
/// choosing between scalars its branches compute becomes a select of them
/// (both are computed, a few index operations on the tile).
static SmallVector<Operation *> scalarsToHoist(scf::IfOp branch) {
  llvm::SmallPtrSet<Operation *, 8> hoisted;
  SmallVector<Operation *> order;
  for (Region &region : branch->getRegions()) {
    if (region.empty())
      continue;
    for (Operation &op : region.front().without_terminator()) {
      bool scalar =
          llvm::none_of(op.getResultTypes(), llvm::IsaPred<ShapedType>);
      bool operandsReady = llvm::all_of(op.getOperands(), [&](Value v) {
        Operation *def = v.getDefiningOp();
        return (def && hoisted.contains(def)) ||
               !branch->isAncestor(v.getParentBlock()->getParentOp());
      });
      if (scalar && operandsReady && op.getNumRegions() == 0 && isPure(&op)) {
        hoisted.insert(&op);
        order.push_back(&op);
      }
    }
  }
  return order;
}

/// Whether every value `branch` yields is defined outside it or by an op in
/// `hoisted`: MLIR's canonicalization then makes the results selects.
static bool yieldsOnlyOutside(scf::IfOp branch,
                              ArrayRef<Operation *> hoisted = {}) {
  for (Region &region : branch->getRegions()) {
    if (region.empty())
      continue;
    for (Value v : region.front().getTerminator()->getOperands())
      if (branch->isAncestor(v.getParentBlock()->getParentOp()) &&
          !llvm::is_contained(hoisted, v.getDefiningOp()))
        return false;
  }
  return true;
}

bool mlir::ktdf::isLowerableIf(scf::IfOp branch) {
  if (branch->getNumResults() == 0 ||
      yieldsOnlyOutside(branch, scalarsToHoist(branch)))
    return true;
  std::optional<SmallVector<Operation *>> slice = usersAfter(branch);
  return slice && operandsToHoist(*slice, branch);
}

/// Makes each if on a row condition (an arith.cmpf of row scalars) whose
/// branches only compute tensors (pure ops) selects of what both branches
/// compute: a branch on a row's data would be control flow that depends on
/// data, while a select by a row condition picks per element.
static void rowConditionIfsToSelects(Operation *root) {
  auto onlyComputes = [](Block *block) {
    return llvm::all_of(block->without_terminator(), [](Operation &op) {
      return op.getNumRegions() == 0 && isPure(&op);
    });
  };
  SmallVector<scf::IfOp> ifs;
  root->walk([&](scf::IfOp branch) {
    auto cmp = branch.getCondition().getDefiningOp<arith::CmpFOp>();
    if (cmp && branch->getNumResults() != 0 && branch.elseBlock() &&
        llvm::all_of(branch->getResultTypes(),
                     llvm::IsaPred<RankedTensorType>) &&
        llvm::all_of(cmp->getOperands(), isRowScalarBeforeLiftSlices) &&
        onlyComputes(branch.thenBlock()) && onlyComputes(branch.elseBlock()))
      ifs.push_back(branch);
  });
  for (scf::IfOp branch : ifs) {
    for (Block *block : {branch.thenBlock(), branch.elseBlock()})
      for (Operation &op :
           llvm::make_early_inc_range(block->without_terminator()))
        op.moveBefore(branch);
    OpBuilder b(branch);
    SmallVector<Value> picked;
    for (auto [taken, notTaken] : llvm::zip(branch.thenYield().getOperands(),
                                            branch.elseYield().getOperands()))
      picked.push_back(arith::SelectOp::create(
          b, branch.getLoc(), branch.getCondition(), taken, notTaken));
    branch->replaceAllUsesWith(picked);
    branch.erase();
  }
}

/// Makes each arith.select of whole tensors by one i1 an scf.if yielding
/// them, for sinkUsersIntoBranches; the canonicalization turns those whose
/// users stay back into the select.
static void selectsToIfs(Operation *root) {
  SmallVector<arith::SelectOp> selects;
  root->walk([&](arith::SelectOp select) {
    // A row's comparison (of its reduction's element, or of elements of
    // a loaded row that ktdf-lift-slices, after this pass, loads alone)
    // picks per element: ktdf-generalize broadcasts what it compares.
    if (select.getCondition().getType().isInteger(1) &&
        isa<RankedTensorType>(select.getType()) &&
        !isRowScalarBeforeLiftSlices(select.getCondition()))
      selects.push_back(select);
  });
  for (arith::SelectOp select : selects) {
    OpBuilder b(select);
    auto branch = scf::IfOp::create(b, select.getLoc(), select.getType(),
                                    select.getCondition(), /*withElse=*/true);
    b.setInsertionPointToEnd(branch.thenBlock());
    scf::YieldOp::create(b, select.getLoc(), select.getTrueValue());
    b.setInsertionPointToEnd(branch.elseBlock());
    scf::YieldOp::create(b, select.getLoc(), select.getFalseValue());
    select.replaceAllUsesWith(branch.getResult(0));
    select.erase();
  }
}

namespace {
struct LowerIfPass : public ktdf::impl::KTDFLowerIfBase<LowerIfPass> {
  void runOnOperation() override {
    // Whole tensors picked by one condition are picked by control flow: the
    // users of an if's tensor results move into its branches; by a row
    // condition they are picked per element.
    rowConditionIfsToSelects(getOperation());
    selectsToIfs(getOperation());
    SmallVector<scf::IfOp> withResults;
    getOperation().walk([&](scf::IfOp op) {
      if (op->getNumResults() != 0)
        withResults.push_back(op);
    });
    for (scf::IfOp branch : withResults) {
      if (llvm::any_of(branch->getResultTypes(),
                       llvm::IsaPred<RankedTensorType>))
        (void)sinkUsersIntoBranches(branch);
      else
        for (Operation *op : scalarsToHoist(branch))
          op->moveBefore(branch);
    }

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
      if (branch.getNumResults() != 0)
        if (FailureOr<scf::IfOp> sunk = sinkUsersIntoBranches(branch);
            succeeded(sunk))
          branch = *sunk;
      if (branch.getNumResults() != 0) {
        branch.emitError(
            "scf.if with results is supported only when its branches yield "
            "values defined outside it or scalars computed from them (it "
            "becomes arith.select), or when every user of its results can "
            "move into both branches (not a result that leaves its block, "
            "such as a loop's carried value)");
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

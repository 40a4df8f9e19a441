//===- HoistInvariantTransfers.cpp - Load loop-invariant data once --------===//
//
// This file implements --ktdf-hoist-invariant-transfers. A DMA load stage of
// a pipeline inside `scf.for` loops whose access tile does not change across
// the loop (it depends neither on the induction variable nor on anything
// computed in the loop, and nothing in the loop writes the tensor it reads)
// moves into a pipeline of its own right before the outermost such loop.
// That pipeline owns the buffer and exports it; the stages that read the
// buffer inside the loop read the export instead, so the data crosses the
// DMA route once per execution of the enclosing block rather than once per
// iteration. A load that does not change across the grid points either
// (it reads the same data at every point) leaves the grid instead: its
// pipeline is `per_instance`, at the top of the `ktdf.parallel` body, and
// runs once per lane instance when a lane has several points. The lowering
// orders the hoisted writer before every reader and keeps the buffer live
// while they need it (docs/scheduler.md).
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"

#include "ktflow/Dialect/KTDF/IR/KTDF.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Scheduler/ScheduleTarget.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFHOISTINVARIANTTRANSFERS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

namespace {

/// A load stage that can leave its loop, and the loop (or the grid, a
/// ktdf.parallel) it leaves.
struct Candidate {
  StageOp stage;
  DataTransferOp transfer;
  PrivateOp buffer;
  Operation *scope = nullptr;
};

} // namespace

/// Whether `v` has the same value at every iteration of `loop` (an scf.for
/// or the grid): defined outside it, or computed inside by side-effect-free
/// ops from such values.
static bool isInvariant(Value v, Operation *loop) {
  Operation *def = v.getDefiningOp();
  if (!def)
    return !loop->isAncestor(
        cast<BlockArgument>(v).getOwner()->getParentOp());
  if (!loop->isProperAncestor(def))
    return true;
  if (def->getNumRegions() != 0 || !isMemoryEffectFree(def))
    return false;
  return llvm::all_of(def->getOperands(),
                      [&](Value operand) { return isInvariant(operand, loop); });
}


/// Whether something in `loop` may write the memory `view` reads: a
/// transfer into an access tile on the same tensor, or on a view whose
/// start is not a kernel argument (literal addresses may overlap).
static bool writtenIn(Operation *loop, ktdp::ConstructMemoryViewOp view) {
  bool ours = isa<BlockArgument>(view.getOffset());
  WalkResult walk = loop->walk([&](Operation *op) {
    Value dst;
    if (auto transfer = dyn_cast<DataTransferOp>(op))
      dst = transfer.getDst();
    else if (auto ind = dyn_cast<IndDataTransferOp>(op))
      dst = ind.getDst();
    else if (isa<ktdp::StoreOp>(op))
      return WalkResult::interrupt();
    if (!dst || !isa<ktdp::AccessTileType>(dst.getType()))
      return WalkResult::advance();
    auto written = ktdp::getAccessTileView(dst);
    if (!written || !ours || written.getOffset() == view.getOffset() ||
        !isa<BlockArgument>(written.getOffset()))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

/// The constant trip count of `loop`, if its bounds are constants.
static std::optional<int64_t> tripCount(scf::ForOp loop) {
  auto lb = getConstantIntValue(loop.getLowerBound());
  auto ub = getConstantIntValue(loop.getUpperBound());
  auto step = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !step || *step <= 0)
    return std::nullopt;
  return *ub <= *lb ? 0 : (*ub - *lb + *step - 1) / *step;
}

/// The load stage's candidate, when its tile is invariant across at least
/// one enclosing loop that runs more than once.
static std::optional<Candidate> analyse(StageOp stage, PipelineOp pipeline,
                                       bool leaveGrid) {
  if (!stage.isApplicable(UnitRole::dma_load) ||
      !stage.getDependsIn().empty())
    return std::nullopt;
  DataTransferOp transfer;
  for (Operation &op : stage.getBody().front()) {
    if (auto t = dyn_cast<DataTransferOp>(op)) {
      if (transfer)
        return std::nullopt;
      transfer = t;
    } else if (!isa<arith::ConstantOp>(op)) {
      return std::nullopt;
    }
  }
  if (!transfer || !isa<ktdp::AccessTileType>(transfer.getSrc().getType()))
    return std::nullopt;
  auto buffer = transfer.getDst().getDefiningOp<PrivateOp>();
  auto view = ktdp::getAccessTileView(transfer.getSrc());
  if (!buffer || buffer->getParentOp() != pipeline || !view)
    return std::nullopt;
  // The stage must be the buffer's only writer.
  bool otherWriter = false;
  pipeline.walk([&](Operation *op) {
    if (op == transfer.getOperation())
      return;
    if (auto t = dyn_cast<DataTransferOp>(op); t && t.getDst() == buffer)
      otherWriter = true;
    if (auto t = dyn_cast<IndDataTransferOp>(op); t && t.getDst() == buffer)
      otherWriter = true;
  });
  if (otherWriter)
    return std::nullopt;
  // The outermost enclosing loop the transfer does not vary in, up to the
  // grid itself.
  Candidate found{stage, transfer, buffer, nullptr};
  bool repeats = false;
  for (Operation *p = pipeline->getParentOp(); p; p = p->getParentOp()) {
    auto loop = dyn_cast<scf::ForOp>(p);
    auto grid = dyn_cast<ParallelOp>(p);
    if ((!loop && !grid) || (grid && !leaveGrid))
      break;
    bool invariant =
        llvm::all_of(transfer->getOperands(), [&](Value operand) {
          return operand == transfer.getDst() || isInvariant(operand, p);
        });
    if (!invariant || writtenIn(p, view))
      break;
    if (grid) {
      // A lane walks its block of the grid's points one after another.
      std::optional<int64_t> n = grid.getNumInstances();
      int64_t points = grid.getNumPoints();
      if (n && *n > 0 && (points + *n - 1) / *n > 1) {
        found.scope = grid;
        repeats = true;
      }
      break;
    }
    found.scope = loop;
    std::optional<int64_t> trips = tripCount(loop);
    repeats |= !trips || *trips > 1;
  }
  if (!found.scope || !repeats)
    return std::nullopt;
  return found;
}

/// Clones at `b`'s insertion point the ops `v` needs that sit inside
/// `loop`.
static Value cloneOut(Value v, Operation *loop, OpBuilder &b,
                      IRMapping &map) {
  if (Value mapped = map.lookupOrNull(v))
    return mapped;
  Operation *def = v.getDefiningOp();
  if (!def || !loop->isProperAncestor(def))
    return v;
  for (Value operand : def->getOperands())
    map.map(operand, cloneOut(operand, loop, b, map));
  Operation *clone = b.clone(*def, map);
  return clone->getResult(cast<OpResult>(v).getResultNumber());
}

/// Moves the candidates that leave `scope` into one exporting pipeline
/// placed right before the loop, or at the top of the grid's body.
static void hoist(Operation *scope, MutableArrayRef<Candidate> candidates) {
  auto grid = dyn_cast<ParallelOp>(scope);
  OpBuilder b(scope);
  if (grid)
    b.setInsertionPointToStart(&grid.getBody().front());
  IRMapping outside;
  SmallVector<Type> types;
  for (Candidate &c : candidates) {
    for (OpOperand &operand : c.transfer->getOpOperands())
      if (operand.get() != c.transfer.getDst())
        operand.set(cloneOut(operand.get(), scope, b, outside));
    types.push_back(c.buffer.getType());
  }
  auto hoisted = PipelineOp::create(
      b, scope->getLoc(), types, b.getI64IntegerAttr(1),
      grid ? b.getUnitAttr() : UnitAttr());
  Block *body = b.createBlock(&hoisted.getBody());
  for (auto [i, c] : llvm::enumerate(candidates)) {
    // Readers now find the data through the export, ordered by it rather
    // than by the stage's tokens.
    for (Value token : c.stage.getDependsOut())
      for (OpOperand &use : llvm::make_early_inc_range(token.getUses()))
        if (auto reader = dyn_cast<StageOp>(use.getOwner()))
          reader.getDependsInMutable().erase(use.getOperandNumber());
    Operation *writer = c.transfer;
    c.buffer.getResult().replaceUsesWithIf(
        hoisted.getResult(i),
        [&](OpOperand &use) { return use.getOwner() != writer; });
    c.buffer->moveBefore(body, body->end());
    c.buffer.setExportedAttr(b.getI64IntegerAttr(i));
    c.stage->moveBefore(body, body->end());
  }
}

namespace {
struct HoistInvariantTransfersPass
    : public ktdf::impl::KTDFHoistInvariantTransfersBase<
          HoistInvariantTransfersPass> {
  using Base::Base;
  void runOnOperation() override {
    // Transfers move; the target and its device stay as they are.
    markAnalysesPreserved<ktflow::sched::ScheduleTarget>();
    getOperation().walk([&](func::FuncOp func) {
      // Pipelines are visited before the exporting pipelines this creates,
      // which therefore are never candidates themselves.
      SmallVector<PipelineOp> pipelines;
      func.walk([&](PipelineOp p) {
        if (p->getNumResults() == 0)
          pipelines.push_back(p);
      });
      llvm::MapVector<Operation *, SmallVector<Candidate>> byScope;
      for (PipelineOp pipeline : pipelines)
        for (StageOp stage :
             llvm::to_vector(pipeline.getBody().front().getOps<StageOp>()))
          if (auto c = analyse(stage, pipeline, grid))
            byScope[c->scope].push_back(*c);
      for (auto &[scope, candidates] : byScope)
        hoist(scope, candidates);
    });
  }
};
} // namespace

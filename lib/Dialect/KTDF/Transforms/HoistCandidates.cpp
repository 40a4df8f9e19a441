//===- HoistCandidates.cpp - Loads that can leave their loops -------------===//
//
// This file finds the loads --ktdf-hoist-invariant-transfers moves. A DMA
// load stage of a pipeline inside `scf.for` loops whose access tile does
// not change across the loop (it depends neither on the induction variable
// nor on anything computed in the loop, and nothing in the loop writes the
// tensor it reads) can leave the outermost such loop; one that reads the
// same data at every grid point can leave the grid as well.
//
// A load that a loop slides along the last dimension of its view (a row
// block `X[%row, %off]` in `scf.for %off = 0 to %N step 1024`, or a weight
// block `W[%off]`) is a *row span* when the view's whole extent along that
// dimension, padded with one tile of zeros, fits the lane's span budget.
// Loads of the same span in sibling loops (a layernorm's three passes over
// its row) share it. A tile that later sibling pipelines load again (a row
// loaded before an all-reduce and after it) is a *repeated load*, read by
// all of them. The span and repeat analyses are in HoistSpans.cpp.
//
//===----------------------------------------------------------------------===//

#include "HoistCandidates.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::hoisting;

bool hoisting::isInvariant(Value v, Operation *loop) {
  Operation *def = v.getDefiningOp();
  if (!def)
    return !loop->isAncestor(cast<BlockArgument>(v).getOwner()->getParentOp());
  if (!loop->isProperAncestor(def))
    return true;
  if (def->getNumRegions() != 0 || !isMemoryEffectFree(def))
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return isInvariant(operand, loop);
  });
}

/// The kind of memory `view` lives in, if it names one.
static std::optional<ktdp::MemoryKind> space(ktdp::ConstructMemoryViewOp view) {
  auto normalized = ktdp::normalizeMemorySpace(view.getMemorySpace());
  return normalized ? std::optional(normalized->kind) : std::nullopt;
}

/// The kernel argument whose tensor a view at `offset` lies in: the
/// argument itself, or the argument plus an element offset (a shard of a
/// distributed view at `ptr + 524288`, which ktdf-record-tensor-extents
/// counts in that argument's tensor). None for a literal address or a sum
/// of two arguments.
static Value tensorArgument(Value offset) {
  if (isa<BlockArgument>(offset))
    return offset;
  auto add = offset.getDefiningOp<arith::AddIOp>();
  if (!add)
    return {};
  Value lhs = tensorArgument(add.getLhs()), rhs = tensorArgument(add.getRhs());
  return lhs && rhs ? Value() : lhs ? lhs : rhs;
}

bool hoisting::writtenIn(Operation *loop, ktdp::ConstructMemoryViewOp view,
                         bool sameMemory) {
  Value ours = tensorArgument(view.getOffset());
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
    // An all-reduce's exchange view is the lane's own scratchpad, at an
    // address the scheduler chose, and never a tensor the kernel reads: a
    // row loop that stores each row's partial there does not write W.
    if (written && isExchangeView(written) && !isExchangeView(view))
      return WalkResult::advance();
    // A scratchpad view (a carried accumulator) is not device memory.
    if (sameMemory && written && space(written) != space(view))
      return WalkResult::advance();
    Value theirs = written ? tensorArgument(written.getOffset()) : Value();
    if (!ours || !theirs || theirs == ours)
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

std::optional<int64_t> hoisting::tripCount(scf::ForOp loop) {
  auto lb = getConstantIntValue(loop.getLowerBound());
  auto ub = getConstantIntValue(loop.getUpperBound());
  auto step = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !step || *step <= 0)
    return std::nullopt;
  return *ub <= *lb ? 0 : (*ub - *lb + *step - 1) / *step;
}

std::optional<Candidate> hoisting::loadOf(StageOp stage, PipelineOp pipeline) {
  if (!stage.isApplicable(UnitRole::dma_load) || !stage.getDependsIn().empty())
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
  Candidate found;
  found.stage = stage;
  found.transfer = transfer;
  found.buffer = buffer;
  return found;
}

Operation *hoisting::outermostScope(Operation *from, ValueRange needs,
                                    ktdp::ConstructMemoryViewOp view,
                                    bool leaveGrid, int64_t cores,
                                    bool sameMemory, bool &repeats) {
  Operation *scope = nullptr;
  for (Operation *p = from; p; p = p->getParentOp()) {
    auto loop = dyn_cast<scf::ForOp>(p);
    auto grid = dyn_cast<ParallelOp>(p);
    if ((!loop && !grid) || (grid && !leaveGrid))
      break;
    if (!llvm::all_of(needs, [&](Value v) { return isInvariant(v, p); }) ||
        writtenIn(p, view, sameMemory))
      break;
    if (grid) {
      // A lane walks its block of the grid's points one after another. A
      // lane of one point runs the load once either way, but out of the
      // grid (per instance) the lanes of a core can share it
      // (ktdf-to-dfir, SharedStaging.cpp).
      std::optional<int64_t> n = grid.getNumInstances();
      int64_t points = grid.getNumPoints();
      if (n && *n > 0) {
        bool several = (points + *n - 1) / *n > 1;
        if (several || (cores > 0 && *n > cores))
          scope = grid;
        repeats |= several;
      }
      break;
    }
    scope = loop;
    std::optional<int64_t> trips = tripCount(loop);
    repeats |= !trips || *trips > 1;
  }
  return scope;
}

std::optional<Candidate> hoisting::analyse(StageOp stage, PipelineOp pipeline,
                                           bool leaveGrid, int64_t cores) {
  std::optional<Candidate> found = loadOf(stage, pipeline);
  if (!found)
    return std::nullopt;
  DataTransferOp transfer = found->transfer;
  SmallVector<Value> needs;
  for (Value operand : transfer->getOperands())
    if (operand != transfer.getDst())
      needs.push_back(operand);
  bool repeats = false;
  found->scope =
      outermostScope(pipeline->getParentOp(), needs,
                     ktdp::getAccessTileView(transfer.getSrc()), leaveGrid,
                     cores, /*sameMemory=*/false, repeats);
  if (!found->scope || !repeats)
    return std::nullopt;
  return found;
}

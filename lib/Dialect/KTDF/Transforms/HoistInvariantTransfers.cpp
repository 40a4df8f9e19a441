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
// runs once per lane instance when a lane has several points, or when the
// lanes outnumber the cores (the lanes of a core then share it). The lowering
// orders the hoisted writer before every reader and keeps the buffer live
// while they need it (docs/scheduler.md). HoistCandidates.cpp finds the
// loads that can leave and the row spans.
//
// A load that a loop slides along the last dimension of its view (a row
// block `X[%row, %off]` in `scf.for %off = 0 to %N step 1024`, or a weight
// block `W[%off]`) is a *row span*: the whole extent of the view along that
// dimension, padded with one tile of zeros, is loaded once before the loop
// and the readers take their block at min(%off, extent). Loads of the same
// span in sibling loops (a layernorm's three passes over its row) share
// it, and the span leaves enclosing loops and the grid as any invariant
// load does (the weights once per lane). A tile that later sibling
// pipelines load again (a row read before an all-reduce and after it) is
// loaded once, by an exporting pipeline right before the first.
//
// A hoisted pipeline that runs again (spans and repeated loads in a loop or
// per grid point; invariant loads left in an outer loop of the grid's
// body) gets `span-copies` copies where the span budget holds them, so the
// next fill loads while this one is read.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDF/Transforms/SpanReach.h"
#include "ktflow/Scheduler/ScheduleTargetPass.h"

#include "HoistCandidates.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFHOISTINVARIANTTRANSFERS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::hoisting;

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

/// Makes `c`'s readers take their block of the span at min(iv, extent) of
/// its slider: a block past the view reads the span's tile of zeros.
static void readAtOffset(Candidate &c, Span span) {
  OpBuilder b(c.stage->getParentOp());
  Location loc = c.transfer.getLoc();
  Value iv = span.slider.getInductionVar();
  Value extent = arith::ConstantIndexOp::create(b, loc, span.extent);
  Value inside =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, iv, extent);
  Value offset = arith::SelectOp::create(b, loc, inside, iv, extent);
  for (OpOperand &use : llvm::make_early_inc_range(c.buffer->getUses())) {
    auto read = dyn_cast<DataTransferOp>(use.getOwner());
    if (!read || read == c.transfer)
      continue;
    b.setInsertionPoint(read);
    SmallVector<Value> indices(read.getSrcIndices());
    indices.back() = arith::AddIOp::create(b, loc, indices.back(), offset);
    read.getSrcIndicesMutable().assign(indices);
  }
}

/// Drops the tokens of `stage` from the stages that wait for them.
static void dropTokens(StageOp stage) {
  for (Value token : stage.getDependsOut())
    for (OpOperand &use : llvm::make_early_inc_range(token.getUses()))
      if (auto reader = dyn_cast<StageOp>(use.getOwner()))
        reader.getDependsInMutable().erase(use.getOperandNumber());
}

/// Turns a row-span candidate into the load of its whole span at `b`
/// (before `scope`), read by its readers and its sharers' at their offsets.
static void placeSpan(Candidate &c, Operation *scope, OpBuilder &b,
                      IRMapping &outside) {
  Span &span = *c.span;
  ktdp::ConstructAccessTileOp tile = span.tile;
  Location loc = tile.getLoc();
  SmallVector<Value> indices, symbols;
  for (auto [i, v] : llvm::enumerate(tile.getIndices()))
    indices.push_back(i == span.dim ? arith::ConstantIndexOp::create(b, loc, 0)
                                    : cloneOut(v, scope, b, outside));
  for (Value v : tile.getSymbolOperands())
    symbols.push_back(cloneOut(v, scope, b, outside));
  SmallVector<int64_t> shape(cast<ShapedType>(tile.getType()).getShape());
  shape.back() = span.width;
  SmallVector<AffineExpr> constraints;
  for (auto [d, n] : llvm::enumerate(shape)) {
    constraints.push_back(b.getAffineDimExpr(d));
    constraints.push_back(-b.getAffineDimExpr(d) + (n - 1));
  }
  IntegerSet set =
      IntegerSet::get(shape.size(), 0, constraints,
                      SmallVector<bool>(constraints.size(), false));
  // Loops of run-time trips read it only as far as their blocks reach.
  Value reached = reachedView(c, b, outside);
  auto whole = ktdp::ConstructAccessTileOp::create(
      b, loc, ktdp::AccessTileType::get(b.getContext(), shape),
      reached ? reached : cloneOut(tile.getBase(), scope, b, outside), indices,
      symbols, tile.getBaseMapAttr(), IntegerSetAttr::get(set),
      tile.getAccessTileOrderAttr());
  if (reached)
    whole->setAttr(kZeroFromAttrName, b.getI64IntegerAttr(span.extent));
  c.transfer.getSrcMutable().assign(whole);
  if (tile->use_empty())
    tile.erase();
  readAtOffset(c, span);
  auto type = cast<MemRefType>(c.buffer.getType());
  c.buffer.getResult().setType(
      getBufferType(shape, type.getElementType(), getBufferMemoryKind(type)));
  for (Candidate &sharer : c.sharers)
    readAtOffset(sharer, *sharer.span);
}

/// Makes `c`'s sharers read its buffer instead of loading their own.
static void absorbSharers(Candidate &c) {
  for (Candidate &sharer : c.sharers) {
    dropTokens(sharer.stage);
    sharer.buffer.getResult().replaceAllUsesExcept(c.buffer.getResult(),
                                                   sharer.transfer);
    auto old =
        sharer.transfer.getSrc().getDefiningOp<ktdp::ConstructAccessTileOp>();
    sharer.stage.erase();
    sharer.buffer.erase();
    if (old && old->use_empty())
      old.erase();
  }
}

/// Moves the candidates that leave `scope` into one exporting pipeline
/// placed right before the loop, or at the top of the grid's body.
static void hoist(Operation *scope, MutableArrayRef<Candidate> candidates,
                  int64_t copies) {
  auto grid = dyn_cast<ParallelOp>(scope);
  OpBuilder b(scope);
  if (grid)
    b.setInsertionPointToStart(&grid.getBody().front());
  IRMapping outside;
  SmallVector<Type> types;
  for (Candidate &c : candidates) {
    if (c.span)
      placeSpan(c, scope, b, outside);
    absorbSharers(c);
    for (OpOperand &operand : c.transfer->getOpOperands())
      if (operand.get() != c.transfer.getDst())
        operand.set(cloneOut(operand.get(), scope, b, outside));
    types.push_back(c.buffer.getType());
  }
  auto hoisted =
      PipelineOp::create(b, scope->getLoc(), types, b.getI64IntegerAttr(copies),
                         grid ? b.getUnitAttr() : UnitAttr());
  Block *body = b.createBlock(&hoisted.getBody());
  for (auto [i, c] : llvm::enumerate(candidates)) {
    // Readers now find the data through the export, ordered by it rather
    // than by the stage's tokens.
    dropTokens(c.stage);
    Operation *writer = c.transfer;
    c.buffer.getResult().replaceUsesWithIf(
        hoisted.getResult(i),
        [&](OpOperand &use) { return use.getOwner() != writer; });
    c.buffer->moveBefore(body, body->end());
    c.buffer.setExportedAttr(b.getI64IntegerAttr(i));
    c.stage->moveBefore(body, body->end());
  }
}

/// Whether the pipelines reading a span hoisted before `scope` are a row
/// loop's partial, the exchange of the partial (an all-reduce) and its use,
/// and the loop runs enough trips a lane for the lowering to run each
/// trip's partial while the previous trip's exchange goes round
/// (ktdf-to-dfir, LanePipelining.cpp): that needs a third copy of the span,
/// so that the span of trip t + 2 loads while the lane holds rows t and
/// t + 1. A loop of few trips gains less than its first partial, run
/// before the loop, costs (spyre_like's 8 rows a lane: 5,034 -> 5,113
/// cycles); a trip count known only at run time counts as many.
static bool pipelinesLanes(Operation *scope) {
  constexpr int64_t kMinTrips = 16;
  auto loop = dyn_cast<scf::ForOp>(scope->getParentOp());
  if (!loop)
    return false;
  std::optional<APInt> trips = loop.getStaticTripCount();
  if (trips && trips->getSExtValue() < kMinTrips)
    return false;
  // The all-reduce is not in a pipeline yet (ktdf-schedule-all-reduce).
  SmallVector<Operation *> body;
  for (Operation &op : *loop.getBody()) {
    if (isa<PipelineOp, AllReduceOp>(op))
      body.push_back(&op);
    else if (op.getNumRegions() != 0)
      return false;
  }
  auto exchanges = [](Operation *op) {
    return op->walk([](AllReduceOp) { return WalkResult::interrupt(); })
        .wasInterrupted();
  };
  return body.size() == 3 && body[0] == scope && !exchanges(body[0]) &&
         exchanges(body[1]) && !exchanges(body[2]);
}

/// Whether the pipeline hoisted before `scope` still sits in a loop of the
/// grid's body that may run more than once, so runs once per trip of it:
/// its next fill (rope_heads' cos/sin chunk of the next position block)
/// could load while the loop at `scope` reads this one.
static bool inOuterLoop(Operation *scope) {
  for (Operation *op = scope->getParentOp(); op && !isa<ParallelOp>(op);
       op = op->getParentOp())
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      std::optional<APInt> trips = loop.getStaticTripCount();
      if (!trips || trips->getSExtValue() > 1)
        return true;
    }
  return false;
}

namespace {
struct HoistInvariantTransfersPass
    : public ktflow::sched::WithScheduleTarget<
          ktdf::impl::KTDFHoistInvariantTransfersBase<
              HoistInvariantTransfersPass>> {
  using Base::Base;

  /// Copies of the pipeline hoisting `candidates` before `scope`: one,
  /// unless it runs again for each iteration of an enclosing loop or each
  /// grid point of the lane (a per-instance pipeline at the top of the
  /// grid runs once), every candidate is a span, a repeated load or an
  /// invariant load sized for it (one staying in an outer loop), and the
  /// span budget left holds the extra copies.
  int64_t copiesFor(Operation *scope, ArrayRef<Candidate> candidates,
                    llvm::StringMap<int64_t> &budget) {
    if (spanCopies <= 1 || isa<ParallelOp>(scope))
      return 1;
    auto fits = [&](int64_t copies) {
      llvm::StringMap<int64_t> extra;
      for (const Candidate &c : candidates) {
        if (!c.span && c.sharers.empty() && c.bytes == 0)
          return false;
        extra[c.kind] += c.bytes * (copies - 1);
      }
      for (const auto &entry : extra)
        if (entry.getValue() > budget.lookup(entry.getKey()))
          return false;
      for (const auto &entry : extra)
        budget[entry.getKey()] -= entry.getValue();
      return true;
    };
    if (pipelinesLanes(scope) && fits(spanCopies + 1))
      return spanCopies + 1;
    return fits(spanCopies) ? spanCopies : 1;
  }

  void runOnOperation() override {
    // Transfers move; the target and its device stay as they are.
    markAnalysesPreserved<ktflow::sched::ScheduleTarget>();
    // Row spans are sized against the lane's share of the scratchpad.
    const ktflow::sched::ScheduleTarget *target = nullptr;
    if ((spans || repeats) && !(target = requireScheduleTarget()))
      return;
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
          if (auto c = analyse(stage, pipeline, grid,
                               target ? target->getNumCores() : 0))
            byScope[c->scope].push_back(*c);
      llvm::StringMap<int64_t> budget;
      if (spans)
        for (Candidate &c : analyseSpans(pipelines, grid, *target, budget))
          byScope[c.scope].push_back(std::move(c));
      if (repeats) {
        DenseSet<Operation *> taken;
        for (auto &[scope, candidates] : byScope)
          for (Candidate &c : candidates) {
            taken.insert(c.stage);
            for (Candidate &sharer : c.sharers)
              taken.insert(sharer.stage);
          }
        for (Candidate &c : analyseRepeats(pipelines, taken, *target, budget))
          byScope[c.scope].push_back(std::move(c));
      }
      // An invariant load left in an outer loop gets copies as a span
      // does: with one, the next trip's load waits until this trip's
      // readers are done (rope_heads on sample_device: its DMA engine
      // idle 104 cycles a position block).
      for (auto &[scope, candidates] : byScope)
        if (target && inOuterLoop(scope))
          for (Candidate &c : candidates)
            sizeInvariant(c, *target, budget);
      for (auto &[scope, candidates] : byScope)
        hoist(scope, candidates, copiesFor(scope, candidates, budget));
    });
  }
};
} // namespace

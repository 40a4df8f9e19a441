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
// A load that a loop slides along the last dimension of its view (a row
// block `X[%row, %off]` in `scf.for %off = 0 to %N step 1024`, or a weight
// block `W[%off]`) is a *row span*: the whole extent of the view along that
// dimension, padded with one tile of zeros, is loaded once before the loop
// and the readers take their block at min(%off, extent). Loads of the same
// span in sibling loops (a layernorm's three passes over its row) share
// it, and the span leaves enclosing loops and the grid as any invariant
// load does (the weights once per lane).
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"

#include "ktflow/Dialect/KTDF/IR/KTDF.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Scheduler/ScheduleTarget.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
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

/// A row span: the loop sliding a tile along the last dimension of its
/// view, and the extent loaded once instead.
struct Span {
  scf::ForOp slider;
  ktdp::ConstructAccessTileOp tile;
  /// The tile's index operand that is the slider's induction variable.
  unsigned dim = 0;
  /// The view's extent along its last dimension, and the span's (one more
  /// tile of zeros, where a block past the view reads).
  int64_t extent = 0, width = 0;
};

/// A load stage that can leave its loop, and the loop (or the grid, a
/// ktdf.parallel) it leaves.
struct Candidate {
  StageOp stage;
  DataTransferOp transfer;
  PrivateOp buffer;
  Operation *scope = nullptr;
  std::optional<Span> span;
  /// Bytes of a span's buffer, in scratchpad `kind`.
  int64_t bytes = 0;
  StringRef kind;
  /// Loads of the same span in later sibling loops, which read this one.
  std::vector<Candidate> sharers;
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

/// The kind of memory `view` lives in, if it names one.
static std::optional<ktdp::MemoryKind> space(ktdp::ConstructMemoryViewOp view) {
  auto normalized = ktdp::normalizeMemorySpace(view.getMemorySpace());
  return normalized ? std::optional(normalized->kind) : std::nullopt;
}

/// Whether something in `loop` may write the memory `view` reads: a
/// transfer into an access tile on the same tensor, or on a view whose
/// start is not a kernel argument (literal addresses may overlap). With
/// `sameMemory`, only views of the same kind of memory count: a carried
/// accumulator in the scratchpad does not write device memory. (Invariant
/// loads keep counting it: a hoisted load has one copy, so the next grid
/// point's cannot be fetched ahead, and attention's Q block on
/// sample_device was slower out of its key loop.)
static bool writtenIn(Operation *loop, ktdp::ConstructMemoryViewOp view,
                      bool sameMemory = false) {
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
    // A scratchpad view (a carried accumulator) is not device memory.
    if (sameMemory && written && space(written) != space(view))
      return WalkResult::advance();
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

/// The first-hop DMA load of `stage`: one transfer of an access tile into a
/// buffer of `pipeline` that nothing else writes.
static std::optional<Candidate> loadOf(StageOp stage, PipelineOp pipeline) {
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
  Candidate found;
  found.stage = stage;
  found.transfer = transfer;
  found.buffer = buffer;
  return found;
}

/// The outermost op enclosing `from` (scf.for loops, up to the grid itself)
/// across which every value `needs` is invariant and nothing writes `view`;
/// `repeats` tells whether one of them runs more than once.
static Operation *outermostScope(Operation *from, ValueRange needs,
                                 ktdp::ConstructMemoryViewOp view,
                                 bool leaveGrid, bool sameMemory,
                                 bool &repeats) {
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
      // A lane walks its block of the grid's points one after another.
      std::optional<int64_t> n = grid.getNumInstances();
      int64_t points = grid.getNumPoints();
      if (n && *n > 0 && (points + *n - 1) / *n > 1) {
        scope = grid;
        repeats = true;
      }
      break;
    }
    scope = loop;
    std::optional<int64_t> trips = tripCount(loop);
    repeats |= !trips || *trips > 1;
  }
  return scope;
}

/// The load stage's candidate, when its tile is invariant across at least
/// one enclosing loop that runs more than once.
static std::optional<Candidate> analyse(StageOp stage, PipelineOp pipeline,
                                        bool leaveGrid) {
  std::optional<Candidate> found = loadOf(stage, pipeline);
  if (!found)
    return std::nullopt;
  DataTransferOp transfer = found->transfer;
  SmallVector<Value> needs;
  for (Value operand : transfer->getOperands())
    if (operand != transfer.getDst())
      needs.push_back(operand);
  bool repeats = false;
  found->scope = outermostScope(pipeline->getParentOp(), needs,
                                ktdp::getAccessTileView(transfer.getSrc()),
                                leaveGrid, /*sameMemory=*/false, repeats);
  if (!found->scope || !repeats)
    return std::nullopt;
  return found;
}

/// The row span of a load its loop slides along the last dimension of its
/// view: the tile's last coordinate is the loop's induction variable
/// (from a constant >= 0, a constant step), nothing else about it changes
/// in the loop, the loop walks the whole view (or an unknown number of
/// trips), and the buffer is only read into FIFO slots, block by block.
static std::optional<Span> spanOf(Candidate &c) {
  auto slider = dyn_cast<scf::ForOp>(c.stage->getParentOp()->getParentOp());
  auto tile = c.transfer.getSrc().getDefiningOp<ktdp::ConstructAccessTileOp>();
  auto bufferType = dyn_cast<MemRefType>(c.buffer.getType());
  if (!slider || !tile || !bufferType || c.transfer.getRows() ||
      !c.transfer.getSrcIndices().empty() ||
      !c.transfer.getDstIndices().empty() ||
      !tile.getAccessTileOrder().isIdentity())
    return std::nullopt;
  auto viewType = dyn_cast<MemRefType>(tile.getBase().getType());
  auto tileType = cast<ShapedType>(tile.getType());
  std::optional<int64_t> lb = getConstantIntValue(slider.getLowerBound());
  std::optional<int64_t> step = getConstantIntValue(slider.getStep());
  AffineMap map = tile.getBaseMap();
  if (!viewType || !viewType.hasStaticShape() || !lb || *lb < 0 || !step ||
      *step <= 0 || map.getNumResults() != viewType.getRank() ||
      tileType.getShape() != bufferType.getShape())
    return std::nullopt;
  auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
  if (!last ||
      tile.getIndices()[last.getPosition()] != slider.getInductionVar())
    return std::nullopt;
  unsigned dim = last.getPosition();
  for (AffineExpr e : map.getResults().drop_back())
    if (e.isFunctionOfDim(dim))
      return std::nullopt;
  for (OpOperand &operand : tile->getOpOperands())
    if (operand.get() != slider.getInductionVar() &&
        !isInvariant(operand.get(), slider))
      return std::nullopt;
  int64_t extent = viewType.getShape().back();
  std::optional<int64_t> trips = tripCount(slider);
  if ((trips && (*trips <= 1 || *lb + *trips * *step < extent)) ||
      writtenIn(slider, ktdp::getAccessTileView(c.transfer.getSrc()), true))
    return std::nullopt;
  for (OpOperand &use : c.buffer->getUses()) {
    if (use.getOwner() == c.transfer.getOperation())
      continue;
    auto read = dyn_cast<DataTransferOp>(use.getOwner());
    if (!read || read.getSrc() != c.buffer ||
        read.getSrcIndices().size() !=
            static_cast<size_t>(bufferType.getRank()) ||
        !isa<FifoSlotType>(read.getDst().getType()) || read.getRows())
      return std::nullopt;
  }
  return Span{slider, tile, dim, extent, extent + tileType.getShape().back()};
}

/// Whether two row spans load the same elements from the same block.
static bool sameSpan(Span a, Span b) {
  ktdp::ConstructAccessTileOp ta = a.tile, tb = b.tile;
  if (a.slider->getBlock() != b.slider->getBlock() || a.dim != b.dim ||
      ta.getBase() != tb.getBase() || ta.getType() != tb.getType() ||
      ta.getBaseMap() != tb.getBaseMap() ||
      ta.getAccessTileSet() != tb.getAccessTileSet() ||
      ta.getSymbolOperands() != tb.getSymbolOperands())
    return false;
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(ta.getIndices(), tb.getIndices())))
    if (i != a.dim && std::get<0>(pair) != std::get<1>(pair))
      return false;
  return true;
}

/// The row-span candidates of `pipelines`: one per span, its later loads in
/// sibling loops as sharers, within a quarter of the lane's scratchpad.
static SmallVector<Candidate>
analyseSpans(ArrayRef<PipelineOp> pipelines, bool leaveGrid,
             const ktflow::sched::ScheduleTarget &target,
             llvm::StringMap<int64_t> &budget) {
  SmallVector<Candidate> spans;
  for (PipelineOp pipeline : pipelines)
    for (StageOp stage : pipeline.getBody().front().getOps<StageOp>()) {
      std::optional<Candidate> c = loadOf(stage, pipeline);
      if (!c || analyse(stage, pipeline, leaveGrid))
        continue;
      c->span = spanOf(*c);
      if (!c->span)
        continue;
      auto *same = llvm::find_if(spans, [&](Candidate &other) {
        return sameSpan(*other.span, *c->span);
      });
      auto view = ktdp::getAccessTileView(c->transfer.getSrc());
      if (same != spans.end()) {
        // Nothing between the loops may write the data either.
        if (!writtenIn(c->span->slider->getParentOp(), view, true) &&
            same->buffer.getType() == c->buffer.getType())
          same->sharers.push_back(*c);
        continue;
      }
      auto type = cast<MemRefType>(c->buffer.getType());
      StringRef kind = getBufferMemoryKind(type);
      std::optional<ktflow::device::NodeId> node =
          target.getModel().findByKind(kind);
      if (!node)
        continue;
      if (!budget.count(kind))
        budget[kind] = target.getMemoryTree().getCapacity(*node) /
                       static_cast<int64_t>(target.getLanes().size()) / 4;
      int64_t bytes = type.getNumElements() / type.getShape().back() *
                      c->span->width * (type.getElementTypeBitWidth() / 8);
      if (bytes > budget[kind])
        continue;
      budget[kind] -= bytes;
      c->bytes = bytes;
      c->kind = kind;
      bool repeats = true;
      SmallVector<Value> needs;
      for (OpOperand &operand : c->span->tile->getOpOperands())
        if (operand.get() != c->span->slider.getInductionVar())
          needs.push_back(operand.get());
      Operation *outer =
          outermostScope(c->span->slider->getParentOp(), needs, view, leaveGrid,
                         /*sameMemory=*/true, repeats);
      c->scope = outer ? outer : c->span->slider.getOperation();
      spans.push_back(std::move(*c));
    }
  return spans;
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
  auto whole = ktdp::ConstructAccessTileOp::create(
      b, loc, ktdp::AccessTileType::get(b.getContext(), shape),
      cloneOut(tile.getBase(), scope, b, outside), indices, symbols,
      tile.getBaseMapAttr(), IntegerSetAttr::get(set),
      tile.getAccessTileOrderAttr());
  c.transfer.getSrcMutable().assign(whole);
  if (tile->use_empty())
    tile.erase();
  readAtOffset(c, span);
  auto type = cast<MemRefType>(c.buffer.getType());
  c.buffer.getResult().setType(
      getBufferType(shape, type.getElementType(), getBufferMemoryKind(type)));
  for (Candidate &sharer : c.sharers) {
    readAtOffset(sharer, *sharer.span);
    dropTokens(sharer.stage);
    sharer.buffer.getResult().replaceAllUsesExcept(c.buffer.getResult(),
                                                   sharer.transfer);
    ktdp::ConstructAccessTileOp old = sharer.span->tile;
    sharer.stage.erase();
    sharer.buffer.erase();
    if (old->use_empty())
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

namespace {
struct HoistInvariantTransfersPass
    : public ktdf::impl::KTDFHoistInvariantTransfersBase<
          HoistInvariantTransfersPass> {
  using Base::Base;

  /// Copies of the pipeline hoisting `candidates` before `scope`: one,
  /// unless it holds only spans and runs again for each iteration of an
  /// enclosing loop or each grid point of the lane (a per-instance pipeline
  /// at the top of the grid runs once), and the span budget left holds
  /// the extra copies.
  int64_t copiesFor(Operation *scope, ArrayRef<Candidate> candidates,
                    llvm::StringMap<int64_t> &budget) {
    if (spanCopies <= 1 || isa<ParallelOp>(scope))
      return 1;
    llvm::StringMap<int64_t> extra;
    for (const Candidate &c : candidates) {
      if (!c.span)
        return 1;
      extra[c.kind] += c.bytes * (spanCopies - 1);
    }
    for (const auto &entry : extra)
      if (entry.getValue() > budget.lookup(entry.getKey()))
        return 1;
    for (const auto &entry : extra)
      budget[entry.getKey()] -= entry.getValue();
    return spanCopies;
  }

  void runOnOperation() override {
    // Transfers move; the target and its device stay as they are.
    markAnalysesPreserved<ktflow::sched::ScheduleTarget>();
    // Row spans are sized against the lane's share of the scratchpad.
    const ktflow::sched::ScheduleTarget *target =
        spans ? &getAnalysis<ktflow::sched::ScheduleTarget>() : nullptr;
    if (target && !target->isValid())
      return signalPassFailure();
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
      llvm::StringMap<int64_t> budget;
      if (target)
        for (Candidate &c : analyseSpans(pipelines, grid, *target, budget))
          byScope[c.scope].push_back(std::move(c));
      for (auto &[scope, candidates] : byScope)
        hoist(scope, candidates, copiesFor(scope, candidates, budget));
    });
  }
};
} // namespace

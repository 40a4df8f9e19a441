//===- TileCopyLowering.cpp - Tile copies in unit programs ----------------===//
//
// This file lowers the `send` stage of a tile-copy pipeline
// (ktdf-schedule-all-reduce) for one tile: the copies an
// inter_tile_consume makes, from each consumer's producer's scratchpad
// view into the consumer's. Tile t, on its data mover:
//
//   1. if it consumes another tile's copy into a view it wrote itself
//      first (`stored_locally`), tells that tile it may write it (`free`:
//      the stage starts after t's own writes of its scratchpad views);
//   2. for each tile c that consumes t's view (ascending), waits for c's
//      `free` when needed, remote-DMAs the view into c's view and signals
//      c (`copied`; the DMA has landed when the unit moves on);
//   3. waits for its own `copied` when it consumes another tile's view.
//
// Every tile signals before it waits, so no cycle of waits forms (a ring
// shift, where each tile both sends and receives, included). A stage may
// hold several copies (adjacent copy pipelines whose views do not
// conflict, merged by mergeAdjacentCopies): each step then runs for every
// copy before the next, so no tile waits for a copy before it has sent
// its own. A copy may send a resident scratchpad part itself
// (ResidentCopies.cpp), a row per row where the part's rows lie further
// apart than the destination's. The later
// stages that read the view wait for this stage by the scratchpad-view
// channels, like an all-reduce's.
//
// The partial an inter_tile_produce yields is computed and stored into the
// copy's views in the kernel's one program, so on every tile; only the
// tiles that send it or consume their own need it. A pipeline that only
// fills such views (the produce's body: a resident scratchpad part's
// load, ResidentParts.cpp, or a broadcast partial's computation) runs its
// transfers and compute on those tiles only; the others keep its
// synchronisation, so every channel's tokens still balance. Such a
// pipeline that ExchangeDma.cpp made DMAs into several views runs, on each
// tile, only the DMAs into the views that tile's copies use (skipsFill).
//
//===----------------------------------------------------------------------===//

#include "CopyPipelines.h"
#include "ProgramBuilder.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Support/ElementBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

TileCopyOp mlir::ktdf::lowering::getTileCopy(StageOp stage) {
  auto ops = stage.getBody().front().getOps<TileCopyOp>();
  return ops.empty() ? TileCopyOp() : *ops.begin();
}

SmallVector<TileCopyOp> mlir::ktdf::lowering::getTileCopies(StageOp stage) {
  return llvm::to_vector(stage.getBody().front().getOps<TileCopyOp>());
}

const LaneInstance *KernelLowering::laneOfTile(int64_t tile) const {
  int64_t point = pointOfTile(tile, ParallelOp(parallel).getExtents());
  auto it = llvm::find_if(instances, [&](const LaneInstance &li) {
    return li.start == point && li.count == 1;
  });
  return it == instances.end() ? nullptr : &*it;
}

/// The tile `li` runs, if it runs exactly one.
static std::optional<int64_t> tileOf(const KernelLowering &kernel,
                                     const LaneInstance &li) {
  if (li.count != 1)
    return std::nullopt;
  return tileOfPoint(li.start, ParallelOp(kernel.parallel).getExtents());
}

void KernelLowering::collectCopyFills() {
  // Per view a tile copy moves, the tiles on which what is stored there
  // before the copy is used: a source on the tiles that send it, a
  // `stored_locally` destination on the tiles that consume their own.
  parallel.walk([&](TileCopyOp op) {
    llvm::SmallDenseSet<int64_t> sent, kept;
    for (auto [c, p] : llvm::enumerate(op.getSources())) {
      if (p >= 0 && p != static_cast<int64_t>(c))
        sent.insert(p);
      if (p == static_cast<int64_t>(c) && op.getStoredLocally())
        kept.insert(p);
    }
    copyViewUsers[op.getSource()].insert(sent.begin(), sent.end());
    copyViewUsers[op.getDest()].insert(kept.begin(), kept.end());
  });
  if (copyViewUsers.empty())
    return;
  for (PipelineInfo &info : pipelines) {
    llvm::SmallDenseSet<int64_t> tiles;
    bool fills = false;
    bool exports = info.op->getNumResults() != 0 ||
                   llvm::any_of(info.channels,
                                [](const Channel &ch) { return ch.exported; });
    bool fillsOnly = !exports;
    info.op.walk([&](Operation *op) {
      if (isa<AllReduceOp, TileCopyOp, IndDataTransferOp>(op))
        fillsOnly = false;
      auto transfer = dyn_cast<DataTransferOp>(op);
      if (!transfer || !isa<ktdp::AccessTileType>(transfer.getDst().getType()))
        return;
      auto view = ktdp::getAccessTileView(transfer.getDst());
      auto used =
          view ? copyViewUsers.find(view.getResult()) : copyViewUsers.end();
      if (used == copyViewUsers.end() ||
          !view->hasAttr(kExchangeViewAttrName)) {
        fillsOnly = false;
        return;
      }
      fills = true;
      tiles.insert(used->second.begin(), used->second.end());
    });
    if (fills && fillsOnly)
      info.workTiles = std::move(tiles);
  }
}

bool KernelLowering::runsWork(const PipelineInfo &info,
                              const LaneInstance &li) const {
  std::optional<int64_t> tile = tileOf(*this, li);
  return !info.workTiles || !tile || info.workTiles->contains(*tile);
}

bool KernelLowering::skipsFill(DataTransferOp op, const PipelineInfo &info,
                               const LaneInstance &li) const {
  // Only a whole DMA (ExchangeDma.cpp) is left out: a drain's store takes
  // an entry its FIFO's writer puts in on every tile.
  std::optional<int64_t> tile = tileOf(*this, li);
  if (!info.workTiles || !tile ||
      !isa<ktdp::AccessTileType>(op.getSrc().getType()) ||
      !isa<ktdp::AccessTileType>(op.getDst().getType()))
    return false;
  auto view = ktdp::getAccessTileView(op.getDst());
  auto used = view ? copyViewUsers.find(view.getResult()) : copyViewUsers.end();
  return used != copyViewUsers.end() && !used->second.contains(*tile);
}

/// The symbol of channel `what` of the `k`th copy of pipeline `index`'s
/// stage for `li`: the first copy keeps the pipeline's own names.
static std::string copySync(unsigned index, StringRef what, size_t k,
                            const LaneInstance &li) {
  return ringSync(index, k == 0 ? what.str() : (what + Twine(k)).str(), li);
}

void KernelLowering::declareCopySyncs(OpBuilder &b, const PipelineInfo &info,
                                      const LaneInstance &li) {
  auto stages = PipelineOp(info.op).getBody().front().getOps<StageOp>();
  if (stages.empty())
    return;
  StageOp send = *stages.begin();
  std::optional<int64_t> tile = tileOf(*this, li);
  for (auto [k, op] : llvm::enumerate(getTileCopies(send))) {
    if (!tile || *tile >= static_cast<int64_t>(op.getSources().size()))
      return;
    int64_t from = op.getSources()[*tile];
    const LaneInstance *source = from >= 0 ? laneOfTile(from) : nullptr;
    if (from == *tile || !source)
      continue;
    Location loc = op.getLoc();
    dfir::SyncOp::create(b, loc, copySync(info.index, "copied", k, li),
                         unitOf(send, *source), unitOf(send, li));
    if (op.getStoredLocally())
      dfir::SyncOp::create(b, loc, copySync(info.index, "free", k, li),
                           unitOf(send, li), unitOf(send, *source));
  }
}

LogicalResult ProgramBuilder::emitTileCopies(StageOp stage,
                                             const LaneInstance &li) {
  OpBuilder &b = *builder;
  SmallVector<TileCopyOp> copies = getTileCopies(stage);
  std::optional<int64_t> tile = tileOf(kernel, li);
  for (TileCopyOp op : copies)
    if (!tile || *tile >= static_cast<int64_t>(op.getSources().size()))
      return op.emitError("a tile copy needs one tile per lane; lane ")
             << li.lane << " of core " << li.core << " runs " << li.count;
  unsigned index = kernel.infoOf(stage->getParentOfType<PipelineOp>()).index;
  auto sync = [&](TileCopyOp op, size_t k, StringRef what,
                  const LaneInstance &of, bool send) {
    std::string name = copySync(index, what, k, of);
    if (send)
      dfir::SyncSendOp::create(b, op.getLoc(), name);
    else
      dfir::SyncRecvOp::create(b, op.getLoc(), name);
  };
  auto receives = [&](TileCopyOp op) {
    int64_t from = op.getSources()[*tile];
    return from >= 0 && from != *tile;
  };
  // Every copy's `free` first, then every copy's sends, then the receipts:
  // no tile waits before it has sent (merged copies, mergeAdjacentCopies).
  for (auto [k, op] : llvm::enumerate(copies))
    if (receives(op) && op.getStoredLocally()) {
      if (!kernel.laneOfTile(op.getSources()[*tile]))
        return op.emitError("tile ")
               << op.getSources()[*tile] << " runs on no lane of its own";
      sync(op, k, "free", li, true);
    }
  for (auto [k, op] : llvm::enumerate(copies))
    if (failed(emitCopySends(op, k, index, li)))
      return failure();
  for (auto [k, op] : llvm::enumerate(copies))
    if (receives(op))
      sync(op, k, "copied", li, false);
  return success();
}

LogicalResult ProgramBuilder::emitCopySends(TileCopyOp op, size_t k,
                                            unsigned index,
                                            const LaneInstance &li) {
  OpBuilder &b = *builder;
  Location loc = op.getLoc();
  int64_t tile = *tileOf(kernel, li);
  // The view sent: a resident part itself (ResidentCopies.cpp), whose rows
  // may lie further apart than the destination's.
  Value source = op.getSource();
  if (auto part = kernel.residentSources.lookup(op))
    source = part.getResult();
  auto [own, mem] = scratchpadViewBase(b, loc, kernel, source, li);
  auto type = cast<MemRefType>(op.getDest().getType());
  int64_t esize = ktflow::bytesPerElement(type.getElementType());
  int64_t bytes = type.getNumElements() * esize;
  Value rows, ownStride, theirStride;
  auto view = source.getDefiningOp<ktdp::ConstructMemoryViewOp>();
  if (source != op.getSource() && !isDenseRowMajor(view)) {
    ArrayRef<int64_t> sizes = view.getStaticSizes();
    bytes = sizes[1] * esize;
    rows = constant(sizes[0]);
    ownStride = constant(view.getStaticStrides()[0] * esize);
    theirStride = constant(bytes);
  }
  for (auto [c, p] : llvm::enumerate(op.getSources())) {
    if (p != tile || static_cast<int64_t>(c) == tile)
      continue;
    const LaneInstance *consumer = kernel.laneOfTile(c);
    if (!consumer)
      return op.emitError("tile ") << c << " runs on no lane of its own";
    if (op.getStoredLocally())
      dfir::SyncRecvOp::create(b, loc, copySync(index, "free", k, *consumer));
    auto [theirs, theirMem] =
        scratchpadViewBase(b, loc, kernel, op.getDest(), *consumer);
    dfir::RemoteDmaOp::create(b, loc, constant(bytes), mem, own, theirMem,
                              theirs, rows, ownStride, theirStride);
    dfir::SyncSendOp::create(b, loc, copySync(index, "copied", k, *consumer));
  }
  return success();
}

StageOp mlir::ktdf::lowering::copyStageOf(Operation *op) {
  auto pipeline = dyn_cast_or_null<PipelineOp>(op);
  if (!pipeline || pipeline->getNumResults() != 0)
    return {};
  auto stages = llvm::to_vector(pipeline.getBody().front().getOps<StageOp>());
  if (stages.size() != 1 ||
      !llvm::all_of(pipeline.getBody().front(),
                    [](Operation &op) { return isa<StageOp>(op); }) ||
      getTileCopies(stages[0]).empty() ||
      !llvm::all_of(stages[0].getBody().front(), [](Operation &op) {
        return isa<TileCopyOp>(op) || op.hasTrait<OpTrait::IsTerminator>();
      }))
    return {};
  return stages[0];
}

void mlir::ktdf::lowering::mergeAdjacentCopies(func::FuncOp func) {
  SmallVector<PipelineOp> pipelines;
  func.walk([&](PipelineOp p) { pipelines.push_back(p); });
  llvm::SmallPtrSet<Operation *, 4> merged;
  for (PipelineOp pipeline : pipelines) {
    StageOp first =
        merged.contains(pipeline) ? StageOp() : copyStageOf(pipeline);
    if (!first)
      continue;
    // The next pipelines that only copy, on the same unit, views none of
    // this stage's copies write (a copy routed on from what one received
    // waits for it): their copies join this stage, in order.
    while (StageOp next = copyStageOf(nextEffectfulOp(pipeline))) {
      auto definedBefore = [&](Value v) {
        Operation *def = v.getDefiningOp();
        return !def || def->getBlock() != pipeline->getBlock() ||
               def->isBeforeInBlock(pipeline);
      };
      if (next.getUnitAttr() != first.getUnitAttr() ||
          next.getApplicableUnitsAttr() != first.getApplicableUnitsAttr() ||
          stagesConflict(first, next) ||
          !llvm::all_of(getTileCopies(next), [&](TileCopyOp copy) {
            return llvm::all_of(copy->getOperands(), definedBefore);
          }))
        break;
      Block &body = first.getBody().front();
      for (TileCopyOp copy : getTileCopies(next)) {
        if (!body.empty() && body.back().hasTrait<OpTrait::IsTerminator>())
          copy->moveBefore(&body.back());
        else
          copy->moveBefore(&body, body.end());
      }
      Operation *gone = next->getParentOp();
      merged.insert(gone);
      gone->erase();
    }
  }
}

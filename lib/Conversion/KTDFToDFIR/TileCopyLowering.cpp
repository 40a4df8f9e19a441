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
// shift, where each tile both sends and receives, included). The later
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

void KernelLowering::declareCopySyncs(OpBuilder &b, const PipelineInfo &info,
                                      const LaneInstance &li) {
  auto stages = PipelineOp(info.op).getBody().front().getOps<StageOp>();
  if (stages.empty())
    return;
  StageOp send = *stages.begin();
  TileCopyOp op = getTileCopy(send);
  std::optional<int64_t> tile = tileOf(*this, li);
  if (!op || !tile || *tile >= static_cast<int64_t>(op.getSources().size()))
    return;
  int64_t from = op.getSources()[*tile];
  const LaneInstance *source = from >= 0 ? laneOfTile(from) : nullptr;
  if (from == *tile || !source)
    return;
  Location loc = op.getLoc();
  dfir::SyncOp::create(b, loc, ringSync(info.index, "copied", li),
                       unitOf(send, *source), unitOf(send, li));
  if (op.getStoredLocally())
    dfir::SyncOp::create(b, loc, ringSync(info.index, "free", li),
                         unitOf(send, li), unitOf(send, *source));
}

LogicalResult ProgramBuilder::emitTileCopy(TileCopyOp op,
                                           const LaneInstance &li) {
  OpBuilder &b = *builder;
  Location loc = op.getLoc();
  std::optional<int64_t> tile = tileOf(kernel, li);
  ArrayRef<int64_t> sources = op.getSources();
  if (!tile || *tile >= static_cast<int64_t>(sources.size()))
    return op.emitError("a tile copy needs one tile per lane; lane ")
           << li.lane << " of core " << li.core << " runs " << li.count;
  auto pipeline = op->getParentOfType<PipelineOp>();
  unsigned index = kernel.infoOf(pipeline).index;
  auto sync = [&](StringRef what, const LaneInstance &of, bool send) {
    std::string name = ringSync(index, what, of);
    if (send)
      dfir::SyncSendOp::create(b, loc, name);
    else
      dfir::SyncRecvOp::create(b, loc, name);
  };
  int64_t from = sources[*tile];
  bool receives = from >= 0 && from != *tile;
  if (receives && op.getStoredLocally()) {
    const LaneInstance *source = kernel.laneOfTile(from);
    if (!source)
      return op.emitError("tile ") << from << " runs on no lane of its own";
    sync("free", li, true);
  }
  auto [own, mem] = scratchpadViewBase(b, loc, kernel, op.getSource(), li);
  auto type = cast<MemRefType>(op.getSource().getType());
  int64_t bytes =
      type.getNumElements() * ktflow::bytesPerElement(type.getElementType());
  for (auto [c, p] : llvm::enumerate(sources)) {
    if (p != *tile || static_cast<int64_t>(c) == *tile)
      continue;
    const LaneInstance *consumer = kernel.laneOfTile(c);
    if (!consumer)
      return op.emitError("tile ") << c << " runs on no lane of its own";
    if (op.getStoredLocally())
      sync("free", *consumer, false);
    auto [theirs, theirMem] =
        scratchpadViewBase(b, loc, kernel, op.getDest(), *consumer);
    dfir::RemoteDmaOp::create(b, loc, constant(bytes), mem, own, theirMem,
                              theirs, Value(), Value(), Value());
    sync("copied", *consumer, true);
  }
  if (receives)
    sync("copied", li, false);
  return success();
}

//===- RowBlockHandOvers.cpp - Tiles handed to the feed row block by block ===//
//
// A DMA load stage marked `ktdf.row_blocks = B` (ktdf-row-blocks) hands its
// tile to the feed in B blocks of rows instead of whole: the engine loads
// block k of every marked stage of the pipeline (interleaved across the
// tiles, so block 0 of each lands first), each as its own DMA clamped to
// the rows the tile's view holds, followed by that stage's token; the feed
// waits for block k just before its row loop reaches the block's first row
// (in the first trip of the loops around that loop). A marked DMA store
// stage is the mirror image: the drain sends a token just after its row
// loop finishes a block's last row (in the last trip of the loops around),
// and the engine, for each k, takes block k's token of every marked store
// and stores the block, clamped likewise. Each execution still sends and
// takes B tokens per tile, an empty (clamped) block's too; the tokens that
// hand the buffers back stay one per execution.
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"
#include "TileDma.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDF/Transforms/RowBlocks.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

const Channel *ProgramBuilder::rowBlockChannel(const PipelineInfo &info,
                                               StageOp stage, int64_t &blocks) {
  auto attr = stage->getAttrOfType<IntegerAttr>(kRowBlocksAttrName);
  scf::ForOp loop = attr ? getRowBlockLoop(stage) : nullptr;
  if (!loop)
    return nullptr;
  // The feed a load hands its tile to, the drain that hands a store its.
  auto peer = loop->getParentOfType<StageOp>();
  bool store = isRowBlockStore(stage);
  StageOp from = store ? peer : stage, to = store ? stage : peer;
  const Channel *forward = nullptr;
  for (const Channel &ch : info.channels) {
    if (ch.to != stage && ch.from != stage)
      continue;
    // Only plain hand-overs: a token each way per execution.
    if (ch.exported || ch.carry || ch.kept || !ch.sendLoops.empty())
      return nullptr;
    if (ch.from == from && ch.to == to && ch.copies == 0)
      forward = &ch;
  }
  int64_t rows =
      cast<MemRefType>(getLoadedBuffer(stage).getType()).getShape().front();
  blocks = attr.getInt();
  return forward && blocks > 1 && rows % blocks == 0 ? forward : nullptr;
}

void ProgramBuilder::emitRowBlockDma(Location loc, const TileDma &dma,
                                     Value validRows, Value first,
                                     int64_t rows) {
  OpBuilder &b = *builder;
  // The tensor's row stride may be a launch value (strideBytes).
  auto offset = [&](Value rowBytes) {
    return arith::MulIOp::create(b, loc, first, rowBytes);
  };
  TileDma block = dma;
  block.memAddr = arith::AddIOp::create(b, loc, dma.memAddr,
                                        offset(strideBytes(loc, dma, 0)));
  block.bufAddr = arith::AddIOp::create(
      b, loc, dma.bufAddr, offset(constant(dma.extents[1] * dma.esize)));
  Value left = arith::SubIOp::create(b, loc, validRows, first);
  Value n = arith::MaxSIOp::create(
      b, loc, arith::MinSIOp::create(b, loc, left, constant(rows)),
      constant(0));
  emitMaskedRowsDma(loc, block, n);
}

LogicalResult ProgramBuilder::emitRowBlockTransfers(
    ArrayRef<StageOp> group, int64_t blocks, const PipelineInfo &info,
    IRMapping &map, Value copy, const LaneInstance &li,
    function_ref<void(const Channel &)> emitWait) {
  OpBuilder &b = *builder;
  Location loc = group.front()->getLoc();
  // Every stage's waits come first: its buffer handed back, the writes of
  // earlier pipelines to the views it reads (a store waits for its blocks
  // one by one).
  bool store = isRowBlockStore(group.front());
  struct Tile {
    StageOp stage;
    const Channel *forward;
    DataTransferOp op;
    TileDma dma;
    DmaWindow window;
  };
  SmallVector<Tile, 2> tiles;
  for (StageOp stage : group) {
    int64_t ignored;
    const Channel *forward = rowBlockChannel(info, stage, ignored);
    tiles.push_back({stage, forward,
                     *stage.getBody().front().getOps<DataTransferOp>().begin(),
                     TileDma(), DmaWindow()});
    for (const Channel &ch : info.channels)
      if (ch.to == stage && &ch != forward)
        emitWait(ch);
    for (const PipelineInfo &earlier : kernel.pipelines)
      for (const Channel &ch : earlier.regionChannels)
        if (ch.to == stage && waitsInStage(ch, li))
          for (size_t k = 0; k < tokensOf(ch); ++k)
            dfir::SyncRecvOp::create(b, loc,
                                     KernelLowering::perLane(ch.base, li));
  }
  bool inRows = true;
  for (Tile &tile : tiles) {
    IRMapping m = map;
    FailureOr<TileDma> dma = resolveTileDma(tile.op, m, li, copy);
    if (failed(dma))
      return failure();
    FailureOr<DmaWindow> window = clampToView(tile.op, *dma, m);
    if (failed(window))
      return failure();
    // Blocks split the rows only: a tile masked along its columns, or
    // starting before its view, moves whole.
    inRows &= dma->extents.size() == 2 && !window->count[1] &&
              !window->begin[0] && window->count[0];
    tile.dma = std::move(*dma);
    tile.window = std::move(*window);
  }
  if (inRows && !store && !syncOnly)
    for (Tile &tile : tiles)
      if (!tile.dma.tile->hasAttr(kPartPieceAttrName))
        emitMaskFills(loc, tile.dma, tile.window);
  auto sendBlock = [&](Tile &tile) {
    dfir::SyncSendOp::create(b, loc,
                             KernelLowering::perLane(tile.forward->base, li));
  };
  auto receiveBlock = [&](Tile &tile) {
    dfir::SyncRecvOp::create(b, loc,
                             KernelLowering::perLane(tile.forward->base, li));
  };
  if (!inRows) {
    if (store)
      for (int64_t k = 0; k < blocks; ++k)
        for (Tile &tile : tiles)
          receiveBlock(tile);
    for (Tile &tile : tiles) {
      IRMapping m = map;
      if (failed(emitTransfer(tile.op, m, li, copy)))
        return failure();
      if (!store)
        sendBlock(tile);
    }
    if (!store)
      for (int64_t k = 1; k < blocks; ++k)
        for (Tile &tile : tiles)
          sendBlock(tile);
  } else {
    int64_t blockRows = tiles.front().dma.extents[0] / blocks;
    scf::ForOp::create(
        b, loc, constant(0), constant(blocks), constant(1), ValueRange{},
        [&](OpBuilder &, Location, Value k, ValueRange) {
          Value first = arith::MulIOp::create(b, loc, k, constant(blockRows));
          for (Tile &tile : tiles) {
            if (store)
              receiveBlock(tile);
            // A tile that only keeps the pipeline's synchronisation
            // (KernelLowering::runsWork) moves nothing.
            if (!syncOnly)
              emitRowBlockDma(loc, tile.dma, tile.window.count[0], first,
                              blockRows);
            if (!store)
              sendBlock(tile);
          }
          scf::YieldOp::create(b, loc);
        });
  }
  for (Tile &tile : tiles) {
    for (const Channel &ch : info.channels)
      if (ch.from == tile.stage && &ch != tile.forward)
        dfir::SyncSendOp::create(b, loc, KernelLowering::perLane(ch.base, li));
    for (const Channel &ch : info.regionChannels)
      if (ch.from == tile.stage)
        for (size_t k = 0; k < tokensOf(ch); ++k)
          dfir::SyncSendOp::create(b, loc,
                                   KernelLowering::perLane(ch.base, li));
  }
  return success();
}

void ProgramBuilder::emitRowBlockHandOvers(
    scf::ForOp loop, IRMapping &inner,
    MutableArrayRef<RowBlockHandOver> handOvers, bool sends,
    const LaneInstance &li) {
  OpBuilder &b = *builder;
  Location loc = loop.getLoc();
  for (RowBlockHandOver &handOver : handOvers) {
    if (handOver.loop != loop || handOver.send != sends)
      continue;
    handOver.emitted = true;
    // A feed waits at a block's first row, in the first trip of the loops
    // around; a drain hands it on after its last row, in their last trip.
    Value at;
    auto require = [&](Value holds) {
      at = at ? arith::AndIOp::create(b, loc, at, holds) : holds;
    };
    if (handOver.blockRows > 1)
      require(arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq,
          arith::RemUIOp::create(b, loc, inner.lookup(loop.getInductionVar()),
                                 constant(handOver.blockRows)),
          constant(sends ? handOver.blockRows - 1 : 0)));
    for (auto outer = loop->getParentOfType<scf::ForOp>();
         outer && handOver.loop->getParentOfType<StageOp>()->isAncestor(outer);
         outer = outer->getParentOfType<scf::ForOp>()) {
      int64_t trip = 0;
      if (sends)
        trip = outer.getStaticTripCount()->getSExtValue() - 1;
      require(arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq,
          inner.lookup(outer.getInductionVar()),
          constant(*getConstantIntValue(outer.getLowerBound()) +
                   trip * *getConstantIntValue(outer.getStep()))));
    }
    auto handOn = [&] {
      std::string sync = KernelLowering::perLane(handOver.channel->base, li);
      if (sends)
        dfir::SyncSendOp::create(b, loc, sync);
      else
        dfir::SyncRecvOp::create(b, loc, sync);
    };
    if (at)
      emitIf(at, handOn);
    else
      handOn();
  }
}

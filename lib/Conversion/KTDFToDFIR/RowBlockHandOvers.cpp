//===- RowBlockHandOvers.cpp - Tiles handed to the feed row block by block ===//
//
// A DMA load stage marked `ktdf.row_blocks = B` (ktdf-row-blocks) hands its
// tile to the feed in B blocks of rows instead of whole: the engine loads
// block k of every marked stage of the pipeline (interleaved across the
// tiles, so block 0 of each lands first), each as its own DMA clamped to
// the rows the tile's view holds, followed by that stage's token; the feed
// waits for block k just before its row loop reaches the block's first row
// (in the first trip of the loops around that loop). Each execution still
// sends and takes B tokens per tile, an empty (clamped) block's too; the
// tokens that hand the buffers back stay one per execution.
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
  auto reader = loop->getParentOfType<StageOp>();
  const Channel *forward = nullptr;
  for (const Channel &ch : info.channels) {
    if (ch.to != stage && ch.from != stage)
      continue;
    // Only plain hand-overs: a token each way per execution.
    if (ch.exported || ch.carry || ch.kept || !ch.sendLoops.empty())
      return nullptr;
    if (ch.from == stage && ch.to == reader && ch.copies == 0)
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

LogicalResult ProgramBuilder::emitRowBlockLoads(
    ArrayRef<StageOp> group, int64_t blocks, const PipelineInfo &info,
    IRMapping &map, Value copy, const LaneInstance &li,
    function_ref<void(const Channel &)> emitWait) {
  OpBuilder &b = *builder;
  Location loc = group.front()->getLoc();
  // Every stage's waits come first: its buffer handed back, the writes of
  // earlier pipelines to the views it reads.
  for (StageOp stage : group) {
    for (const Channel &ch : info.channels)
      if (ch.to == stage)
        emitWait(ch);
    for (const PipelineInfo &earlier : kernel.pipelines)
      for (const Channel &ch : earlier.regionChannels)
        if (ch.to == stage && waitsInStage(ch, li))
          dfir::SyncRecvOp::create(b, loc,
                                   KernelLowering::perLane(ch.base, li));
  }
  struct Load {
    StageOp stage;
    const Channel *forward;
    DataTransferOp op;
    TileDma dma;
    DmaWindow window;
  };
  SmallVector<Load, 2> loads;
  bool inRows = true;
  for (StageOp stage : group) {
    int64_t ignored;
    Load load{stage, rowBlockChannel(info, stage, ignored),
              *stage.getBody().front().getOps<DataTransferOp>().begin(),
              TileDma(), DmaWindow()};
    IRMapping m = map;
    FailureOr<TileDma> dma = resolveTileDma(load.op, m, li, copy);
    if (failed(dma))
      return failure();
    FailureOr<DmaWindow> window = clampToView(load.op, *dma, m);
    if (failed(window))
      return failure();
    // Blocks split the rows only: a tile masked along its columns, or
    // starting before its view, moves whole.
    inRows &= dma->extents.size() == 2 && !window->count[1] &&
              !window->begin[0] && window->count[0];
    load.dma = std::move(*dma);
    load.window = std::move(*window);
    loads.push_back(std::move(load));
  }
  if (inRows)
    for (Load &load : loads)
      if (!load.dma.tile->hasAttr(kPartPieceAttrName))
        emitMaskFills(loc, load.dma, load.window);
  auto sendBlock = [&](Load &load) {
    dfir::SyncSendOp::create(b, loc,
                             KernelLowering::perLane(load.forward->base, li));
  };
  if (!inRows) {
    for (Load &load : loads) {
      IRMapping m = map;
      if (failed(emitTransfer(load.op, m, li, copy)))
        return failure();
      sendBlock(load);
    }
    for (int64_t k = 1; k < blocks; ++k)
      for (Load &load : loads)
        sendBlock(load);
  } else {
    int64_t blockRows = loads.front().dma.extents[0] / blocks;
    scf::ForOp::create(
        b, loc, constant(0), constant(blocks), constant(1), ValueRange{},
        [&](OpBuilder &, Location, Value k, ValueRange) {
          Value first = arith::MulIOp::create(b, loc, k, constant(blockRows));
          for (Load &load : loads) {
            emitRowBlockDma(loc, load.dma, load.window.count[0], first,
                            blockRows);
            sendBlock(load);
          }
          scf::YieldOp::create(b, loc);
        });
  }
  for (Load &load : loads) {
    for (const Channel &ch : info.channels)
      if (ch.from == load.stage && &ch != load.forward)
        dfir::SyncSendOp::create(b, loc, KernelLowering::perLane(ch.base, li));
    for (const Channel &ch : info.regionChannels)
      if (ch.from == load.stage)
        dfir::SyncSendOp::create(b, loc, KernelLowering::perLane(ch.base, li));
  }
  return success();
}

void ProgramBuilder::emitRowBlockWaits(scf::ForOp loop, IRMapping &inner,
                                       ArrayRef<RowBlockWait> waits,
                                       const LaneInstance &li) {
  OpBuilder &b = *builder;
  Location loc = loop.getLoc();
  for (const RowBlockWait &wait : waits) {
    if (wait.loop != loop)
      continue;
    // At a block's first row, in the first trip of the loops around.
    Value at;
    auto require = [&](Value holds) {
      at = at ? arith::AndIOp::create(b, loc, at, holds) : holds;
    };
    if (wait.blockRows > 1)
      require(arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq,
          arith::RemUIOp::create(b, loc, inner.lookup(loop.getInductionVar()),
                                 constant(wait.blockRows)),
          constant(0)));
    for (auto outer = loop->getParentOfType<scf::ForOp>();
         outer && wait.loop->getParentOfType<StageOp>()->isAncestor(outer);
         outer = outer->getParentOfType<scf::ForOp>())
      require(arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq,
          inner.lookup(outer.getInductionVar()),
          constant(*getConstantIntValue(outer.getLowerBound()))));
    auto receive = [&] {
      dfir::SyncRecvOp::create(b, loc,
                               KernelLowering::perLane(wait.channel->base, li));
    };
    if (at)
      emitIf(at, receive);
    else
      receive();
  }
}

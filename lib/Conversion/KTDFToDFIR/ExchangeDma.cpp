//===- ExchangeDma.cpp - DMAs straight to and from a copy's views ---------===//
//
// This file rewrites, before a kernel's programs are built, the pipelines
// that only move a tile between device memory and an exchange view of a
// tile copy (ktdf-lower-inter-tile's `ktdf.tile_copy`): the writer's
// pipeline DMAs the stored tile into a buffer and passes it unchanged
// through load unit, vector unit and store unit into the view it sends;
// the reader's reads the view it received the same way into a buffer it
// DMAs to device memory. Each such pass costs the vector unit the tile's
// bytes at its rate (~90 cycles for 2 KiB on sample_device, against the
// remote DMA's 32): the DMA reaches the scratchpad the view lies in, so the
// pipeline becomes its one DMA stage, moving the tile straight into the
// view, or out of it. The view is ordered against the copy as before: both
// stages touch the scratchpad views (PipelineResources' "local" channels).
//
// Matched: a pipeline of exactly a DMA load of a device tile into a buffer,
// a feed of the whole buffer, a compute stage that writes each chunk it
// reads unchanged, and a drain into the view (or the mirror image: feed of
// the view, pass, drain into a buffer, DMA store of it); the feed's and
// the drain's loops the same, each transfer indexed by its loops' induction
// variables in order; the buffer of the view's shape and element type; the
// view dense row-major, its tile the whole view from the origin.
//
// The writer's drain may store each chunk into several such views (one
// stored tile feeding several copies, and a copy's source beside the
// destination its producer keeps for itself, `stored_locally`:
// PartCopies.cpp's fills of realworld/lx_mixed_copy.mlir write four): the
// DMA stage then moves the tile into each view, one DMA per view, which
// costs the data mover a tile's bytes per view where the store unit paid
// a chunk's latency per chunk and view (on mesh_device 2.5 cycles per
// 64-byte chunk, 640 cycles for a 4 KiB tile into four views, against
// 4 x 64 + 80 for the DMAs). The lowering then drops, per tile, the DMAs
// into views that tile's copies do not use (KernelLowering::skipsFill).
//
//===----------------------------------------------------------------------===//

#include "CopyPipelines.h"
#include "ProgramBuilder.h"

#include "ktflow/Analysis/MemoryTensors.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

DataTransferOp lowering::onlyTransfer(StageOp stage) {
  DataTransferOp found;
  int count = 0;
  stage.walk([&](DataTransferOp op) {
    found = op;
    ++count;
  });
  return count == 1 ? found : DataTransferOp();
}

std::optional<SmallVector<int64_t>>
lowering::chunkLoops(DataTransferOp op, ValueRange indices, StageOp stage) {
  SmallVector<scf::ForOp> loops;
  for (Operation *p = op->getParentOp(); p != stage; p = p->getParentOp()) {
    auto loop = dyn_cast<scf::ForOp>(p);
    if (!loop)
      return std::nullopt;
    loops.insert(loops.begin(), loop);
  }
  if (loops.size() != indices.size())
    return std::nullopt;
  SmallVector<int64_t> bounds;
  for (auto [loop, index] : llvm::zip(loops, indices)) {
    APInt lb, ub, step;
    if (index != loop.getInductionVar() ||
        !matchPattern(loop.getLowerBound(), m_ConstantInt(&lb)) ||
        !matchPattern(loop.getUpperBound(), m_ConstantInt(&ub)) ||
        !matchPattern(loop.getStep(), m_ConstantInt(&step)))
      return std::nullopt;
    bounds.append({lb.getSExtValue(), ub.getSExtValue(), step.getSExtValue()});
  }
  return bounds;
}

bool lowering::passesChunksThrough(StageOp stage) {
  if (!stage.isCompute())
    return false;
  WalkResult result = stage.getBody().walk([&](Operation *op) {
    if (isa<scf::ForOp, scf::YieldOp, arith::ConstantOp, ReadFromFifoOp>(op))
      return WalkResult::advance();
    auto write = dyn_cast<WriteToFifoOp>(op);
    if (write && write->getOperand(0).getDefiningOp<ReadFromFifoOp>())
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  return !result.wasInterrupted();
}

/// Whether `tile` covers the whole of a dense row-major scratchpad view a
/// tile copy sends or receives, from its origin, with `buffer`'s shape, in
/// `buffer`'s memory (which the DMA reaches).
static bool isWholeCopyView(Value tile, Value buffer,
                            const llvm::DenseSet<Operation *> &copyViews) {
  ktdp::ConstructMemoryViewOp view = wholeViewOf(tile);
  auto type = dyn_cast<MemRefType>(buffer.getType());
  auto memory =
      view ? view->getAttrOfType<StringAttr>("ktdf.memory") : StringAttr();
  if (!view || !copyViews.contains(view) || !type || !memory ||
      memory.getValue() != getBufferMemoryKind(type) ||
      view.getStaticSizes() != type.getShape() ||
      cast<MemRefType>(view.getType()).getElementType() !=
          type.getElementType())
    return false;
  return isDenseRowMajor(view);
}

void lowering::reduceToDma(PipelineOp pipeline, StageOp dma, Value from,
                           ArrayRef<Value> to) {
  DataTransferOp transfer = onlyTransfer(dma);
  transfer.getSrcMutable().assign(from);
  transfer.getDstMutable().assign(to.front());
  OpBuilder after(transfer);
  after.setInsertionPointAfter(transfer);
  for (Value dst : to.drop_front()) {
    auto more = cast<DataTransferOp>(after.clone(*transfer));
    more.getDstMutable().assign(dst);
    after.setInsertionPointAfter(more);
  }
  OpBuilder b(dma);
  auto stage =
      StageOp::create(b, dma.getLoc(), TypeRange{}, dma.getName(), ValueRange{},
                      dma.getApplicableUnitsAttr(), dma.getUnitAttr());
  stage.getBody().takeBody(dma.getBody());
  // The other stages, the DMA's, then the resources nothing uses now.
  Block &body = pipeline.getBody().front();
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body)))
    if (isa<StageOp>(op) && &op != stage.getOperation()) {
      op.dropAllReferences();
      op.erase();
    }
  eraseUnusedPrivates(pipeline);
}

void lowering::eraseUnusedPrivates(PipelineOp pipeline) {
  Block &body = pipeline.getBody().front();
  for (Operation &op : llvm::make_early_inc_range(body))
    if (isa<PrivateOp>(op) && op.use_empty())
      op.erase();
}

void mlir::ktdf::lowering::directExchangeDmas(func::FuncOp func) {
  llvm::DenseSet<Operation *> copyViews;
  func.walk([&](TileCopyOp copy) {
    copyViews.insert(copy.getSource().getDefiningOp());
    copyViews.insert(copy.getDest().getDefiningOp());
  });
  if (copyViews.empty())
    return;
  SmallVector<PipelineOp> pipelines;
  func.walk([&](PipelineOp p) { pipelines.push_back(p); });
  for (PipelineOp pipeline : pipelines) {
    auto stages = llvm::to_vector(pipeline.getBody().front().getOps<StageOp>());
    if (pipeline->getNumResults() != 0 || stages.size() != 4)
      continue;
    bool writer = stages[0].isApplicable(UnitRole::dma_load);
    StageOp dma = writer ? stages[0] : stages[3];
    StageOp feed = writer ? stages[1] : stages[0];
    StageOp drain = writer ? stages[3] : stages[2];
    DataTransferOp move = onlyTransfer(dma), in = onlyTransfer(feed);
    // The drain's transfers: one, or (writing views) one per view.
    SmallVector<DataTransferOp> outs;
    drain.walk([&](DataTransferOp op) { outs.push_back(op); });
    if (!move || !in || outs.empty() || (!writer && outs.size() != 1) ||
        move.getRows() || !move.getStagedIndices().empty() ||
        (!writer && !dma.isApplicable(UnitRole::dma_store)) ||
        !passesChunksThrough(writer ? stages[2] : stages[1]))
      continue;
    // The DMA's tile in device memory and its buffer; the views the feed
    // reads or the drain writes.
    Value tile = writer ? move.getSrc() : move.getDst();
    Value buffer = writer ? move.getDst() : move.getSrc();
    SmallVector<Value> views;
    for (DataTransferOp out : outs)
      views.push_back(writer ? out.getDst() : in.getSrc());
    auto inLoops = chunkLoops(in, in.getSrcIndices(), feed);
    bool direct =
        tile.getDefiningOp<ktdp::ConstructAccessTileOp>() &&
        ktflow::getDeviceTensor(tile) && buffer.getDefiningOp<PrivateOp>() &&
        (writer ? in.getSrc() : outs.front().getDst()) == buffer &&
        llvm::all_of(buffer.getUsers(),
                     [&](Operation *user) {
                       return user == move || user == in ||
                              llvm::is_contained(outs, user);
                     }) &&
        inLoops &&
        llvm::SmallDenseSet<Value, 4>(views.begin(), views.end()).size() ==
            views.size();
    for (auto [out, view] : llvm::zip(outs, views))
      direct = direct && isWholeCopyView(view, buffer, copyViews) &&
               (!writer || isa<FifoSlotType>(out.getSrc().getType())) &&
               chunkLoops(out, out.getDstIndices(), drain) == inLoops;
    if (!direct)
      continue;
    if (writer)
      reduceToDma(pipeline, dma, tile, views);
    else
      reduceToDma(pipeline, dma, views.front(), tile);
  }
}

//===- PassThroughDma.cpp - Device-to-device copies in DMA alone ----------===//
//
// This file rewrites, before a kernel's programs are built, the pipelines
// that only copy a tile of device memory to another: a DMA into a buffer,
// the buffer passed unchanged through load unit, compute unit and store
// unit into a second buffer (a feed of the whole buffer, a compute stage
// that writes each chunk it reads unchanged, a drain over the same chunk
// loops), and a DMA of that to device memory. The device part of a
// distributed view copied out (realworld/lx_resident_copy.mlir's rows
// 0..95) is such a pipeline: its round trip costs the load and store
// units a chunk's latency per chunk (on spyre_like the store unit's 96
// row stores took turns with the tile-copy fills'). What is left:
//
//   * where one unit both loads and stores device memory (mesh_device's
//     DMA engine), one DMA from tile to tile, when the stored tile is a
//     contiguous run inside its view (the DMA writes it as the buffer) and
//     the loaded one needs no masking; else the pipeline stays (a store
//     after the load on the same unit would wait for the load in flight,
//     unordered by any token, which the estimate does not charge:
//     distributed_copy's 16x16 blocks on mesh_device, simulated 437
//     cycles against an estimate of 256);
//   * where two units do (spyre_like's DMA_IN and DMA_OUT), the load into
//     the first buffer and the store out of it, handed over between them
//     as any buffer.
//
//===----------------------------------------------------------------------===//

#include "CopyPipelines.h"
#include "Lowering.h"

#include "ktflow/Analysis/MemoryTensors.h"
#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

/// The one transfer of `stage`, when it moves a whole private buffer from
/// (`load`) or to a tile of device memory, as its DMA stage does: no row
/// limit, no staged indices.
static DataTransferOp wholeBufferDma(StageOp stage, bool load) {
  DataTransferOp op = onlyTransfer(stage);
  if (!op || op.getRows() || !op.getStagedIndices().empty() ||
      !stage.isApplicable(load ? UnitRole::dma_load : UnitRole::dma_store))
    return DataTransferOp();
  Value tile = load ? op.getSrc() : op.getDst();
  Value buffer = load ? op.getDst() : op.getSrc();
  if (!tile.getDefiningOp<ktdp::ConstructAccessTileOp>() ||
      !ktflow::getDeviceTensor(tile) || !buffer.getDefiningOp<PrivateOp>())
    return DataTransferOp();
  return op;
}

/// Whether `loops` (chunkLoops' bounds) walk each dimension of `type`
/// from 0 to its end, and their trips times `chunk`'s elements are the
/// buffer's: every element of the buffer moves once.
static bool coversBuffer(ArrayRef<int64_t> loops, MemRefType type,
                         FifoSlotType chunk) {
  if (loops.size() != 3 * static_cast<size_t>(type.getRank()))
    return false;
  int64_t trips = 1;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    int64_t lb = loops[3 * d], ub = loops[3 * d + 1], step = loops[3 * d + 2];
    if (lb != 0 || ub != type.getDimSize(d) || step <= 0)
      return false;
    trips *= (ub + step - 1) / step;
  }
  int64_t elements = 1;
  for (int64_t n : chunk.getShape())
    elements *= n;
  return trips * elements == type.getNumElements();
}

/// Whether `tile` is a contiguous run of its view, inside it: a dense
/// row-major view of static strides, the tile in the view's order, whole
/// rows of it below its first dimension of more than one element.
static bool isContiguousDeviceTile(Value tile) {
  auto access = tile.getDefiningOp<ktdp::ConstructAccessTileOp>();
  auto view = ktdp::getAccessTileView(tile);
  if (!access || !view || !view.getStrides().empty() ||
      !access.getAccessTileOrder().isIdentity() ||
      !ktdp::isBoxShaped(access.getAccessTileSet()) || mayLeaveView(access))
    return false;
  auto box = ktdp::getBoundingBox(access.getAccessTileSet(), {});
  ArrayRef<int64_t> sizes = view.getStaticSizes();
  ArrayRef<int64_t> strides = view.getStaticStrides();
  if (failed(box) || box->getExtents().size() != sizes.size())
    return false;
  int64_t stride = 1;
  bool whole = true;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    int64_t extent = box->getExtents()[d];
    if (strides[d] != stride || (!whole && extent != 1))
      return false;
    whole = whole && extent == sizes[d];
    stride *= sizes[d];
  }
  return true;
}

/// A pipeline that DMAs a tile of device memory into a buffer, passes it
/// unchanged through feed, compute and drain into a second buffer and DMAs
/// that to another tile of device memory, moves it in DMA alone: the load
/// into the first buffer and the store out of it, or, where one unit both
/// loads and stores device memory and the tiles allow (the stored one a
/// contiguous run inside its view), one DMA from tile to tile.
static void directDevicePassThrough(PipelineOp pipeline) {
  auto stages = llvm::to_vector(pipeline.getBody().front().getOps<StageOp>());
  if (pipeline->getNumResults() != 0 || stages.size() != 5)
    return;
  DataTransferOp load = wholeBufferDma(stages[0], /*load=*/true);
  DataTransferOp store = wholeBufferDma(stages[4], /*load=*/false);
  DataTransferOp in = onlyTransfer(stages[1]), out = onlyTransfer(stages[3]);
  if (!load || !store || !in || !out || !passesChunksThrough(stages[2]))
    return;
  Value first = load.getDst(), second = store.getSrc();
  auto type = dyn_cast<MemRefType>(first.getType());
  auto inSlot = dyn_cast<FifoSlotType>(in.getDst().getType());
  auto outSlot = dyn_cast<FifoSlotType>(out.getSrc().getType());
  auto inLoops = chunkLoops(in, in.getSrcIndices(), stages[1]);
  // One read and one write per chunk: each chunk read is the one written.
  int64_t reads = 0, writes = 0;
  stages[2].walk([&](Operation *op) {
    reads += isa<ReadFromFifoOp>(op);
    writes += isa<WriteToFifoOp>(op);
  });
  auto usedBy = [](Value buffer, DataTransferOp a, DataTransferOp b) {
    return llvm::all_of(buffer.getUsers(), [&](Operation *user) {
      return user == a || user == b;
    });
  };
  if (!type || first == second || second.getType() != type ||
      in.getSrc() != first || out.getDst() != second || !inSlot || !outSlot ||
      inSlot.getShape() != outSlot.getShape() ||
      inSlot.getElementType() != outSlot.getElementType() || reads != 1 ||
      writes != 1 || !inLoops ||
      chunkLoops(out, out.getDstIndices(), stages[3]) != inLoops ||
      !coversBuffer(*inLoops, type, inSlot) || !usedBy(first, load, in) ||
      !usedBy(second, out, store))
    return;
  // One unit loading and storing: one DMA from tile to tile, or nothing
  // (its store would wait for its own load in flight, which the estimate
  // does not model).
  auto loaded = load.getSrc().getDefiningOp<ktdp::ConstructAccessTileOp>();
  if (stages[0].getUnitAttr() == stages[4].getUnitAttr()) {
    if (loaded.getAccessTileOrder().isIdentity() && !mayLeaveView(loaded) &&
        isContiguousDeviceTile(store.getDst()))
      reduceToDma(pipeline, stages[0], load.getSrc(), store.getDst());
    return;
  }
  // The store DMAs the first buffer, after the load; the rest goes with
  // what only it used.
  store.getSrcMutable().assign(first);
  stages[4].getDependsInMutable().assign(stages[0]->getResults());
  for (StageOp stage : {stages[3], stages[2], stages[1]}) {
    stage->dropAllReferences();
    stage->erase();
  }
  eraseUnusedPrivates(pipeline);
}

void mlir::ktdf::lowering::directDevicePassThroughs(func::FuncOp func) {
  SmallVector<PipelineOp> pipelines;
  func.walk([&](PipelineOp p) { pipelines.push_back(p); });
  for (PipelineOp pipeline : pipelines)
    directDevicePassThrough(pipeline);
}

//===- ScratchpadStoreDma.cpp - Kept statistics stored by DMA alone -------===//
//
// This file rewrites, before a kernel's programs are built, the pipelines
// that store what a grid point's row loop kept in a scratchpad view
// (ktdf-store-stats-after-loop's `ktdf.row_stats` views: a row's maximum
// and sum, a layernorm's mean and rstd): the feed reads the view's
// elements one a chunk, the compute unit passes each on unchanged (as a
// one-element row of the output's 2-d view), the drain writes them into a
// buffer and the DMA stores that. The store engine waited for that round
// trip after the loop (+19 cycles on sample_device for a point of one
// trip, where the store in the loop was hidden), and the elements went
// through the compute unit one a chunk. The DMA reaches the scratchpad the
// view lies in, so the pipeline becomes its DMA stage, storing the view's
// elements straight to device memory, laid out as the buffer was: a
// contiguous run of the view (DmaLowering.cpp's scratchpad source). The
// DMA stage reads the view after the drains in the loop wrote it, as the
// feed did: a "local" region channel from the drain (RegionChannels.cpp).
//
// Matched: a pipeline of exactly a feed of a one-dimensional tile of a
// `ktdf.row_stats` view (unit stride, in order, from its anchor) in chunk
// loops covering it, a compute stage writing each chunk it reads unchanged
// (or a copy of one element into a one-element tensor), a drain into a
// buffer covering it in order, of as many elements, in the memory the view
// lies in, and a DMA store of that buffer to device memory.
//
//===----------------------------------------------------------------------===//

#include "CopyPipelines.h"
#include "Lowering.h"

#include "ktflow/Analysis/MemoryTensors.h"
#include "ktflow/Dialect/KTDF/Transforms/StatsAfterLoop.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

/// The elements of the one-dimensional tile `tile` of a `ktdf.row_stats`
/// view when they are a contiguous run from its anchor (unit stride, in
/// order, a box from 0), else none.
static std::optional<int64_t> keptRunOf(Value tile) {
  auto access = tile.getDefiningOp<ktdp::ConstructAccessTileOp>();
  auto view = ktdp::getAccessTileView(tile);
  if (!access || !view || !view->hasAttr(kRowStatsViewAttrName) ||
      !view.getStrides().empty() ||
      view.getStaticStrides() != ArrayRef<int64_t>{1} ||
      !access.getAccessTileOrder().isIdentity() ||
      !ktdp::isBoxShaped(access.getAccessTileSet()))
    return std::nullopt;
  auto box = ktdp::getBoundingBox(access.getAccessTileSet(), {});
  if (failed(box) || box->getExtents().size() != 1 || box->lower.front() != 0)
    return std::nullopt;
  return box->getExtents().front();
}

/// Whether `value` is a chunk the compute stage read, unchanged: the read
/// itself, or a linalg.generic copying its one element into a one-element
/// tensor (a scalar's row of one).
static bool isChunkRead(Value value) {
  if (value.getDefiningOp<ReadFromFifoOp>())
    return true;
  auto copy = value.getDefiningOp<linalg::GenericOp>();
  if (!copy || copy.getNumDpsInputs() != 1 || copy.getNumDpsInits() != 1 ||
      !copy.getDpsInputs().front().getDefiningOp<ReadFromFifoOp>())
    return false;
  auto in = dyn_cast<RankedTensorType>(copy.getDpsInputs().front().getType());
  auto out = dyn_cast<RankedTensorType>(copy.getResult(0).getType());
  Block &body = copy.getRegion().front();
  auto yield = dyn_cast<linalg::YieldOp>(body.getTerminator());
  return in && out && in.hasStaticShape() && out.hasStaticShape() &&
         in.getNumElements() == 1 && out.getNumElements() == 1 &&
         body.getOperations().size() == 1 && yield &&
         yield->getNumOperands() == 1 &&
         yield->getOperand(0) == body.getArgument(0);
}

/// Whether compute stage `stage` writes each chunk it reads, unchanged:
/// one read and one write, the write's loops inside the read's taking one
/// trip.
static bool copiesEachChunk(StageOp stage) {
  if (!stage.isCompute())
    return false;
  int64_t reads = 0, writes = 0;
  bool copies = true;
  stage.walk([&](Operation *op) {
    reads += isa<ReadFromFifoOp>(op);
    auto write = dyn_cast<WriteToFifoOp>(op);
    if (!write)
      return;
    ++writes;
    Value value = write->getOperand(0);
    if (!isChunkRead(value)) {
      copies = false;
      return;
    }
    Operation *read = value.getDefiningOp();
    if (auto copy = dyn_cast<linalg::GenericOp>(read))
      read = copy.getDpsInputs().front().getDefiningOp();
    for (Operation *p = op->getParentOp(); p != read->getParentOp();
         p = p->getParentOp()) {
      auto loop = dyn_cast_or_null<scf::ForOp>(p);
      std::optional<int64_t> lb, ub, step;
      if (loop) {
        lb = getConstantIntValue(loop.getLowerBound());
        ub = getConstantIntValue(loop.getUpperBound());
        step = getConstantIntValue(loop.getStep());
      }
      if (!lb || !ub || !step || *step <= 0 || *ub <= *lb ||
          *ub - *lb > *step) {
        copies = false;
        return;
      }
    }
  });
  return copies && reads == 1 && writes == 1;
}

/// Whether chunk loops `loops` (chunkLoops' bounds) walk the dimensions
/// `shape` from 0 to its end in order, the last by `chunk` elements, the
/// others by one.
static bool coversInOrder(ArrayRef<int64_t> loops, ArrayRef<int64_t> shape,
                          int64_t chunk) {
  if (loops.size() != 3 * shape.size())
    return false;
  for (auto [d, size] : llvm::enumerate(shape)) {
    bool last = d + 1 == shape.size();
    if (loops[3 * d] != 0 || loops[3 * d + 1] != size ||
        loops[3 * d + 2] != (last ? chunk : 1) || (last && size % chunk))
      return false;
  }
  return true;
}

/// Elements of a FIFO slot's block.
static int64_t slotElements(Type type) {
  auto slot = dyn_cast<FifoSlotType>(type);
  if (!slot || slot.getShape().size() != 1)
    return 0;
  return slot.getShape().front();
}

static void directKeptStore(PipelineOp pipeline) {
  auto stages = llvm::to_vector(pipeline.getBody().front().getOps<StageOp>());
  if (pipeline->getNumResults() != 0 || stages.size() != 4 ||
      !stages[3].isApplicable(UnitRole::dma_store) ||
      !copiesEachChunk(stages[1]))
    return;
  DataTransferOp in = onlyTransfer(stages[0]), out = onlyTransfer(stages[2]);
  DataTransferOp store = onlyTransfer(stages[3]);
  if (!in || !out || !store || store.getRows() ||
      !store.getStagedIndices().empty() || !store.getSrcIndices().empty())
    return;
  std::optional<int64_t> run = keptRunOf(in.getSrc());
  Value buffer = store.getSrc();
  auto type = dyn_cast<MemRefType>(buffer.getType());
  int64_t inChunk = slotElements(in.getDst().getType());
  int64_t outChunk = slotElements(out.getSrc().getType());
  if (!run || !type || !type.hasStaticShape() || !inChunk || !outChunk ||
      out.getDst() != buffer || type.getNumElements() != *run ||
      !buffer.getDefiningOp<PrivateOp>() ||
      !store.getDst().getDefiningOp<ktdp::ConstructAccessTileOp>() ||
      !ktflow::getDeviceTensor(store.getDst()))
    return;
  auto view = ktdp::getAccessTileView(in.getSrc());
  auto memory = view->getAttrOfType<StringAttr>("ktdf.memory");
  if (!memory || memory.getValue() != getBufferMemoryKind(type) ||
      cast<MemRefType>(view.getType()).getElementType() !=
          type.getElementType() ||
      !llvm::all_of(buffer.getUsers(), [&](Operation *user) {
        return user == out || user == store;
      }))
    return;
  auto inLoops = chunkLoops(in, in.getSrcIndices(), stages[0]);
  auto outLoops = chunkLoops(out, out.getDstIndices(), stages[2]);
  if (!inLoops || !outLoops || !coversInOrder(*inLoops, {*run}, inChunk) ||
      !coversInOrder(*outLoops, type.getShape(), outChunk))
    return;
  reduceToDma(pipeline, stages[3], in.getSrc(), store.getDst());
}

void mlir::ktdf::lowering::directKeptStores(func::FuncOp func) {
  SmallVector<PipelineOp> pipelines;
  func.walk([&](PipelineOp p) { pipelines.push_back(p); });
  for (PipelineOp pipeline : pipelines)
    directKeptStore(pipeline);
}

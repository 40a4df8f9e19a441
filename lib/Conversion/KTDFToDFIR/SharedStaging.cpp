//===- SharedStaging.cpp - One staging load for the lanes of a core -------===//
//
// A per-instance pipeline (`ktdf.pipeline per_instance`) stages data every
// grid point of a lane reads (the layernorm's W and B rows) once per lane,
// before the lane's first point. Its loads depend on no grid point, so
// every lane loads the same bytes. Where the lanes of a core share both
// the scratchpad and the DMA engine (sample_device, spyre_like), each lane
// used to load its own copy into its own region of the one scratchpad:
// on sample_device the four 256-byte W and B loads of a core's two lanes
// filled the engine's four transfers in flight, and the first X tile was
// issued only when the first of them had landed (~100 cycles later).
//
// Now a lane whose staging pipeline only loads device memory into its own
// buffers, on the engine and into the scratchpad of an earlier lane of its
// core that runs the same pipeline, reads that lane's buffers: its buffer
// symbols are declared at that lane's offsets and the engine, after the
// earlier lane's loads, only hands the buffers over to it (its tokens).
// Nothing writes an exported buffer after its pipeline (checkExportedReads),
// so the lanes read the same bytes as before.
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

/// Whether `tile` is a tile of device memory (a lane's scratchpad views
/// start its own region).
static bool isDeviceMemoryTile(Value tile) {
  return isa<ktdp::AccessTileType>(tile.getType()) &&
         ktdp::getAccessTileView(tile) && !isScratchpadTile(tile);
}

/// Whether every stage of `pipeline` only moves device memory into the
/// pipeline's own buffers.
static bool onlyLoadsDeviceMemory(PipelineOp pipeline) {
  Block &body = pipeline.getBody().front();
  llvm::SmallPtrSet<Value, 4> own;
  for (auto priv : body.getOps<PrivateOp>())
    own.insert(priv.getResult());
  for (StageOp stage : body.getOps<StageOp>()) {
    if (stage.isCompute() || getAllReduce(stage) || getTileCopy(stage))
      return false;
    bool loads = true;
    stage.getBody().walk([&](Operation *op) {
      if (isa<arith::ConstantOp>(op) || op->hasTrait<OpTrait::IsTerminator>())
        return;
      auto transfer = dyn_cast<DataTransferOp>(op);
      loads &= transfer && isDeviceMemoryTile(transfer.getSrc()) &&
               own.contains(transfer.getDst()) &&
               transfer.getStagedIndices().empty();
    });
    if (!loads)
      return false;
  }
  return true;
}

const LaneInstance *
KernelLowering::stagingSourceOf(const PipelineInfo &info,
                                const LaneInstance &li) const {
  auto pipeline = cast<PipelineOp>(info.op);
  if (!pipeline.getPerInstance() || !info.regionChannels.empty() ||
      llvm::any_of(
          info.channels,
          [](const Channel &ch) { return !ch.exported || ch.copies != 0; }) ||
      !onlyLoadsDeviceMemory(pipeline))
    return nullptr;
  Block &body = pipeline.getBody().front();
  for (const LaneInstance &other : instances) {
    if (&other == &li)
      return nullptr;
    if (other.core != li.core || other.count == 0)
      continue;
    bool shared =
        llvm::all_of(body.getOps<StageOp>(),
                     [&](StageOp stage) {
                       return unitOf(stage, other) == unitOf(stage, li);
                     }) &&
        llvm::all_of(body.getOps<PrivateOp>(), [&](PrivateOp priv) {
          auto type = dyn_cast<MemRefType>(priv.getType());
          if (!type)
            return true;
          StringRef kind = getBufferMemoryKind(type);
          return memoryOf(kind, other) == memoryOf(kind, li);
        });
    if (shared)
      return &other;
  }
  return nullptr;
}

void ProgramBuilder::emitSharedStagingSends(PipelineOp pipeline,
                                            const LaneInstance &li) {
  const PipelineInfo &info = kernel.infoOf(pipeline);
  for (StageOp stage : work[&li])
    if (stage->getParentOp() == pipeline)
      for (const Channel &ch : info.channels)
        if (ch.from == stage)
          dfir::SyncSendOp::create(*builder, stage.getLoc(),
                                   KernelLowering::perLane(ch.base, li));
}

//===- PipelineResources.cpp - Buffers, FIFOs and sync channels -----------===//
//
// This file collects and declares what the pipelines of a scheduled kernel
// need per lane instance: their private buffers (N copies each, at their
// offset in the lane's region of the scratchpad), the kernel's own
// scratchpad views, one FIFO per pair of unit instances (as wide as its
// widest slot), and the sync channels that order stages on different
// units: one per buffer hand-over between two stages of a pipeline plus
// one back for its N copies, one per hand-over of a buffer a pipeline
// exports to a later one, and those between stages of different pipelines
// that touch the same memory (RegionChannels.cpp).
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/IR/ScratchpadView.h"
#include "ktflow/Support/ElementBytes.h"

#include "llvm/ADT/SmallVectorExtras.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

namespace {
/// The buffers a stage's transfers read and write.
struct StageBuffers {
  llvm::SmallPtrSet<Value, 4> reads, writes;
};
} // namespace

static StageBuffers buffersOf(StageOp stage) {
  StageBuffers buffers;
  stage.walk([&](DataTransferOp op) {
    if (isa<MemRefType>(op.getSrc().getType()))
      buffers.reads.insert(op.getSrc());
    if (isa<MemRefType>(op.getDst().getType()))
      buffers.writes.insert(op.getDst());
    buffers.reads.insert_range(op.getStagedIndices());
  });
  return buffers;
}

LogicalResult KernelLowering::collectPipelines() {
  SmallVector<PipelineOp> ops;
  parallel.walk([&](PipelineOp op) { ops.push_back(op); });
  for (auto [index, op] : llvm::enumerate(ops)) {
    FailureOr<PipelineInfo> info = collectPipeline(op, index);
    if (failed(info))
      return failure();
    pipelines.push_back(std::move(*info));
  }
  if (failed(checkExportedReads()))
    return failure();
  collectExportChannels();
  collectRegionChannels();
  collectLanePipelines();
  return collectLocalBytes();
}

/// The loop-carried views (ktdf-carry-in-scratchpad) whose tiles `stage`
/// reads, or writes when `written`.
static SmallVector<Operation *> carriedViewsOf(StageOp stage, bool written) {
  SmallVector<Operation *> views;
  stage.walk([&](DataTransferOp op) {
    Value end = written ? op.getDst() : op.getSrc();
    if (!isa<ktdp::AccessTileType>(end.getType()))
      return;
    auto view = ktdp::getAccessTileView(end);
    if (isCarriedView(view))
      views.push_back(view);
  });
  return views;
}

FailureOr<PipelineInfo> KernelLowering::collectPipeline(PipelineOp op,
                                                        unsigned index) {
  PipelineInfo info;
  info.op = op;
  info.index = index;
  info.copies = op.getNumCopies();
  std::string prefix = "p" + std::to_string(index);
  unsigned b = 0;
  for (auto priv : op.getBody().front().getOps<PrivateOp>()) {
    auto type = dyn_cast<MemRefType>(priv.getType());
    if (!type)
      continue;
    if (!priv.getOffset())
      return priv.emitError("buffer has no offset; run "
                            "--ktdf-allocate-scratchpad first");
    info.buffers[priv.getResult()] = {
        prefix + "_buf" + std::to_string(b++),
        type.getNumElements() * ktflow::bytesPerElement(type.getElementType())};
  }
  for (auto [i, result] : llvm::enumerate(op->getResults()))
    if (PrivateOp priv = op.getExportedBuffer(i))
      exported[result] = priv.getResult();
  SmallVector<StageOp> stages(op.getBody().front().getOps<StageOp>());
  for (StageOp stage : stages)
    if (!stage.getUnit() || !target.findNode(*stage.getUnit()))
      return stage.emitError("stage is not bound to a unit of the device; "
                             "run --ktdf-route-transfers first");
  SmallVector<StageBuffers> buffers = llvm::map_to_vector(stages, buffersOf);
  // A stage that writes a buffer a later stage on another unit reads hands
  // it over, and gets its N copies back.
  unsigned c = 0;
  for (auto [i, writer] : llvm::enumerate(stages)) {
    for (size_t j = i + 1; j < stages.size(); ++j) {
      StageOp reader = stages[j];
      bool handsOver = llvm::any_of(buffers[i].writes, [&](Value v) {
        return buffers[j].reads.contains(v);
      });
      if (!handsOver || onSameUnit(writer, reader))
        continue;
      std::string id = std::to_string(c++);
      info.channels.push_back({writer, reader, 0, prefix + "_full" + id});
      info.channels.push_back({reader, writer,
                               std::max<int64_t>(info.copies, 1),
                               prefix + "_free" + id});
    }
  }
  // A loop-carried view (ktdf-carry-in-scratchpad) that a stage writes and
  // an earlier stage on another unit reads: the next execution reads what
  // this one wrote, so the writer hands it to the reader's next execution
  // (waited for from the second one on, as a buffer's single free copy).
  for (auto [i, reader] : llvm::enumerate(stages))
    for (StageOp writer : ArrayRef<StageOp>(stages).drop_front(i + 1)) {
      bool carries = false;
      for (Operation *view : carriedViewsOf(reader, /*written=*/false))
        carries |= llvm::is_contained(carriedViewsOf(writer, true), view);
      if (carries && !onSameUnit(writer, reader)) {
        info.channels.push_back(
            {writer, reader, 1, prefix + "_carry" + std::to_string(c++)});
        info.channels.back().carry = true;
      }
    }
  // A streamed value one pass over the row keeps for a later one: the
  // drain writes it and the feed, an earlier stage, reads it back within
  // the execution.
  for (auto [i, reader] : llvm::enumerate(stages)) {
    for (size_t j = i + 1; j < stages.size(); ++j) {
      StageOp writer = stages[j];
      for (Value buffer : buffers[j].writes) {
        auto priv = buffer.getDefiningOp<PrivateOp>();
        if (!priv || !priv->hasAttr(kKeptBufferAttrName) ||
            !buffers[i].reads.contains(buffer) || onSameUnit(writer, reader))
          continue;
        info.channels.push_back(
            {writer, reader, 0, prefix + "_kept" + std::to_string(c++)});
        info.channels.back().kept = buffer;
      }
    }
  }
  return info;
}

LogicalResult KernelLowering::checkExportedReads() {
  // Exported buffers are filled by their own pipeline and only read by the
  // others, into FIFO slots or buffers (what the export channels order).
  for (auto &entry : exported)
    for (Operation *user : entry.first.getUsers()) {
      auto transfer = dyn_cast<DataTransferOp>(user);
      bool readsIndices =
          transfer && transfer.getSrc() != entry.first &&
          transfer.getDst() != entry.first &&
          llvm::is_contained(transfer.getStagedIndices(), entry.first);
      if (!readsIndices &&
          (!transfer || transfer.getSrc() != entry.first ||
           transfer.getDst() == entry.first ||
           isa<ktdp::AccessTileType>(transfer.getDst().getType())))
        return user->emitError("a buffer exported by another pipeline can "
                               "only be read into a FIFO slot or a buffer, "
                               "or as the indices of a gather or scatter");
    }
  return success();
}

void KernelLowering::collectExportChannels() {
  for (PipelineInfo &owner : pipelines) {
    if (owner.op->getNumResults() == 0)
      continue;
    unsigned c = 0;
    for (PipelineInfo &other : pipelines) {
      if (&other == &owner)
        continue;
      for (auto reader : other.op.getBody().front().getOps<StageOp>()) {
        llvm::SmallPtrSet<Value, 4> reads = buffersOf(reader).reads;
        for (auto writer : owner.op.getBody().front().getOps<StageOp>()) {
          llvm::SmallPtrSet<Value, 4> writes = buffersOf(writer).writes;
          bool handsOver = llvm::any_of(reads, [&](Value v) {
            auto it = exported.find(v);
            return it != exported.end() && writes.contains(it->second);
          });
          if (!handsOver || onSameUnit(writer, reader))
            continue;
          // The writer refills a copy only once the reader is done with
          // it. A per-instance pipeline fills it once: nothing to hand
          // back.
          std::string id = std::to_string(c++);
          std::string prefix = "p" + std::to_string(owner.index);
          owner.channels.push_back(
              {writer, reader, 0, prefix + "_xfull" + id, true});
          if (!owner.op.getPerInstance())
            owner.channels.push_back({reader, writer,
                                      std::max<int64_t>(owner.copies, 1),
                                      prefix + "_xfree" + id, true});
        }
      }
    }
  }
}

LogicalResult KernelLowering::collectLocalBytes() {
  auto local = func->getAttrOfType<DictionaryAttr>("ktdf.local");
  if (!local)
    return success();
  for (NamedAttribute entry : local)
    if (auto bytes = dyn_cast<IntegerAttr>(entry.getValue()))
      localBytes[entry.getName().getValue()] = bytes.getInt();
  // A lane's scratchpad views hold one grid point's data, except those
  // holding what a loop carries or what one unit hands another, which
  // every point fills before reading.
  bool onlyCarried = true;
  func.walk([&](ktdp::ConstructMemoryViewOp view) {
    if (ktdp::isScratchpadView(view) && !isCarriedView(view) &&
        !isHandoverView(view))
      onlyCarried = false;
  });
  if (onlyCarried)
    return success();
  for (const LaneInstance &li : instances)
    if (li.count > 1)
      return parallel.emitError("a kernel with scratchpad (ct_local) views "
                                "needs at most one grid point per lane; "
                                "this device gives a lane ")
             << li.count;
  return success();
}

int64_t KernelLowering::laneBaseOf(StringRef kind,
                                   const LaneInstance &li) const {
  auto regions = func->getAttrOfType<DictionaryAttr>("ktdf.scratchpad");
  auto node = *target.getModel().findByKind(kind);
  if (target.getModel().getInstancesPerCore(node) <
          static_cast<int64_t>(target.getLanes().size()) &&
      regions)
    if (auto size = regions.getAs<IntegerAttr>(kind))
      return li.lane * size.getInt();
  return 0;
}

void KernelLowering::declareResources(OpBuilder &b) {
  Location loc = func.getLoc();
  for (const LaneInstance &li : instances)
    for (auto &entry : localBytes)
      dfir::BufferOp::create(
          b, loc, localOf(entry.getKey(), li), memoryOf(entry.getKey(), li),
          entry.getValue(),
          b.getI64IntegerAttr(laneBaseOf(entry.getKey(), li)));
  for (const LaneInstance &li : instances)
    for (const PipelineInfo &info : pipelines)
      declarePipelineResources(b, info, li);
  for (auto &[ends, entry] : fifos)
    dfir::FifoOp::create(b, loc, entry.first, ends.first, ends.second,
                         entry.second, IntegerAttr());
}

void KernelLowering::declarePipelineResources(OpBuilder &b,
                                              const PipelineInfo &info,
                                              const LaneInstance &li) {
  Location loc = func.getLoc();
  Block &body = PipelineOp(info.op).getBody().front();
  const LaneInstance *source = stagingSourceOf(info, li);
  // A buffer loaded once for two lanes is the first lane's
  // (SharedLoads.cpp).
  llvm::DenseMap<Value, const LaneInstance *> sharedBy;
  for (StageOp stage : body.getOps<StageOp>())
    if (auto lanes = sharedLoadLanes(stage, li); !lanes.empty())
      sharedBy[(*stage.getBody().front().getOps<DataTransferOp>().begin())
                   .getDst()] = lanes.front();
  for (auto priv : body.getOps<PrivateOp>()) {
    auto type = dyn_cast<MemRefType>(priv.getType());
    if (!type)
      continue;
    StringRef kind = getBufferMemoryKind(type);
    const LaneInstance *owner = sharedBy.lookup(priv.getResult());
    if (!owner)
      owner = source ? source : &li;
    auto [base, bytes] = info.buffers.lookup(priv.getResult());
    dfir::BufferOp::create(
        b, priv.getLoc(), perLane(base, li), memoryOf(kind, li),
        bytes * info.copies,
        b.getI64IntegerAttr(laneBaseOf(kind, *owner) + *priv.getOffset()));
  }
  // FIFOs: one per pair of unit instances, as wide as its widest slot;
  // declared once every lane instance has named its slots.
  for (auto priv : body.getOps<PrivateOp>()) {
    auto type = dyn_cast<FifoSlotType>(priv.getType());
    if (!type)
      continue;
    auto &entry = fifos[{nodeInstance(type.getSrc().getValue(), li),
                         nodeInstance(type.getDst().getValue(), li)}];
    if (entry.first.empty())
      entry.first = "fifo" + std::to_string(fifos.size() - 1);
    entry.second = std::max(entry.second, type.getSizeInBytes());
  }
  for (const Channel &ch : info.channels)
    dfir::SyncOp::create(b, loc, perLane(ch.base, li), unitOf(ch.from, li),
                         unitOf(ch.to, li));
  for (const Channel &ch : info.regionChannels) {
    dfir::SyncOp::create(b, loc, perLane(ch.base, li), unitOf(ch.from, li),
                         unitOf(ch.to, li));
    if (ch.acrossLanes)
      dfir::SyncOp::create(b, loc, perLane(acrossLanesOf(ch.base), li),
                           unitOf(ch.from, otherLaneOf(li)), unitOf(ch.to, li));
  }
  for (auto &entry : lanePipelines)
    if (entry.second.use == info.op)
      for (const Channel &ch : entry.second.back)
        dfir::SyncOp::create(b, loc, perLane(ch.base, li), unitOf(ch.from, li),
                             unitOf(ch.to, li));
  declareRingSyncs(b, info, li);
  declareCopySyncs(b, info, li);
}

//===- StreamKeep.cpp - Streamed values kept for a later pass
//--------------===//
//
// This file decides which streamed values a compute stage keeps in the
// scratchpad between its passes over a row. A pass computes what its
// reductions and writes need from the chunks it reads, so a value an
// earlier pass computed is computed again: a row softmax's normalising
// pass recomputes exp(x - max), which its sum pass computed already. Where
// the compute unit spends more cycles on that recomputation than on
// sending the value out once, the earlier pass writes the value to the
// drain, which stores it into a buffer of the pipeline (marked
// `ktdf.kept`), and the later pass reads it back from the feed in its
// place: the load and store units, idle while the compute unit works,
// carry it. The lowering orders the drain's stores before the feed's
// loads within the execution.
//
//===----------------------------------------------------------------------===//

#include "StreamTiler.h"

#include "ktflow/Device/ComputeOpClass.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"

#include <cmath>

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::detail;

/// The streamed values of `pass` defined by ops an earlier pass computes
/// (`earlier`) and read by what the pass computes anew: its other stream
/// ops, its reductions and its writes.
static SmallVector<Value>
recomputedInputs(const PassContents &pass,
                 const llvm::SmallPtrSetImpl<Operation *> &earlier) {
  llvm::SetVector<Value> inputs;
  auto use = [&](Value v) {
    if (Operation *def = v.getDefiningOp(); def && earlier.contains(def))
      inputs.insert(v);
  };
  for (Operation *op : pass.streamOps)
    if (!earlier.contains(op))
      llvm::for_each(op->getOperands(), use);
  for (linalg::GenericOp op : pass.reductions)
    llvm::for_each(op.getDpsInputs(), use);
  for (WriteToFifoOp write : pass.writes)
    use(write.getValue());
  return inputs.takeVector();
}

void StreamTiler::planKeeps() {
  if (plan.columnMajor || passes.size() < 2 || plan.reads.empty() ||
      plan.writes.empty())
    return;
  // The buffers the feed reads and the drain writes must be the pipeline's
  // own, in one memory both units reach.
  auto bufferOf = [&](Value slot) -> MemRefType {
    Value end = source.lookup(slot);
    return end && end.getDefiningOp<PrivateOp>()
               ? dyn_cast<MemRefType>(end.getType())
               : MemRefType();
  };
  MemRefType fed, drained;
  for (ReadFromFifoOp read : plan.reads)
    if (plan.getKind(read.getResult()) == Kind::Tile)
      if (MemRefType type = bufferOf(read.getSlot()))
        fed = type;
  for (WriteToFifoOp write : plan.writes)
    if (MemRefType type = bufferOf(write.getSlot()))
      drained = type;
  if (!fed || !drained ||
      getBufferMemoryKind(fed) != getBufferMemoryKind(drained))
    return;
  const ktflow::sched::Lane &lane = target.getLanes().front();
  const ktflow::device::DeviceModel &model = target.getModel();
  const auto &unit = *model.getNode(lane.compute).unit;
  std::optional<ktflow::device::DatapathId> drainFifo;
  for (const ktflow::sched::Hop &hop : lane.outbound.hops)
    if (hop.kind == ktflow::sched::Hop::Drain)
      drainFifo = hop.fifo;
  if (!drainFifo)
    return;
  // Each kept value takes a row of the scratchpad beside the pipeline's
  // buffers; keep only while one copy of them all still leaves room for a
  // second (double buffering).
  StringRef kind = getBufferMemoryKind(fed);
  std::optional<ktflow::device::NodeId> memory = model.findByKind(kind);
  if (!memory)
    return;
  auto bytesOf = [](MemRefType type) {
    return type.getNumElements() * ((type.getElementTypeBitWidth() + 7) / 8);
  };
  int64_t capacity = target.getMemoryTree().getCapacity(*memory) /
                     static_cast<int64_t>(target.getLanes().size());
  int64_t bytes = 0;
  for (auto priv : pipeline.getBody().front().getOps<PrivateOp>())
    if (auto type = dyn_cast<MemRefType>(priv.getType());
        type && getBufferMemoryKind(type) == kind)
      bytes += bytesOf(type);
  double fifoBandwidth =
      std::max(model.getDatapath(*drainFifo).spec.bandwidth, 1.0);
  // Cycles of one chunk of `op` on the compute unit, as the simulator
  // charges a map: each operation of its body ceil(width / rate).
  auto cyclesOf = [&](Operation *op) {
    int64_t cycles = 0;
    for (Block &block : op->getRegions().front())
      for (Operation &inner : block.without_terminator()) {
        Type t;
        auto cls = ktflow::device::getComputeOpClass(&inner, t);
        double rate = t ? unit.getThroughput(cls, t).value_or(1) : 1;
        cycles += static_cast<int64_t>(
            std::ceil(static_cast<double>(width) / std::max(rate, 1e-9)));
      }
    return cycles;
  };
  auto sendCycles = [&](Value v) {
    auto type = cast<RankedTensorType>(v.getType());
    return static_cast<int64_t>(std::ceil(
        width * ((type.getElementTypeBitWidth() + 7) / 8) / fifoBandwidth));
  };
  ReadFromFifoOp anyRead = plan.reads.front();
  WriteToFifoOp anyWrite = plan.writes.front();
  auto feedSlot = cast<FifoSlotType>(anyRead.getSlot().getType());
  auto drainSlot = cast<FifoSlotType>(anyWrite.getSlot().getType());

  // The pass that first computes each stream op.
  llvm::DenseMap<Operation *, size_t> firstPass;
  for (size_t p = 0; p < passes.size(); ++p)
    for (Operation *op : passes[p].streamOps)
      firstPass.try_emplace(op, p);
  for (size_t p = 1; p < passes.size(); ++p) {
    PassContents &pass = passes[p];
    llvm::SmallPtrSet<Operation *, 8> earlier;
    for (Operation *op : pass.streamOps)
      if (firstPass.lookup(op) < p)
        earlier.insert(op);
    if (earlier.empty())
      continue;
    SmallVector<Value> inputs = recomputedInputs(pass, earlier);
    bool keepable = llvm::all_of(inputs, [&](Value v) {
      auto type = dyn_cast<RankedTensorType>(v.getType());
      return type && plan.getKind(v) == Kind::Tile &&
             type.getElementType().isIntOrFloat();
    });
    if (inputs.empty() || !keepable)
      continue;
    int64_t saved = 0, spent = 0;
    for (Operation *op : earlier)
      saved += cyclesOf(op);
    for (Value v : inputs)
      if (!kept.count(v))
        spent += sendCycles(v);
    int64_t extra = 0;
    for (Value v : inputs)
      if (!kept.count(v))
        extra +=
            fed.getNumElements() *
            ((cast<RankedTensorType>(v.getType()).getElementTypeBitWidth() +
              7) /
             8);
    if (saved <= spent || 2 * (bytes + extra) > capacity)
      continue;
    bytes += extra;
    // Read the inputs back; drop the recomputation and the reads only it
    // needed.
    for (Value v : inputs) {
      if (!kept.count(v)) {
        b.setInsertionPoint(anyWrite.getSlot().getDefiningOp());
        Location loc = v.getLoc();
        Type element = cast<RankedTensorType>(v.getType()).getElementType();
        KeptValue k;
        auto buffer = PrivateOp::create(
            b, loc, getBufferType(fed.getShape(), element, kind),
            IntegerAttr());
        buffer->setAttr(kKeptBufferAttrName, b.getUnitAttr());
        k.buffer = buffer.getResult();
        k.toDrain = PrivateOp::create(
                        b, loc,
                        FifoSlotType::get(b.getContext(), drainSlot.getSrc(),
                                          drainSlot.getDst(), {width}, element),
                        IntegerAttr())
                        .getResult();
        k.fromFeed = PrivateOp::create(
                         b, loc,
                         FifoSlotType::get(b.getContext(), feedSlot.getSrc(),
                                           feedSlot.getDst(), {width}, element),
                         IntegerAttr())
                         .getResult();
        kept[v] = k;
        passes[firstPass.lookup(v.getDefiningOp())].keptWrites.push_back(v);
      }
      pass.keptReads.push_back(v);
    }
    llvm::SetVector<Operation *> remaining;
    for (Operation *op : pass.streamOps)
      if (!earlier.contains(op))
        remaining.insert(op);
    pass.streamOps = std::move(remaining);
    llvm::SmallPtrSet<Operation *, 8> users(pass.streamOps.begin(),
                                            pass.streamOps.end());
    for (linalg::GenericOp op : pass.reductions)
      users.insert(op);
    for (WriteToFifoOp write : pass.writes)
      users.insert(write);
    llvm::erase_if(pass.reads, [&](ReadFromFifoOp read) {
      return llvm::none_of(read->getUsers(), [&](Operation *user) {
        return users.contains(user);
      });
    });
  }
}

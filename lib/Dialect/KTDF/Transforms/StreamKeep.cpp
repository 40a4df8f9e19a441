//===- StreamKeep.cpp - Streamed values kept for a later pass
//--------------===//
//
// This file decides which streamed values a compute stage keeps between
// its passes over a row. A pass computes what its reductions and writes
// need from the chunks it reads, so a value an earlier pass computed is
// computed again: a row softmax's normalising pass recomputes exp(x - max),
// which its sum pass computed already. Two ways to keep it instead:
//
// - held in the compute unit: when the row is a few chunks
//   (kMaxHeldChunks) and, on a unit with a register memory of its own,
//   they take at most half of it (the other half for the vectors the
//   passes work on), the two passes' chunk loops are unrolled and the
//   later pass reads the earlier one's chunk values. Nothing moves: no
//   send, no store, no load;
// - in the scratchpad: where the compute unit spends more cycles on the
//   recomputation than on sending the value out once, the earlier pass
//   writes the value to the drain, which stores it into a buffer of the
//   pipeline (marked `ktdf.kept`), and the later pass reads it back from
//   the feed in its place: the load and store units, idle while the
//   compute unit works, carry it. The lowering orders the drain's stores
//   before the feed's loads within the execution.
//
// A value of the columns that depends on no row (a weight vector widened
// to f32) is the same for every row of the execution: where the unit can
// hold it whole, it is computed once, before the rows (hoistColumns).
//
//===----------------------------------------------------------------------===//

#include "StreamTiler.h"

#include "ktflow/Device/ComputeOpClass.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Support/ElementBytes.h"

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

/// The most chunks of a row the compute unit holds for a later pass: each
/// is a vector register, and each held pass is unrolled.
static constexpr int64_t kMaxHeldChunks = 8;

bool StreamTiler::canHold(int64_t bytes) const {
  if (width <= 0 || plan.cols % width != 0 ||
      plan.cols / width > kMaxHeldChunks)
    return false;
  // A register memory joined to the unit by a datapath of its own (the
  // sample device's SFU_RF); a unit without one states no limit.
  const ktflow::device::DeviceModel &model = target.getModel();
  ktflow::device::NodeId unit = target.getLanes().front().compute;
  int64_t local = 0;
  bool hasLocal = false;
  for (ktflow::device::DatapathId dp : model.getIncoming(unit)) {
    ktflow::device::NodeId src = model.getDatapath(dp).src;
    if (model.getNode(src).isMemory()) {
      hasLocal = true;
      local += target.getMemoryTree().getCapacity(src);
    }
  }
  return !hasLocal || 2 * (heldBytes + bytes) <= local;
}

void StreamTiler::planKeeps() {
  if (plan.columnMajor || passes.size() < 2)
    return;
  const ktflow::sched::Lane &lane = target.getLanes().front();
  const ktflow::device::DeviceModel &model = target.getModel();
  const auto &unit = *model.getNode(lane.compute).unit;
  // Cycles of one chunk of `op` on the compute unit, as the simulator
  // charges a map: each operation of its body ceil(width / rate).
  auto cyclesOf = [&](Operation *op) {
    int64_t cycles = 0;
    for (Block &block : op->getRegions().front())
      for (Operation &inner : block.without_terminator()) {
        Type t;
        auto cls = ktflow::device::getComputeOpClass(&inner, t, &unit);
        double rate = t ? unit.getThroughput(cls, t).value_or(1) : 1;
        cycles += static_cast<int64_t>(
            std::ceil(static_cast<double>(width) / std::max(rate, 1e-9)));
      }
    return cycles;
  };

  // Keeping in the scratchpad: the buffers the feed reads and the drain
  // writes must be the pipeline's own, in one memory both units reach.
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
  std::optional<ktflow::device::DatapathId> drainFifo;
  for (const ktflow::sched::Hop &hop : lane.outbound.hops)
    if (hop.kind == ktflow::sched::Hop::Drain)
      drainFifo = hop.fifo;
  StringRef kind = fed ? getBufferMemoryKind(fed) : StringRef();
  std::optional<ktflow::device::NodeId> memory =
      fed ? model.findByKind(kind) : std::nullopt;
  bool canSpill = fed && drained && kind == getBufferMemoryKind(drained) &&
                  drainFifo && memory;
  // Each kept value takes a row of the scratchpad beside the pipeline's
  // buffers; keep only while one copy of them all still leaves room for a
  // second (double buffering).
  int64_t capacity = 0, bytes = 0;
  double fifoBandwidth = 1;
  if (canSpill) {
    capacity = target.getMemoryTree().getCapacity(*memory) /
               static_cast<int64_t>(target.getLanes().size());
    for (auto priv : pipeline.getBody().front().getOps<PrivateOp>())
      if (auto type = dyn_cast<MemRefType>(priv.getType());
          type && getBufferMemoryKind(type) == kind)
        bytes += type.getNumElements() *
                 ktflow::bytesPerElement(type.getElementType());
    fifoBandwidth = std::max(model.getDatapath(*drainFifo).spec.bandwidth, 1.0);
  }
  auto sendCycles = [&](Value v) {
    auto type = cast<RankedTensorType>(v.getType());
    return static_cast<int64_t>(
        std::ceil(width * ktflow::bytesPerElement(type.getElementType()) /
                  fifoBandwidth));
  };

  // A buffer of the pipeline for `v` and the slots that carry it out to
  // the drain and back from the feed.
  auto spill = [&](Value v) {
    auto feedSlot = cast<FifoSlotType>(plan.reads.front().getSlot().getType());
    Value drainSlotValue = plan.writes.front().getSlot();
    auto drainSlot = cast<FifoSlotType>(drainSlotValue.getType());
    b.setInsertionPoint(drainSlotValue.getDefiningOp());
    Location loc = v.getLoc();
    Type element = cast<RankedTensorType>(v.getType()).getElementType();
    auto slot = [&](FifoSlotType like) {
      return PrivateOp::create(b, loc,
                               FifoSlotType::get(b.getContext(), like.getSrc(),
                                                 like.getDst(), {width},
                                                 element),
                               IntegerAttr())
          .getResult();
    };
    KeptValue k;
    auto buffer = PrivateOp::create(
        b, loc, getBufferType(fed.getShape(), element, kind), IntegerAttr());
    buffer->setAttr(kKeptBufferAttrName, b.getUnitAttr());
    k.buffer = buffer.getResult();
    k.toDrain = slot(drainSlot);
    k.fromFeed = slot(feedSlot);
    return k;
  };

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
    int64_t saved = 0, spent = 0, rowBytes = 0, extra = 0;
    for (Operation *op : earlier)
      saved += cyclesOf(op);
    for (Value v : inputs)
      if (!kept.count(v)) {
        Type element = cast<RankedTensorType>(v.getType()).getElementType();
        spent += sendCycles(v);
        rowBytes += plan.cols * ktflow::bytesPerElement(element);
        if (canSpill)
          extra += fed.getNumElements() * ktflow::bytesPerElement(element);
      }
    bool hold = saved > 0 && canHold(rowBytes);
    if (!hold &&
        (!canSpill || saved <= spent || 2 * (bytes + extra) > capacity))
      continue;
    if (hold)
      heldBytes += rowBytes;
    else
      bytes += extra;
    // Read the inputs back; drop the recomputation and the reads only it
    // needed.
    for (Value v : inputs) {
      if (!kept.count(v)) {
        KeptValue k = hold ? KeptValue() : spill(v);
        k.held = hold;
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

void StreamTiler::hoistColumns() {
  if (plan.columnMajor || plan.rows < 2 || width <= 0 || plan.cols % width != 0)
    return;
  // The column reads and the element-wise ops computed from them (and
  // constants) alone: the same for every row of the execution.
  llvm::SmallPtrSet<Value, 8> fromColumns;
  SmallVector<ReadFromFifoOp> reads;
  for (ReadFromFifoOp read : plan.reads)
    if (plan.getKind(read.getResult()) == Kind::Col) {
      reads.push_back(read);
      fromColumns.insert(read.getResult());
    }
  SmallVector<Operation *> ops;
  for (auto [op, role] : plan.roles) {
    if (role != OpRole::Stream || op->getNumResults() != 1 ||
        plan.getKind(op->getResult(0)) != Kind::Col)
      continue;
    bool invariant = llvm::all_of(op.getDpsInputs(), [&](Value v) {
      return fromColumns.contains(v) || v.getDefiningOp<arith::ConstantOp>();
    });
    if (invariant) {
      ops.push_back(op);
      fromColumns.insert(op->getResult(0));
    }
  }
  // Without an op computed from them alone the rows save no compute.
  if (ops.empty())
    return;
  llvm::SmallPtrSet<Operation *, 8> hoisted(ops.begin(), ops.end());
  for (ReadFromFifoOp read : reads)
    hoisted.insert(read);
  // The values the rows read of them, each held whole (every chunk of a
  // row's columns) in the compute unit, and the passes that read them.
  llvm::SetVector<Value> boundary;
  SmallVector<PassContents *> readers;
  auto use = [&](Operation *user, PassContents &pass) {
    for (Value v : user->getOperands())
      if (fromColumns.contains(v)) {
        boundary.insert(v);
        readers.push_back(&pass);
      }
  };
  for (PassContents &pass : passes) {
    for (Operation *op : pass.streamOps)
      if (!hoisted.contains(op))
        use(op, pass);
    for (linalg::GenericOp op : pass.reductions)
      use(op, pass);
    for (WriteToFifoOp write : pass.writes)
      use(write, pass);
  }
  int64_t bytes = 0;
  for (Value v : boundary)
    bytes +=
        plan.cols * ktflow::bytesPerElement(
                        cast<RankedTensorType>(v.getType()).getElementType());
  if (boundary.empty() || !canHold(bytes))
    return;
  heldBytes += bytes;
  for (PassContents *pass : readers)
    pass->readsColumns = true;
  for (PassContents &pass : passes) {
    pass.streamOps.remove_if(
        [&](Operation *op) { return hoisted.contains(op); });
    llvm::erase_if(pass.reads,
                   [&](ReadFromFifoOp read) { return hoisted.contains(read); });
  }
  columnReads = std::move(reads);
  columnOps = std::move(ops);
  for (Value v : boundary)
    columnChunks[v];
}

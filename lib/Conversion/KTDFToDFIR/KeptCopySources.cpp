//===- KeptCopySources.cpp - Copies sent out of their kept destination ----===//
//
// This file rewrites, before a kernel's programs are built, the tile copies
// whose senders each keep a copy of what they send (`stored_locally`, the
// sender its own source) and whose fills write the same data into the
// copy's source and into its destination: PartCopies.cpp's fills of
// realworld/lx_mixed_copy.mlir DMA each 32-row block of X once into the
// view a tile sends and once into the view it keeps (ExchangeDma.cpp), so
// tile 1's data mover moved its 64 rows twice (2 x 4 KiB per block, 64
// cycles each on mesh_device) before it sent them. The copy now sends the
// kept destination itself, and the fill's writes of the source go.
//
// Matched, per copy: every tile that sends keeps its own copy; the two
// views of one layout; every write of the source a transfer beside one of
// the destination (same block, same indices) that writes the same data:
// a DMA of the same tile, or a drain of a FIFO slot the compute stage
// writes each value into that it writes into the destination's; nothing
// but those fills writes the destination, nothing but the copy reads the
// source. The copy then reads and writes its destination
// (RegionChannels.cpp orders it after the fills, as before).
//
//===----------------------------------------------------------------------===//

#include "CopyPipelines.h"
#include "Lowering.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

/// Whether every tile that sends `copy`'s source keeps its own copy of it.
static bool sendersKeep(TileCopyOp copy) {
  ArrayRef<int64_t> sources = copy.getSources();
  return copy.getStoredLocally() && llvm::all_of(sources, [&](int64_t p) {
           return p < 0 ||
                  (p < static_cast<int64_t>(sources.size()) && sources[p] == p);
         });
}

/// The values compute stage `compute` writes into FIFO slot `slot`, in
/// order.
static SmallVector<Value> writtenInto(StageOp compute, Value slot) {
  SmallVector<Value> values;
  if (!compute)
    return values;
  compute.walk([&](WriteToFifoOp write) {
    if (write->getOperand(1) == slot)
      values.push_back(write->getOperand(0));
  });
  return values;
}

/// The compute stage whose FIFO slot the transfer `out` drains, if any.
static StageOp computeOf(DataTransferOp out) {
  auto pipeline = out->getParentOfType<PipelineOp>();
  StageOp found;
  for (StageOp stage : pipeline.getBody().front().getOps<StageOp>())
    stage.walk([&](WriteToFifoOp write) {
      if (write->getOperand(1) == out.getSrc())
        found = stage;
    });
  return found;
}

/// Whether `a` and `b` write the same data to the same place of their
/// views: the same tile of device memory DMAed, or FIFO slots into which
/// the same values were written.
static bool writeSameData(DataTransferOp a, DataTransferOp b) {
  if (a->getBlock() != b->getBlock() || a.getDstIndices() != b.getDstIndices())
    return false;
  if (a.getSrc() == b.getSrc())
    return isa<ktdp::AccessTileType>(a.getSrc().getType()) &&
           a.getSrcIndices() == b.getSrcIndices();
  if (!isa<FifoSlotType>(a.getSrc().getType()) ||
      !isa<FifoSlotType>(b.getSrc().getType()))
    return false;
  // The slot dropped with `a` drained by `a` alone.
  auto drains = [](Value slot) {
    return llvm::count_if(slot.getUsers(), [](Operation *user) {
      return isa<DataTransferOp>(user);
    });
  };
  StageOp compute = computeOf(a);
  SmallVector<Value> x = writtenInto(compute, a.getSrc());
  return !x.empty() && drains(a.getSrc()) == 1 && compute == computeOf(b) &&
         x == writtenInto(compute, b.getSrc());
}

/// The transfers writing a tile of `view`; false when another op uses it.
static bool writesOf(ktdp::ConstructMemoryViewOp view, TileCopyOp copy,
                     SmallVectorImpl<DataTransferOp> &writes) {
  for (Operation *user : view->getUsers()) {
    if (user == copy.getOperation())
      continue;
    if (!isa<ktdp::ConstructAccessTileOp>(user))
      return false;
    for (Operation *use : user->getUsers()) {
      auto transfer = dyn_cast<DataTransferOp>(use);
      if (!transfer || transfer.getDst() != user->getResult(0) ||
          transfer.getSrc() == user->getResult(0))
        return false;
      writes.push_back(transfer);
    }
  }
  return true;
}

/// Makes `copy` send its kept destination when its fills write the same
/// data into both of its views, and drops their writes of the source.
static void sendKeptDestination(TileCopyOp copy) {
  auto source = copy.getSource().getDefiningOp<ktdp::ConstructMemoryViewOp>();
  auto dest = copy.getDest().getDefiningOp<ktdp::ConstructMemoryViewOp>();
  if (!source || !dest || source == dest || !sendersKeep(copy) ||
      !source->hasAttr(kExchangeViewAttrName) ||
      !dest->hasAttr(kExchangeViewAttrName) || !source.getStrides().empty() ||
      !dest.getStrides().empty() ||
      source.getStaticSizes() != dest.getStaticSizes() ||
      source.getStaticStrides() != dest.getStaticStrides())
    return;
  // The destination's only other user is the tile copy itself; its reads
  // by transfers are in place of what the copy received.
  SmallVector<DataTransferOp> sourceWrites, destWrites;
  if (!writesOf(source, copy, sourceWrites) || sourceWrites.empty())
    return;
  for (Operation *user : dest->getUsers()) {
    if (user == copy.getOperation())
      continue;
    if (!isa<ktdp::ConstructAccessTileOp>(user))
      return;
    for (Operation *use : user->getUsers())
      if (auto transfer = dyn_cast<DataTransferOp>(use);
          transfer && transfer.getDst() == user->getResult(0))
        destWrites.push_back(transfer);
  }
  if (destWrites.size() != sourceWrites.size() ||
      !llvm::all_of(sourceWrites, [&](DataTransferOp write) {
        return llvm::any_of(destWrites, [&](DataTransferOp twin) {
          return writeSameData(write, twin);
        });
      }))
    return;
  for (DataTransferOp write : sourceWrites) {
    Operation *tile = write.getDst().getDefiningOp();
    if (isa<FifoSlotType>(write.getSrc().getType()))
      dropFillWrite(write, computeOf(write));
    else
      write.erase();
    if (tile->use_empty())
      tile->erase();
  }
  copy.getSourceMutable().assign(dest.getResult());
}

void lowering::sendKeptDestinations(func::FuncOp func) {
  SmallVector<TileCopyOp> copies;
  func.walk([&](TileCopyOp copy) { copies.push_back(copy); });
  for (TileCopyOp copy : copies)
    sendKeptDestination(copy);
}

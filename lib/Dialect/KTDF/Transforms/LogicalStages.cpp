//===- LogicalStages.cpp - A mapped pipeline's stages, for routing --------===//
//
// This file implements the part of --ktdf-route-transfers that reads a
// pipeline as mapping left it: which stages are logical loads, the compute
// stage and logical stores, whether the pass can route them, and the order
// the feed stage moves the loads in.
//
//===----------------------------------------------------------------------===//

#include "LogicalStages.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace mlir::ktdf;
using ktflow::sched::Hop;
using ktflow::sched::ScheduleTarget;

/// The only data transfer of a mapping-stage body, if that is all it holds.
DataTransferOp mlir::ktdf::soleTransfer(StageOp stage) {
  Block &body = stage.getBody().front();
  if (!llvm::hasSingleElement(body))
    return {};
  return dyn_cast<DataTransferOp>(body.front());
}

/// Whether `kind` is the memory the compute unit is fed from and drained
/// into (its scratchpad), where the kernel's own scratchpad views live.
bool mlir::ktdf::isComputeScratchpad(const ScheduleTarget &target,
                                     StringRef kind) {
  const ktflow::sched::Lane &lane = target.getLanes().front();
  const Hop &feedHop = lane.inbound.hops.back();
  const Hop &drainHop = lane.outbound.hops.front();
  return feedHop.from && drainHop.to && feedHop.from == drainHop.to &&
         target.getModel().getNode(*feedHop.from).getKind() == kind;
}

/// Sorts the stages of `pipeline` into loads, the compute stage and stores;
/// refuses what ktdf-route-transfers cannot route.
FailureOr<LogicalStages>
mlir::ktdf::classifyStages(const ScheduleTarget &target, PipelineOp pipeline) {
  LogicalStages stages;
  for (Operation &op : pipeline.getBody().front()) {
    auto stage = dyn_cast<StageOp>(op);
    if (!stage)
      continue;
    if (stage.isCompute()) {
      if (stages.compute)
        return stage.emitError("pipeline has more than one compute stage");
      stages.compute = stage;
      continue;
    }
    DataTransferOp transfer = soleTransfer(stage);
    if (!transfer)
      return stage.emitError("stage is not a single logical transfer; "
                             "was the pipeline routed already?");
    auto in = dyn_cast<FifoSlotType>(transfer.getDst().getType());
    auto out = dyn_cast<FifoSlotType>(transfer.getSrc().getType());
    FifoSlotType slot = in ? in : out;
    if (!slot)
      return stage.emitError("stage is not a logical transfer between "
                             "device memory and the compute unit");
    StringRef memory = in ? slot.getSrc().getValue() : slot.getDst().getValue();
    if (memory != target.getGlobalKind() &&
        !isComputeScratchpad(target, memory))
      return stage.emitError("transfers to or from memory '")
             << memory << "' are not supported yet (only the global memory '"
             << target.getGlobalKind()
             << "' and the scratchpad the compute unit's load and store "
                "units reach)";
    (in ? stages.loads : stages.stores).push_back(stage);
  }
  if (!stages.compute)
    return pipeline.emitError("pipeline has no compute stage");
  if (stages.stores.empty())
    return pipeline.emitError("pipeline stores nothing");
  return stages;
}

/// Whether `read`'s slot is filled from a loop-carried view
/// (ktdf-carry-in-scratchpad) by one of `loads`.
static bool readsCarried(ReadFromFifoOp read, ArrayRef<StageOp> loads) {
  for (StageOp load : loads) {
    DataTransferOp transfer = soleTransfer(load);
    if (transfer.getDst() != read.getSlot())
      continue;
    Value src = transfer.getSrc();
    return isa<ktdp::AccessTileType>(src.getType()) &&
           isCarriedView(ktdp::getAccessTileView(src));
  }
  return false;
}

/// In a compute stage on whole tiles (one with a matrix product), the
/// reads of loop-carried views move to just before their first use and the
/// loads follow the order of the reads (one FIFO carries them in order):
/// the feed unit moves the trip's other operands (an attention's V block
/// and scores) before it waits for the previous trip to hand the carried
/// values back (ktdf-to-dfir waits just before the first carried load),
/// and the compute unit starts the trip (its mask and row maximum) while
/// they come.
void mlir::ktdf::readCarriedLast(LogicalStages &stages) {
  Block &body = stages.compute.getBody().front();
  SmallVector<ReadFromFifoOp> reads(body.getOps<ReadFromFifoOp>());
  if (body.getOps<linalg::MatmulOp>().empty() ||
      reads.size() != stages.loads.size() ||
      llvm::none_of(reads, [&](ReadFromFifoOp read) {
        return readsCarried(read, stages.loads);
      }))
    return;
  for (ReadFromFifoOp read : reads) {
    if (!readsCarried(read, stages.loads))
      continue;
    Operation *first = nullptr;
    for (Operation *user : read->getUsers())
      if (Operation *op = body.findAncestorOpInBlock(*user);
          op && (!first || op->isBeforeInBlock(first)))
        first = op;
    if (first)
      read->moveBefore(first);
  }
  llvm::DenseMap<Value, unsigned> position;
  for (auto [i, read] : llvm::enumerate(body.getOps<ReadFromFifoOp>()))
    position[read.getSlot()] = i;
  // Every slot is read once: the positions are distinct.
  llvm::sort(stages.loads, [&](StageOp a, StageOp b) {
    return position.lookup(soleTransfer(a).getDst()) <
           position.lookup(soleTransfer(b).getDst());
  });
}

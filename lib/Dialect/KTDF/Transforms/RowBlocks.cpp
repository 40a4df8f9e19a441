//===- RowBlocks.cpp - Tiles handed to the feed in blocks of rows ---------===//
//
// This file implements --ktdf-row-blocks. A feed waits for the whole tile
// a DMA stage loads before its first row: on a small tile the compute unit
// idles for the tile's transfer beyond the route latency (2 KiB at
// mesh_device's 32 B/cycle share of the HBM: 64 cycles). Where the feed
// reads the tile row by row, the DMA stage may load it in blocks of rows
// and hand each over on its own, so the compute unit starts once the first
// block has landed. More transfers cost the engine latency (it keeps a few
// in flight), so the cost model chooses the number of blocks
// (sched::chooseRowBlocks): the load stages of a pipeline that run on the
// same unit and load tiles of the same height are weighed together, as the
// lowering interleaves their blocks.
//
//===----------------------------------------------------------------------===//

#include "Coarsening.h"

#include "ktflow/Dialect/KTDF/Transforms/MergedLoads.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDF/Transforms/RowBlocks.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Scheduler/CostModel.h"
#include "ktflow/Scheduler/ScheduleTargetPass.h"
#include "ktflow/Support/ElementBytes.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFROWBLOCKS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

/// The one data transfer of `stage` (constants aside), or null.
static DataTransferOp getOnlyTransfer(StageOp stage) {
  DataTransferOp only;
  for (Operation &op : stage.getBody().front()) {
    if (isa<arith::ConstantOp>(op))
      continue;
    auto transfer = dyn_cast<DataTransferOp>(op);
    if (!transfer || only)
      return nullptr;
    only = transfer;
  }
  return only;
}

/// Whether `transfer` stores a buffer into memory (an access tile).
static bool storesTile(DataTransferOp transfer) {
  return isa<ktdp::AccessTileType>(transfer.getDst().getType());
}

bool ktdf::isRowBlockStore(StageOp stage) {
  DataTransferOp only = getOnlyTransfer(stage);
  return only && storesTile(only);
}

/// getLoadedBuffer of the stage whose one transfer is `only` (null: none).
static Value loadedBuffer(DataTransferOp only) {
  if (!only || !only.getSrcIndices().empty() || !only.getDstIndices().empty() ||
      !only.getStagedIndices().empty())
    return nullptr;
  bool store = storesTile(only);
  Value buffer = store ? only.getSrc() : only.getDst();
  auto tile = (store ? only.getDst() : only.getSrc())
                  .getDefiningOp<ktdp::ConstructAccessTileOp>();
  auto type = dyn_cast<MemRefType>(buffer.getType());
  if (!tile || !type || type.getRank() != 2 || !type.hasStaticShape() ||
      !tile.getAccessTileOrder().isIdentity() ||
      !buffer.getDefiningOp<PrivateOp>())
    return nullptr;
  return buffer;
}

Value ktdf::getLoadedBuffer(StageOp stage) {
  return loadedBuffer(getOnlyTransfer(stage));
}

scf::ForOp ktdf::getRowBlockLoop(StageOp stage) {
  DataTransferOp only = getOnlyTransfer(stage);
  Value buffer = loadedBuffer(only);
  if (!buffer)
    return nullptr;
  bool store = storesTile(only);
  if (!stage.isApplicable(store ? UnitRole::dma_store : UnitRole::dma_load))
    return nullptr;
  int64_t rows = cast<MemRefType>(buffer.getType()).getShape().front();
  // The feed reads the buffer, the drain writes it.
  auto moves = [&](DataTransferOp op) {
    return (store ? op.getDst() : op.getSrc()) == buffer;
  };
  auto indices = [&](DataTransferOp op) {
    return store ? op.getDstIndices() : op.getSrcIndices();
  };
  auto pipeline = stage->getParentOfType<PipelineOp>();
  StageOp peer;
  for (auto other : pipeline.getBody().front().getOps<StageOp>()) {
    if (other == stage)
      continue;
    bool touches = other
                       .walk([&](DataTransferOp op) {
                         return moves(op) ? WalkResult::interrupt()
                                          : WalkResult::advance();
                       })
                       .wasInterrupted();
    if (!touches)
      continue;
    if (peer || other.isCompute())
      return nullptr;
    peer = other;
  }
  if (!peer || peer.getUnit() == stage.getUnit())
    return nullptr;
  DataTransferOp first;
  peer.walk([&](DataTransferOp op) {
    if (!moves(op))
      return WalkResult::advance();
    first = op;
    return WalkResult::interrupt();
  });
  if (indices(first).size() != 2)
    return nullptr;
  auto row = dyn_cast<BlockArgument>(indices(first).front());
  auto loop =
      row ? dyn_cast<scf::ForOp>(row.getOwner()->getParentOp()) : nullptr;
  if (!loop || loop.getInductionVar() != row ||
      !matchPattern(loop.getLowerBound(), m_Zero()) ||
      !matchPattern(loop.getStep(), m_One()))
    return nullptr;
  std::optional<APInt> trips = loop.getStaticTripCount();
  if (!trips || trips->getSExtValue() != rows)
    return nullptr;
  for (Operation *p = loop->getParentOp(); p != peer; p = p->getParentOp()) {
    auto outer = dyn_cast<scf::ForOp>(p);
    if (!outer || !outer.getStaticTripCount() ||
        !getConstantIntValue(outer.getLowerBound()) ||
        !getConstantIntValue(outer.getStep()))
      return nullptr;
  }
  // Every move at the loop's row; a drain's moves all in the loop, so a
  // block is complete after its last row in the last trip around.
  bool atRow =
      !peer.walk([&](DataTransferOp op) {
             if (!moves(op))
               return WalkResult::advance();
             bool inLoop = loop->isAncestor(op);
             return (inLoop && indices(op).front() != row) || (store && !inLoop)
                        ? WalkResult::interrupt()
                        : WalkResult::advance();
           })
           .wasInterrupted();
  return atRow ? loop : nullptr;
}

/// Executions per lane instance of `pipeline` and its siblings (which
/// load on the same engine): the pipelines of its block, times the trips
/// of the loops around them (a loop of unknown trips counts as many) and
/// the grid points of an instance.
static int64_t executionsPerLane(PipelineOp pipeline) {
  auto siblings = pipeline->getBlock()->getOps<PipelineOp>();
  int64_t executions = std::distance(siblings.begin(), siblings.end());
  for (Operation *p = pipeline->getParentOp(); p; p = p->getParentOp()) {
    if (auto loop = dyn_cast<scf::ForOp>(p)) {
      std::optional<APInt> trips = loop.getStaticTripCount();
      executions *= trips ? trips->getSExtValue() : 1024;
    }
    if (auto parallel = dyn_cast<ParallelOp>(p))
      executions *= llvm::divideCeil(
          parallel.getNumPoints(),
          std::max<int64_t>(parallel.getNumInstances().value_or(1), 1));
  }
  return executions;
}

namespace {
struct RowBlocksPass : public ktflow::sched::WithScheduleTarget<
                           ktdf::impl::KTDFRowBlocksBase<RowBlocksPass>> {
  using Base::Base;

  void runOnOperation() override {
    const ktflow::sched::ScheduleTarget *target = requireScheduleTarget();
    if (!target)
      return;
    markAllAnalysesPreserved();
    getOperation().walk(
        [&](PipelineOp pipeline) { decide(*target, pipeline); });
  }

  /// Marks the load stages of `pipeline` whose tiles blocks pay for: those
  /// of the same unit and height weighed together; then its store stages,
  /// the same way, the loads of the unit and height in the blocks chosen.
  void decide(const ktflow::sched::ScheduleTarget &target,
              PipelineOp pipeline) {
    const ktflow::sched::Lane &lane = target.getLanes().front();
    const ktflow::device::DeviceModel &model = target.getModel();
    const ktflow::sched::Hop &first = lane.inbound.hops.front();
    if (first.kind != ktflow::sched::Hop::Dma ||
        !model.getNode(first.unit).unit)
      return;
    // An engine that serves several lanes interleaves their transfers
    // (LaneInterleaving.cpp), which one lane's blocks do not describe;
    // there a lane's executions may share transfers (MergedLoads.cpp).
    if (model.getInstancesPerCore(first.unit) <
        static_cast<int64_t>(target.getLanes().size())) {
      decideMergedLoads(target, pipeline, executionsPerLane(pipeline),
                        static_cast<MergeLoads>(mergeLoadsOption.getValue()));
      return;
    }
    using Key = std::pair<StringRef, int64_t>;
    llvm::MapVector<Key, SmallVector<StageOp>> loadGroups, storeGroups;
    for (auto stage : pipeline.getBody().front().getOps<StageOp>())
      if (getRowBlockLoop(stage) && stage.getUnit()) {
        auto type = cast<MemRefType>(getLoadedBuffer(stage).getType());
        (isRowBlockStore(stage)
             ? storeGroups
             : loadGroups)[{*stage.getUnit(), type.getShape().front()}]
            .push_back(stage);
      }
    if (loadGroups.empty() && storeGroups.empty())
      return;
    ktflow::sched::RowBlockQuery query;
    query.latency =
        lane.inbound.route.latency - coarsen::fifoLatency(target, lane.inbound);
    query.bandwidth = std::min<double>(
        lane.inbound.route.bandwidth,
        coarsen::deviceMemoryShare(target, pipeline, /*lanesPerEngine=*/1));
    query.maxOutstanding = model.getNode(first.unit).unit->maxOutstanding;
    query.executions = executionsPerLane(pipeline);
    double compute = coarsen::estimateCompute(target, pipeline);
    auto rowBytes = [](StageOp stage) {
      auto type = cast<MemRefType>(getLoadedBuffer(stage).getType());
      return type.getShape().back() *
             ktflow::bytesPerElement(type.getElementType());
    };
    // The unit's other loads go first, whole (the lowering puts them
    // there); its other stores follow, whole.
    auto describe = [&](const Key &key, ArrayRef<StageOp> blockedLoads,
                        ArrayRef<StageOp> blockedStores) {
      query.rows = key.second;
      query.computePerRow = compute / static_cast<double>(query.rows);
      query.wholeBytes.clear();
      query.storeBytes.clear();
      for (auto other : pipeline.getBody().front().getOps<StageOp>()) {
        bool loads = other.isApplicable(UnitRole::dma_load);
        if (other.getUnit() != key.first ||
            llvm::is_contained(blockedLoads, other) ||
            llvm::is_contained(blockedStores, other) ||
            (!loads && !other.isApplicable(UnitRole::dma_store)))
          continue;
        other.walk([&](DataTransferOp op) {
          if (auto type = dyn_cast<MemRefType>(
                  (loads ? op.getDst() : op.getSrc()).getType()))
            (loads ? query.wholeBytes : query.storeBytes)
                .push_back(type.getNumElements() *
                           ktflow::bytesPerElement(type.getElementType()));
        });
      }
      query.rowBytes.clear();
      for (StageOp stage : blockedLoads)
        query.rowBytes.push_back(rowBytes(stage));
      query.storeRowBytes.clear();
      for (StageOp stage : blockedStores)
        query.storeRowBytes.push_back(rowBytes(stage));
    };
    auto mark = [&](ArrayRef<StageOp> stages, int64_t blocks) {
      if (blocks <= 1 || query.rows % blocks != 0)
        return false;
      for (StageOp stage : stages)
        stage->setAttr(
            kRowBlocksAttrName,
            IntegerAttr::get(IntegerType::get(&getContext(), 64), blocks));
      return true;
    };
    llvm::DenseMap<Key, int64_t> loadBlocks;
    for (auto &[key, stages] : loadGroups) {
      describe(key, stages, {});
      int64_t blocks = blocksOption > 0 ? blocksOption
                                        : ktflow::sched::chooseRowBlocks(query);
      loadBlocks[key] = mark(stages, blocks) ? blocks : 1;
    }
    for (auto &[key, stages] : storeGroups) {
      // The loads of the unit and height move in the blocks chosen above.
      auto loads = loadGroups.find(key);
      describe(key,
               loads == loadGroups.end() ? ArrayRef<StageOp>()
                                         : ArrayRef<StageOp>(loads->second),
               stages);
      int64_t blocks =
          storeBlocksOption > 0
              ? storeBlocksOption
              : ktflow::sched::chooseStoreRowBlocks(
                    query, query.rowBytes.empty() ? 1 : loadBlocks[key]);
      mark(stages, blocks);
    }
  }
};
} // namespace

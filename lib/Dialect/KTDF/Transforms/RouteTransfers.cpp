//===- RouteTransfers.cpp - Transfers along the device's routes -----------===//
//
// This file implements --ktdf-route-transfers. Mapping leaves each loaded
// tile moving straight from device memory into a FIFO slot of the compute
// unit, and each stored value straight back. Here every such transfer
// follows the route the device graph gives between the global memory and
// the first lane's vector compute unit: one DMA stage per memory-to-memory
// hop (into a new private buffer), one feed stage for everything that
// enters the compute unit's FIFO, one drain stage for everything that
// leaves it, each bound to the unit the route names. A scatter whose
// store unit does not read device memory gets the indices it needs staged
// in the scratchpad it reads, by the load route's DMA unit; so does a
// gather or scatter whose DMA unit reads that scratchpad sooner than
// device memory, where it pays (IndexStaging.h). Which stages
// are loads, compute and stores, and the order the feed stage moves the
// loads in, come from LogicalStages.cpp.
//
//===----------------------------------------------------------------------===//

#include "IndexStaging.h"
#include "LogicalStages.h"
#include "RoutedStageBuilder.h"

#include "ktflow/Dialect/KTDF/Transforms/IndirectTiles.h"
#include "ktflow/Dialect/KTDF/Transforms/MatrixStages.h"
#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Scheduler/ScheduleTarget.h"
#include "ktflow/Scheduler/ScheduleTargetPass.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFROUTETRANSFERS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;
using ktflow::sched::Hop;
using ktflow::sched::ScheduleTarget;

namespace {

/// The view the store stages of `stages` all write, or null.
static ktdp::ConstructMemoryViewOp storedView(const LogicalStages &stages) {
  ktdp::ConstructMemoryViewOp view;
  for (StageOp store : stages.stores) {
    DataTransferOp transfer = soleTransfer(store);
    ktdp::ConstructMemoryViewOp to =
        transfer ? ktdp::getAccessTileView(transfer.getDst()) : nullptr;
    if (!to || (view && to != view))
      return nullptr;
    view = to;
  }
  return view;
}

/// Whether `pipeline` loads from `view`.
static bool loadsFrom(PipelineOp pipeline, ktdp::ConstructMemoryViewOp view) {
  return pipeline
      .walk([&](DataTransferOp transfer) {
        return ktdp::getAccessTileView(transfer.getSrc()) == view
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether no vector work of the lane can run beside the matrix product of
/// `pipeline` (its compute stage `stages.compute`): the pipeline runs once
/// a lane (in the grid's body, not in a loop, no more grid points than
/// cores), no pipeline computes before it, and every pipeline after it
/// reads the one view its result is stored into. The vector unit
/// then waits for the product wherever it runs: sdpa_causal's 2-row Q.K^T
/// on mesh_device's MXU took 159 cycles (its waves pad to 16 rows), the
/// VPU idle, where the VPU itself takes 128.
static bool nothingOverlapsProduct(const ScheduleTarget &target,
                                   PipelineOp pipeline,
                                   const LogicalStages &stages) {
  auto parallel = dyn_cast<ParallelOp>(pipeline->getParentOp());
  if (!parallel)
    return false;
  if (parallel.getNumPoints() > target.getNumCores())
    return false;
  ktdp::ConstructMemoryViewOp view = storedView(stages);
  bool after = false;
  for (Operation &op : parallel.getBody().front()) {
    if (&op == pipeline.getOperation()) {
      after = true;
      continue;
    }
    auto other = dyn_cast<PipelineOp>(op);
    if (!other) {
      // A loop or branch may hold pipelines of its own.
      if (op.getNumRegions() != 0 && op.walk([](PipelineOp) {
                                         return WalkResult::interrupt();
                                       }).wasInterrupted())
        return false;
      continue;
    }
    bool computes =
        llvm::any_of(other.getBody().front().getOps<StageOp>(),
                     [](StageOp stage) { return stage.isCompute(); });
    if (!after ? computes : !view || !loadsFrom(other, view))
      return false;
  }
  return true;
}

/// Routes one pipeline along the first lane's routes (the lowering maps
/// them to every lane): builds the routed pipeline in front of it (load DMA
/// chains and the feed stage, the compute stage, the drain stage and store
/// DMA chains) and erases the original. A pipeline that multiplies
/// matrices goes to the lane's matrix unit where it has one that can run
/// it (its operand types, no element-wise work), else to its vector unit.
class PipelineRouter {
public:
  PipelineRouter(const ScheduleTarget &target, PipelineOp pipeline,
                 LogicalStages stages)
      : target(target), lane(target.getLanes().front()), pipeline(pipeline),
        stages(std::move(stages)), build(target.getModel(), pipeline) {
    readCarriedLast(this->stages);
    if (isMatrixStage(this->stages.compute) && lane.matrix &&
        matrixUnitCanRun(this->stages.compute,
                         *target.getModel().getNode(lane.matrix->unit).unit) &&
        !vectorUnitIsFaster()) {
      lane = lane.viaMatrix();
      computeRole = UnitRole::matrix_compute;
    }
  }

  LogicalResult run() {
    OpBuilder &builder = build.getBuilder();
    builder.setInsertionPoint(pipeline);
    auto routed = PipelineOp::create(builder, pipeline.getLoc(),
                                     pipeline.getModuloAttr());
    builder.createBlock(&routed.getBody());
    if (isDmaCopy()) {
      if (failed(routeDmaCopy()))
        return failure();
    } else {
      FailureOr<Value> feedToken = routeLoads();
      if (failed(feedToken))
        return failure();
      StageOp newCompute = build.moveCompute(stages.compute, *feedToken,
                                             lane.compute, computeRole);
      if (failed(routeStores(newCompute)))
        return failure();
      retargetFifoOps(newCompute);
    }
    hoistPrivates(routed.getBody().front());
    pipeline.erase();
    return success();
  }

private:
  /// Whether the lane's vector unit multiplies the stage's matrices in at
  /// most half the cycles of its matrix unit: a product of a row or a few
  /// pads to the engine's m rows and pays its fill, one wave per k of the
  /// depth (splitk_pv's 1x32 by 32x32 on mesh_device's 16x16x4 MXU: 159
  /// cycles, 64 on its VPU's 16 f32 multiply-accumulates a cycle). Half,
  /// because the vector unit also runs the kernel's element-wise work,
  /// which the matrix unit would have overlapped (a 2x32 by 32x32 on the
  /// MXU, 159 cycles against 128, stays). A stage sending several
  /// results (an unrolled loop's products, one a scratchpad view) stays
  /// too: the lowering feeds it and the pipeline reading those views by
  /// iteration (IterationOrder.cpp), which needs their computes on
  /// different units. Where no vector work could overlap the product
  /// (nothingOverlapsProduct), faster is enough.
  bool vectorUnitIsFaster() {
    const auto &model = target.getModel();
    const auto &vector = model.getNode(lane.compute).unit;
    auto writes = stages.compute.getBody().front().getOps<WriteToFifoOp>();
    if (!vector || !llvm::hasSingleElement(writes))
      return false;
    std::optional<uint64_t> onVector =
        matrixStageCycles(stages.compute, *vector);
    std::optional<uint64_t> onMatrix = matrixStageCycles(
        stages.compute, *model.getNode(lane.matrix->unit).unit);
    if (!onVector || !onMatrix)
      return false;
    return 2 * *onVector <= *onMatrix ||
           (*onVector < *onMatrix &&
            nothingOverlapsProduct(target, pipeline, stages));
  }

  /// Whether the pipeline gathers or scatters device memory to device
  /// memory unchanged: one load, one store, one of them through an
  /// indirect tile, and a compute stage that only forwards the loaded
  /// value, on a lane whose routes meet in the scratchpad. Such a copy
  /// needs no load, compute or store unit: the chunk the DMA load unit
  /// brings into the scratchpad is what the DMA store unit takes out.
  bool isDmaCopy() {
    if (stages.loads.size() != 1 || stages.stores.size() != 1)
      return false;
    DataTransferOp load = soleTransfer(stages.loads.front());
    DataTransferOp store = soleTransfer(stages.stores.front());
    auto inSlot = cast<FifoSlotType>(load.getDst().getType());
    auto outSlot = cast<FifoSlotType>(store.getSrc().getType());
    if (!load.getSrc().getDefiningOp<ktdp::ConstructIndirectAccessTileOp>() &&
        !store.getDst().getDefiningOp<ktdp::ConstructIndirectAccessTileOp>())
      return false;
    StringRef global = target.getGlobalKind();
    if (inSlot.getSrc().getValue() != global ||
        outSlot.getDst().getValue() != global ||
        inSlot.getShape() != outSlot.getShape() ||
        inSlot.getElementType() != outSlot.getElementType())
      return false;
    Block &body = stages.compute.getBody().front();
    if (!llvm::hasNItems(body, 2))
      return false;
    auto read = dyn_cast<ReadFromFifoOp>(body.front());
    auto write = dyn_cast<WriteToFifoOp>(body.back());
    if (!read || !write || read.getSlot() != load.getDst() ||
        write.getSlot() != store.getSrc() || write.getValue() != read)
      return false;
    ArrayRef<Hop> in = lane.inbound.hops, out = lane.outbound.hops;
    return in.size() >= 2 && out.size() >= 2 && in.back().kind == Hop::Feed &&
           out.front().kind == Hop::Drain && in.back().from &&
           in.back().from == out.front().to &&
           llvm::all_of(in.drop_back(),
                        [](const Hop &h) { return h.kind == Hop::Dma; }) &&
           llvm::all_of(out.drop_front(),
                        [](const Hop &h) { return h.kind == Hop::Dma; });
  }

  /// Routes a DMA copy (isDmaCopy): the load's DMA stages into a buffer of
  /// the scratchpad, then the store's DMA stages out of that buffer.
  LogicalResult routeDmaCopy() {
    StageOp load = stages.loads.front();
    DataTransferOp transfer = soleTransfer(load);
    auto slotType = cast<FifoSlotType>(transfer.getDst().getType());
    Value source = transfer.getSrc(), token;
    for (auto [k, hop] :
         llvm::enumerate(ArrayRef<Hop>(lane.inbound.hops).drop_back())) {
      Value buffer = build.makeBuffer(*hop.to, slotType);
      std::string name = "load_0";
      if (k)
        name += "." + std::to_string(k);
      FailureOr<Value> loaded =
          routeLoadDma(name, hop, token, load.getLoc(), source, buffer);
      if (failed(loaded))
        return failure();
      token = *loaded;
      source = buffer;
    }
    StageOp store = stages.stores.front();
    return routeStoreDma(0, source, soleTransfer(store).getDst(),
                         store.getLoc(), token);
  }

  /// Inbound: the DMA stages of every load, then one feed stage for all
  /// of them; returns the feed stage's token.
  FailureOr<Value> routeLoads() {
    SmallVector<Value> feedDeps;
    SmallVector<std::pair<Value, Value>> feeds; // (source, slot)
    for (auto [i, load] : llvm::enumerate(stages.loads))
      if (failed(routeLoad(i, load, feeds, feedDeps)))
        return failure();
    const Hop *feedHop = &lane.inbound.hops.back();
    return build.makeMultiStage("feed", feedDeps, UnitRole::scratchpad_load,
                                feedHop->unit, pipeline.getLoc(), feeds);
  }

  /// The DMA stages that bring load `i` to the buffer the feed unit reads,
  /// and its entry (source, slot) in the feed stage.
  LogicalResult routeLoad(size_t i, StageOp load,
                          SmallVectorImpl<std::pair<Value, Value>> &feeds,
                          SmallVectorImpl<Value> &feedDeps) {
    DataTransferOp transfer = soleTransfer(load);
    auto slotType = cast<FifoSlotType>(transfer.getDst().getType());
    Value source = transfer.getSrc();
    Value token;
    unsigned hopIndex = 0;
    // A tile in the scratchpad the feed unit reads needs no DMA.
    ArrayRef<Hop> hops = lane.inbound.hops;
    if (isComputeScratchpad(target, slotType.getSrc().getValue()))
      hops = hops.take_back();
    for (const Hop &hop : hops) {
      if (hop.kind == Hop::Feed) {
        if (source == transfer.getSrc() && failed(checkUnmasked(source)))
          return failure();
        auto newSlot = build.makeSlot(hop.unit, lane.compute, slotType);
        feeds.push_back({source, newSlot});
        slotMap[transfer.getDst()] = newSlot;
        if (token)
          feedDeps.push_back(token);
        continue;
      }
      Value buffer = build.makeBuffer(*hop.to, slotType);
      std::string name = "load_" + std::to_string(i);
      if (hopIndex++)
        name += "." + std::to_string(hopIndex);
      FailureOr<Value> loaded =
          routeLoadDma(name, hop, token, load.getLoc(), source, buffer);
      if (failed(loaded))
        return failure();
      token = *loaded;
      source = buffer;
    }
    return success();
  }

  /// The DMA stage of a load's `hop` from `source` into `buffer`, after
  /// `token` (if any) and the stages staging a gather's indices
  /// (stageIndices); returns its token.
  FailureOr<Value> routeLoadDma(StringRef name, const Hop &hop, Value token,
                                Location loc, Value source, Value buffer) {
    SmallVector<Value> deps, staged;
    if (token)
      deps.push_back(token);
    if (failed(stageIndices(source, hop, *hop.to, deps, staged)))
      return failure();
    return build.makeStage(name, deps, 1, dmaRole(hop), hop.unit, loc, source,
                           buffer, staged)[0];
  }

  /// Outbound: one drain stage for every store, then the DMA stages of the
  /// stores that do not drain straight into their tile.
  LogicalResult routeStores(StageOp newCompute) {
    const Hop &drainHop = lane.outbound.hops.front();
    SmallVector<std::pair<Value, Value>> drains; // (slot, destination)
    SmallVector<std::tuple<Value, Value, Location>> stores; // (buffer, tile)
    for (StageOp store : stages.stores) {
      DataTransferOp transfer = soleTransfer(store);
      auto slotType = cast<FifoSlotType>(transfer.getSrc().getType());
      auto newSlot = build.makeSlot(lane.compute, drainHop.unit, slotType);
      slotMap[transfer.getSrc()] = newSlot;
      if (lane.outbound.hops.size() == 1 ||
          isComputeScratchpad(target, slotType.getDst().getValue())) {
        if (failed(checkUnmasked(transfer.getDst())))
          return failure();
        drains.push_back({newSlot, transfer.getDst()});
        continue;
      }
      Value buffer = build.makeBuffer(*drainHop.to, slotType);
      drains.push_back({newSlot, buffer});
      stores.push_back({buffer, transfer.getDst(), store.getLoc()});
    }
    Value drainToken = build.makeMultiStage(
        "drain", ValueRange{newCompute.getResult(0)},
        UnitRole::scratchpad_store, drainHop.unit, pipeline.getLoc(), drains);
    for (auto [j, entry] : llvm::enumerate(stores)) {
      auto [buffer, tile, loc] = entry;
      if (failed(routeStoreDma(j, buffer, tile, loc, drainToken)))
        return failure();
    }
    return success();
  }

  /// The DMA stages that carry store `j` from the buffer the drain wrote
  /// to its tile, hop by hop after the drain.
  LogicalResult routeStoreDma(size_t j, Value buffer, Value tile, Location loc,
                              Value drainToken) {
    Value source = buffer;
    Value token = drainToken;
    ArrayRef<Hop> dmaHops = ArrayRef<Hop>(lane.outbound.hops).drop_front();
    for (auto [k, hop] : llvm::enumerate(dmaHops)) {
      bool last = k + 1 == dmaHops.size();
      Value dest =
          last ? tile
               : build.makeBuffer(*hop.to, cast<MemRefType>(buffer.getType()));
      std::string name = "store_" + std::to_string(j);
      if (k)
        name += "." + std::to_string(k);
      SmallVector<Value> deps{token}, staged;
      if (last && failed(stageIndices(tile, hop, *hop.from, deps, staged)))
        return failure();
      SmallVector<Value> out =
          build.makeStage(name, deps, last ? 0 : 1, dmaRole(hop), hop.unit, loc,
                          source, dest, staged);
      token = last ? Value() : out[0];
      source = dest;
    }
    return success();
  }

  /// When `tileValue` is an indirect tile `hop`'s unit moves to or from
  /// `scratch`, and that unit does not read the device memory its index
  /// views are in (a scatter's store unit on sample_device), or reads them
  /// sooner from `scratch` (indexStagingPays: mesh_device's DMA engine),
  /// stages the box of each index view that one transfer reads in
  /// `scratch`, with a DMA stage of the inbound route that fills it:
  /// appends the buffers to `staged` and the stages' tokens to `deps`.
  /// The stages go first in the pipeline, so the load unit fetches a
  /// scatter's indices while the value is computed.
  LogicalResult stageIndices(Value tileValue, const Hop &hop,
                             ktflow::device::NodeId scratch,
                             SmallVectorImpl<Value> &deps,
                             SmallVectorImpl<Value> &staged) {
    auto tile = tileValue.getDefiningOp<ktdp::ConstructIndirectAccessTileOp>();
    if (!tile)
      return success();
    ktflow::device::NodeId global = target.getGlobalMemory();
    bool required = !target.readsMemory(hop.unit, global);
    const ktflow::device::DeviceModel &model = target.getModel();
    const Hop *fill = llvm::find_if(lane.inbound.hops, [&](const Hop &h) {
      return h.kind == Hop::Dma && h.from == global && h.to == scratch;
    });
    std::string why;
    FailureOr<IndirectTilePlan> plan = planIndirectTile(tile, why);
    bool possible = fill != lane.inbound.hops.end() && succeeded(plan);
    if (!required && !(possible && target.readsMemory(hop.unit, scratch) &&
                       indexStagingPays(target, *plan, hop.unit, scratch)))
      return success();
    if (!possible)
      return tile.emitError("the unit moving this scatter, '")
             << model.getNode(hop.unit).name
             << "', does not read device memory, where the indices are, and "
                "no data mover of device '"
             << model.getName() << "' stages them in the memory it reads";
    OpBuilder &builder = build.getBuilder();
    OpBuilder::InsertionGuard guard(builder);
    Block *routed = builder.getBlock();
    for (auto [k, view] : llvm::enumerate(plan->indexViews)) {
      StagedIndexBox box = stagedIndexBox(*plan, k);
      builder.setInsertionPointAfter(tile);
      auto type = ktdp::AccessTileType::get(tile.getContext(), box.extents);
      auto indexTile = ktdp::ConstructAccessTileOp::create(
          builder, tile.getLoc(), type, view.getResult(),
          tile.getCapturedVariables(), ValueRange{},
          AffineMapAttr::get(box.anchor),
          IntegerSetAttr::get(ktdp::getBoxSet(box.extents, tile.getContext())),
          AffineMapAttr::get(AffineMap::getMultiDimIdentityMap(
              box.extents.size(), tile.getContext())));
      auto memref = cast<MemRefType>(view.getType());
      builder.setInsertionPointToStart(routed);
      Value buffer =
          build.makeBuffer(scratch, MemRefType::get(bufferShape(box.extents),
                                                    memref.getElementType()));
      deps.push_back(build.makeStage("index_" + std::to_string(k), {}, 1,
                                     UnitRole::dma_load, fill->unit,
                                     tile.getLoc(), indexTile, buffer)[0]);
      staged.push_back(buffer);
    }
    return success();
  }

  /// Points the compute stage's FIFO ops at the new slots.
  void retargetFifoOps(StageOp newCompute) {
    newCompute.walk([&](Operation *op) {
      for (OpOperand &operand : op->getOpOperands())
        if (auto it = slotMap.find(operand.get()); it != slotMap.end())
          operand.set(it->second);
    });
  }

  /// Private resources go before every stage, in creation order.
  static void hoistPrivates(Block &body) {
    Operation *firstStage = (*body.getOps<StageOp>().begin()).getOperation();
    for (auto priv : llvm::make_early_inc_range(body.getOps<PrivateOp>()))
      if (firstStage->isBeforeInBlock(priv))
        priv->moveBefore(firstStage);
  }

  /// Fails, at the tile, when coordinates of an access tile the feed or
  /// drain unit reaches directly may need masking: only a DMA transfer
  /// masks.
  LogicalResult checkUnmasked(Value tileValue) {
    auto tile = tileValue.getDefiningOp<ktdp::ConstructAccessTileOp>();
    if (!tile || !mayLeaveView(tile))
      return success();
    return tile.emitError("coordinates of this access tile may lie outside "
                          "its view, which only a DMA transfer masks, but "
                          "device '")
           << target.getModel().getName()
           << "' moves it between memory and the compute unit directly";
  }

  UnitRole dmaRole(const Hop &hop) {
    const ktflow::device::MemoryTree &tree = target.getMemoryTree();
    return tree.getLevel(*hop.to) > tree.getLevel(*hop.from)
               ? UnitRole::dma_load
               : UnitRole::dma_store;
  }

  const ScheduleTarget &target;
  /// The lane's unit this pipeline computes on, with its routes.
  ktflow::sched::Lane lane;
  UnitRole computeRole = UnitRole::vector_compute;
  PipelineOp pipeline;
  LogicalStages stages;
  RoutedStageBuilder build;
  /// Logical FIFO slots -> the routed slots the compute stage now uses.
  llvm::DenseMap<Value, Value> slotMap;
};

struct RouteTransfersPass
    : public ktflow::sched::WithScheduleTarget<
          ktdf::impl::KTDFRouteTransfersBase<RouteTransfersPass>> {
  void runOnOperation() override {
    const ktflow::sched::ScheduleTarget *target = requireScheduleTarget();
    if (!target)
      return;
    SmallVector<PipelineOp> pipelines;
    getOperation().walk([&](PipelineOp p) { pipelines.push_back(p); });
    for (PipelineOp pipeline : pipelines) {
      FailureOr<LogicalStages> stages = classifyStages(*target, pipeline);
      if (failed(stages) ||
          failed(PipelineRouter(*target, pipeline, std::move(*stages)).run()))
        return signalPassFailure();
    }
  }
};
} // namespace

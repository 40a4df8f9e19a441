//===- RouteTransfers.cpp - Transfers along the device's routes -----------===//
//
// This file implements --ktdf-route-transfers. Mapping leaves each loaded
// tile moving straight from device memory into a FIFO slot of the compute
// unit, and each stored value straight back. Here every such transfer
// follows the route the device graph gives between the global memory and
// the first lane's vector compute unit: one DMA stage per memory-to-memory
// hop (into a new private buffer), one feed stage for everything that
// enters the compute unit's FIFO, one drain stage for everything that
// leaves it, each bound to the unit the route names.
//
//===----------------------------------------------------------------------===//

#include "TileBounds.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Scheduling/ScheduleTarget.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFROUTETRANSFERS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;
using ktflow::sched::Hop;
using ktflow::sched::ScheduleTarget;

/// The only data transfer of a mapping-stage body, if that is all it holds.
static DataTransferOp soleTransfer(StageOp stage) {
  Block &body = stage.getBody().front();
  if (!llvm::hasSingleElement(body))
    return {};
  return dyn_cast<DataTransferOp>(body.front());
}

/// Buffers keep the tile's rows (leading dimensions flattened) and columns.
static SmallVector<int64_t> bufferShape(ArrayRef<int64_t> tile) {
  if (tile.size() <= 2)
    return llvm::to_vector(tile);
  int64_t rows = 1;
  for (int64_t d : tile.drop_back())
    rows *= d;
  return {rows, tile.back()};
}

namespace {
class PipelineRouter {
public:
  PipelineRouter(const ScheduleTarget &target, PipelineOp pipeline)
      : target(target), model(target.getModel()), pipeline(pipeline),
        builder(pipeline.getContext()) {}

  LogicalResult run() {
    if (failed(classify()))
      return failure();
    const ktflow::sched::Lane &lane = target.getLanes().front();
    builder.setInsertionPoint(pipeline);
    auto routed = PipelineOp::create(builder, pipeline.getLoc(),
                                     pipeline.getModuloAttr());
    builder.createBlock(&routed.getBody());
    ctx = pipeline.getContext();

    // Inbound: DMA stages per load, then one feed stage.
    SmallVector<Value> feedDeps;
    SmallVector<std::pair<Value, Value>> feeds; // (source, slot)
    for (auto [i, load] : llvm::enumerate(loads)) {
      DataTransferOp transfer = soleTransfer(load);
      auto slotType = cast<FifoSlotType>(transfer.getDst().getType());
      Value source = transfer.getSrc();
      Value token;
      unsigned hopIndex = 0;
      // A tile in the scratchpad the feed unit reads needs no DMA.
      ArrayRef<Hop> hops = lane.inbound.hops;
      if (isLocal(slotType.getSrc().getValue()))
        hops = hops.take_back();
      for (const Hop &hop : hops) {
        if (hop.kind == Hop::Feed) {
          if (source == transfer.getSrc() && failed(checkUnmasked(source)))
            return failure();
          auto newSlot = makeSlot(hop.unit, lane.compute, slotType);
          feeds.push_back({source, newSlot});
          slotMap[transfer.getDst()] = newSlot;
          if (token)
            feedDeps.push_back(token);
          continue;
        }
        Value buffer = makeBuffer(*hop.to, slotType);
        std::string name = "load_" + std::to_string(i);
        if (hopIndex++)
          name += "." + std::to_string(hopIndex);
        token = makeStage(name, token ? ValueRange{token} : ValueRange{}, 1,
                          dmaRole(hop), hop.unit, load.getLoc(), source,
                          buffer)[0];
        source = buffer;
      }
    }
    const Hop *feedHop = &lane.inbound.hops.back();
    Value feedToken = makeMultiStage("feed", feedDeps,
                                     UnitRole::scratchpad_load, feedHop->unit,
                                     pipeline.getLoc(), feeds);

    // The compute stage moves over, reading and writing the new slots.
    auto newCompute = cast<StageOp>(builder.clone(*compute.getOperation()));
    newCompute->setOperands(ValueRange{feedToken});
    newCompute.setUnitAttr(builder.getStringAttr(model.getNode(lane.compute).name));
    newCompute.setApplicableUnitsAttr(
        builder.getArrayAttr({UnitRoleAttr::get(ctx, UnitRole::vector_compute)}));

    // Outbound: one drain stage, then DMA stages per store.
    const Hop &drainHop = lane.outbound.hops.front();
    SmallVector<std::pair<Value, Value>> drains; // (slot, destination)
    SmallVector<std::tuple<Value, Value, Location>> stores; // (buffer, tile)
    for (StageOp store : storeStages) {
      DataTransferOp transfer = soleTransfer(store);
      auto slotType = cast<FifoSlotType>(transfer.getSrc().getType());
      auto newSlot = makeSlot(lane.compute, drainHop.unit, slotType);
      slotMap[transfer.getSrc()] = newSlot;
      if (lane.outbound.hops.size() == 1 ||
          isLocal(slotType.getDst().getValue())) {
        if (failed(checkUnmasked(transfer.getDst())))
          return failure();
        drains.push_back({newSlot, transfer.getDst()});
        continue;
      }
      Value buffer = makeBuffer(*drainHop.to, slotType);
      drains.push_back({newSlot, buffer});
      stores.push_back({buffer, transfer.getDst(), store.getLoc()});
    }
    Value drainToken =
        makeMultiStage("drain", ValueRange{newCompute.getResult(0)},
                       UnitRole::scratchpad_store, drainHop.unit,
                       pipeline.getLoc(), drains, /*writesBuffers=*/true);
    for (auto [j, entry] : llvm::enumerate(stores)) {
      auto [buffer, tile, loc] = entry;
      Value source = buffer;
      Value token = drainToken;
      ArrayRef<Hop> dmaHops = ArrayRef<Hop>(lane.outbound.hops).drop_front();
      for (auto [k, hop] : llvm::enumerate(dmaHops)) {
        bool last = k + 1 == dmaHops.size();
        Value dest = last ? tile
                          : makeBuffer(*hop.to, cast<MemRefType>(
                                                    buffer.getType()));
        std::string name = "store_" + std::to_string(j);
        if (k)
          name += "." + std::to_string(k);
        SmallVector<Value> out = makeStage(name, ValueRange{token}, last ? 0 : 1,
                                           dmaRole(hop), hop.unit, loc, source,
                                           dest);
        token = last ? Value() : out[0];
        source = dest;
      }
    }

    // Point the compute stage's FIFO ops at the new slots.
    newCompute.walk([&](Operation *op) {
      for (OpOperand &operand : op->getOpOperands())
        if (auto it = slotMap.find(operand.get()); it != slotMap.end())
          operand.set(it->second);
    });
    // Private resources go before every stage, in creation order.
    Block &body = routed.getBody().front();
    Operation *firstStage = (*body.getOps<StageOp>().begin()).getOperation();
    for (auto priv : llvm::make_early_inc_range(body.getOps<PrivateOp>()))
      if (firstStage->isBeforeInBlock(priv))
        priv->moveBefore(firstStage);
    pipeline.erase();
    return success();
  }

private:
  LogicalResult classify() {
    for (Operation &op : pipeline.getBody().front()) {
      auto stage = dyn_cast<StageOp>(op);
      if (!stage)
        continue;
      if (stage.isApplicable(UnitRole::vector_compute) &&
          !stage.isApplicable(UnitRole::dma_load)) {
        if (compute)
          return stage.emitError("pipeline has more than one compute stage");
        compute = stage;
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
      if (memory != target.getGlobalKind() && !isLocal(memory))
        return stage.emitError("transfers to or from memory '")
               << memory << "' are not supported yet (only the global memory '"
               << target.getGlobalKind()
               << "' and the scratchpad the compute unit's load and store "
                  "units reach)";
      (in ? loads : storeStages).push_back(stage);
    }
    if (!compute)
      return pipeline.emitError("pipeline has no compute stage");
    if (storeStages.empty())
      return pipeline.emitError("pipeline stores nothing");
    return success();
  }

  /// Fails, at the tile, when rows of an access tile the feed or drain unit
  /// reaches directly may need masking: only a DMA transfer masks rows.
  LogicalResult checkUnmasked(Value tileValue) {
    auto tile = tileValue.getDefiningOp<ktdp::ConstructAccessTileOp>();
    if (!tile || !mayMaskRows(tile))
      return success();
    return tile.emitError("rows of this access tile may lie outside its "
                          "view, which only a DMA transfer masks, but "
                          "device '")
           << model.getName()
           << "' moves it between memory and the compute unit directly";
  }

  /// Whether `kind` is the memory the compute unit is fed from and drained
  /// into (its scratchpad), where the kernel's own scratchpad views live.
  bool isLocal(StringRef kind) {
    const ktflow::sched::Lane &lane = target.getLanes().front();
    const Hop &feedHop = lane.inbound.hops.back();
    const Hop &drainHop = lane.outbound.hops.front();
    return feedHop.from && drainHop.to && feedHop.from == drainHop.to &&
           model.getNode(*feedHop.from).getKind() == kind;
  }

  UnitRole dmaRole(const Hop &hop) {
    const ktflow::device::MemoryTree &tree = target.getMemoryTree();
    return tree.getLevel(*hop.to) > tree.getLevel(*hop.from)
               ? UnitRole::dma_load
               : UnitRole::dma_store;
  }

  Value makeSlot(ktflow::device::NodeId from, ktflow::device::NodeId to,
                 FifoSlotType logical) {
    auto type = FifoSlotType::get(
        ctx, builder.getStringAttr(model.getNode(from).name),
        builder.getStringAttr(model.getNode(to).name), logical.getShape(),
        logical.getElementType());
    return makePrivate(type);
  }

  Value makePrivate(Type type) {
    return PrivateOp::create(builder, pipeline.getLoc(), type, IntegerAttr());
  }

  Value makeBuffer(ktflow::device::NodeId memory, FifoSlotType logical) {
    return makeBuffer(memory, getBufferType(bufferShape(logical.getShape()),
                                            logical.getElementType(), ""));
  }
  Value makeBuffer(ktflow::device::NodeId memory, MemRefType like) {
    auto type = getBufferType(like.getShape(), like.getElementType(),
                              model.getNode(memory).getKind());
    return makePrivate(type);
  }

  ArrayAttr rolesAttr(UnitRole role) {
    return builder.getArrayAttr({UnitRoleAttr::get(ctx, role)});
  }

  /// A stage running one transfer, producing `tokens` tokens.
  SmallVector<Value> makeStage(StringRef name, ValueRange deps, unsigned tokens,
                               UnitRole role, ktflow::device::NodeId unit,
                               Location loc, Value src, Value dst) {
    SmallVector<Type> types(tokens, TokenType::get(ctx));
    auto stage = StageOp::create(
        builder, loc, types, builder.getStringAttr(name), deps, rolesAttr(role),
        builder.getStringAttr(model.getNode(unit).name));
    OpBuilder::InsertionGuard guard(builder);
    builder.createBlock(&stage.getBody());
    DataTransferOp::create(builder, loc, src, ValueRange{}, dst, ValueRange{});
    return SmallVector<Value>(stage.getResults());
  }

  /// A stage running several transfers in order; returns its token.
  Value makeMultiStage(StringRef name, ValueRange deps, UnitRole role,
                       ktflow::device::NodeId unit, Location loc,
                       ArrayRef<std::pair<Value, Value>> transfers,
                       bool writesBuffers = false) {
    (void)writesBuffers;
    auto stage = StageOp::create(
        builder, loc, TypeRange{TokenType::get(ctx)},
        builder.getStringAttr(name), deps, rolesAttr(role),
        builder.getStringAttr(model.getNode(unit).name));
    OpBuilder::InsertionGuard guard(builder);
    builder.createBlock(&stage.getBody());
    for (auto [src, dst] : transfers)
      DataTransferOp::create(builder, loc, src, ValueRange{}, dst,
                             ValueRange{});
    return stage.getResult(0);
  }

  const ScheduleTarget &target;
  const ktflow::device::DeviceModel &model;
  PipelineOp pipeline;
  OpBuilder builder;
  MLIRContext *ctx = nullptr;
  SmallVector<StageOp> loads, storeStages;
  StageOp compute;
  llvm::DenseMap<Value, Value> slotMap;
};

struct RouteTransfersPass
    : public ktdf::impl::KTDFRouteTransfersBase<RouteTransfersPass> {
  void runOnOperation() override {
    auto &target = getAnalysis<ScheduleTarget>();
    if (!target.isValid())
      return signalPassFailure();
    markAnalysesPreserved<ScheduleTarget>();
    SmallVector<PipelineOp> pipelines;
    getOperation().walk([&](PipelineOp p) { pipelines.push_back(p); });
    for (PipelineOp pipeline : pipelines)
      if (failed(PipelineRouter(target, pipeline).run()))
        return signalPassFailure();
  }
};
} // namespace

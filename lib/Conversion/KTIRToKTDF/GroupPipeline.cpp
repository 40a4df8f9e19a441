//===- GroupPipeline.cpp - The pipeline of one compute group --------------===//
//
// This file builds the `ktdf.pipeline` of one compute group found by
// --ktir-to-ktdf: load stages that move each loaded tile from its device
// memory into a FIFO slot of the compute unit, one compute stage that runs
// the group's tensor ops on what it reads from those slots, and store
// stages that move its results back. The transfers are still logical;
// routing makes them physical.
//
//===----------------------------------------------------------------------===//

#include "GroupPipeline.h"

#include "ktflow/Analysis/LaunchArguments.h"
#include "ktflow/Dialect/KTDF/IR/KTDF.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::ktdf;

/// The endpoint name of the device memory an access tile's view lives in.
static FailureOr<StringRef> memoryKindOf(Operation *user, Value tile) {
  auto view = ktdp::getAccessTileView(tile);
  // An indirect tile (a gather or scatter) lives in its base view's memory.
  if (auto indirect = tile.getDefiningOp<ktdp::ConstructIndirectAccessTileOp>())
    view = indirect.getBase().getDefiningOp<ktdp::ConstructMemoryViewOp>();
  auto kind = view ? view->getAttrOfType<StringAttr>("ktdf.memory") : nullptr;
  if (!kind)
    return user->emitError("the access tile's view has no device memory; "
                           "run --ktdf-map-memory-spaces first");
  return kind.getValue();
}

/// The copy that only adds dimensions of extent 1 to the tensor a gather
/// (a load of an indirect access tile) loads, when that is its only use
/// (the unit reshape ktdf-generalize made of `tensor.expand_shape`, such as
/// paged_gather's 2x64x64 -> 1x2x64x64): the gather's slot then carries the
/// copy's type, the same bytes in the same order, and the copy goes away.
/// A gather moves whole, so no pass streams it by the loaded shape.
static linalg::GenericOp unitExpansionOf(ktdp::LoadOp load) {
  if (!load.getAccessTile()
           .getDefiningOp<ktdp::ConstructIndirectAccessTileOp>() ||
      !load.getResult().hasOneUse())
    return {};
  auto copy = dyn_cast<linalg::GenericOp>(*load.getResult().getUsers().begin());
  if (!copy || copy.getNumDpsInputs() != 1 || copy.getNumDpsInits() != 1 ||
      copy.getNumReductionLoops() != 0 ||
      copy.getDpsInputOperand(0)->get() != load.getResult())
    return {};
  auto yield = cast<linalg::YieldOp>(copy.getBody()->getTerminator());
  if (yield.getValues().size() != 1 ||
      yield.getValues()[0] != copy.getBody()->getArgument(0))
    return {};
  AffineMap in = copy.getMatchingIndexingMap(copy.getDpsInputOperand(0));
  AffineMap out = copy.getMatchingIndexingMap(copy.getDpsInitOperand(0));
  auto type = cast<RankedTensorType>(copy.getResult(0).getType());
  if (!out.isIdentity() || !in.isProjectedPermutation())
    return {};
  // The input reads the output's dimensions in order, skipping only
  // dimensions of extent 1.
  unsigned next = 0;
  for (AffineExpr e : in.getResults()) {
    unsigned d = cast<AffineDimExpr>(e).getPosition();
    for (; next < d; ++next)
      if (type.getDimSize(next) != 1)
        return {};
    ++next;
  }
  for (; next < type.getRank(); ++next)
    if (type.getDimSize(next) != 1)
      return {};
  return copy;
}

namespace {
/// The unit roles as a stage's `applicable_units`.
static ArrayAttr rolesAttr(Builder &builder, ArrayRef<UnitRole> list) {
  SmallVector<Attribute> attrs;
  for (UnitRole role : list)
    attrs.push_back(UnitRoleAttr::get(builder.getContext(), role));
  return builder.getArrayAttr(attrs);
}

/// Builds the pipeline of one compute group after its last op: a FIFO slot
/// per load and per store, load stages, the compute stage (reads, the
/// group's tensor ops with the constants they capture, writes) and store
/// stages; then erases the group.
class GroupPipelineBuilder {
public:
  explicit GroupPipelineBuilder(ComputeGroup &group)
      : group(group), builder(group.last->getContext()),
        compute(
            builder.getStringAttr(stringifyUnitRole(UnitRole::vector_compute))),
        token(TokenType::get(builder.getContext())) {}

  LogicalResult build() {
    if (failed(collectMembers()))
      return failure();
    builder.setInsertionPointAfter(group.last);
    Location loc = group.last->getLoc();
    auto pipeline = PipelineOp::create(builder, loc, IntegerAttr());
    Block *body = builder.createBlock(&pipeline.getBody());
    builder.setInsertionPointToEnd(body);
    if (failed(createSlots()))
      return failure();
    SmallVector<Value> loaded = createLoadStages();
    FailureOr<StageOp> computeStage = createComputeStage(loc, loaded);
    if (failed(computeStage))
      return failure();
    createStoreStages(*computeStage);
    for (auto store : group.stores)
      store.erase();
    for (Operation *op : llvm::reverse(group.compute))
      op->erase();
    for (auto load : llvm::reverse(group.loads))
      load.erase();
    return success();
  }

private:
  /// The group's ops, which nothing outside the group may use.
  LogicalResult collectMembers() {
    for (auto load : group.loads)
      inGroup.insert(load);
    for (Operation *op : group.compute)
      inGroup.insert(op);
    for (auto store : group.stores)
      inGroup.insert(store);
    for (Operation *op : inGroup)
      for (Operation *user : op->getUsers())
        if (!inGroup.contains(user))
          return user->emitError("uses a tensor of a compute group from "
                                 "outside it (for example in another loop)");
    return success();
  }

  /// Slots: one per loaded tile into the compute unit, one per stored value
  /// out of it.
  LogicalResult createSlots() {
    MLIRContext *ctx = builder.getContext();
    for (ktdp::LoadOp load : group.loads) {
      FailureOr<StringRef> kind = memoryKindOf(load, load.getAccessTile());
      if (failed(kind))
        return failure();
      auto type = cast<RankedTensorType>(load.getResult().getType());
      if (linalg::GenericOp copy = unitExpansionOf(load))
        type = cast<RankedTensorType>(copy.getResult(0).getType());
      auto slotType =
          FifoSlotType::get(ctx, builder.getStringAttr(*kind), compute,
                            type.getShape(), type.getElementType());
      inSlots.push_back(
          PrivateOp::create(builder, load.getLoc(), slotType, IntegerAttr()));
    }
    for (ktdp::StoreOp store : group.stores) {
      FailureOr<StringRef> kind = memoryKindOf(store, store.getAccessTile());
      if (failed(kind))
        return failure();
      auto type = cast<RankedTensorType>(store.getDataTile().getType());
      auto slotType =
          FifoSlotType::get(ctx, compute, builder.getStringAttr(*kind),
                            type.getShape(), type.getElementType());
      outSlots.push_back(
          PrivateOp::create(builder, store.getLoc(), slotType, IntegerAttr()));
    }
    return success();
  }

  /// One stage per load, moving its tile into its slot; their tokens.
  SmallVector<Value> createLoadStages() {
    SmallVector<Value> loaded;
    for (auto [i, load] : llvm::enumerate(group.loads)) {
      auto stage = StageOp::create(
          builder, load.getLoc(), TypeRange{token},
          builder.getStringAttr("load_" + std::to_string(i)), ValueRange{},
          rolesAttr(builder, {UnitRole::dma_load, UnitRole::scratchpad_load}),
          StringAttr());
      OpBuilder::InsertionGuard guard(builder);
      builder.createBlock(&stage.getBody());
      DataTransferOp::create(builder, load.getLoc(), load.getAccessTile(),
                             ValueRange{}, inSlots[i], ValueRange{});
      loaded.push_back(stage.getResult(0));
    }
    return loaded;
  }

  /// The compute stage after the loads: reads, the tensor ops, writes.
  FailureOr<StageOp> createComputeStage(Location loc, ValueRange loaded) {
    auto computeStage = StageOp::create(
        builder, loc, TypeRange{token}, builder.getStringAttr("compute"),
        loaded, rolesAttr(builder, {UnitRole::vector_compute}), StringAttr());
    OpBuilder::InsertionGuard guard(builder);
    builder.createBlock(&computeStage.getBody());
    IRMapping mapping;
    llvm::SmallPtrSet<Operation *, 2> folded;
    for (auto [load, slot] : llvm::zip(group.loads, inSlots)) {
      linalg::GenericOp copy = unitExpansionOf(load);
      Value loaded = copy ? copy.getResult(0) : load.getResult();
      mapping.map(loaded, ReadFromFifoOp::create(builder, load.getLoc(),
                                                 loaded.getType(), slot)
                              .getResult());
      if (copy)
        folded.insert(copy);
    }
    for (Operation *op : group.compute) {
      if (folded.contains(op))
        continue;
      if (failed(captureConstants(op, mapping)))
        return failure();
      builder.clone(*op, mapping);
    }
    for (auto [store, slot] : llvm::zip(group.stores, outSlots))
      WriteToFifoOp::create(builder, store.getLoc(),
                            mapping.lookupOrDefault(store.getDataTile()), slot);
    return computeStage;
  }

  /// One stage per store after the compute stage, moving its slot to its
  /// tile.
  void createStoreStages(StageOp computeStage) {
    for (auto [i, store] : llvm::enumerate(group.stores)) {
      auto stage = StageOp::create(
          builder, store.getLoc(), TypeRange{},
          builder.getStringAttr("store_" + std::to_string(i)),
          computeStage.getResults(),
          rolesAttr(builder, {UnitRole::scratchpad_store, UnitRole::dma_store}),
          StringAttr());
      OpBuilder::InsertionGuard guard(builder);
      builder.createBlock(&stage.getBody());
      DataTransferOp::create(builder, store.getLoc(), outSlots[i], ValueRange{},
                             store.getAccessTile(), ValueRange{});
    }
  }

  /// Clones into the compute stage the constants `op` uses from outside
  /// the group (operands and values its regions capture); float kernel
  /// arguments bound at launch (a norm's epsilon) and integer ones
  /// converted to float (a layernorm's N as its divisor) stay captured, the
  /// compute lowering reads them with dfir.splat_arg, as do index values
  /// a body captures (dfir.iota); anything else from outside is an error.
  LogicalResult captureConstants(Operation *op, IRMapping &mapping) {
    llvm::SetVector<Value> used(op->getOperands().begin(),
                                op->getOperands().end());
    op->walk([&](Operation *nested) {
      for (Value v : nested->getOperands())
        if (!op->isAncestor(v.getParentBlock()->getParentOp()))
          used.insert(v);
    });
    for (Value v : used) {
      if (mapping.contains(v))
        continue;
      Operation *def = v.getDefiningOp();
      if (def && inGroup.contains(def))
        continue;
      if (auto arg = dyn_cast<BlockArgument>(v);
          arg && ktflow::isFloatLaunchScalar(arg))
        continue;
      if (ktflow::getFloatOfLaunchScalar(v))
        continue;
      // An index value a linalg body captures (a tile's row origin in a
      // causal mask): index arithmetic the compute unit's program computes
      // (IndexIdioms.h).
      if (v.getType().isIndex() && !llvm::is_contained(op->getOperands(), v))
        continue;
      if (def && (def->hasTrait<OpTrait::ConstantLike>() ||
                  isa<tensor::EmptyOp>(def))) {
        mapping.map(v, builder.clone(*def)->getResult(0));
        continue;
      }
      // A value-only scf.if on a per-row or per-tile condition becomes this
      // select (ktdf-lower-if): say so rather than name an i1.
      if (v.getType().isInteger(1) && picksBy(op, v))
        return op->emitError(
            "arith.select picks by a scalar condition computed outside the "
            "computation, the same for every element (an scf.if whose "
            "branches yield values becomes this select), which the scheduler "
            "does not carry into the compute unit yet: choose per element "
            "instead (a tensor condition, such as arith.cmpf on tensors)");
      return op->emitError("the computation uses a value defined outside "
                           "its compute group; only constants may be "
                           "captured (value of type ")
             << v.getType() << ")";
    }
    return success();
  }

  /// Whether `op` selects by `condition`, directly or as the scalar input
  /// of a linalg op whose body selects by it.
  static bool picksBy(Operation *op, Value condition) {
    auto selectsBy = [&](Value v) {
      return llvm::any_of(v.getUsers(), [&](Operation *user) {
        auto select = dyn_cast<arith::SelectOp>(user);
        return select && select.getCondition() == v && op->isAncestor(select);
      });
    };
    if (selectsBy(condition))
      return true;
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp)
      return false;
    return llvm::any_of(op->getOpOperands(), [&](OpOperand &operand) {
      return operand.get() == condition &&
             selectsBy(linalgOp.getMatchingBlockArgument(&operand));
    });
  }

  ComputeGroup &group;
  OpBuilder builder;
  /// The compute unit's role, as FIFO slots name their compute end.
  StringAttr compute;
  TokenType token;
  llvm::SmallPtrSet<Operation *, 16> inGroup;
  SmallVector<Value> inSlots, outSlots;
};
} // namespace

LogicalResult mlir::ktdf::buildGroupPipeline(ComputeGroup &group) {
  return GroupPipelineBuilder(group).build();
}

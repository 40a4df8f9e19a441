//===- KTIRToKTDF.cpp - Initial pipelines of a KTIR kernel ----------------===//
//
// This file implements --ktir-to-ktdf, the end of the mapping group: the
// launch grid becomes a `ktdf.parallel`, and every compute group — the
// tensor computation between `ktdp.load`s and the `ktdp.store`s it feeds,
// cut at memory boundaries — becomes a `ktdf.pipeline` of load stages, one
// compute stage and store stages joined by FIFO slots and tokens
// (GroupPipeline.cpp builds each). The transfers are still logical (device
// memory to the compute unit and back); routing makes them physical.
//
//===----------------------------------------------------------------------===//

#include "GroupPipeline.h"

#include "ktflow/Analysis/MemoryTensors.h"
#include "ktflow/Conversion/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Iterators.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
#define GEN_PASS_DEF_KTIRTOKTDF
#include "ktflow/Conversion/Passes.h.inc"
} // namespace mlir

using namespace mlir;
using namespace mlir::ktdf;

namespace {
class KernelConverter {
public:
  explicit KernelConverter(func::FuncOp func) : func(func) {}

  LogicalResult run() {
    FailureOr<std::optional<SmallVector<int64_t>>> grid =
        ktdp::getLaunchGrid(func);
    if (failed(grid) || !*grid)
      return func.emitError("kernel has no valid launch grid");
    ParallelOp parallel = wrapInParallel(**grid);
    SmallVector<Block *> blocks;
    parallel.walk([&](Block *block) { blocks.push_back(block); });
    for (Block *block : blocks)
      if (failed(convertBlock(*block)))
        return failure();
    // The constants and empty tensors the groups cloned are dead now.
    parallel.walk<WalkOrder::PostOrder, ReverseIterator>([&](Operation *op) {
      if (op != parallel && isOpTriviallyDead(op))
        op->erase();
    });
    return success();
  }

private:
  ParallelOp wrapInParallel(ArrayRef<int64_t> grid) {
    Block &body = func.front();
    OpBuilder builder(func.getContext());
    builder.setInsertionPointToStart(&body);
    auto parallel = ParallelOp::create(builder, func.getLoc(),
                                       builder.getDenseI64ArrayAttr(grid),
                                       IntegerAttr());
    Block *inner = builder.createBlock(&parallel.getBody());
    SmallVector<Value> ids;
    for (size_t i = 0; i < grid.size(); ++i)
      ids.push_back(inner->addArgument(builder.getIndexType(), func.getLoc()));
    // Everything but the parallel op itself and the return moves inside.
    auto begin = std::next(Block::iterator(parallel));
    auto end = Block::iterator(body.getTerminator());
    inner->getOperations().splice(inner->end(), body.getOperations(), begin,
                                  end);
    SmallVector<ktdp::GetComputeTileIdOp> idOps;
    parallel.walk([&](ktdp::GetComputeTileIdOp op) { idOps.push_back(op); });
    for (ktdp::GetComputeTileIdOp op : idOps) {
      for (auto [result, id] : llvm::zip(op.getResults(), ids))
        result.replaceAllUsesWith(id);
      op.erase();
    }
    return parallel;
  }

  /// Groups the loads, stores and tensor ops of `block` that feed each
  /// other, and builds one pipeline per group.
  LogicalResult convertBlock(Block &block) {
    llvm::EquivalenceClasses<Operation *> classes;
    SmallVector<Operation *> members;
    for (Operation &op : block) {
      // Constants and empty tensors are cloned where they are used.
      if (isa<PipelineOp, tensor::EmptyOp>(op) ||
          op.hasTrait<OpTrait::ConstantLike>())
        continue;
      bool tensorOp = isa<ktdp::LoadOp, ktdp::StoreOp>(op) ||
                      llvm::any_of(op.getResultTypes(), [](Type t) {
                        return isa<RankedTensorType>(t);
                      });
      if (!tensorOp)
        continue;
      members.push_back(&op);
      classes.insert(&op);
      for (Value operand : op.getOperands())
        if (isa<RankedTensorType>(operand.getType()))
          if (Operation *def = operand.getDefiningOp();
              def && def->getBlock() == &block && classes.contains(def))
            classes.unionSets(def, &op);
    }
    llvm::MapVector<Operation *, ComputeGroup> groups;
    for (Operation *op : members) {
      ComputeGroup &group = groups[classes.getLeaderValue(op)];
      if (auto load = dyn_cast<ktdp::LoadOp>(op))
        group.loads.push_back(load);
      else if (auto store = dyn_cast<ktdp::StoreOp>(op))
        group.stores.push_back(store);
      else
        group.compute.push_back(op);
      if (!group.first)
        group.first = op;
      group.last = op;
    }
    // An all-reduce orders what stores its partial before it and what
    // loads the result after it: a group on both sides would be one
    // pipeline, placed after it.
    for (auto &[leader, group] : groups)
      for (Operation *op = group.first; op && op != group.last;
           op = op->getNextNode())
        if (isa<AllReduceOp, TileCopyOp>(op)) {
          InFlightDiagnostic diag = op->emitError(
              "a compute group uses values computed both before this "
              "inter-tile exchange and after it; the scheduler cannot "
              "order it around the exchange yet (use only the reduced "
              "value after it)");
          noteCrossingUse(diag, group, op);
          return diag;
        }
    for (auto &[leader, group] : groups)
      if (failed(checkNoReloadInGroup(group)))
        return failure();
    for (auto &[leader, group] : groups) {
      if (group.stores.empty()) {
        // Nothing reaches memory: a dead computation (loads included).
        if (failed(eraseDeadGroup(group)))
          return failure();
        continue;
      }
      if (failed(buildGroupPipeline(group)))
        return failure();
    }
    return success();
  }

  /// A pipeline runs its loads before its stores, so a group cannot load a
  /// tensor in device memory after storing to it (ktdf-forward-stores
  /// serves the reloads whose tile provably lies inside its view with the
  /// stored tensor; a reload from another group is ordered by the lowering).
  static LogicalResult checkNoReloadInGroup(ComputeGroup &group) {
    for (ktdp::LoadOp load : group.loads)
      for (ktdp::StoreOp store : group.stores) {
        auto tensor = ktflow::getDeviceTensor(store->getOperand(1));
        if (!tensor || !store->isBeforeInBlock(load) ||
            ktflow::getDeviceTensor(load->getOperand(0)) != tensor)
          continue;
        InFlightDiagnostic diag = load.emitError(
            "this load reads back a tensor that a store earlier in its own "
            "compute group writes, which the scheduler cannot order (a "
            "pipeline loads before it stores); the stored tensor is used "
            "instead only when the tile provably lies inside its view");
        diag.attachNote(store.getLoc()) << "the store";
        return diag;
      }
    return success();
  }

  /// Points `diag` at a value of `group` computed before `exchange` and
  /// read after it, which ties the two sides into one group.
  static void noteCrossingUse(InFlightDiagnostic &diag, ComputeGroup &group,
                              Operation *exchange) {
    for (Operation *op = exchange->getNextNode(); op; op = op->getNextNode())
      for (Value operand : op->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (!def || def->getBlock() != exchange->getBlock() ||
            !def->isBeforeInBlock(exchange) ||
            !llvm::is_contained(group.compute, def))
          continue;
        diag.attachNote(def->getLoc())
            << "this value, computed before the exchange, is read after it";
        return;
      }
  }

  LogicalResult eraseDeadGroup(ComputeGroup &group) {
    SmallVector<Operation *> ops;
    for (auto load : group.loads)
      ops.push_back(load);
    ops.append(group.compute.begin(), group.compute.end());
    for (Operation *op : llvm::reverse(ops)) {
      if (!op->use_empty())
        return op->emitError("tensor value is used outside its block; "
                             "compute groups must not cross loops");
      op->erase();
    }
    return success();
  }

  func::FuncOp func;
};

struct KTIRToKTDFPass : public impl::KTIRToKTDFBase<KTIRToKTDFPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal() || !func->hasAttr(ktdp::kGridAttrName))
        continue;
      if (failed(KernelConverter(func).run()))
        return signalPassFailure();
    }
  }
};
} // namespace

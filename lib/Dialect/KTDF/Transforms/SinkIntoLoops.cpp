//===- SinkIntoLoops.cpp - Loop-invariant tensors used in inner loops -----===//
//
// This file implements --ktdf-sink-into-loops. A compute group (the loads,
// tensor computation and stores ktir-to-ktdf makes one pipeline) lives in
// one block, but real kernels load a tile once in an outer loop and use it
// in an inner one (RoPE's cos/sin chunk, reused by every head), or splat a
// row's statistic before the column loop that applies it. This pass clones
// such a value's computation, back to its loads and constants, into the
// block of each loop body that uses it, so that every group is whole in one
// block.
// Reloading is correct only when nothing the kernel stores may change the
// data in between: a load is sunk only when no store of the kernel writes
// its tensor. ktdf-hoist-invariant-transfers later moves a load whose tile
// does not change across the loop back out of it, so the data still
// crosses the DMA route once per outer iteration.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Analysis/LaunchArguments.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFSINKINTOLOOPS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

/// The start of the tensor `view` is in: its kernel argument (also for a
/// view at a computed address, argument + offset), else its address.
static Value tensorStart(ktdp::ConstructMemoryViewOp view) {
  if (auto address = ktflow::getViewAddress(view.getOffset()))
    return address->argument;
  return view.getOffset();
}

namespace {
class LoopSinker {
public:
  explicit LoopSinker(func::FuncOp func) {
    // The start addresses of the tensors the kernel stores to.
    func.walk([&](ktdp::StoreOp store) {
      if (auto view = ktdp::getAccessTileView(store.getAccessTile()))
        storedTensors.insert(tensorStart(view));
      else
        storesUnknown = true;
    });
  }

  /// Replaces every use, by an op directly in a loop body, of a tensor (or
  /// a scalar extracted from one) defined outside that body with a clone
  /// of its computation at the start of the body, where it can be cloned.
  void run(func::FuncOp func) {
    SmallVector<OpOperand *> uses;
    func.walk([&](scf::ForOp loop) {
      for (Operation &op : *loop.getBody())
        for (OpOperand &use : op.getOpOperands())
          if (carriesData(use.get()) &&
              !loop.getBody()->getParent()->isAncestor(
                  use.get().getParentRegion()))
            uses.push_back(&use);
    });
    for (OpOperand *use : uses) {
      Block *body = use->getOwner()->getBlock();
      if (std::optional<Value> clone = sink(use->get(), body))
        use->set(*clone);
    }
    // What was sunk into every loop that used it is dead where it was.
    for (Operation *op : llvm::reverse(sunk))
      if (op->use_empty())
        op->erase();
  }

private:
  /// Tensors, and the scalars `tensor.extract` takes out of them.
  static bool carriesData(Value v) {
    return isa<RankedTensorType>(v.getType()) ||
           v.getDefiningOp<tensor::ExtractOp>();
  }

  bool canClone(Operation *op) {
    if (auto load = dyn_cast<ktdp::LoadOp>(op)) {
      auto view = ktdp::getAccessTileView(load.getAccessTile());
      return view && !storesUnknown &&
             !storedTensors.contains(tensorStart(view));
    }
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
      return linalgOp.hasPureTensorSemantics();
    return op->getNumRegions() == 0 && isMemoryEffectFree(op);
  }

  /// The value of `v` in `body`: `v` itself where it is defined inside,
  /// else a clone of its computation at the start of `body`.
  std::optional<Value> sink(Value v, Block *body) {
    if (body->getParent()->isAncestor(v.getParentRegion()) || !carriesData(v))
      return v;
    if (auto it = clones.find({v, body}); it != clones.end())
      return it->second;
    Operation *def = v.getDefiningOp();
    // Constants stay: ktir-to-ktdf captures them into the compute stage.
    if (def && def->hasTrait<OpTrait::ConstantLike>())
      return v;
    if (!def || !canClone(def))
      return std::nullopt;
    IRMapping mapping;
    for (Value operand : def->getOperands()) {
      std::optional<Value> inside = sink(operand, body);
      if (!inside)
        return std::nullopt;
      mapping.map(operand, *inside);
    }
    OpBuilder builder = OpBuilder::atBlockBegin(body);
    // After the clones of its operands, which are at the start too.
    for (Value operand : def->getOperands())
      if (Operation *inner = mapping.lookup(operand).getDefiningOp())
        if (inner->getBlock() == body &&
            !inner->isBeforeInBlock(&*builder.getInsertionPoint()))
          builder.setInsertionPointAfter(inner);
    Operation *clone = builder.clone(*def, mapping);
    sunk.insert(def);
    for (auto [from, to] : llvm::zip(def->getResults(), clone->getResults()))
      clones[{from, body}] = to;
    return clones[{v, body}];
  }

  llvm::SmallPtrSet<Value, 8> storedTensors;
  bool storesUnknown = false;
  DenseMap<std::pair<Value, Block *>, Value> clones;
  llvm::SetVector<Operation *> sunk;
};

struct SinkIntoLoopsPass
    : public ktdf::impl::KTDFSinkIntoLoopsBase<SinkIntoLoopsPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal())
        LoopSinker(func).run(func);
  }
};
} // namespace

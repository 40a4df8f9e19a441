//===- IndexTensors.cpp - Kernel arguments read as coordinates ------------===//
//
// This file follows the memory views built on each argument (through
// distributed views and calls, ViewUses.h) to the indirect access tiles
// that read indices from them.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Analysis/IndexTensors.h"

#include "ktflow/Analysis/DerivedValues.h"
#include "ktflow/Analysis/ViewUses.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace ktflow;

/// The number of coordinates of `base` along dimension `d`: its static
/// size, or less when the view's coordinate set bounds it by a constant.
static std::optional<int64_t> staticExtent(Value base, unsigned d) {
  auto type = dyn_cast<ShapedType>(base.getType());
  if (!type || !type.hasRank() || d >= type.getRank())
    return std::nullopt;
  std::optional<int64_t> extent;
  if (!type.isDynamicDim(d))
    extent = type.getDimSize(d);
  if (auto view = base.getDefiningOp<ktdp::ConstructMemoryViewOp>())
    return ktdp::getConstantExtent(view.getCoordinateSet(), d, extent);
  return extent;
}

/// Whether the access tile `tile` reaches a ktdp.store (directly or as the
/// argument of a callee).
static bool isStoredThrough(Value tile) {
  SetVector<Value> seen;
  SmallVector<Value> worklist = {tile};
  while (!worklist.empty()) {
    Value t = worklist.pop_back_val();
    if (!seen.insert(t))
      continue;
    for (OpOperand &use : t.getUses()) {
      if (isa<ktdp::StoreOp>(use.getOwner()))
        return true;
      if (auto call = dyn_cast<func::CallOp>(use.getOwner()))
        if (Value arg = calleeArgument(call, use))
          worklist.push_back(arg);
    }
  }
  return false;
}

/// The base dimension whose indirect subscript reads index view number `k`
/// of `tile` (one view per indirect dimension, in dimension order).
static std::optional<unsigned>
indirectDimension(ktdp::ConstructIndirectAccessTileOp tile, unsigned k) {
  unsigned seen = 0;
  for (auto [d, kind] : llvm::enumerate(
           tile.getPerDimSubscriptKinds().getAsValueRange<BoolAttr>()))
    if (kind && seen++ == k)
      return d;
  return std::nullopt;
}

std::map<unsigned, IndexTensorUse> ktflow::findIndexTensors(func::FuncOp fn) {
  // Which argument each view starts at, to name the indexed tensor.
  DenseMap<Operation *, unsigned> viewArgument;
  for (BlockArgument arg : fn.getArguments())
    for (Operation *view : getViewsBasedAt(arg))
      viewArgument.try_emplace(view, arg.getArgNumber());

  std::map<unsigned, IndexTensorUse> result;
  for (BlockArgument arg : fn.getArguments()) {
    SmallVector<Value> views;
    for (Operation *view : getViewsBasedAt(arg))
      views.push_back(view->getResult(0));
    std::optional<IndexTensorUse> found;
    forEachViewUse(views, [&](OpOperand &use) {
      auto tile = dyn_cast<ktdp::ConstructIndirectAccessTileOp>(use.getOwner());
      if (!tile || use.get() == tile.getBase())
        return;
      unsigned first = tile.getIndirectMemrefs().getBeginOperandIndex();
      std::optional<unsigned> dim =
          indirectDimension(tile, use.getOperandNumber() - first);
      std::optional<int64_t> extent;
      if (dim)
        extent = staticExtent(tile.getBase(), *dim);
      if (!extent || *extent <= 0) // an empty dimension bounds nothing
        return;
      if (!found || *extent < found->extent) {
        bool wasScatter = found && found->scatter;
        found = IndexTensorUse{*extent, std::nullopt, *dim, wasScatter};
        if (Operation *base = tile.getBase().getDefiningOp())
          if (auto it = viewArgument.find(base); it != viewArgument.end())
            found->indexedArgument = it->second;
      }
      found->scatter |= isStoredThrough(tile.getResult());
    });
    if (found)
      result[arg.getArgNumber()] = *found;
  }
  return result;
}

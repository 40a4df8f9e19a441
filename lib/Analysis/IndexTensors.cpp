//===- IndexTensors.cpp - Kernel tensors read as coordinates --------------===//
//
// This file follows the memory views built on each argument and at each
// literal address (through distributed views, calls and the returns of
// helpers, ViewUses.h) to the indirect access tiles that read indices from
// them.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Analysis/IndexTensors.h"

#include "ktflow/Analysis/DerivedValues.h"
#include "ktflow/Analysis/ViewUses.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "mlir/IR/Matchers.h"
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

/// Whether the access tile `tile` reaches a ktdp.store (directly, as the
/// argument of a callee or as the result of a helper that returns it).
static bool isStoredThrough(Value tile) {
  bool stored = false;
  forEachAccessTileUse(tile, [&](OpOperand &use) {
    stored |= isa<ktdp::StoreOp>(use.getOwner());
  });
  return stored;
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

/// The element address of a global-memory view at a literal address.
static std::optional<int64_t> literalAddress(ktdp::ConstructMemoryViewOp view) {
  APInt address;
  if (view.getMemorySpaceInterface().getMemoryKind() !=
          ktdp::MemoryKind::global ||
      !matchPattern(view.getOffset(), m_ConstantInt(&address)))
    return std::nullopt;
  return address.getSExtValue();
}

/// The global-memory views at literal addresses in `fn` and the helpers it
/// calls, by address.
static std::map<int64_t, SmallVector<Value>> getLiteralViews(func::FuncOp fn) {
  std::map<int64_t, SmallVector<Value>> views;
  for (func::FuncOp f : getReachableFunctions(fn))
    f.walk([&](ktdp::ConstructMemoryViewOp view) {
      if (std::optional<int64_t> address = literalAddress(view))
        views[*address].push_back(view.getResult());
    });
  return views;
}

namespace {
/// Which tensor each view of a kernel is built on: an argument (by
/// position) or a literal address, to name the tensor a tile indexes.
struct ViewTensors {
  DenseMap<Operation *, unsigned> argument;
  DenseMap<Operation *, int64_t> address;

  /// Names the tensor of the view `base`; a helper's argument is the view
  /// a caller passes (the first found that names one).
  void name(Value base, IndexTensorUse &use) const {
    SetVector<Value> seen;
    SmallVector<Value> worklist = {base};
    while (!worklist.empty()) {
      Value view = worklist.pop_back_val();
      if (!seen.insert(view))
        continue;
      if (Operation *op = view.getDefiningOp()) {
        if (auto it = argument.find(op); it != argument.end()) {
          use.indexedArgument = it->second;
          return;
        }
        if (auto it = address.find(op); it != address.end()) {
          use.indexedAddress = it->second;
          return;
        }
        continue;
      }
      auto arg = cast<BlockArgument>(view);
      auto callee = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
      if (!callee || arg.getOwner() != &callee.getBody().front())
        continue;
      for (func::CallOp call : getCallers(callee))
        worklist.push_back(call.getOperand(arg.getArgNumber()));
    }
  }
};
} // namespace

/// How the indirect access tiles reached from `views`, the views of one
/// tensor, read indices from it; none when no tile bounds them.
static std::optional<IndexTensorUse> findIndexUse(ArrayRef<Value> views,
                                                  const ViewTensors &tensors) {
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
      found =
          IndexTensorUse{*extent, std::nullopt, std::nullopt, *dim, wasScatter};
      tensors.name(tile.getBase(), *found);
    }
    found->scatter |= isStoredThrough(tile.getResult());
  });
  return found;
}

/// The views of each argument of `fn` and of each literal address.
static ViewTensors
getViewTensors(func::FuncOp fn,
               const std::map<int64_t, SmallVector<Value>> &literals) {
  ViewTensors tensors;
  for (BlockArgument arg : fn.getArguments())
    for (Operation *view : getViewsBasedAt(arg))
      tensors.argument.try_emplace(view, arg.getArgNumber());
  for (const auto &[address, views] : literals)
    for (Value view : views)
      tensors.address.try_emplace(view.getDefiningOp(), address);
  return tensors;
}

std::map<unsigned, IndexTensorUse> ktflow::findIndexTensors(func::FuncOp fn) {
  ViewTensors tensors = getViewTensors(fn, getLiteralViews(fn));
  std::map<unsigned, IndexTensorUse> result;
  for (BlockArgument arg : fn.getArguments()) {
    SmallVector<Value> views;
    for (Operation *view : getViewsBasedAt(arg))
      views.push_back(view->getResult(0));
    if (std::optional<IndexTensorUse> use = findIndexUse(views, tensors))
      result[arg.getArgNumber()] = *use;
  }
  return result;
}

std::map<int64_t, IndexTensorUse>
ktflow::findLiteralIndexTensors(func::FuncOp fn) {
  std::map<int64_t, SmallVector<Value>> literals = getLiteralViews(fn);
  ViewTensors tensors = getViewTensors(fn, literals);
  std::map<int64_t, IndexTensorUse> result;
  for (const auto &[address, views] : literals)
    if (std::optional<IndexTensorUse> use = findIndexUse(views, tensors))
      result[address] = *use;
  return result;
}

//===- ArgumentAnalysis.cpp - Roles of a kernel's arguments ---------------===//
//
// This file follows each argument through the address arithmetic of the
// kernel (arith, affine.apply, runtime_arg_extract, loop-carried values and
// calls) to the memory views built on it, then through access tiles to
// loads and stores.
//
//===----------------------------------------------------------------------===//

#include "ArgumentAnalysis.h"

#include "ktflow/Analysis/DerivedValues.h"
#include "ktflow/Analysis/ViewUses.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace ktflow::interp;

/// Records whether the memory of `views` is loaded and/or stored.
static void classifyAccesses(ArrayRef<Value> views, ArgumentInfo &info) {
  auto visitTile = [&](Value tile) {
    ktflow::forEachAccessTileUse(tile, [&](OpOperand &use) {
      Operation *user = use.getOwner();
      if (isa<ktdp::LoadOp>(user))
        info.loaded = true;
      else if (isa<ktdp::StoreOp>(user))
        info.stored = true;
      else
        info.loaded = info.stored = true; // escapes: assume both
    });
  };
  ktflow::forEachViewUse(views, [&](OpOperand &use) {
    Operation *user = use.getOwner();
    if (auto tile = dyn_cast<ktdp::ConstructAccessTileOp>(user)) {
      visitTile(tile.getResult());
    } else if (auto tile =
                   dyn_cast<ktdp::ConstructIndirectAccessTileOp>(user)) {
      if (use.get() == tile.getBase())
        visitTile(tile.getResult());
      else
        info.loaded = true; // an index view
    } else {
      info.loaded = info.stored = true;
    }
  });
}

std::vector<ArgumentInfo> ktflow::interp::analyzeArguments(func::FuncOp fn) {
  std::vector<ArgumentInfo> infos;
  for (BlockArgument arg : fn.getArguments()) {
    ArgumentInfo info;
    info.position = arg.getArgNumber();
    info.type = arg.getType();
    SmallVector<Value> views;
    for (Operation *view : ktflow::getViewsBasedAt(arg))
      views.push_back(view->getResult(0));
    if (!views.empty()) {
      info.kind = ArgumentKind::Tensor;
      classifyAccesses(views, info);
    } else if (isa<ktdp::RuntimeArgType>(arg.getType())) {
      info.kind = ArgumentKind::RuntimeArg;
    } else {
      info.kind = ArgumentKind::Scalar;
    }
    infos.push_back(std::move(info));
  }
  for (auto &[position, use] : ktflow::findIndexTensors(fn))
    infos[position].index = use;
  return infos;
}

std::optional<SharedMemory>
ktflow::interp::findSharedMemory(func::FuncOp fn,
                                 ArrayRef<ArgumentInfo> args) {
  // How many tensor arguments each view's address comes from.
  llvm::DenseMap<Operation *, unsigned> sources;
  for (const ArgumentInfo &info : args) {
    if (info.kind != ArgumentKind::Tensor)
      continue;
    for (Operation *view :
         ktflow::getViewsBasedAt(fn.getArgument(info.position))) {
      ++sources[view];
      if (info.loaded && info.stored)
        return SharedMemory{view, "tensor '" +
                                      (info.name.empty()
                                           ? std::to_string(info.position)
                                           : info.name) +
                                      "' is both loaded and stored"};
    }
  }
  std::optional<SharedMemory> shared;
  Operation *literalLoad = nullptr, *literalStore = nullptr;
  for (func::FuncOp f : ktflow::getReachableFunctions(fn)) {
    f.walk([&](ktdp::ConstructMemoryViewOp view) {
      if (shared)
        return WalkResult::interrupt();
      ktdp::MemorySpaceAttrInterface space = view.getMemorySpaceInterface();
      if (space.getMemoryKind() != ktdp::MemoryKind::global) {
        if (space.getComputeTileId())
          shared = SharedMemory{view, "the view names the scratchpad of one "
                                      "tile, which other tiles may use"};
        return WalkResult::advance();
      }
      if (view.getOffset().getDefiningOp<arith::ConstantIndexOp>()) {
        ArgumentInfo access;
        classifyAccesses({view.getResult()}, access);
        if (access.loaded && !literalLoad)
          literalLoad = view;
        if (access.stored && !literalStore)
          literalStore = view;
        return WalkResult::advance();
      }
      if (sources.lookup(view) != 1)
        shared = SharedMemory{view, "the view's address does not come from "
                                    "exactly one tensor argument"};
      return WalkResult::advance();
    });
    if (shared)
      return shared;
  }
  if (literalLoad && literalStore)
    return SharedMemory{literalStore, "global memory at literal addresses is "
                                      "both loaded and stored"};
  return std::nullopt;
}

/// The value of index `v` before the run: constants, scalar arguments,
/// runtime_arg values and integer casts and arithmetic of those.
static std::optional<int64_t>
evaluateStatically(Value v,
                   function_ref<std::optional<int64_t>(unsigned)> argValue,
                   unsigned depth = 0) {
  if (depth > 16)
    return std::nullopt;
  auto recurse = [&](Value operand) {
    return evaluateStatically(operand, argValue, depth + 1);
  };
  APInt constant;
  if (matchPattern(v, m_ConstantInt(&constant)))
    return constant.getSExtValue();
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (isa<func::FuncOp>(arg.getOwner()->getParentOp()))
      return argValue(arg.getArgNumber());
    return std::nullopt;
  }
  Operation *def = v.getDefiningOp();
  if (auto extract = dyn_cast<ktdp::RuntimeArgExtractOp>(def)) {
    auto type = cast<ktdp::RuntimeArgType>(extract.getInput().getType());
    switch (extract.getKind()) {
    case ktdp::RuntimeArgExtractKind::value:
      return recurse(extract.getInput());
    case ktdp::RuntimeArgExtractKind::granularity:
      return type.getGranularity();
    case ktdp::RuntimeArgExtractKind::upperbound:
      return type.getUpperbound();
    }
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp>(def))
    return recurse(def->getOperand(0));
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(def)) {
    std::optional<int64_t> a = recurse(def->getOperand(0));
    std::optional<int64_t> b = recurse(def->getOperand(1));
    if (!a || !b)
      return std::nullopt;
    int64_t r;
    bool overflow = isa<arith::AddIOp>(def)   ? llvm::AddOverflow(*a, *b, r)
                    : isa<arith::SubIOp>(def) ? llvm::SubOverflow(*a, *b, r)
                                              : llvm::MulOverflow(*a, *b, r);
    return overflow ? std::nullopt : std::optional<int64_t>(r);
  }
  return std::nullopt;
}

LogicalResult ktflow::interp::addDeclaredFootprints(
    func::FuncOp fn, unsigned position,
    function_ref<std::optional<int64_t>(unsigned)> argValue,
    ktflow::TensorExtentBuilder &extent) {
  auto evaluate = [&](Value v) { return evaluateStatically(v, argValue); };
  for (ktdp::ConstructMemoryViewOp view :
       ktflow::getViewsAtArgument(fn, fn.getArgument(position))) {
    std::optional<ktflow::ViewFootprint> footprint =
        ktflow::getViewFootprint(view, 0, evaluate);
    std::string message;
    if (footprint && !extent.add(*footprint, message))
      return view.emitOpError() << message;
  }
  return success();
}

//===- MemoryHazards.cpp - Accesses the scheduler cannot order ------------===//
//
// This file implements the checks of ktdf-check-supported that look at
// pairs of accesses rather than single ops: loads of a tensor in device
// memory that a store of the kernel may also write, and loads of a
// scratchpad tile that a store may have written, which the schedule does
// not order (compute groups, loop iterations and grid points overlap).
//
//===----------------------------------------------------------------------===//

#include "MemoryHazards.h"

#include "ktflow/Analysis/LaunchArguments.h"
#include "ktflow/Analysis/MemoryTensors.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/IR/ScratchpadView.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::ktdf;

/// The elements (relative to its tensor's start: a view at a computed
/// address adds the range of its displacement) an access tile may touch
/// over every compute tile and loop iteration; none when unknown.
static std::optional<std::pair<int64_t, int64_t>>
elementRange(Value tileValue) {
  auto tile = tileValue.getDefiningOp<ktdp::ConstructAccessTileOp>();
  auto view = ktdp::getAccessTileView(tileValue);
  if (!view || !view.getStrides().empty())
    return std::nullopt;
  auto box = ktdp::getBoundingBox(tile.getAccessTileSet(), {});
  ArrayRef<int64_t> strides = view.getStaticStrides();
  if (failed(box) || box->getExtents().size() != strides.size() ||
      tile.getBaseMap().getNumResults() != strides.size())
    return std::nullopt;
  int64_t lo = 0, hi = 0;
  if (auto address = ktflow::getViewAddress(view.getOffset());
      address && address->displacement) {
    auto shift = rangeOf(address->displacement);
    if (!shift)
      return std::nullopt;
    lo = shift->first;
    hi = shift->second;
  }
  for (auto [d, extent] : llvm::enumerate(box->getExtents())) {
    auto anchor = anchorRange(tile, d);
    if (!anchor || strides[d] < 0)
      return std::nullopt;
    lo += strides[d] * anchor->first;
    hi += strides[d] * (anchor->second + extent - 1);
  }
  return std::make_pair(lo, hi);
}

/// Whether two access tiles of the same tensor may touch a common element.
static bool mayOverlap(Value a, Value b) {
  auto ra = elementRange(a), rb = elementRange(b);
  return !ra || !rb || (ra->first <= rb->second && rb->first <= ra->second);
}

bool mlir::ktdf::dependsOn(Value v, function_ref<bool(Value)> of, int depth) {
  // Breadth first, each value once at the depth it is first reached (its
  // least): the answer of a walk of every path up to the depth bound, in
  // time linear in the values seen (`x + x` chains double the paths).
  llvm::SmallPtrSet<void *, 16> seen{v.getAsOpaquePointer()};
  SmallVector<Value> level{v};
  for (; !level.empty(); ++depth) {
    SmallVector<Value> next;
    for (Value u : level) {
      if (of(u))
        return true;
      Operation *def = u.getDefiningOp();
      if (!def || depth > 32)
        continue;
      for (Value operand : def->getOperands())
        if (seen.insert(operand.getAsOpaquePointer()).second)
          next.push_back(operand);
    }
    level = std::move(next);
  }
  return false;
}

/// Whether the tile changes with every loop around it and with the
/// coordinate of every grid dimension of extent > 1: then no two executions
/// of an in-place update touch the same tile. A kernel that asks for fewer
/// tile ids than the grid has dimensions cannot tell the trailing
/// coordinates apart, so its tiles repeat across them.
static bool changesEveryIteration(ktdp::ConstructAccessTileOp tile,
                                  Operation *load, func::FuncOp func) {
  auto changesWith = [&](function_ref<bool(Value)> of) {
    return llvm::any_of(tile.getIndices(),
                        [&](Value i) { return dependsOn(i, of); });
  };
  for (Operation *p = load->getParentOp(); p && p != func; p = p->getParentOp())
    if (auto loop = dyn_cast<scf::ForOp>(p)) {
      Value iv = loop.getInductionVar();
      if (!changesWith([&](Value v) { return v == iv; }))
        return false;
    }
  auto grid = ktdp::getLaunchGrid(func);
  if (failed(grid) || !*grid)
    return false;
  for (auto [d, extent] : llvm::enumerate(**grid)) {
    if (extent <= 1)
      continue;
    auto isCoordinate = [d = d](Value v) {
      auto result = dyn_cast<OpResult>(v);
      return result && isa<ktdp::GetComputeTileIdOp>(result.getOwner()) &&
             result.getResultNumber() == d;
    };
    if (!changesWith(isCoordinate))
      return false;
  }
  return true;
}

/// Loads of a tensor the kernel also writes. The executions of one compute
/// group across loop iterations and grid points overlap with no ordering
/// through device memory, so a load may run before or after a store of
/// another execution. Only stores whose elements may overlap the load's
/// count (bounds from the grid and constant loop bounds), and they must
/// store the same access tile in the same block, on a tile that no other
/// execution touches: an in-place update (the load's group stores it
/// after loading), or a reload of what an earlier store wrote (the
/// lowering orders the storing group's store before the loading group's
/// load, and ktir-to-ktdf refuses one group doing both).
bool mlir::ktdf::checkMemoryHazards(func::FuncOp func) {
  using Key = std::pair<const void *, int64_t>;
  llvm::DenseMap<Key, SmallVector<ktdp::StoreOp>> stores;
  func.walk([&](ktdp::StoreOp store) {
    if (auto key = ktflow::getDeviceTensor(store->getOperand(1)))
      stores[*key].push_back(store);
  });
  bool failed = false;
  func.walk([&](ktdp::LoadOp load) {
    Value tileValue = load->getOperand(0);
    auto key = ktflow::getDeviceTensor(tileValue);
    if (!key || !stores.count(*key))
      return;
    SmallVector<ktdp::StoreOp> overlapping;
    for (ktdp::StoreOp store : stores[*key])
      if (mayOverlap(tileValue, store->getOperand(1)))
        overlapping.push_back(store);
    if (overlapping.empty())
      return;
    // Stores of the same tile in the same block, before the load (a
    // reload: the lowering orders the storing group's store before the
    // loading group's load) or after it (an in-place update).
    bool sameTileInBlock = llvm::all_of(overlapping, [&](ktdp::StoreOp store) {
      return ktflow::isSameAccessTile(store->getOperand(1), tileValue) &&
             store->getBlock() == load->getBlock();
    });
    auto tile = tileValue.getDefiningOp<ktdp::ConstructAccessTileOp>();
    if (sameTileInBlock && tile && changesEveryIteration(tile, load, func))
      return;
    load.emitError("loads of a tensor that the kernel also writes are not "
                   "supported by the scheduler yet (compute groups, loop "
                   "iterations and grid points are not ordered through "
                   "device memory); only a load of an access tile that "
                   "stores in the same block write (an in-place update, or "
                   "a reload of what an earlier store wrote), on a tile "
                   "that changes with every enclosing loop and grid point, "
                   "is");
    failed = true;
  });
  return failed;
}

/// The literal address of the scratchpad (ct_local) view an access tile is
/// built on, if it is one.
static std::optional<int64_t> scratchpadAddressOf(Value tileValue) {
  auto view = ktdp::getAccessTileView(tileValue);
  if (!view)
    return std::nullopt;
  APInt address;
  if (!ktdp::isScratchpadView(view) ||
      !matchPattern(view.getOffset(), m_ConstantInt(&address)))
    return std::nullopt;
  return address.getSExtValue();
}

/// Loads of a scratchpad tile that a store earlier in the same block may
/// have written. The lowering orders scratchpad accesses of different
/// pipelines, but the store and the load can land in one compute group
/// (when they share a loaded value), whose stages it does not order: the
/// load read the scratchpad before the store.
bool mlir::ktdf::checkScratchpadHazards(func::FuncOp func) {
  bool failed = false;
  func.walk([&](ktdp::LoadOp load) {
    Value tileValue = load->getOperand(0);
    auto address = scratchpadAddressOf(tileValue);
    // A load of another tile's scratchpad becomes a copy between cores
    // (ktdf-remote-scratchpad-loads), ordered after the store it reads, or
    // is refused with its own reason.
    if (!address || isRemoteScratchpadLoad(load))
      return;
    for (Operation &op : *load->getBlock()) {
      if (&op == load.getOperation())
        break;
      auto store = dyn_cast<ktdp::StoreOp>(op);
      if (!store || scratchpadAddressOf(store->getOperand(1)) != address ||
          !mayOverlap(tileValue, store->getOperand(1)))
        continue;
      load.emitError("a load of a scratchpad (ct_local) tile that a store "
                     "earlier in the same block may have written is not "
                     "supported by the scheduler yet (the store and the "
                     "load may become one compute group, which does not "
                     "order them)");
      failed = true;
      return;
    }
    // A store in a loop around the load feeds the next iteration's load
    // (an accumulator kept in the scratchpad): executions of a pipeline
    // across iterations are not ordered through the scratchpad either.
    bool reported = false;
    func.walk([&](ktdp::StoreOp store) {
      if (reported || scratchpadAddressOf(store->getOperand(1)) != address ||
          !mayOverlap(tileValue, store->getOperand(1)))
        return;
      for (Operation *p = load->getParentOp(); p && p != func;
           p = p->getParentOp())
        if (isa<scf::ForOp>(p) && p->isAncestor(store)) {
          load.emitError("a load of a scratchpad (ct_local) tile that a "
                         "store in the same loop may write is not "
                         "supported by the scheduler yet (loop iterations "
                         "are not ordered through the scratchpad)");
          failed = reported = true;
          return;
        }
    });
  });
  return failed;
}

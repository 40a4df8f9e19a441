//===- ForwardStores.cpp - Reloads of a stored tile use the stored tensor -===//
//
// This file implements --ktdf-forward-stores. A kernel may store a tensor
// and load the same access tile back later in the block (an intermediate
// parked in the output and reread by a second pass). The scheduler turns
// the block's computation into compute groups whose loads all run before
// their stores, and orders nothing through device memory inside a group, so
// such a reload would read the old contents. Where the reload provably
// returns exactly the stored tensor — every coordinate of the tile inside
// the view (a masked coordinate would read 0), a box-shaped tile, a view
// whose strides do not alias, and no store in between that may touch the
// tensor — the load is replaced by the stored value: the round trip through
// memory disappears and the value stays in the compute unit. The store is
// then often dead: a later store of the same tile in the block overwrites
// it before anything may read it (the second pass writes its result over
// the parked intermediate), and two stores of one tile in one compute group
// would land in either order. Such a store is erased.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Analysis/MemoryTensors.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFFORWARDSTORES
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

/// Whether loading `tileValue` returns, element for element, the tensor
/// last stored through it: the tile is a box from its anchor that stays
/// inside the coordinates its (non-aliasing, static-strided) view holds.
static bool roundTripsExactly(Value tileValue) {
  auto tile = tileValue.getDefiningOp<ktdp::ConstructAccessTileOp>();
  if (!tile || !tile.getSymbolOperands().empty())
    return false;
  auto view = ktdp::getAccessTileView(tileValue);
  if (!view || !view.getStrides().empty() || viewMayAlias(view))
    return false;
  IntegerSet set = tile.getAccessTileSet();
  auto box = ktdp::getBoundingBox(set, {});
  if (!ktdp::isBoxShaped(set) || failed(box) ||
      llvm::any_of(box->lower, [](int64_t lo) { return lo != 0; }))
    return false;
  auto rank = static_cast<unsigned>(box->lower.size());
  if (rank != view.getStaticSizes().size())
    return false;
  for (unsigned d = 0; d < rank; ++d)
    if (mayLeaveView(tile, d))
      return false;
  return true;
}

/// Whether `op` may read or write memory in ways the pass does not follow:
/// a call, an inter-tile exchange, a distributed copy.
static bool movesDataOpaquely(Operation *op) {
  StringRef name = op->getName().getStringRef();
  return isa<func::CallOp>(op) || name.starts_with("ktdp.inter_tile") ||
         name == "ktdp.distributed_copy";
}

/// Whether an op between a store and a reload may write memory the reload
/// reads: any store, call or inter-tile op in it (conservatively, whatever
/// tensor it names).
static bool mayWriteMemory(Operation *op) {
  bool writes = false;
  op->walk([&](Operation *nested) {
    writes |= isa<ktdp::StoreOp>(nested) || movesDataOpaquely(nested);
  });
  return writes;
}

/// The store whose tensor a load of the same tile later in the block
/// returns, if nothing in between may write memory.
static ktdp::StoreOp forwardingStore(ktdp::LoadOp load) {
  Value tile = load.getAccessTile();
  for (Operation *op = load->getPrevNode(); op; op = op->getPrevNode()) {
    auto store = dyn_cast<ktdp::StoreOp>(op);
    if (store && ktflow::isSameAccessTile(store.getAccessTile(), tile))
      return store.getDataTile().getType() == load.getType() ? store : nullptr;
    if (mayWriteMemory(op))
      return nullptr;
  }
  return nullptr;
}

/// Whether `op` may read memory that a store through `tile` writes: a load
/// of the same tensor (or of one at an unknown place), or a call or
/// inter-tile op, anywhere inside it.
static bool mayRead(Operation *op, Value tile) {
  auto tensor = ktflow::getDeviceTensor(tile);
  bool reads = false;
  op->walk([&](Operation *nested) {
    if (auto load = dyn_cast<ktdp::LoadOp>(nested)) {
      auto other = ktflow::getDeviceTensor(load.getAccessTile());
      reads |= !tensor || !other || *other == *tensor;
    } else {
      reads |= movesDataOpaquely(nested);
    }
  });
  return reads;
}

/// Whether a later store of the same tile in the block overwrites what
/// `store` writes before anything may read it.
static bool isOverwritten(ktdp::StoreOp store) {
  Value tile = store.getAccessTile();
  for (Operation *op = store->getNextNode(); op; op = op->getNextNode()) {
    auto later = dyn_cast<ktdp::StoreOp>(op);
    if (later && ktflow::isSameAccessTile(later.getAccessTile(), tile))
      return true;
    if (mayRead(op, tile))
      return false;
  }
  return false;
}

namespace {
struct KTDFForwardStoresPass
    : public ktdf::impl::KTDFForwardStoresBase<KTDFForwardStoresPass> {
  void runOnOperation() override {
    SmallVector<std::pair<ktdp::LoadOp, ktdp::StoreOp>> forwards;
    getOperation().walk([&](ktdp::LoadOp load) {
      if (!roundTripsExactly(load.getAccessTile()))
        return;
      if (ktdp::StoreOp store = forwardingStore(load))
        forwards.push_back({load, store});
    });
    for (auto [load, store] : forwards) {
      load.getResult().replaceAllUsesWith(store.getDataTile());
      load.erase();
    }
    SmallVector<ktdp::StoreOp> dead;
    getOperation().walk([&](ktdp::StoreOp store) {
      if (isOverwritten(store))
        dead.push_back(store);
    });
    for (ktdp::StoreOp store : dead)
      store.erase();
  }
};
} // namespace

//===- RemoteScratchpadLoads.cpp - Loads of another tile's scratchpad -----===//
//
// This file implements --ktdf-remote-scratchpad-loads. A kernel on a grid
// of several tiles may read another tile's scratchpad through a `ct_local`
// view naming it (`ct_id = k`): every tile stores a value into its own
// scratchpad, then loads tile k's copy. The scheduler keeps a tile's
// scratchpad private to its core, so such a load is the copy of tile k's
// value to every tile over the core interconnect: an `inter_tile_produce`
// of the stored value by tile k and an `inter_tile_consume` by every tile,
// which ktdf-lower-inter-tile makes a `ktdf.tile_copy`.
//
// The interpreter runs the tiles in lockstep, yielding before each load, so
// tile c's load sees every store a tile made before its load of the same
// ordinal. The rewrite keeps that meaning when tile k's store is the only
// store into the region the load reads, precedes the load in the kernel's
// body (outside loops and branches), writes the same tile of the same view
// (address, layout, coordinates), and every tile makes the same number of
// loads before it (no load under a branch or a loop whose trip count is not
// constant, no inter-tile exchange that could hold tile k back).
//
//===----------------------------------------------------------------------===//

#include "ScratchpadViews.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFREMOTESCRATCHPADLOADS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

namespace {
/// A load of tile `owner`'s scratchpad and the store it reads.
struct RemoteLoad {
  ktdp::LoadOp load;
  ktdp::StoreOp store;
  int64_t owner = 0;
  int64_t numTiles = 0;
};
using Refusal = std::pair<Operation *, std::string>;
} // namespace

/// The scratchpad view an access tile is built on, with its owner when the
/// view names one (nullopt: the executing tile's own), or null.
static ktdp::ConstructMemoryViewOp
scratchpadViewOf(Value tile, std::optional<int64_t> &owner) {
  ktdp::ConstructMemoryViewOp view = ktdp::getAccessTileView(tile);
  if (!view)
    return {};
  auto space = ktdp::normalizeMemorySpace(view.getMemorySpace());
  if (!space || space->kind != ktdp::MemoryKind::ct_local)
    return {};
  owner = space->computeTileId;
  return view;
}

/// Whether two access tiles cover the same coordinates of equal views.
static bool sameTile(ktdp::ConstructAccessTileOp a,
                     ktdp::ConstructAccessTileOp b) {
  auto va = a.getBase().getDefiningOp<ktdp::ConstructMemoryViewOp>();
  auto vb = b.getBase().getDefiningOp<ktdp::ConstructMemoryViewOp>();
  if (!va || !vb || getLiteralElementRange(va) != getLiteralElementRange(vb) ||
      va.getStaticSizes() != vb.getStaticSizes() ||
      va.getStaticStrides() != vb.getStaticStrides() ||
      va.getCoordinateSet() != vb.getCoordinateSet() ||
      va.getType() != vb.getType() || a.getType() != b.getType() ||
      a.getBaseMap() != b.getBaseMap() ||
      a.getAccessTileSet() != b.getAccessTileSet() ||
      a.getAccessTileOrder() != b.getAccessTileOrder() ||
      !a.getSymbolOperands().empty() || !b.getSymbolOperands().empty() ||
      a.getIndices().size() != b.getIndices().size())
    return false;
  for (auto [x, y] : llvm::zip(a.getIndices(), b.getIndices())) {
    APInt cx, cy;
    if (!matchPattern(x, m_ConstantInt(&cx)) ||
        !matchPattern(y, m_ConstantInt(&cy)) || cx != cy)
      return false;
  }
  return true;
}

static FailureOr<RemoteLoad> analyze(ktdp::LoadOp load, Refusal &refusal) {
  auto refuse = [&](const Twine &why) {
    refusal = {load, why.str()};
    return failure();
  };
  std::optional<int64_t> owner;
  ktdp::ConstructMemoryViewOp view =
      scratchpadViewOf(load.getAccessTile(), owner);
  auto func = load->getParentOfType<func::FuncOp>();
  auto grid = ktdp::getLaunchGrid(func);
  if (!view || !owner || failed(grid) || !*grid)
    return refuse("not a load of another tile's scratchpad");
  RemoteLoad remote{load, {}, *owner, ktdp::getNumTiles(**grid)};
  if (remote.owner >= remote.numTiles)
    return refuse("the view names tile " + Twine(remote.owner) +
                  ", but the grid has " + Twine(remote.numTiles) + " tiles");
  std::optional<std::pair<int64_t, int64_t>> range =
      getLiteralElementRange(view);
  if (!range)
    return refuse("a load of another tile's scratchpad needs a view at a "
                  "literal address with static sizes and strides");
  if (load->getBlock() != &func.getBody().front())
    return refuse("a load of another tile's scratchpad is copied between "
                  "cores only in the kernel's body (not in a loop or a "
                  "branch)");
  for (Operation &op : func.getBody().front()) {
    if (&op == load.getOperation())
      break;
    if (isa<ktdp::InterTileConsumeOp, ktdp::InterTileReduceOp>(op))
      return refuse("a load of another tile's scratchpad after an "
                    "inter-tile exchange is not supported by the scheduler "
                    "(the owner may still wait in it when the load runs)");
    if (op.getNumRegions() && !loadsRunUniformly(&op))
      return refuse("a load of another tile's scratchpad after loads that "
                    "not every tile makes equally often (in a branch, or a "
                    "loop with bounds that are not constants) is not "
                    "supported by the scheduler");
  }
  // The one store that writes what the load reads.
  auto loadTile =
      load.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
  std::optional<Refusal> clash;
  func.walk([&](ktdp::StoreOp store) {
    std::optional<int64_t> storeOwner;
    ktdp::ConstructMemoryViewOp written =
        scratchpadViewOf(store.getAccessTile(), storeOwner);
    if (!written || clash)
      return;
    std::optional<std::pair<int64_t, int64_t>> other =
        getLiteralElementRange(written);
    if (other && (other->second < range->first || range->second < other->first))
      return;
    auto storeTile =
        store.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
    if (storeOwner || !other || remote.store || !storeTile || !loadTile ||
        !sameTile(storeTile, loadTile) ||
        store.getDataTile().getType() != load.getType() ||
        store->getBlock() != load->getBlock() ||
        !store->isBeforeInBlock(load)) {
      clash = Refusal{store, ""};
      return;
    }
    remote.store = store;
  });
  if (clash)
    return refuse("another tile's scratchpad is copied between cores only "
                  "when one store of the kernel, before the load in its "
                  "body, writes the region the load reads into the tile's "
                  "own scratchpad (a ct_local view without ct_id at the same "
                  "address and layout, through the same tile); this store "
                  "does not, or is not the only one");
  if (!remote.store)
    return refuse("no store of the kernel writes what this load of another "
                  "tile's scratchpad reads (the same tile of a ct_local view "
                  "without ct_id at the same address and layout)");
  return remote;
}

bool mlir::ktdf::isRemoteScratchpadLoad(Operation *op) {
  auto load = dyn_cast<ktdp::LoadOp>(op);
  if (!load)
    return false;
  std::optional<int64_t> owner;
  if (!scratchpadViewOf(load.getAccessTile(), owner) || !owner)
    return false;
  auto grid = ktdp::getLaunchGrid(load->getParentOfType<func::FuncOp>());
  return succeeded(grid) && *grid && ktdp::getNumTiles(**grid) > 1;
}

std::optional<std::pair<Operation *, std::string>>
mlir::ktdf::whyNotRemoteLoad(Operation *op) {
  auto load = dyn_cast<ktdp::LoadOp>(op);
  if (!load || !isRemoteScratchpadLoad(load))
    return std::make_pair(op, std::string("not a load of another tile's "
                                          "scratchpad"));
  Refusal refusal;
  if (failed(analyze(load, refusal)))
    return refusal;
  return std::nullopt;
}

/// The produce of the stored value by the owner, right after its store,
/// and its consume by every tile in place of the load.
static void rewrite(RemoteLoad remote) {
  ktdp::LoadOp load = remote.load;
  MLIRContext *ctx = load.getContext();
  AffineExpr i = getAffineDimExpr(0, ctx), g = getAffineSymbolExpr(0, ctx);
  IntegerSet producers =
      IntegerSet::get(1, 1, {i - remote.owner, g}, {true, true});
  replaceLoadByTileCopy(
      load, remote.store, producers, everyTileSet(remote.numTiles, ctx),
      IntegerSet(), [&](OpBuilder &) { return remote.store.getDataTile(); });
  Operation *tile = load.getAccessTile().getDefiningOp();
  load.erase();
  // Later passes see no view of another tile's scratchpad.
  if (tile && tile->use_empty()) {
    Operation *view = tile->getOperand(0).getDefiningOp();
    tile->erase();
    if (view && view->use_empty())
      view->erase();
  }
}

namespace {
struct KTDFRemoteScratchpadLoadsPass
    : public ktdf::impl::KTDFRemoteScratchpadLoadsBase<
          KTDFRemoteScratchpadLoadsPass> {
  void runOnOperation() override {
    // Rewrite after the walk: a rewrite erases the load and its view.
    SmallVector<RemoteLoad> remotes;
    getOperation().walk([&](ktdp::LoadOp load) {
      if (!isRemoteScratchpadLoad(load))
        return;
      Refusal refusal;
      if (FailureOr<RemoteLoad> remote = analyze(load, refusal);
          succeeded(remote))
        remotes.push_back(*remote);
    });
    // Refusals are ktdf-check-supported's to report.
    for (RemoteLoad &remote : remotes)
      rewrite(remote);
  }
};
} // namespace

//===- MergeExchangeTiles.cpp - Several tiles per lane at an all-reduce ---===//
//
// This file implements --ktdf-merge-exchange-tiles. A lane that runs
// several grid points in sequence cannot run each of them up to an
// all-reduce and wait there: the other participants of the reduction run
// after it on the same lane. When the grid has more tiles than the device
// has lanes, the kernel is cut at its one exchange instead: runs of `b`
// consecutive tiles along one grid dimension, each run inside one group,
// become one tile of a grid `b` times smaller, which computes the part
// before the exchange for each of its tiles (ascending), folds their
// partials as values in ascending tile order with the combiner, stores the
// fold into the exchange view, takes part in the all-reduce of the merged
// groups, and then runs the part after the exchange for each of its tiles.
// A tile copy (a broadcast: each run's tiles consume one tile's value)
// merges the same way, the run's producer's partial stored unfolded.
// Partials are values, so the scratchpad holds one exchange view per lane
// as before; their buffers are what ktdf-allocate-scratchpad checks.
//
//===----------------------------------------------------------------------===//

#include "OutputSlices.h"

#include "ktflow/Dialect/KTDF/IR/ScatterAttr.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/IR/ScratchpadView.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"
#include "ktflow/Scheduler/ScheduleTarget.h"
#include "ktflow/Scheduler/ScheduleTargetPass.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

#include <set>

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFMERGEEXCHANGETILES
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

namespace {
/// Runs of `factor` consecutive tiles along grid dimension `dim` merged;
/// a tile copy sends the partial of the run's tile at position `kept`.
struct Merge {
  int64_t dim = 0, factor = 1, kept = 0;
  SmallVector<int64_t> grid, merged;

  /// The merged tile that runs linear tile `tile` (first dimension
  /// fastest, as the interpreter numbers them).
  int64_t mergedTile(int64_t tile) const {
    SmallVector<int64_t> coords = ktdp::delinearizeTileId(tile, grid);
    coords[dim] /= factor;
    int64_t id = 0;
    for (int64_t d = static_cast<int64_t>(merged.size()) - 1; d >= 0; --d)
      id = id * merged[d] + coords[d];
    return id;
  }
  /// The position of `tile` in its run.
  int64_t positionOf(int64_t tile) const {
    return ktdp::delinearizeTileId(tile, grid)[dim] % factor;
  }
  /// The core of merged tile `tile` once ktdf-distribute gives each merged
  /// grid point a lane of its own (point p on core p mod `cores`).
  int64_t coreOf(int64_t tile, int64_t cores) const {
    return pointOfTile(tile, merged) % cores;
  }
};

/// The one all-reduce or tile copy of a kernel, and per tile what the
/// tiles merged into one must share: the group of an all-reduce, the
/// source of a copy.
struct Exchange {
  Operation *op = nullptr;
  SmallVector<int64_t> keyOf;

  AllReduceOp reduce() const { return dyn_cast<AllReduceOp>(op); }
  TileCopyOp copy() const { return dyn_cast<TileCopyOp>(op); }

  Exchange(Operation *exchange, int64_t tiles) : op(exchange) {
    keyOf.assign(tiles, -1);
    if (AllReduceOp all = reduce()) {
      for (auto [g, members] : llvm::enumerate(all.getMembers()))
        for (int64_t tile : members)
          if (tile < tiles)
            keyOf[tile] = g;
      return;
    }
    for (auto [tile, from] : llvm::enumerate(copy().getSources()))
      if (static_cast<int64_t>(tile) < tiles)
        keyOf[tile] = from;
  }

  /// Whether `merge` keeps the exchange's meaning and placement: a ring
  /// sends between scratchpads of different cores, and so does a copy
  /// from one merged tile to another; a copy's sources lie at one position
  /// of their runs (`merge.kept`, set here).
  bool fits(Merge &merge, int64_t cores) const {
    int64_t tiles = keyOf.size();
    if (AllReduceOp all = reduce()) {
      for (ArrayRef<int64_t> members : all.getMembers()) {
        std::set<int64_t> merged, used;
        for (int64_t tile : members)
          merged.insert(merge.mergedTile(tile));
        for (int64_t tile : merged)
          if (!used.insert(merge.coreOf(tile, cores)).second)
            return false;
      }
      return true;
    }
    std::optional<int64_t> kept;
    for (int64_t tile = 0; tile < tiles; ++tile) {
      int64_t from = keyOf[tile];
      if (from < 0)
        continue;
      if (kept && *kept != merge.positionOf(from))
        return false;
      kept = merge.positionOf(from);
      int64_t to = merge.mergedTile(tile), source = merge.mergedTile(from);
      if (to != source &&
          merge.coreOf(to, cores) == merge.coreOf(source, cores))
        return false;
    }
    merge.kept = kept.value_or(0);
    return true;
  }

  /// Whether `store` stores the partial into one of the exchange's views.
  bool storesPartial(ktdp::StoreOp store) const {
    Operation *view = ktdp::getAccessTileView(store.getAccessTile());
    if (AllReduceOp all = reduce())
      return view == all.getPartial().getDefiningOp();
    return view == copy().getSource().getDefiningOp() ||
           view == copy().getDest().getDefiningOp();
  }

  /// Renumbers the exchange's tiles on the merged grid.
  void renumber(const Merge &merge) {
    Builder b(op->getContext());
    if (AllReduceOp all = reduce()) {
      SmallVector<Attribute> groups;
      for (ArrayRef<int64_t> members : all.getMembers()) {
        std::set<int64_t> ids;
        for (int64_t tile : members)
          ids.insert(merge.mergedTile(tile));
        groups.push_back(b.getDenseI64ArrayAttr(
            SmallVector<int64_t>(ids.begin(), ids.end())));
      }
      all.setGroupsAttr(b.getArrayAttr(groups));
      return;
    }
    SmallVector<int64_t> sources(ktdp::getNumTiles(merge.merged), -1);
    for (auto [tile, from] : llvm::enumerate(keyOf))
      if (from >= 0)
        sources[merge.mergedTile(tile)] = merge.mergedTile(from);
    copy().setSourcesAttr(b.getDenseI64ArrayAttr(sources));
  }
};
} // namespace

/// The first dimension and smallest factor of at least `least` whose runs
/// each share their key and fit the exchange (Exchange::fits).
static std::optional<Merge> chooseMerge(ArrayRef<int64_t> grid, int64_t least,
                                        int64_t cores,
                                        const Exchange &exchange) {
  int64_t tiles = ktdp::getNumTiles(grid);
  for (int64_t dim = 0; dim < static_cast<int64_t>(grid.size()); ++dim)
    for (int64_t factor = least; factor <= grid[dim]; ++factor) {
      if (grid[dim] % factor != 0)
        continue;
      Merge merge{dim, factor, 0, SmallVector<int64_t>(grid),
                  SmallVector<int64_t>(grid)};
      merge.merged[dim] /= factor;
      bool together = true;
      for (int64_t tile = 0; tile < tiles && together; ++tile) {
        int64_t first = tile - merge.positionOf(tile) *
                                   ktdp::getNumTiles(grid.take_front(dim));
        together = exchange.keyOf[tile] == exchange.keyOf[first];
      }
      if (together && exchange.fits(merge, cores))
        return merge;
    }
  return std::nullopt;
}

/// Whether `op` must run once per merged tile: it touches memory, or uses
/// a tile id or a value of such an op (in its regions too).
static bool runsPerTile(Operation *op, const llvm::DenseSet<Value> &perTile) {
  if (!isMemoryEffectFree(op))
    return true;
  bool uses = false;
  op->walk([&](Operation *nested) {
    for (Value operand : nested->getOperands())
      uses |= perTile.contains(operand);
  });
  return uses;
}

/// Runs each merged tile's part before the exchange once per tile of its
/// run (ops that touch memory or depend on the tile id; the others stay,
/// once), stores the partial the exchange sends (an all-reduce's fold in
/// ascending tile order, a copy's partial of the run's tile at
/// `merge.kept`), and runs the part after the exchange once per tile.
static void cutAtExchange(func::FuncOp func, const Merge &merge,
                          const Exchange &exchange,
                          ArrayRef<ktdp::StoreOp> partialStores) {
  Block &body = func.getBody().front();
  OpBuilder b(func.getContext());
  Location loc = func.getLoc();
  // One tile-id op at the top, giving the merged tile's coordinates; each
  // tile j of the run maps them to its own.
  int64_t rank = merge.grid.size();
  ktdp::GetComputeTileIdOp ids = hoistTileIds(func, rank);
  llvm::DenseSet<Value> perTile(ids.getResults().begin(),
                                ids.getResults().end());
  llvm::DenseSet<Operation *> stores;
  for (ktdp::StoreOp store : partialStores)
    stores.insert(store);
  SmallVector<Operation *> before, after;
  bool past = false;
  for (Operation &nested : body.without_terminator()) {
    if (&nested == ids.getOperation() || stores.contains(&nested))
      continue;
    if (&nested == exchange.op) {
      past = true;
      continue;
    }
    if (!runsPerTile(&nested, perTile))
      continue;
    perTile.insert(nested.getResults().begin(), nested.getResults().end());
    (past ? after : before).push_back(&nested);
  }

  b.setInsertionPoint(partialStores.front());
  SmallVector<IRMapping> maps(merge.factor);
  Value partial = ktdp::StoreOp(partialStores.front()).getDataTile(), sent;
  for (auto [j, map] : llvm::enumerate(maps)) {
    for (int64_t d = 0; d < rank; ++d) {
      Value id = ids.getResult(d);
      if (d == merge.dim)
        id = arith::AddIOp::create(
            b, loc,
            arith::MulIOp::create(
                b, loc, id,
                arith::ConstantIndexOp::create(b, loc, merge.factor)),
            arith::ConstantIndexOp::create(b, loc, j));
      map.map(ids.getResult(d), id);
    }
    for (Operation *nested : before)
      b.clone(*nested, map);
    Value mine = map.lookupOrDefault(partial);
    AllReduceOp all = exchange.reduce();
    if (!all) {
      if (static_cast<int64_t>(j) == merge.kept)
        sent = mine;
      continue;
    }
    if (!sent) {
      sent = mine;
      continue;
    }
    OperationState state(all.getLoc(), all.getCombiner(),
                         ValueRange{sent, mine}, TypeRange{sent.getType()});
    sent = b.create(state)->getResult(0);
  }
  for (ktdp::StoreOp store : partialStores)
    store.getDataTileMutable().assign(sent);
  b.setInsertionPoint(body.getTerminator());
  for (IRMapping &map : maps)
    for (Operation *nested : after)
      b.clone(*nested, map);
  for (ArrayRef<Operation *> part : {ArrayRef(after), ArrayRef(before)})
    for (Operation *nested : llvm::reverse(part))
      nested->erase();
}

static LogicalResult mergeTiles(func::FuncOp func, int64_t lanes,
                                int64_t cores) {
  SmallVector<Operation *> exchanges;
  func.walk([&](Operation *op) {
    if (isa<AllReduceOp, TileCopyOp>(op))
      exchanges.push_back(op);
  });
  if (exchanges.empty())
    return success();
  auto grid = ktdp::getLaunchGrid(func);
  if (failed(grid) || !*grid)
    return success();
  int64_t tiles = ktdp::getNumTiles(**grid);
  if (tiles <= lanes)
    return success();
  int64_t least = (tiles + lanes - 1) / lanes;
  auto refuse = [&](Operation *at) {
    return at->emitError("a lane runs several tiles (")
           << tiles << " tiles on " << lanes << " lanes): ";
  };
  if (exchanges.size() > 1)
    return refuse(exchanges[1])
           << "they are merged at one inter-tile exchange, this kernel has "
           << exchanges.size();
  Exchange exchange(exchanges.front(), tiles);
  Operation *op = exchange.op;
  // A merged tile would keep one chunk for all the tiles it runs.
  if (isScattered(op))
    return refuse(op) << "each tile of a reduce-scatter keeps a chunk of "
                         "its own, so its tiles are not merged";
  Block &body = func.getBody().front();
  if (!func.getBody().hasOneBlock() || op->getBlock() != &body)
    return refuse(op) << "they are merged at an exchange in the kernel's "
                         "body, not inside a loop or a branch";
  WalkResult local = func.walk([&](ktdp::ConstructMemoryViewOp view) {
    if (!ktdp::isScratchpadView(view) || isExchangeView(view))
      return WalkResult::advance();
    refuse(view) << "the merged tiles share one scratchpad, so only the "
                    "exchange's views may be scratchpad (ct_local) views";
    return WalkResult::interrupt();
  });
  if (local.wasInterrupted())
    return failure();
  // A partial written piece by piece inside a loop (ktdf-share-left-operands'
  // gates, one copy per lane) is not a value to fold: the merged tiles'
  // pieces would land in the one view they share.
  WalkResult piecewise = func.walk([&](ktdp::StoreOp store) {
    if (store->getBlock() == &body || !exchange.storesPartial(store))
      return WalkResult::advance();
    refuse(store) << "the partial is one value stored into the exchange's "
                     "views before it, not stored inside a loop or a branch";
    return WalkResult::interrupt();
  });
  if (piecewise.wasInterrupted())
    return failure();
  SmallVector<ktdp::StoreOp> partialStores;
  for (Operation &candidate : body) {
    if (&candidate == op)
      break;
    auto store = dyn_cast<ktdp::StoreOp>(candidate);
    if (store && exchange.storesPartial(store))
      partialStores.push_back(store);
  }
  if (partialStores.empty() ||
      llvm::any_of(partialStores, [&](ktdp::StoreOp store) {
        return store.getDataTile() != partialStores.front().getDataTile();
      }))
    return refuse(op) << "the partial is one value stored into the "
                         "exchange's views before it";
  std::optional<Merge> merge = chooseMerge(**grid, least, cores, exchange);
  if (!merge)
    return refuse(op)
           << "no grid dimension splits into runs of at least " << least
           << " tiles, each inside one group (or with one source), that "
              "leave the runs that exchange on different cores";
  cutAtExchange(func, *merge, exchange, partialStores);
  exchange.renumber(*merge);
  Builder b(func.getContext());
  SmallVector<Attribute> extents;
  for (int64_t e : merge->merged)
    extents.push_back(b.getI64IntegerAttr(e));
  ktdp::getGridOwner(func)->setAttr(ktdp::kGridAttrName,
                                    b.getArrayAttr(extents));
  return success();
}

namespace {
struct MergeExchangeTilesPass
    : public ktflow::sched::WithScheduleTarget<
          ktdf::impl::KTDFMergeExchangeTilesBase<MergeExchangeTilesPass>> {
  using Base::Base;
  void runOnOperation() override {
    const ktflow::sched::ScheduleTarget *target = requireScheduleTarget();
    if (!target)
      return;
    int64_t lanes = target->getNumLaneInstances(useLanes);
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal() &&
          failed(mergeTiles(func, lanes, target->getNumCores())))
        return signalPassFailure();
  }
};
} // namespace

//===- InterTileLegality.cpp - Legality of inter-tile communication -------===//
//
// This file implements the inter-tile rules of --ktir-check-legality:
//
//   R2  a future has exactly one use, by inter_tile_consume or
//       inter_tile_reduce in the same function;
//   R4  every producer of a group is a source of at least one consumer;
//   R8  a consumer of a consume receives from exactly one producer: a group
//       with several producers needs producer_dependency_per_consumer;
//   reduce: consumers of a group are a subset of its producers, and either
//       all of them (all-reduce) or one (reduce-to-one).
//
// Tile sets are enumerated over the kernel's grid; without a grid they must
// be bounded by their own constraints, otherwise the rule is not checked.
// The enumeration has a fixed budget (a warning says when it ran out), and
// each delivery op reports the first group that breaks a rule.
//
//===----------------------------------------------------------------------===//

#include "InterTileLegality.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::ktdp;

namespace {

using TileSet = llvm::SmallSetVector<int64_t, 16>;

/// Bounds the work of checking one delivery (set-membership tests), so that
/// a huge grid or group set makes the rule unchecked instead of hanging.
class WorkBudget {
public:
  /// Spends `units`; false once the budget is exhausted.
  bool spend(int64_t units) {
    remaining -= std::max<int64_t>(units, 1);
    return remaining >= 0;
  }

  static constexpr int64_t kTotal = 1 << 22;
  /// The least a group costs: enumerating a set without a grid projects it.
  static constexpr int64_t kPerGroup = 16;

private:
  int64_t remaining = kTotal;
};

/// Enumerates the tiles i of a `(i)[symbols]` set. Uses the grid when known.
FailureOr<TileSet> enumerateTiles(IntegerSet set, ArrayRef<int64_t> symbols,
                                  std::optional<int64_t> numTiles,
                                  WorkBudget &budget) {
  TileSet tiles;
  if (numTiles) {
    if (!budget.spend(*numTiles))
      return failure();
    for (int64_t i = 0; i < *numTiles; ++i)
      if (containsPoint(set, {i}, symbols))
        tiles.insert(i);
    return tiles;
  }
  auto points = enumerateBoundedPoints(set, symbols);
  if (failed(points) || !budget.spend(points->size()))
    return failure();
  for (ArrayRef<int64_t> point : *points)
    tiles.insert(point[0]);
  return tiles;
}

std::string formatTiles(const TileSet &tiles) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "{";
  llvm::interleaveComma(tiles, os);
  os << "}";
  return text;
}

/// Producers of group `g` that consumer `c` depends on.
TileSet sourcesOf(int64_t c, int64_t g, const TileSet &producers,
                  std::optional<IntegerSet> dependency) {
  if (!dependency)
    return producers;
  TileSet sources;
  SmallVector<int64_t> symbols = {c};
  if (dependency->getNumSymbols() == 2)
    symbols.push_back(g);
  for (int64_t p : producers)
    if (containsPoint(*dependency, {p}, symbols))
      sources.insert(p);
  return sources;
}

/// Checks one delivery op (consume or reduce) against its producer.
LogicalResult checkDelivery(InterTileProduceOp produce, Operation *delivery,
                            IntegerSet consumerSet,
                            std::optional<IntegerSet> dependency,
                            bool isReduce, std::optional<int64_t> numTiles) {
  IntegerSet groupSet = produce.getFuture().getType().getGroups().getValue();
  auto groups = enumerateBoundedPoints(groupSet, {});
  if (failed(groups))
    return success();
  bool ok = true;
  WorkBudget budget;
  auto giveUp = [&] {
    delivery->emitWarning("inter-tile rules not checked: the tile sets need "
                          "more than ")
        << WorkBudget::kTotal << " membership tests";
    return success(ok);
  };
  for (ArrayRef<int64_t> group : *groups) {
    int64_t g = group[0];
    if (!budget.spend(WorkBudget::kPerGroup))
      return giveUp();
    FailureOr<TileSet> producers = enumerateTiles(
        produce.getProducerTilesPerGroup(), {g}, numTiles, budget);
    FailureOr<TileSet> consumers =
        enumerateTiles(consumerSet, {g}, numTiles, budget);
    if (failed(producers) || failed(consumers)) {
      // Unbounded sets cannot be checked without a grid; anything else
      // failed on the budget.
      if (numTiles)
        return giveUp();
      continue;
    }

    if (isReduce) {
      if (!llvm::all_of(*consumers,
                        [&](int64_t c) { return producers->contains(c); })) {
        delivery->emitOpError("consumer_tiles_per_group for group ")
            << g << " " << formatTiles(*consumers)
            << " is not a subset of producer_tiles_per_group "
            << formatTiles(*producers);
        return failure();
      }
      if (consumers->size() != producers->size() && consumers->size() != 1) {
        delivery->emitOpError("reduce-to-subset is unsupported; only "
                              "all-reduce and reduce-to-one are supported "
                              "(group ")
            << g << " has " << consumers->size() << " consumers and "
            << producers->size() << " producers)";
        return failure();
      }
    }

    // Without a dependency set every consumer waits for every producer, so
    // the producers are covered as soon as there is one consumer; building
    // the union per consumer would cost |consumers| x |producers|.
    TileSet covered;
    if (!dependency && !consumers->empty())
      covered = *producers;
    for (int64_t c : *consumers) {
      if (!dependency && isReduce)
        break;
      if (dependency && !budget.spend(producers->size()))
        return giveUp();
      TileSet sources = sourcesOf(c, g, *producers, dependency);
      if (dependency)
        covered.insert(sources.begin(), sources.end());
      if (isReduce)
        continue;
      if (sources.size() > 1 && !dependency) {
        delivery->emitOpError("group ")
            << g << " has " << producers->size()
            << " producers; inter_tile_consume needs "
               "producer_dependency_per_consumer to choose each consumer's "
               "source";
        ok = false;
        break;
      }
      if (sources.size() != 1) {
        delivery->emitOpError("consumer tile ")
            << c << " of group " << g << " must have exactly one source, but "
            << "has " << sources.size() << " " << formatTiles(sources);
        ok = false;
        break;
      }
    }
    // Coverage is only known once every consumer has been seen.
    if (!ok)
      return failure();
    for (int64_t p : *producers)
      if (!covered.contains(p)) {
        delivery->emitOpError("producer tile ")
            << p << " of group " << g
            << " is not covered by any consumer's dependency";
        ok = false;
        break;
      }
    // One group's diagnostics are enough; with thousands of groups the same
    // mistake would otherwise be reported thousands of times.
    if (!ok)
      return failure();
  }
  return success();
}

} // namespace

LogicalResult mlir::ktdp::checkInterTileCommunication(ModuleOp module,
                                                      const GridMap &grids) {
  bool ok = true;
  module->walk([&](InterTileProduceOp produce) {
    Value future = produce.getFuture();
    if (!future.hasOneUse()) {
      produce.emitOpError("future result must have exactly one use, but has ")
          << std::distance(future.use_begin(), future.use_end());
      ok = false;
      return;
    }
    Operation *user = *future.user_begin();
    // A malformed grid has been reported already; enumerate without it.
    std::optional<int64_t> numTiles;
    if (auto it = grids.find(getGridOwner(produce)); it != grids.end())
      numTiles = getNumTiles(it->second);
    if (auto consume = llvm::dyn_cast<InterTileConsumeOp>(user)) {
      ok &= succeeded(checkDelivery(produce, consume,
                                    consume.getConsumerTilesPerGroup(),
                                    consume.getProducerDependencyPerConsumer(),
                                    /*isReduce=*/false, numTiles));
    } else if (auto reduce = llvm::dyn_cast<InterTileReduceOp>(user)) {
      ok &= succeeded(checkDelivery(produce, reduce,
                                    reduce.getConsumerTilesPerGroup(),
                                    reduce.getProducerDependencyPerConsumer(),
                                    /*isReduce=*/true, numTiles));
    } else {
      user->emitOpError("cannot use a !ktdp.tile_future; only "
                        "ktdp.inter_tile_consume and ktdp.inter_tile_reduce "
                        "may deliver it")
              .attachNote(produce.getLoc())
          << "future produced here";
      ok = false;
    }
  });
  return success(ok);
}

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

/// Enumerates the tiles i of a `(i)[symbols]` set. Uses the grid when known.
FailureOr<TileSet> enumerateTiles(IntegerSet set, ArrayRef<int64_t> symbols,
                                  std::optional<int64_t> numTiles) {
  TileSet tiles;
  if (numTiles) {
    for (int64_t i = 0; i < *numTiles; ++i)
      if (containsPoint(set, {i}, symbols))
        tiles.insert(i);
    return tiles;
  }
  auto points = enumerateBoundedPoints(set, symbols);
  if (failed(points))
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
  for (ArrayRef<int64_t> group : *groups) {
    int64_t g = group[0];
    FailureOr<TileSet> producers =
        enumerateTiles(produce.getProducerTilesPerGroup(), {g}, numTiles);
    FailureOr<TileSet> consumers = enumerateTiles(consumerSet, {g}, numTiles);
    if (failed(producers) || failed(consumers))
      continue;

    if (isReduce) {
      if (!llvm::all_of(*consumers,
                        [&](int64_t c) { return producers->contains(c); })) {
        delivery->emitOpError("consumer_tiles_per_group for group ")
            << g << " " << formatTiles(*consumers)
            << " is not a subset of producer_tiles_per_group "
            << formatTiles(*producers);
        ok = false;
        continue;
      }
      if (consumers->size() != producers->size() && consumers->size() != 1) {
        delivery->emitOpError("reduce-to-subset is unsupported; only "
                              "all-reduce and reduce-to-one are supported "
                              "(group ")
            << g << " has " << consumers->size() << " consumers and "
            << producers->size() << " producers)";
        ok = false;
        continue;
      }
    }

    TileSet covered;
    for (int64_t c : *consumers) {
      TileSet sources = sourcesOf(c, g, *producers, dependency);
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
      }
    }
    for (int64_t p : *producers)
      if (!covered.contains(p)) {
        delivery->emitOpError("producer tile ")
            << p << " of group " << g
            << " is not covered by any consumer's dependency";
        ok = false;
      }
  }
  return success(ok);
}

} // namespace

LogicalResult mlir::ktdp::checkInterTileCommunication(ModuleOp module) {
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
    std::optional<int64_t> numTiles;
    if (auto grid = getLaunchGrid(produce); succeeded(grid) && *grid)
      numTiles = getNumTiles(**grid);
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

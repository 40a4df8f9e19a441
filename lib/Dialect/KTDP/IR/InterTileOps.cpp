//===- InterTileOps.cpp - ktdp inter-tile communication -------------------===//
//
// This file implements the verifiers of inter_tile_produce,
// inter_tile_consume and inter_tile_reduce: the shapes of the group sets,
// the region signatures, and the static disjointness of producer groups.
// Cross-op rules (single use of a future, coverage) live in the legality
// pass.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

using namespace mlir;
using namespace mlir::ktdp;

/// Upper bound on the (group, tile) points the disjointness check of
/// inter_tile_produce enumerates, and the least any one group costs.
static constexpr int64_t kMaxDisjointnessWork = 1 << 20;
static constexpr int64_t kMinGroupWork = 16;

/// Checks that a `(i)[g]` tile-per-group set has one dim and one symbol.
static LogicalResult verifyTilesPerGroupSet(Operation *op, StringRef name,
                                            IntegerSet set) {
  if (set.getNumDims() != 1)
    return op->emitOpError("`")
           << name << "` must have exactly one dimension (the tile id i), "
           << "but has " << set.getNumDims();
  if (set.getNumSymbols() != 1)
    return op->emitOpError("`")
           << name << "` must have exactly one symbol (the group index g), "
           << "but has " << set.getNumSymbols();
  return success();
}

/// Checks a `(p)[c]` or `(p)[c, g]` producer-dependency set.
static LogicalResult verifyDependencySet(Operation *op,
                                         std::optional<IntegerSet> set) {
  if (!set)
    return success();
  if (set->getNumDims() != 1)
    return op->emitOpError("`producer_dependency_per_consumer` must have "
                           "exactly one dimension (the producer p), but has ")
           << set->getNumDims();
  if (set->getNumSymbols() != 1 && set->getNumSymbols() != 2)
    return op->emitOpError("`producer_dependency_per_consumer` must have one "
                           "or two symbols ([c] or [c, g]), but has ")
           << set->getNumSymbols();
  return success();
}

/// Checks that result types equal the future's partial types.
static LogicalResult verifyResultsMatchFuture(Operation *op,
                                              TileFutureType future,
                                              TypeRange results) {
  if (results.size() != future.getPartialTypes().size() ||
      !llvm::equal(results, future.getPartialTypes(),
                   [](Type a, RankedTensorType b) { return a == Type(b); }))
    return op->emitOpError("result types must match future partial types");
  return success();
}

/// Checks that each result is its partial type or a reshape of it: the
/// same element type and (static) number of elements, as a reduce result
/// of tensor<64xf16> from partials of tensor<1x64xf16>.
static LogicalResult verifyResultsReshapeFuture(Operation *op,
                                                TileFutureType future,
                                                TypeRange results) {
  ArrayRef<RankedTensorType> partials = future.getPartialTypes();
  if (results.size() != partials.size())
    return op->emitOpError("returns ")
           << results.size() << " result(s) but the future carries "
           << partials.size() << " partial type(s)";
  for (auto [i, pair] : llvm::enumerate(llvm::zip(results, partials))) {
    auto [result, partial] = pair;
    if (result == Type(partial))
      continue;
    auto tensor = llvm::cast<RankedTensorType>(result);
    if (tensor.getElementType() != partial.getElementType() ||
        !tensor.hasStaticShape() || !partial.hasStaticShape() ||
        tensor.getNumElements() != partial.getNumElements())
      return op->emitOpError("result #")
             << i << " type " << result << " must be the partial type "
             << partial << " or a reshape of it (same element type and "
             << "static number of elements)";
  }
  return success();
}

/// Checks that `values` (yielded by a terminator) match `expected`.
static LogicalResult verifyYieldedTypes(Operation *yield, StringRef what,
                                        TypeRange values,
                                        ArrayRef<RankedTensorType> expected) {
  if (values.size() != expected.size())
    return yield->emitOpError()
           << what << " yields " << values.size() << " values but the future "
           << "carries " << expected.size() << " partial type(s)";
  for (auto [i, pair] : llvm::enumerate(llvm::zip(values, expected))) {
    auto [value, partial] = pair;
    if (value != Type(partial))
      return yield->emitOpError()
             << what << " operand #" << i << " type " << value
             << " does not match future partial type " << partial;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// InterTileProduceOp
//===----------------------------------------------------------------------===//

LogicalResult InterTileProduceOp::verify() {
  IntegerSet producers = getProducerTilesPerGroup();
  if (failed(verifyTilesPerGroupSet(*this, "producer_tiles_per_group",
                                    producers)))
    return failure();

  // Disjointness across groups, when both the groups and the tiles can be
  // enumerated without knowing the grid. The verifier runs on every parse,
  // so the total work is bounded: sets too large to enumerate within the
  // budget are not checked here rather than hanging the parser.
  int64_t budget = kMaxDisjointnessWork;
  IntegerSet groups = getFuture().getType().getGroups().getValue();
  FailureOr<SmallVector<SmallVector<int64_t>>> groupIds =
      enumerateBoundedPoints(groups, /*symbols=*/{}, budget);
  if (failed(groupIds))
    return success();
  DenseMap<int64_t, int64_t> ownerOfTile;
  for (ArrayRef<int64_t> g : *groupIds) {
    FailureOr<IntegerBox> box = getBoundingBox(producers, g);
    if (failed(box))
      return success();
    // Each group costs its bounding box, and at least a fixed amount for
    // the projection that computes the box.
    int64_t boxPoints = 1;
    for (int64_t extent : box->getExtents()) {
      if (extent != 0 && boxPoints > budget / extent)
        return success();
      boxPoints *= extent;
    }
    int64_t cost = std::max(boxPoints, kMinGroupWork);
    if (cost > budget)
      return success();
    budget -= cost;
    FailureOr<SmallVector<SmallVector<int64_t>>> tiles =
        enumerateBoundedPoints(producers, /*symbols=*/g, cost);
    if (failed(tiles))
      return success();
    for (ArrayRef<int64_t> tile : *tiles) {
      auto [it, inserted] = ownerOfTile.try_emplace(tile[0], g[0]);
      if (!inserted && it->second != g[0])
        return emitOpError("producer_tiles_per_group for groups ")
               << it->second << " and " << g[0] << " are not disjoint";
    }
  }
  return success();
}

LogicalResult InterTileProduceOp::verifyRegions() {
  Block &body = getBody().front();
  if (body.getNumArguments() != 1 || !body.getArgument(0).getType().isIndex())
    return emitOpError("producer region must take a single `index` group-id "
                       "argument");
  auto yield = llvm::cast<YieldPartialOp>(body.getTerminator());
  return verifyYieldedTypes(yield, "yield_partial",
                            yield.getValues().getTypes(),
                            getFuture().getType().getPartialTypes());
}

//===----------------------------------------------------------------------===//
// InterTileConsumeOp
//===----------------------------------------------------------------------===//

LogicalResult InterTileConsumeOp::verify() {
  if (failed(verifyTilesPerGroupSet(*this, "consumer_tiles_per_group",
                                    getConsumerTilesPerGroup())) ||
      failed(verifyDependencySet(*this, getProducerDependencyPerConsumer())))
    return failure();
  return verifyResultsMatchFuture(*this, getFuture().getType(),
                                  getResults().getTypes());
}

//===----------------------------------------------------------------------===//
// InterTileReduceOp
//===----------------------------------------------------------------------===//

LogicalResult InterTileReduceOp::verify() {
  if (failed(verifyTilesPerGroupSet(*this, "consumer_tiles_per_group",
                                    getConsumerTilesPerGroup())) ||
      failed(verifyDependencySet(*this, getProducerDependencyPerConsumer())) ||
      failed(verifyResultsReshapeFuture(*this, getFuture().getType(),
                                        getResults().getTypes())))
    return failure();
  // The identity is a partial: the combiner folds it with the others.
  ArrayRef<RankedTensorType> partials = getFuture().getType().getPartialTypes();
  if (getIdentity().size() != partials.size() ||
      !llvm::equal(getIdentity().getTypes(), partials,
                   [](Type a, RankedTensorType b) { return a == Type(b); }))
    return emitOpError("identity types must match the future's partial "
                       "types");
  return success();
}

LogicalResult InterTileReduceOp::verifyRegions() {
  ArrayRef<RankedTensorType> partials = getFuture().getType().getPartialTypes();
  Block &body = getCombiner().front();
  if (body.getNumArguments() != 2 * partials.size())
    return emitOpError("reducer region must take ")
           << 2 * partials.size() << " arguments, got "
           << body.getNumArguments();
  for (auto [i, partial] : llvm::enumerate(partials))
    if (body.getArgument(2 * i).getType() != partial ||
        body.getArgument(2 * i + 1).getType() != partial)
      return emitOpError("reducer region argument pair #")
             << i << " must both have partial type " << partial;
  auto yield = llvm::cast<YieldReducedOp>(body.getTerminator());
  return verifyYieldedTypes(yield, "yield_reduced",
                            yield.getValues().getTypes(), partials);
}

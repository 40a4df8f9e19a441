//===- InterTile.cpp - Inter-tile produce, consume and reduce -------------===//
//
// This file implements tile futures. The k-th execution of an
// inter_tile_produce on every tile belongs to the same future instance;
// each producer tile runs the body once per group it produces for and
// records the partial values. A consumer blocks (in the tile scheduler) until
// every producer it depends on has executed its k-th produce. Reductions
// fold the partials of those producers in ascending tile order, starting
// from the identity, and reshape the result to the declared result type
// (a 1x64 partial may be reduced to a 64-element result). On tiles that
// consume nothing, consume yields zeros and reduce yields the identity (the
// reference leaves them undefined). A run that measures how far another
// fold order may move the outputs (InterpreterOptions::displacedReduction)
// displaces a reduce's result by the bound of its fold.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"
#include "Linalg.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <cmath>

#include <set>

using namespace mlir;
using namespace ktflow::interp;

namespace ktflow::interp {
/// One logical future: what every producer tile produced for it.
struct FutureInstance {
  Operation *produceOp = nullptr;
  /// partials[(producer tile, group)].
  std::map<std::pair<int64_t, int64_t>, SmallVector<RValue, 1>> partials;
  /// Tiles that have executed the produce of this instance.
  std::set<int64_t> produced;
};
} // namespace ktflow::interp

/// The group ids of a `(g)` groups set.
static FailureOr<SmallVector<int64_t>> enumerateGroups(TileExecutor &exec,
                                                       Operation *op,
                                                       IntegerSet groups) {
  FailureOr<SmallVector<SmallVector<int64_t>>> points =
      ktdp::enumerateBoundedPoints(groups, {}, 1 << 16);
  if (failed(points))
    return exec.error(op) << "the groups set is unbounded or too large";
  SmallVector<int64_t> ids;
  for (const auto &p : *points)
    ids.push_back(p.front());
  return ids;
}

static bool inTileSet(IntegerSet set, int64_t tile, ArrayRef<int64_t> symbols) {
  return ktdp::containsPoint(set, {tile}, symbols);
}

static LogicalResult runProduce(TileExecutor &exec, Operation *op) {
  auto produce = cast<ktdp::InterTileProduceOp>(op);
  auto type = cast<ktdp::TileFutureType>(produce.getFuture().getType());
  FailureOr<SmallVector<int64_t>> groups =
      enumerateGroups(exec, op, type.getGroups().getValue());
  if (failed(groups))
    return failure();
  int64_t count = exec.produceCounts[op]++;
  std::shared_ptr<FutureInstance> &instance =
      exec.state.futures[{op, count}];
  if (!instance) {
    instance = std::make_shared<FutureInstance>();
    instance->produceOp = op;
  }
  IntegerSet producers = produce.getProducerTilesPerGroup();
  Block &body = produce.getBody().front();
  for (int64_t g : *groups) {
    if (!inTileSet(producers, exec.tileId, {g}))
      continue;
    SmallVector<RValue> yielded;
    if (failed(exec.runBlock(body, {Scalar::ofInt(g, DType::Index)}, yielded)))
      return failure();
    for (auto [value, partialType] : llvm::zip(yielded, type.getPartialTypes()))
      if (!value.isTensor() || value.tensor()->shape !=
                                   SmallVector<int64_t, 4>(
                                       partialType.getShape()))
        return exec.error(op) << "type mismatch: yield_partial values must "
                                 "match the future's partial types";
    instance->partials[{exec.tileId, g}].assign(yielded.begin(),
                                                yielded.end());
  }
  instance->produced.insert(exec.tileId);
  auto handle = std::make_shared<FutureHandle>();
  handle->instance = instance;
  exec.set(produce.getFuture(), FutureRef(std::move(handle)));
  return success();
}

namespace {
/// What one consumer tile receives from one future.
struct Delivery {
  bool isConsumer = false;
  int64_t group = 0;
  SmallVector<int64_t> producers;
  std::shared_ptr<FutureInstance> instance;
};
} // namespace

/// Resolves the consumer's group and producers and waits for them.
static FailureOr<Delivery>
prepareDelivery(TileExecutor &exec, Operation *op, Value future,
                IntegerSet consumers, std::optional<IntegerSet> dependency,
                bool singleProducer) {
  const RValue &value = exec.get(future);
  if (!value.isFuture())
    return exec.error(op) << "expected a tile future";
  FutureHandle &handle = *value.future();
  if (handle.consumed)
    return exec.error(op) << "future consumed twice: the tile future of the "
                             "inter_tile_produce at "
                          << formatLocation(handle.instance->produceOp->getLoc())
                          << " was already delivered on this tile";
  handle.consumed = true;
  auto produce = cast<ktdp::InterTileProduceOp>(handle.instance->produceOp);
  auto type = cast<ktdp::TileFutureType>(future.getType());
  FailureOr<SmallVector<int64_t>> groups =
      enumerateGroups(exec, op, type.getGroups().getValue());
  if (failed(groups))
    return failure();
  Delivery delivery;
  delivery.instance = handle.instance;
  SmallVector<int64_t> mine;
  for (int64_t g : *groups)
    if (inTileSet(consumers, exec.tileId, {g}))
      mine.push_back(g);
  if (mine.empty())
    return delivery;
  if (mine.size() > 1)
    return exec.error(op) << "the tile consumes from groups " << mine[0]
                          << " and " << mine[1]
                          << "; a consumer must belong to one group";
  delivery.isConsumer = true;
  delivery.group = mine.front();
  IntegerSet producers = produce.getProducerTilesPerGroup();
  // Finding the producers tests every tile of the grid.
  if (failed(exec.chargeWork(op, exec.state.numTiles)))
    return failure();
  for (int64_t p = 0; p < exec.state.numTiles; ++p) {
    if (!inTileSet(producers, p, {delivery.group}))
      continue;
    if (dependency) {
      SmallVector<int64_t, 2> symbols = {exec.tileId};
      if (dependency->getNumSymbols() == 2)
        symbols.push_back(delivery.group);
      if (!inTileSet(*dependency, p, symbols))
        continue;
    }
    delivery.producers.push_back(p);
  }
  if (singleProducer && delivery.producers.size() != 1) {
    auto diag = exec.error(op);
    diag << "the consumer depends on " << delivery.producers.size()
         << " producer tiles of group " << delivery.group
         << "; a consume delivers exactly one producer's values (add a "
            "producer_dependency_per_consumer set)";
    return diag;
  }
  auto ready = [&]() {
    return llvm::all_of(delivery.producers, [&](int64_t p) {
      return delivery.instance->produced.count(p) != 0;
    });
  };
  std::string reason = "waits in '" + op->getName().getStringRef().str() +
                       "' for producer tiles";
  for (int64_t p : delivery.producers)
    if (!delivery.instance->produced.count(p))
      reason += " " + std::to_string(p);
  if (failed(exec.state.tileScheduler.waitUntil(ready, op, reason)))
    return failure();
  return delivery;
}

static FailureOr<SmallVector<RValue, 1>>
partialsOf(TileExecutor &exec, Operation *op, const Delivery &delivery,
           int64_t producer) {
  auto it = delivery.instance->partials.find({producer, delivery.group});
  if (it == delivery.instance->partials.end())
    return exec.error(op) << "producer tile " << producer
                          << " produced nothing for group " << delivery.group;
  return it->second;
}

static LogicalResult runConsume(TileExecutor &exec, Operation *op) {
  auto consume = cast<ktdp::InterTileConsumeOp>(op);
  FailureOr<Delivery> delivery =
      prepareDelivery(exec, op, consume.getFuture(),
                      consume.getConsumerTilesPerGroup(),
                      consume.getProducerDependencyPerConsumer(),
                      /*singleProducer=*/true);
  if (failed(delivery))
    return failure();
  if (!delivery->isConsumer) {
    for (Value result : consume.getResults()) {
      FailureOr<Tensor> zeros = makeTensorOfType(result.getType(), {});
      if (failed(zeros))
        return exec.error(op) << "unsupported result type";
      exec.set(result, TensorRef(std::make_shared<Tensor>(std::move(*zeros))));
    }
    return success();
  }
  FailureOr<SmallVector<RValue, 1>> values =
      partialsOf(exec, op, *delivery, delivery->producers.front());
  if (failed(values))
    return failure();
  for (auto [result, value] : llvm::zip(consume.getResults(), *values))
    exec.set(result, value);
  return success();
}

/// The op a reduce's combiner applies to its two arguments, when the whole
/// combiner is that one element-wise op: an arith op of both, or a linalg
/// named op with both as inputs (`linalg.add ins(%l, %r) outs(%l)`, whose
/// output it does not read; LowerInterTile.cpp lowers the two spellings
/// alike).
static Operation *singleCombinerOp(ktdp::InterTileReduceOp reduce) {
  Block &body = reduce.getCombiner().front();
  if (body.getNumArguments() != 2 || body.getOperations().size() != 2)
    return nullptr;
  Operation *op = &body.front();
  ValueRange inputs = op->getOperands();
  if (auto named = dyn_cast<linalg::LinalgOp>(op))
    inputs = named.getDpsInputs();
  if (inputs.size() != 2 || op->getNumResults() != 1 ||
      body.getTerminator()->getOperands() != op->getResults() ||
      !llvm::is_contained(inputs, body.getArgument(0)) ||
      !llvm::is_contained(inputs, body.getArgument(1)))
    return nullptr;
  return op;
}

/// Whether `combine` (a singleCombinerOp) adds floats; otherwise it
/// multiplies them when isReorderableInterTileReduce holds.
static bool combinerAdds(Operation *combine) {
  return isa<arith::AddFOp, linalg::AddOp>(combine);
}

bool ktflow::interp::isReorderableInterTileReduce(Operation *op) {
  auto reduce = dyn_cast<ktdp::InterTileReduceOp>(op);
  Operation *combine = reduce ? singleCombinerOp(reduce) : nullptr;
  // linalg.add and linalg.mul also take integers, whose folds are exact.
  return combine &&
         isa<FloatType>(getElementTypeOrSelf(combine->getResult(0))) &&
         isa<arith::AddFOp, arith::MulFOp, linalg::AddOp, linalg::MulOp>(
             combine);
}

/// Moves the folded value of each element by the bound on how far folding
/// the same partials in another order may move it (docs/interpreter.md §9):
/// n * eps * (|identity| + sum |partial|) for addf, n * eps * |r| for mulf,
/// with eps the element type's (every step of the fold rounds to it) and n
/// the number of partials, plus one ulp of the result.
static LogicalResult displaceReducedFold(TileExecutor &exec,
                                         ktdp::InterTileReduceOp reduce,
                                         const Delivery &delivery,
                                         SmallVector<RValue> &acc) {
  if (!isReorderableInterTileReduce(reduce) || acc.size() != 1 ||
      !acc.front().isTensor() ||
      !ktflow::host::isFloat(acc.front().tensor()->dtype))
    return success();
  bool add = combinerAdds(singleCombinerOp(reduce));
  auto moved = std::make_shared<Tensor>(*acc.front().tensor());
  std::vector<double> size(moved->floats.size(), 0.0);
  if (add) {
    const RValue &identity = exec.get(reduce.getIdentity().front());
    for (size_t i = 0; i < size.size() && identity.isTensor(); ++i)
      size[i] = std::fabs(identity.tensor()->getDouble(i));
    for (int64_t p : delivery.producers) {
      FailureOr<SmallVector<RValue, 1>> values =
          partialsOf(exec, reduce, delivery, p);
      if (failed(values))
        return failure();
      const RValue &partial = values->front();
      for (size_t i = 0; i < size.size() && partial.isTensor(); ++i)
        size[i] += std::fabs(partial.tensor()->getDouble(i));
    }
  }
  double eps = ktflow::host::unitInLastPlace(1.0, moved->dtype);
  double terms = static_cast<double>(delivery.producers.size());
  for (size_t i = 0; i < moved->floats.size(); ++i) {
    double r = moved->floats[i];
    double bound = terms * eps * (add ? size[i] : std::fabs(r)) +
                   ktflow::host::unitInLastPlace(r, moved->dtype);
    moved->floats[i] = ktflow::host::roundToDType(
        exec.state.options.displaceDownward ? r - bound : r + bound,
        moved->dtype);
  }
  acc.front() = TensorRef(std::move(moved));
  return success();
}

static LogicalResult runReduce(TileExecutor &exec, Operation *op) {
  auto reduce = cast<ktdp::InterTileReduceOp>(op);
  FailureOr<Delivery> delivery =
      prepareDelivery(exec, op, reduce.getFuture(),
                      reduce.getConsumerTilesPerGroup(),
                      reduce.getProducerDependencyPerConsumer(),
                      /*singleProducer=*/false);
  if (failed(delivery))
    return failure();
  SmallVector<RValue> acc;
  for (Value identity : reduce.getIdentity())
    acc.push_back(exec.get(identity));
  if (delivery->isConsumer) {
    Block &combiner = reduce.getCombiner().front();
    for (int64_t p : delivery->producers) {
      FailureOr<SmallVector<RValue, 1>> values =
          partialsOf(exec, op, *delivery, p);
      if (failed(values))
        return failure();
      // The combiner takes the left and right value of each partial in
      // turn: (l0, r0, l1, r1, ...).
      SmallVector<RValue> args;
      for (auto [left, right] : llvm::zip(acc, *values))
        args.append({left, right});
      SmallVector<RValue> combined;
      if (failed(exec.runBlock(combiner, args, combined)))
        return failure();
      if (combined.size() != acc.size())
        return exec.error(op) << "the combiner yields " << combined.size()
                              << " values, expected " << acc.size();
      acc.assign(combined.begin(), combined.end());
    }
  }
  if (delivery->isConsumer && op == exec.state.options.displacedReduction)
    if (failed(displaceReducedFold(exec, reduce, *delivery, acc)))
      return failure();
  // A result may reshape its partial (1x64 -> 64): same elements, the
  // declared shape.
  for (auto [result, value] : llvm::zip(reduce.getResults(), acc)) {
    auto type = cast<RankedTensorType>(result.getType());
    if (value.isTensor() && type.hasStaticShape() &&
        ArrayRef<int64_t>(value.tensor()->shape) != type.getShape()) {
      if (value.tensor()->numElements() != type.getNumElements())
        return exec.error(op) << "type mismatch: cannot reshape the reduced "
                              << formatShape(value.tensor()->shape)
                              << " to the result " << type;
      auto reshaped = std::make_shared<Tensor>(*value.tensor());
      reshaped->shape.assign(type.getShape().begin(), type.getShape().end());
      value = TensorRef(std::move(reshaped));
    }
    exec.set(result, value);
  }
  return success();
}

void ktflow::interp::registerInterTileHandlers(HandlerTable &table) {
  table.add<ktdp::InterTileProduceOp>(runProduce);
  table.add<ktdp::InterTileConsumeOp>(runConsume);
  table.add<ktdp::InterTileReduceOp>(runReduce);
}

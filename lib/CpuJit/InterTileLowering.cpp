//===- InterTileLowering.cpp - Inter-tile ops as exchange calls -----------===//
//
// This file rewrites the inter-tile ops of a tile function into calls of
// the exchange runtime (InterTile.h) and works out, per tile, the groups it
// produces for and the producers it waits for. A produce becomes a loop
// over the tile's groups that runs the body and hands each partial over,
// then a call that publishes the instance and returns its number (the
// future's value); a reduce waits for its producers and folds their
// partials, fetched in ascending tile order, through its combiner; a
// consume fetches its one producer's partials (zeros on a tile that
// consumes nothing).
//
//===----------------------------------------------------------------------===//

#include "InterTile.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Support/ElementBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace ktflow::jit;

namespace {
/// The runtime's entry points, as the tile function declares them.
constexpr const char *kCountGroups = "ktflow_jit_count_groups";
constexpr const char *kGroup = "ktflow_jit_group";
constexpr const char *kProduced = "ktflow_jit_produced";
constexpr const char *kWait = "ktflow_jit_wait";
/// One deposit and one fetch per element type, all the same C function:
/// an unranked memref argument is (rank, descriptor) whatever its type.
constexpr const char *kDepositPrefix = "ktflow_jit_deposit_";
constexpr const char *kFetchPrefix = "ktflow_jit_fetch_";

std::string typeName(Type type) {
  std::string name;
  llvm::raw_string_ostream os(name);
  os << type;
  return name;
}

std::string describe(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "'" << op->getName() << "' at " << op->getLoc();
  return text;
}

/// Builds the calls of one tile function.
class Rewriter {
public:
  Rewriter(func::FuncOp fn) : fn(fn), b(fn.getContext()) {}

  Value call(Location loc, StringRef name, TypeRange results,
             ValueRange operands) {
    declare(name, results, operands.getTypes());
    auto op = func::CallOp::create(b, loc, name, results, operands);
    return op.getNumResults() ? op.getResult(0) : Value();
  }
  Value index(Location loc, int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }
  /// `tensor` as an unranked memref for the runtime to read.
  Value unranked(Location loc, Value tensor) {
    auto type = cast<RankedTensorType>(tensor.getType());
    auto layout = StridedLayoutAttr::get(
        b.getContext(), ShapedType::kDynamic,
        SmallVector<int64_t>(type.getRank(), ShapedType::kDynamic));
    Value buffer = bufferization::ToBufferOp::create(
        b, loc, MemRefType::get(type.getShape(), type.getElementType(), layout),
        tensor, /*readOnly=*/true);
    return memref::CastOp::create(
        b, loc, UnrankedMemRefType::get(type.getElementType(), 0), buffer);
  }

  OpBuilder &builder() { return b; }

private:
  void declare(StringRef name, TypeRange results, TypeRange operands) {
    if (!declared.insert(name.str()).second)
      return;
    OpBuilder top(fn);
    func::FuncOp::create(top, fn.getLoc(), name,
                         top.getFunctionType(operands, results))
        .setPrivate();
  }

  func::FuncOp fn;
  OpBuilder b;
  std::set<std::string> declared;
};
} // namespace

/// The plan's description of `future`'s partials, or failure.
static LogicalResult describePartials(ktdp::TileFutureType future,
                                      InterTilePlan::Op &op, std::string &why) {
  for (RankedTensorType type : future.getPartialTypes()) {
    Type element = type.getElementType();
    if (!type.hasStaticShape() ||
        !llvm::is_contained(kPartialElementTypes, typeName(element))) {
      why = "an inter-tile partial of type " + typeName(type);
      return failure();
    }
    op.partials.push_back(
        {static_cast<unsigned>(ktflow::bytesPerElement(element)),
         type.getNumElements()});
  }
  return success();
}

static FailureOr<SmallVector<int64_t>> groupIds(ktdp::TileFutureType future,
                                                std::string &why) {
  FailureOr<SmallVector<SmallVector<int64_t>>> points =
      ktdp::enumerateBoundedPoints(future.getGroups().getValue(), {}, 1 << 16);
  if (failed(points)) {
    why = "an inter-tile groups set that is unbounded or too large";
    return failure();
  }
  SmallVector<int64_t> ids;
  for (const SmallVector<int64_t> &p : *points)
    ids.push_back(p.front());
  return ids;
}

/// Consumers of `op` (consume or reduce) per tile, as the interpreter's
/// prepareDelivery finds them.
static void planDelivery(Operation *op, ktdp::InterTileProduceOp produce,
                         ArrayRef<int64_t> groups, int64_t numTiles,
                         InterTilePlan::Op &planned) {
  IntegerSet consumers, producers = produce.getProducerTilesPerGroup();
  std::optional<IntegerSet> dependency;
  bool single = isa<ktdp::InterTileConsumeOp>(op);
  if (auto consume = dyn_cast<ktdp::InterTileConsumeOp>(op)) {
    consumers = consume.getConsumerTilesPerGroup();
    dependency = consume.getProducerDependencyPerConsumer();
  } else {
    auto reduce = cast<ktdp::InterTileReduceOp>(op);
    consumers = reduce.getConsumerTilesPerGroup();
    dependency = reduce.getProducerDependencyPerConsumer();
  }
  planned.groupOf.assign(numTiles, -1);
  planned.producersOf.assign(numTiles, {});
  planned.errorOf.assign(numTiles, "");
  for (int64_t tile = 0; tile < numTiles; ++tile) {
    SmallVector<int64_t> mine;
    for (int64_t g : groups)
      if (ktdp::containsPoint(consumers, {tile}, {g}))
        mine.push_back(g);
    if (mine.empty())
      continue;
    if (mine.size() > 1) {
      planned.errorOf[tile] = "a consumer of several groups";
      continue;
    }
    int64_t g = mine.front();
    planned.groupOf[tile] = g;
    for (int64_t p = 0; p < numTiles; ++p) {
      if (!ktdp::containsPoint(producers, {p}, {g}))
        continue;
      if (dependency) {
        SmallVector<int64_t, 2> symbols = {tile};
        if (dependency->getNumSymbols() == 2)
          symbols.push_back(g);
        if (!ktdp::containsPoint(*dependency, {p}, symbols))
          continue;
      }
      planned.producersOf[tile].push_back(p);
    }
    if (single && planned.producersOf[tile].size() != 1)
      planned.errorOf[tile] = "a consume that depends on " +
                              std::to_string(planned.producersOf[tile].size()) +
                              " producers";
  }
}

/// produce -> for j < count_groups: body(group(j)); deposit each partial;
/// then the future is produced()'s instance number.
static void lowerProduce(ktdp::InterTileProduceOp produce, int64_t id,
                         Rewriter &r) {
  OpBuilder &b = r.builder();
  Location loc = produce.getLoc();
  b.setInsertionPoint(produce);
  Type index = b.getIndexType();
  Value opId = r.index(loc, id);
  Value count = r.call(loc, kCountGroups, {index}, {opId});
  auto loop =
      scf::ForOp::create(b, loc, r.index(loc, 0), count, r.index(loc, 1));
  b.setInsertionPointToStart(loop.getBody());
  Value j = loop.getInductionVar();
  Value group = r.call(loc, kGroup, {index}, {opId, j});
  Block &body = produce.getBody().front();
  IRMapping mapping;
  mapping.map(body.getArgument(0), group);
  for (Operation &op : body.without_terminator())
    b.clone(op, mapping);
  for (auto [i, value] : llvm::enumerate(body.getTerminator()->getOperands())) {
    Value partial = mapping.lookupOrDefault(value);
    std::string name =
        kDepositPrefix +
        typeName(cast<RankedTensorType>(partial.getType()).getElementType());
    r.call(loc, name, {}, {opId, j, r.index(loc, i), r.unranked(loc, partial)});
  }
  b.setInsertionPoint(produce);
  Value instance = r.call(loc, kProduced, {index}, {opId});
  produce.getFuture().replaceAllUsesWith(instance);
}

/// The partials of producer j of `op`'s instance, fetched into fresh
/// buffers, as tensors.
static SmallVector<Value> fetchPartials(Operation *op, Value opId,
                                        Value instance, Value j,
                                        ktdp::TileFutureType future,
                                        Rewriter &r) {
  OpBuilder &b = r.builder();
  Location loc = op->getLoc();
  SmallVector<Value> tensors;
  for (auto [i, type] : llvm::enumerate(future.getPartialTypes())) {
    auto memrefType = MemRefType::get(type.getShape(), type.getElementType());
    Value buffer = memref::AllocOp::create(b, loc, memrefType);
    Value unranked = memref::CastOp::create(
        b, loc, UnrankedMemRefType::get(type.getElementType(), 0), buffer);
    r.call(loc, kFetchPrefix + typeName(type.getElementType()), {},
           {opId, instance, j, r.index(loc, i), unranked});
    tensors.push_back(bufferization::ToTensorOp::create(
        b, loc, type, buffer, /*restrict=*/true, /*writable=*/true));
  }
  return tensors;
}

/// `value` in the shape of `type` (a reduce may reshape 1x64 to 64).
static Value reshapeTo(OpBuilder &b, Location loc, Value value, Type type) {
  auto target = cast<RankedTensorType>(type);
  if (value.getType() == target)
    return value;
  auto shapeType = RankedTensorType::get({target.getRank()}, b.getIndexType());
  SmallVector<Attribute> extents;
  for (int64_t extent : target.getShape())
    extents.push_back(b.getIndexAttr(extent));
  Value shape = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(shapeType, extents));
  return tensor::ReshapeOp::create(b, loc, target, value, shape);
}

static void lowerReduce(ktdp::InterTileReduceOp reduce, int64_t id,
                        ktdp::TileFutureType future, Rewriter &r) {
  OpBuilder &b = r.builder();
  Location loc = reduce.getLoc();
  b.setInsertionPoint(reduce);
  Value opId = r.index(loc, id);
  Value instance = reduce->getOperand(0);
  Value count = r.call(loc, kWait, {b.getIndexType()}, {opId, instance});
  auto loop = scf::ForOp::create(b, loc, r.index(loc, 0), count,
                                 r.index(loc, 1), reduce.getIdentity());
  b.setInsertionPointToStart(loop.getBody());
  SmallVector<Value> partials =
      fetchPartials(reduce, opId, instance, loop.getInductionVar(), future, r);
  // The combiner takes (left, right) of each partial in turn.
  Block &combiner = reduce.getCombiner().front();
  IRMapping mapping;
  for (auto [i, partial] : llvm::enumerate(partials)) {
    mapping.map(combiner.getArgument(2 * i), loop.getRegionIterArgs()[i]);
    mapping.map(combiner.getArgument(2 * i + 1), partial);
  }
  for (Operation &op : combiner.without_terminator())
    b.clone(op, mapping);
  SmallVector<Value> combined;
  for (Value v : combiner.getTerminator()->getOperands())
    combined.push_back(mapping.lookupOrDefault(v));
  scf::YieldOp::create(b, loc, combined);
  b.setInsertionPointAfter(loop);
  for (auto [result, folded] :
       llvm::zip(reduce.getResults(), loop.getResults()))
    result.replaceAllUsesWith(reshapeTo(b, loc, folded, result.getType()));
}

static void lowerConsume(ktdp::InterTileConsumeOp consume, int64_t id,
                         ktdp::TileFutureType future, Rewriter &r) {
  OpBuilder &b = r.builder();
  Location loc = consume.getLoc();
  b.setInsertionPoint(consume);
  Value opId = r.index(loc, id);
  // The runtime fills zeros on a tile that consumes nothing.
  Value instance = consume->getOperand(0);
  r.call(loc, kWait, {b.getIndexType()}, {opId, instance});
  SmallVector<Value> values =
      fetchPartials(consume, opId, instance, r.index(loc, 0), future, r);
  for (auto [result, value] : llvm::zip(consume.getResults(), values))
    result.replaceAllUsesWith(reshapeTo(b, loc, value, result.getType()));
}

LogicalResult ktflow::jit::lowerInterTileOps(func::FuncOp fn, int64_t numTiles,
                                             InterTilePlan &plan,
                                             std::string &why) {
  SmallVector<Operation *> ops;
  fn.walk([&](Operation *op) {
    if (isa<ktdp::InterTileProduceOp, ktdp::InterTileConsumeOp,
            ktdp::InterTileReduceOp>(op))
      ops.push_back(op);
  });
  if (ops.empty())
    return success();
  if (numTiles > kMaxExchangingTiles) {
    why = "inter-tile ops on a grid of " + std::to_string(numTiles) +
          " tiles (each tile runs on a thread of its own, at most " +
          std::to_string(kMaxExchangingTiles) + ")";
    return failure();
  }
  DenseMap<Operation *, unsigned> ids;
  for (Operation *op : ops) {
    InterTilePlan::Op planned;
    planned.name = describe(op);
    ids[op] = plan.ops.size();
    if (auto produce = dyn_cast<ktdp::InterTileProduceOp>(op)) {
      auto future = cast<ktdp::TileFutureType>(produce.getFuture().getType());
      FailureOr<SmallVector<int64_t>> groups = groupIds(future, why);
      if (failed(groups) || failed(describePartials(future, planned, why)))
        return failure();
      planned.groupsOf.assign(numTiles, {});
      for (int64_t tile = 0; tile < numTiles; ++tile)
        for (int64_t g : *groups)
          if (ktdp::containsPoint(produce.getProducerTilesPerGroup(), {tile},
                                  {g}))
            planned.groupsOf[tile].push_back(g);
      // Each future goes straight to the consume or reduce that takes it.
      for (Operation *user : produce->getUsers())
        if (!isa<ktdp::InterTileConsumeOp, ktdp::InterTileReduceOp>(user)) {
          why = "a tile future used by '" +
                user->getName().getStringRef().str() + "'";
          return failure();
        }
      plan.ops.push_back(std::move(planned));
      continue;
    }
    Value futureValue = op->getOperand(0);
    auto produce = futureValue.getDefiningOp<ktdp::InterTileProduceOp>();
    if (!produce || !ids.count(produce)) {
      why = "a tile future that is not the result of an earlier produce";
      return failure();
    }
    planned.kind = isa<ktdp::InterTileReduceOp>(op)
                       ? InterTilePlan::Kind::Reduce
                       : InterTilePlan::Kind::Consume;
    planned.produce = ids[produce];
    auto future = cast<ktdp::TileFutureType>(futureValue.getType());
    FailureOr<SmallVector<int64_t>> groups = groupIds(future, why);
    if (failed(groups) || failed(describePartials(future, planned, why)))
      return failure();
    planDelivery(op, produce, *groups, numTiles, planned);
    plan.ops.push_back(std::move(planned));
  }

  // Produces first: each future becomes the instance number its
  // deliveries wait for.
  DenseMap<Operation *, ktdp::TileFutureType> futureTypes;
  for (Operation *op : ops)
    if (!isa<ktdp::InterTileProduceOp>(op))
      futureTypes[op] = cast<ktdp::TileFutureType>(op->getOperand(0).getType());
  Rewriter r(fn);
  // The erased produces stay out of the second loop, which would read
  // their freed names.
  SmallVector<Operation *> deliveries;
  for (Operation *op : ops)
    if (auto produce = dyn_cast<ktdp::InterTileProduceOp>(op)) {
      lowerProduce(produce, ids[op], r);
      produce->erase();
    } else {
      deliveries.push_back(op);
    }
  for (Operation *op : deliveries) {
    if (auto reduce = dyn_cast<ktdp::InterTileReduceOp>(op))
      lowerReduce(reduce, ids[op], futureTypes[op], r);
    else
      lowerConsume(cast<ktdp::InterTileConsumeOp>(op), ids[op], futureTypes[op],
                   r);
    op->erase();
  }
  return success();
}

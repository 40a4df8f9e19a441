//===- InterTileCopies.cpp - Inter-tile consumes as tile copies -----------===//
//
// This file implements ktdf-lower-inter-tile's rewrite of an
// `inter_tile_produce` + `inter_tile_consume` pair (a broadcast of one
// tile's value, or a routed copy chosen by
// `producer_dependency_per_consumer`): the partial is stored into a
// `ct_local` view of its own, a `ktdf.tile_copy` copies each consumer's
// producer's view into the consumer's second view over the core
// interconnect, and the consumer loads it. The source of each consumer is
// enumerated now, in the interpreter's linear tile ids. The produce's body
// moves before it, into every tile's program (it may only load tensors
// the kernel does not write and compute); only the producers' copies are
// sent, and KTDFToDFIR runs the body's transfers and compute only on the
// tiles that send the partial or keep their own (TileCopyLowering.cpp). A
// consumer whose producer is itself gets its partial stored into the second
// view directly (the interconnect reaches other cores only).
//
//===----------------------------------------------------------------------===//

#include "InterTile.h"

#include "ktflow/Dialect/KTDF/IR/KTDF.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"

using namespace mlir;
using namespace mlir::ktdf;

namespace {
/// What one produce + consume pair copies.
struct CopyPlan {
  ktdp::InterTileProduceOp produce;
  ktdp::InterTileConsumeOp consume;
  Value partial;
  /// The producer each tile consumes from (linear tile ids).
  SmallVector<int64_t> sources;
};
} // namespace

/// The producer each tile of the grid consumes from, or a refusal.
static LogicalResult findSources(CopyPlan &plan, int64_t numTiles,
                                 InterTileRefusal &refusal) {
  ktdp::InterTileConsumeOp consume = plan.consume;
  auto refuse = [&](const Twine &why) {
    refusal = {consume, why.str()};
    return failure();
  };
  auto futureType =
      cast<ktdp::TileFutureType>(plan.produce.getFuture().getType());
  auto ids = ktdp::enumerateBoundedPoints(futureType.getGroups().getValue(), {},
                                          1 << 16);
  if (failed(ids))
    return refuse("the groups set is unbounded or too large");
  if (auto why = whyNotEnumerable(numTiles, ids->size()))
    return refuse(*why);
  std::optional<IntegerSet> dependency;
  if (auto attr = consume.getProducerDependencyPerConsumerAttr())
    dependency = attr.getValue();
  plan.sources.assign(numTiles, -1);
  SmallVector<int64_t> groupOf(numTiles, -1);
  for (const auto &point : *ids) {
    int64_t g = point.front();
    SmallVector<int64_t> producers =
        tilesOfGroup(plan.produce.getProducerTilesPerGroup(), g, numTiles);
    for (int64_t c :
         tilesOfGroup(consume.getConsumerTilesPerGroup(), g, numTiles)) {
      SmallVector<int64_t> from;
      for (int64_t p : producers) {
        SmallVector<int64_t, 2> symbols = {c};
        if (dependency && dependency->getNumSymbols() == 2)
          symbols.push_back(g);
        if (!dependency || ktdp::containsPoint(*dependency, {p}, symbols))
          from.push_back(p);
      }
      if (from.size() != 1)
        return refuse("tile " + Twine(c) + " depends on " + Twine(from.size()) +
                      " producers of group " + Twine(g) +
                      "; a consume delivers exactly one producer's value");
      if (groupOf[c] >= 0)
        return refuse("tile " + Twine(c) + " consumes in groups " +
                      Twine(groupOf[c]) + " and " + Twine(g));
      groupOf[c] = g;
      plan.sources[c] = from.front();
    }
  }
  for (auto [t, from] : llvm::enumerate(plan.sources))
    if (from < 0)
      return refuse("tile " + Twine(t) +
                    " consumes nothing; the scheduler lowers consumes whose "
                    "consumers cover the grid only (the interpreter gives "
                    "the other tiles zeros)");
  return success();
}

static FailureOr<CopyPlan> analyze(ktdp::InterTileConsumeOp consume,
                                   InterTileRefusal &refusal) {
  auto refuse = [&](Operation *at, const Twine &why) {
    refusal = {at, why.str()};
    return failure();
  };
  CopyPlan plan;
  plan.consume = consume;
  plan.produce = consume.getFuture().getDefiningOp<ktdp::InterTileProduceOp>();
  if (!plan.produce)
    return refuse(consume, "the consumed future does not come from an "
                           "inter_tile_produce in the same function");
  auto func = consume->getParentOfType<func::FuncOp>();
  for (Operation *op : {plan.produce.getOperation(), consume.getOperation()})
    if (op->getParentOp() != func)
      return refuse(op, "an inter-tile consume inside a loop or a branch is "
                        "not supported by the scheduler yet");
  if (plan.produce->getBlock() != consume->getBlock() ||
      !plan.produce.getFuture().hasOneUse())
    return refuse(consume, "the future must be consumed once, in the block "
                           "of its produce");
  Block &body = plan.produce.getBody().front();
  auto yield = cast<ktdp::YieldPartialOp>(body.getTerminator());
  if (yield.getValues().size() != 1 || consume->getNumResults() != 1)
    return refuse(plan.produce, "an inter_tile_produce that yields several "
                                "partials is not supported by the scheduler "
                                "yet");
  if (!body.getArgument(0).use_empty())
    return refuse(plan.produce, "the scheduler computes a consumed partial "
                                "on every tile, so its produce's body may "
                                "not use the group id");
  for (Operation &op : body.without_terminator())
    if (!isRecomputable(&op, func))
      return refuse(&op, "the scheduler computes a consumed partial on "
                         "every tile, and this op cannot be (it reads a "
                         "tensor the kernel writes, or has effects)");
  plan.partial = yield.getValues().front();
  auto type = dyn_cast<RankedTensorType>(plan.partial.getType());
  if (!type || !type.hasStaticShape() ||
      !isa<Float16Type, BFloat16Type, Float32Type>(type.getElementType()))
    return refuse(plan.produce, "the scheduler copies statically shaped "
                                "f16, bf16 or f32 partials only");
  auto grid = ktdp::getLaunchGrid(func);
  if (failed(grid) || !*grid)
    return refuse(consume, "the kernel has no launch grid");
  if (failed(findSources(plan, ktdp::getNumTiles(**grid), refusal)))
    return failure();
  return plan;
}

std::optional<std::pair<Operation *, std::string>>
mlir::ktdf::whyNotTileCopy(Operation *op) {
  auto consume = dyn_cast<ktdp::InterTileConsumeOp>(op);
  if (!consume)
    return std::make_pair(op, std::string("not an inter_tile_consume"));
  InterTileRefusal refusal;
  if (failed(analyze(consume, refusal)))
    return refusal;
  return std::nullopt;
}

LogicalResult mlir::ktdf::lowerConsume(ktdp::InterTileConsumeOp consume,
                                       func::FuncOp func,
                                       ScratchpadCursor &cursor,
                                       InterTileRefusal &refusal) {
  FailureOr<CopyPlan> plan = analyze(consume, refusal);
  if (failed(plan))
    return failure();
  // The body runs on every tile, before the produce.
  Block &body = plan->produce.getBody().front();
  for (Operation &op : llvm::make_early_inc_range(body.without_terminator()))
    op.moveBefore(plan->produce);
  auto type = cast<RankedTensorType>(plan->partial.getType());
  Location loc = consume.getLoc();
  Value source =
      createScratchpadTile(func, cursor, type, loc, kExchangeViewAttrName);
  Value dest =
      createScratchpadTile(func, cursor, type, loc, kExchangeViewAttrName);
  OpBuilder b(plan->produce);
  ktdp::StoreOp::create(b, plan->produce.getLoc(), plan->partial, source);
  bool selfSourced = llvm::any_of(llvm::enumerate(plan->sources), [](auto e) {
    return static_cast<int64_t>(e.index()) == e.value();
  });
  if (selfSourced)
    ktdp::StoreOp::create(b, plan->produce.getLoc(), plan->partial, dest);
  b.setInsertionPoint(consume);
  auto copy =
      TileCopyOp::create(b, loc, ktdp::getAccessTileView(source).getResult(),
                         ktdp::getAccessTileView(dest).getResult(),
                         b.getDenseI64ArrayAttr(plan->sources),
                         selfSourced ? b.getUnitAttr() : UnitAttr());
  auto load = ktdp::LoadOp::create(b, loc, type, dest);
  consume.getResult(0).replaceAllUsesWith(load.getResult());
  consume.erase();
  plan->produce.erase();
  // Values computed before the copy (the partial's, an earlier copy's
  // result read back) and used after it are computed again after it.
  return recomputeAfter(copy, load, func, refusal);
}

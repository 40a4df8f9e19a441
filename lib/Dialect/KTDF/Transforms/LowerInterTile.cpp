//===- LowerInterTile.cpp - Inter-tile reductions as all-reduces ----------===//
//
// This file implements --ktdf-lower-inter-tile. The scheduler makes
// pipelines of one tile's compute groups; what crosses tiles is a
// `ktdf.all_reduce` of a scratchpad view, which ktdf-schedule-all-reduce
// and the lowering turn into a ring over the core interconnect. Here each
// `inter_tile_produce` + `inter_tile_reduce` pair becomes: a store of the
// partial into a `ct_local` view of its own, the all-reduce of that view
// over the groups (enumerated now, in linear tile ids as the interpreter
// numbers them), and a load of the combined value, reshaped to the
// reduce's result type. The compute groups before and after it are
// ordinary pipelines; the scratchpad-view channels order them around the
// all-reduce's stages. A pair inside `scf.for` loops stays there, each
// trip exchanging through the same views (InterTileLoops.cpp checks that
// every tile runs the same trips and that the reuse is ordered).
//
//===----------------------------------------------------------------------===//

#include "InterTile.h"
#include "TileSlices.h"

#include "ktflow/Dialect/KTDF/IR/ScatterAttr.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSwitch.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFLOWERINTERTILE
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

bool mlir::ktdf::isExchangeView(Operation *view) {
  return view && view->hasAttr(kExchangeViewAttrName);
}

namespace {
/// What one produce + reduce pair exchanges.
struct ExchangePlan {
  ktdp::InterTileProduceOp produce;
  ktdp::InterTileReduceOp reduce;
  Value partial;
  std::string combiner;
  SmallVector<SmallVector<int64_t>> groups;
};

using Refusal = InterTileRefusal;
} // namespace

bool mlir::ktdf::isAllReduceCombiner(StringRef name) {
  static const char *const arithOps[] = {"arith.addf",     "arith.mulf",
                                         "arith.maximumf", "arith.minimumf",
                                         "arith.maxnumf",  "arith.minnumf"};
  return llvm::is_contained(arithOps, name);
}

bool mlir::ktdf::isNeutral(Value value, StringRef combiner) {
  Attribute attr;
  if (auto splat = value.getDefiningOp<tensor::SplatOp>())
    matchPattern(splat.getInput(), m_Constant(&attr));
  else if (matchPattern(value, m_Constant(&attr)))
    if (auto dense = dyn_cast<SplatElementsAttr>(attr))
      attr = dense.getSplatValue<Attribute>();
  auto f = dyn_cast_or_null<FloatAttr>(attr);
  if (!f)
    return false;
  APFloat v = f.getValue();
  if (combiner == "arith.addf")
    return v.isZero();
  if (combiner == "arith.mulf")
    return v.isExactlyValue(1.0);
  if (combiner == "arith.maximumf" || combiner == "arith.maxnumf")
    return v.isInfinity() && v.isNegative();
  return v.isInfinity() && !v.isNegative();
}

/// The arith op `combine` computes on arguments `a` and `b` of a combiner:
/// an element-wise arith float op of both, or the linalg named op that
/// applies it (`linalg.add ins(%a, %b) outs(%a)`, whose output it does not
/// read).
static std::optional<StringRef> combinerOf(Operation *combine, Value a,
                                           Value b) {
  StringRef name = combine->getName().getStringRef();
  ValueRange inputs = combine->getOperands();
  if (auto named = dyn_cast<linalg::LinalgOp>(combine)) {
    inputs = named.getDpsInputs();
    name = llvm::StringSwitch<StringRef>(name)
               .Case("linalg.add", "arith.addf")
               .Case("linalg.mul", "arith.mulf")
               .Case("linalg.max", "arith.maximumf")
               .Case("linalg.min", "arith.minimumf")
               .Default("");
  }
  if (!isAllReduceCombiner(name) || inputs.size() != 2 ||
      !llvm::is_contained(inputs, a) || !llvm::is_contained(inputs, b))
    return std::nullopt;
  return name;
}

SmallVector<int64_t> mlir::ktdf::tilesOfGroup(IntegerSet set, int64_t g,
                                              int64_t numTiles) {
  SmallVector<int64_t> tiles;
  for (int64_t t = 0; t < numTiles; ++t)
    if (ktdp::containsPoint(set, {t}, {g}))
      tiles.push_back(t);
  return tiles;
}

std::optional<std::string> mlir::ktdf::whyNotEnumerable(int64_t numTiles,
                                                        size_t groups) {
  if (numTiles <= kMaxGroupMembershipTests / std::max<int64_t>(groups, 1))
    return std::nullopt;
  return "the scheduler enumerates the groups of an exchange over the grid, "
         "and " +
         std::to_string(numTiles) + " tiles in " + std::to_string(groups) +
         " groups are more than it does (" +
         std::to_string(kMaxGroupMembershipTests) + " membership tests)";
}

static FailureOr<ExchangePlan> analyze(ktdp::InterTileReduceOp reduce,
                                       Refusal &refusal) {
  auto refuse = [&](Operation *at, const Twine &why) {
    refusal = {at, why.str()};
    return failure();
  };
  ExchangePlan plan;
  plan.reduce = reduce;
  plan.produce = reduce.getFuture().getDefiningOp<ktdp::InterTileProduceOp>();
  if (!plan.produce)
    return refuse(reduce, "the reduced future does not come from an "
                          "inter_tile_produce in the same function");
  auto func = reduce->getParentOfType<func::FuncOp>();
  for (Operation *op : {plan.produce.getOperation(), reduce.getOperation()})
    if (auto why = whyNotInLoops(op, func))
      return refuse(op, *why);
  if (plan.produce->getBlock() != reduce->getBlock() ||
      !plan.produce.getFuture().hasOneUse())
    return refuse(reduce, "the future must be reduced once, in the block of "
                          "its produce");
  Block &body = plan.produce.getBody().front();
  auto yield = cast<ktdp::YieldPartialOp>(body.getTerminator());
  if (body.getOperations().size() != 1 || yield.getValues().size() != 1)
    return refuse(plan.produce,
                  "an inter_tile_produce whose body computes or yields "
                  "several partials is not supported by the scheduler yet "
                  "(compute the partial before it and yield one value)");
  plan.partial = yield.getValues().front();
  if (isa<scf::ForOp>(reduce->getParentOp()))
    if (auto why = whyNotReusable(plan.partial, reduce))
      return refuse(reduce, *why);
  auto type = dyn_cast<RankedTensorType>(plan.partial.getType());
  if (!type || !type.hasStaticShape() ||
      !isa<Float16Type, BFloat16Type, Float32Type>(type.getElementType()))
    return refuse(plan.produce, "the scheduler exchanges statically shaped "
                                "f16, bf16 or f32 partials only");
  if (reduce.getProducerDependencyPerConsumer())
    return refuse(reduce, "a producer_dependency_per_consumer set is not "
                          "supported by the scheduler yet");
  // The combiner: one element-wise arith op of the two arguments.
  Block &combiner = reduce.getCombiner().front();
  auto reduced = cast<ktdp::YieldReducedOp>(combiner.getTerminator());
  Operation *combine = reduced.getValues().size() == 1
                           ? reduced.getValues().front().getDefiningOp()
                           : nullptr;
  std::optional<StringRef> op =
      combine ? combinerOf(combine, combiner.getArgument(0),
                           combiner.getArgument(1))
              : std::nullopt;
  if (!op || combiner.getOperations().size() != 2)
    return refuse(reduce, "the scheduler combines partials with one "
                          "element-wise arith.addf, mulf, maximumf, "
                          "minimumf, maxnumf or minnumf (or linalg.add, "
                          "mul, max, min) of the two arguments only");
  plan.combiner = op->str();
  if (reduce.getIdentity().size() != 1 ||
      !isNeutral(reduce.getIdentity().front(), plan.combiner))
    return refuse(reduce, "the identity of an inter-tile reduction must be "
                          "a splat constant of the combiner's neutral "
                          "element (0 for addf, 1 for mulf, -inf for "
                          "maximumf/maxnumf, +inf for minimumf/minnumf)");
  auto resultType = cast<RankedTensorType>(reduce.getResult(0).getType());
  if (resultType.getShape() != type.getShape() &&
      !getReassociationIndicesForCollapse(type.getShape(),
                                          resultType.getShape()))
    return refuse(reduce, "the result type only drops dimensions of extent "
                          "1 of the partial in the scheduler");
  // The groups, enumerated: every tile in exactly one, consumers the
  // producers.
  auto grid = ktdp::getLaunchGrid(func);
  if (failed(grid) || !*grid)
    return refuse(reduce, "the kernel has no launch grid");
  int64_t numTiles = ktdp::getNumTiles(**grid);
  auto futureType =
      cast<ktdp::TileFutureType>(plan.produce.getFuture().getType());
  auto ids = ktdp::enumerateBoundedPoints(futureType.getGroups().getValue(), {},
                                          1 << 16);
  if (failed(ids))
    return refuse(reduce, "the groups set is unbounded or too large");
  if (auto why = whyNotEnumerable(numTiles, ids->size()))
    return refuse(reduce, *why);
  SmallVector<int64_t> groupOf(numTiles, -1);
  for (const auto &point : *ids) {
    int64_t g = point.front();
    SmallVector<int64_t> producers =
        tilesOfGroup(plan.produce.getProducerTilesPerGroup(), g, numTiles);
    if (producers !=
        tilesOfGroup(reduce.getConsumerTilesPerGroup(), g, numTiles))
      return refuse(reduce, "group " + Twine(g) +
                                " has other consumers than producers; the "
                                "scheduler lowers all-reduces only");
    for (int64_t t : producers) {
      if (groupOf[t] >= 0)
        return refuse(reduce, "tile " + Twine(t) + " is in groups " +
                                  Twine(groupOf[t]) + " and " + Twine(g));
      groupOf[t] = g;
    }
    if (!producers.empty())
      plan.groups.push_back(producers);
  }
  for (auto [t, g] : llvm::enumerate(groupOf))
    if (g < 0)
      return refuse(reduce, "tile " + Twine(t) +
                                " is in no group; the scheduler lowers "
                                "groups that cover the grid only");
  return plan;
}

std::optional<std::pair<Operation *, std::string>>
mlir::ktdf::whyNotAllReduce(Operation *op) {
  auto reduce = dyn_cast<ktdp::InterTileReduceOp>(op);
  if (!reduce)
    return std::make_pair(op, std::string("not an inter_tile_reduce"));
  Refusal refusal;
  if (failed(analyze(reduce, refusal)))
    return refusal;
  return std::nullopt;
}

bool mlir::ktdf::isRecomputable(Operation *op, func::FuncOp func) {
  if (auto load = dyn_cast<ktdp::LoadOp>(op)) {
    auto view = ktdp::getAccessTileView(load.getAccessTile());
    if (!view)
      return false;
    // An earlier exchange's result: its all-reduce was the last write.
    if (isExchangeView(view))
      return true;
    bool stored = false;
    func.walk([&](ktdp::StoreOp store) {
      auto other = ktdp::getAccessTileView(store.getAccessTile());
      stored |= !other || other.getOffset() == view.getOffset();
    });
    return !stored;
  }
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return linalgOp.hasPureTensorSemantics();
  return isMemoryEffectFree(op);
}

/// Whether `def` computes tensor data that an exchange orders: a tensor, a
/// load, or a scalar extracted from a tensor (a row's all-reduced maximum,
/// which a later exchange's compute groups would otherwise read from both
/// sides of it once ktdf-generalize folds the broadcast back into them).
static bool isTensorData(Operation *def) {
  return isa<RankedTensorType>(def->getResult(0).getType()) ||
         isa<ktdp::LoadOp, tensor::ExtractOp>(def);
}

// Recomputing (a row loaded again) is what streaming does anyway.
LogicalResult mlir::ktdf::recomputeAfter(Operation *boundary, Operation *point,
                                         func::FuncOp func, Refusal &refusal) {
  Block *block = point->getBlock();
  llvm::SetVector<Value> needed;
  for (Operation *op = point->getNextNode(); op; op = op->getNextNode())
    op->walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        if (isa<RankedTensorType>(v.getType()) ||
            v.getDefiningOp<tensor::ExtractOp>())
          if (Operation *def = v.getDefiningOp();
              def && def->getBlock() == block && def->isBeforeInBlock(boundary))
            needed.insert(v);
    });
  if (needed.empty())
    return success();
  // The backward slice of what is needed, in program order.
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> work(needed.begin(), needed.end());
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != block || !def->isBeforeInBlock(boundary) ||
        def->hasTrait<OpTrait::ConstantLike>() || !slice.insert(def))
      continue;
    if (!isTensorData(def))
      continue; // Index arithmetic and views stay where they are.
    if (!isRecomputable(def, func)) {
      refusal = {def, "a value computed before an inter-tile reduction and "
                      "used after it must be computed again after it, and "
                      "this op cannot be (it reads a tensor the kernel "
                      "writes, or has effects)"};
      return failure();
    }
    def->walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        work.push_back(v);
    });
  }
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  IRMapping mapping;
  OpBuilder b(point->getContext());
  b.setInsertionPointAfter(point);
  for (Operation *op : ordered)
    if (isTensorData(op))
      b.clone(*op, mapping);
  for (Operation *op = b.getInsertionPoint() == block->end()
                           ? nullptr
                           : &*b.getInsertionPoint();
       op; op = op->getNextNode())
    op->walk([&](Operation *inner) {
      for (OpOperand &use : inner->getOpOperands())
        if (Value mapped = mapping.lookupOrNull(use.get()))
          use.set(mapped);
    });
  return success();
}

/// The reads of `plan`'s result when it may be exchanged as a
/// reduce-scatter, or none: the reduce is marked `ktdf.scatter`, outside
/// loops (a next trip's ring would write the received views with no
/// all-gather to order it after this trip's reads), its groups have one
/// size P, it is read as the partial was stored (`stored`: the result
/// itself, or the result of a partial collapsed from `stored` expanded
/// back to its shape), and every read is a `tensor.extract_slice` of
/// R / P whole rows, R its first dimension, which the marker promises to
/// be the reading tile's own. The expand_shapes read go in `expands`.
static SmallVector<tensor::ExtractSliceOp>
scatteredReads(const ExchangePlan &plan, Value stored,
               SmallVector<tensor::ExpandShapeOp> &expands) {
  ktdp::InterTileReduceOp reduce = plan.reduce;
  Value result = reduce.getResult(0);
  auto type = cast<RankedTensorType>(stored.getType());
  int64_t members = plan.groups.front().size();
  bool sameSize = llvm::all_of(plan.groups, [&](const auto &group) {
    return static_cast<int64_t>(group.size()) == members;
  });
  if (!isScattered(reduce) || reduce->getParentOfType<scf::ForOp>() ||
      !sameSize || members < 2 || type.getRank() < 1 ||
      type.getDimSize(0) % members != 0 || result.use_empty())
    return {};
  // The values read as the partial was stored.
  SmallVector<Value> read;
  if (stored == plan.partial && result.getType() == type) {
    read.push_back(result);
  } else if (stored != plan.partial) {
    for (Operation *user : result.getUsers()) {
      auto expand = dyn_cast<tensor::ExpandShapeOp>(user);
      if (!expand || expand.getResultType() != type)
        return {};
      expands.push_back(expand);
      read.push_back(expand.getResult());
    }
  }
  if (read.empty())
    return {};
  int64_t rows = type.getDimSize(0) / members;
  SmallVector<tensor::ExtractSliceOp> reads;
  for (Value value : read)
    for (Operation *user : value.getUsers()) {
      auto slice = dyn_cast<tensor::ExtractSliceOp>(user);
      if (!slice || slice.getSource() != value)
        return {};
      for (int64_t d = 0; d < type.getRank(); ++d)
        if (slice.getStaticSizes()[d] != (d == 0 ? rows : type.getDimSize(d)) ||
            slice.getStaticStrides()[d] != 1 ||
            (d > 0 && slice.getStaticOffsets()[d] != 0))
          return {};
      if (slice.getOffsets().size() != 1)
        return {};
      reads.push_back(slice);
    }
  return reads;
}

/// Rewrites one pair (see the file comment).
static LogicalResult rewrite(ExchangePlan &plan, func::FuncOp func,
                             ScratchpadCursor &cursor, Refusal &refusal) {
  // A partial expanded from a value without its dimensions of extent 1 (a
  // column reduction's 128 sums expanded to 1x128) is kept as that value,
  // which streams as the reduction's per-column output.
  auto resultType = cast<RankedTensorType>(plan.reduce.getResult(0).getType());
  auto reshapes = [&](ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
    return from == to ||
           (from.size() > to.size()
                ? getReassociationIndicesForCollapse(from, to).has_value()
                : getReassociationIndicesForCollapse(to, from).has_value());
  };
  Value stored = plan.partial;
  if (auto expand = plan.partial.getDefiningOp<tensor::ExpandShapeOp>())
    if (reshapes(expand.getSrcType().getShape(), resultType.getShape()))
      stored = expand.getSrc();
  // A partial flattened for the exchange (a 4x64 matrix product collapsed
  // to 256) is exchanged as it was computed: the view holds it row-major,
  // the same elements in the same order, and the all-reduce combines
  // elements independently.
  auto collapse = plan.partial.getDefiningOp<tensor::CollapseShapeOp>();
  if (collapse && collapse.getSrcType().hasStaticShape())
    stored = collapse.getSrc();
  auto type = cast<RankedTensorType>(stored.getType());
  Location loc = plan.reduce.getLoc();
  auto reshape = [&](OpBuilder &b, Value v, RankedTensorType to) -> Value {
    auto from = cast<RankedTensorType>(v.getType());
    if (from == to)
      return v;
    if (from.getRank() > to.getRank())
      return tensor::CollapseShapeOp::create(
          b, loc, to, v,
          *getReassociationIndicesForCollapse(from.getShape(), to.getShape()));
    return tensor::ExpandShapeOp::create(
        b, loc, to, v,
        *getReassociationIndicesForCollapse(to.getShape(), from.getShape()));
  };
  Value tile =
      createScratchpadTile(func, cursor, type, loc, kExchangeViewAttrName);
  int64_t members = 1;
  for (const auto &group : plan.groups)
    members = std::max<int64_t>(members, group.size());
  int64_t chunk = (type.getNumElements() + members - 1) / members;
  auto receivedType = RankedTensorType::get(
      {std::max<int64_t>(1, (members - 1) * chunk)}, type.getElementType());
  Value received = createScratchpadTile(func, cursor, receivedType, loc,
                                        kExchangeViewAttrName);
  OpBuilder b(plan.produce);
  ktdp::StoreOp::create(b, plan.produce.getLoc(), stored, tile);
  b.setInsertionPoint(plan.reduce);
  SmallVector<Attribute> groups;
  for (const auto &group : plan.groups)
    groups.push_back(b.getDenseI64ArrayAttr(group));
  auto allReduce = AllReduceOp::create(
      b, loc, ktdp::getAccessTileView(tile).getResult(),
      ktdp::getAccessTileView(received).getResult(),
      b.getStringAttr(plan.combiner), b.getArrayAttr(groups), IntegerAttr(),
      IntegerAttr(), IntegerAttr());
  // A reduce-scatter: each tile loads the rows its chunk holds, the
  // groups listing their tiles in ascending order as the marker numbers
  // them.
  SmallVector<tensor::ExpandShapeOp> expands;
  SmallVector<tensor::ExtractSliceOp> reads =
      (stored == plan.partial || collapse)
          ? scatteredReads(plan, stored, expands)
          : SmallVector<tensor::ExtractSliceOp>();
  if (!reads.empty()) {
    setScattered(allReduce);
    for (tensor::ExtractSliceOp slice : reads) {
      b.setInsertionPoint(slice);
      Value rows = buildDimSlice(b, tile, 0, slice.getOffsets().front(),
                                 slice.getType().getDimSize(0));
      slice.replaceAllUsesWith(
          ktdp::LoadOp::create(b, loc, slice.getType(), rows).getResult());
      slice.erase();
    }
    for (tensor::ExpandShapeOp expand : expands)
      expand.erase();
    Operation *store = plan.produce->getPrevNode();
    plan.reduce.erase();
    plan.produce.erase();
    return recomputeAfter(store, allReduce, func, refusal);
  }
  auto load = ktdp::LoadOp::create(b, loc, type, tile);
  // The result expanded back to the partial's shape is the loaded value.
  for (Operation *user :
       llvm::make_early_inc_range(plan.reduce.getResult(0).getUsers()))
    if (auto expand = dyn_cast<tensor::ExpandShapeOp>(user);
        expand && expand.getResultType() == type) {
      expand.replaceAllUsesWith(load.getResult());
      expand.erase();
    }
  if (!plan.reduce.getResult(0).use_empty())
    plan.reduce.getResult(0).replaceAllUsesWith(
        reshape(b, load.getResult(), resultType));
  Operation *store = plan.produce->getPrevNode();
  plan.reduce.erase();
  plan.produce.erase();
  if (collapse && collapse->use_empty())
    collapse.erase();
  return recomputeAfter(store, load, func, refusal);
}

namespace {
struct LowerInterTilePass
    : public ktdf::impl::KTDFLowerInterTileBase<LowerInterTilePass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      SmallVector<ktdp::InterTileReduceOp> reduces;
      func.walk([&](ktdp::InterTileReduceOp op) { reduces.push_back(op); });
      SmallVector<ktdp::InterTileConsumeOp> consumes;
      func.walk([&](ktdp::InterTileConsumeOp op) { consumes.push_back(op); });
      ScratchpadCursor cursor(func);
      for (ktdp::InterTileConsumeOp consume : consumes) {
        Refusal refusal;
        if (failed(lowerConsume(consume, func, cursor, refusal))) {
          refusal.first->emitError(refusal.second);
          return signalPassFailure();
        }
      }
      for (ktdp::InterTileReduceOp reduce : reduces) {
        Refusal refusal;
        FailureOr<ExchangePlan> plan = analyze(reduce, refusal);
        if (failed(plan)) {
          refusal.first->emitError(refusal.second);
          return signalPassFailure();
        }
        if (failed(rewrite(*plan, func, cursor, refusal))) {
          refusal.first->emitError(refusal.second);
          return signalPassFailure();
        }
      }
    }
  }
};
} // namespace

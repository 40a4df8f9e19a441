//===- SplitWideReductions.cpp - Wide rows cut over idle cores ------------===//
//
// This file implements --ktdf-split-wide-reductions. A kernel of one grid
// point that reduces rows (a softmax's maximum and sum, an RMSNorm's sum of
// squares) runs on one compute unit however wide its rows are: the field
// guide's 2 rows of 262,144 f16 keep one of spyre_like's 64 units busy. The
// pass cuts every row tensor of the kernel into P column parts, P a new
// first grid dimension: part p loads, computes and stores columns [p W/P,
// (p + 1) W/P) of each row, and each reduction along the row folds its own
// columns into a partial that an inter-tile all-reduce over the P parts
// combines (ktdf-lower-inter-tile lowers it, in the row loop) before
// anything reads it. Each part then goes on with the row's value.
//
// Numerics: each part folds its columns in order from the reduction's init,
// which must be the combiner's neutral element, and the all-reduce folds
// the partials: a maximum or minimum is the kernel's, bit for bit (maxnumf
// ignores NaN in any order from -inf); a sum is the same terms associated
// differently, which --check's reordering bound covers.
//
// P is the largest divisor of W no larger than the device's cores (an
// all-reduce's ring runs between the scratchpads of different cores) whose
// parts keep at least `min-part-columns` columns; a kernel whose reductions
// already have as many known rows as the device has cores is left to the
// passes that spread rows (ktdf-split-row-tiles, ktdf-spread-iterations).
//
// A kernel of several points is cut when it shards a contraction whose
// partial it all-reduces itself (a tensor-parallel FFN): each shard's
// contraction columns go into P parts, a new last grid dimension, over the
// cores the points leave idle. Tiles number the first dimension fastest
// (shard s, part p is tile s + S p of S shards), so two rings sum the
// partials: one over each run of P consecutive tiles (neighbours), then
// the kernel's all-reduce over the tiles P apart, one from each run.
//
//===----------------------------------------------------------------------===//

#include "ColumnPlan.h"
#include "InterTile.h"
#include "OutputSlices.h"
#include "OwnRowStores.h"
#include "ScratchpadViews.h"
#include "TileSlices.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"
#include "ktflow/Scheduler/ScheduleTarget.h"
#include "ktflow/Scheduler/ScheduleTargetPass.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFSPLITWIDEREDUCTIONS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

/// The groups `(g)` 0 .. `count` - 1.
static IntegerSet groupRange(int64_t count, MLIRContext *ctx) {
  AffineExpr g = getAffineDimExpr(0, ctx);
  if (count == 1)
    return IntegerSet::get(1, 0, {g}, {true});
  return IntegerSet::get(1, 0, {g, count - 1 - g}, {false, false});
}

/// The tiles `(i)[g]` g `parts` .. (g + 1) `parts` - 1: a run of
/// consecutive tiles, neighbours on the interconnect. Tiles number the
/// first dimension fastest (shard s, part p is tile s + S p of S shards),
/// so a run is not one shard's parts: with S = `parts` (mesh_device's
/// [4, 4]) it is part g of every shard.
static IntegerSet shardTiles(int64_t parts, MLIRContext *ctx) {
  AffineExpr i = getAffineDimExpr(0, ctx), g = getAffineSymbolExpr(0, ctx);
  return IntegerSet::get(1, 1, {i - g * parts, g * parts + parts - 1 - i},
                         {false, false});
}

/// The tiles `(i)[g]` g, g + `parts`, g + 2 `parts`, ... of a grid of
/// `numTiles`: one from each run of shardTiles, so that after both rings
/// every tile holds the sum over the grid. With S = `parts` shards group g
/// is shard g's parts.
static IntegerSet partTiles(int64_t parts, int64_t numTiles, MLIRContext *ctx) {
  AffineExpr i = getAffineDimExpr(0, ctx), g = getAffineSymbolExpr(0, ctx);
  return IntegerSet::get(1, 1, {(i - g) % parts, i, numTiles - 1 - i},
                         {true, false, false});
}

/// Widens to f32 the partial of the contraction chain ending at `last`
/// (each product accumulating into the previous one's result, the first
/// from zero) when it is a 16-bit float: each part sums its products in
/// f32, the all-reduce sums the parts' f32 partials, and one truncf after
/// it rounds, as the kernel's product rounds its f32 sum once. 16-bit
/// partials, each rounded by its part, moved the sum by an ulp of the
/// largest partial (swiglu_ffn in 8 parts on spyre_like: 2.84 for 2.81).
/// Returns the widened last product, or `last` unchanged.
static Operation *widenContraction(linalg::MatmulOp last) {
  auto type = cast<RankedTensorType>(last.getResult(0).getType());
  auto element = dyn_cast<FloatType>(type.getElementType());
  if (!element || element.getWidth() != 16)
    return last;
  SmallVector<linalg::MatmulOp> chain{last};
  while (auto previous =
             chain.back().getOutputs()[0].getDefiningOp<linalg::MatmulOp>())
    chain.push_back(previous);
  std::reverse(chain.begin(), chain.end());
  OpBuilder b(chain.front());
  auto wide = type.clone(b.getF32Type());
  Value init = chain.front().getOutputs()[0];
  Value sum = arith::ConstantOp::create(
      b, chain.front().getLoc(),
      DenseElementsAttr::get(wide, b.getZeroAttr(b.getF32Type())));
  linalg::MatmulOp widened;
  for (linalg::MatmulOp product : chain) {
    b.setInsertionPoint(product);
    widened = linalg::MatmulOp::create(b, product.getLoc(), TypeRange{wide},
                                       product.getInputs(), ValueRange{sum});
    widened->setDiscardableAttrs(product->getDiscardableAttrDictionary());
    sum = widened.getResult(0);
  }
  b.setInsertionPointAfter(widened);
  Value rounded = arith::TruncFOp::create(b, last.getLoc(), type, sum);
  last.getResult(0).replaceAllUsesWith(rounded);
  for (linalg::MatmulOp product : llvm::reverse(chain))
    product.erase();
  // The chain's zero start, now unused (a fill of an empty, a splat).
  for (Operation *def = init.getDefiningOp(); def && def->use_empty();) {
    auto fill = dyn_cast<linalg::FillOp>(def);
    Operation *next = fill ? fill.getOutputs()[0].getDefiningOp() : nullptr;
    def->erase();
    def = next;
  }
  return widened;
}

/// Inserts after `reduction` the all-reduce of its partial over the tiles
/// `tiles` names in each of the groups `groups` names, whose result
/// replaces the partial for everything after it.
static void allReducePartial(const RowReduction &reduction, IntegerSet tiles,
                             IntegerSet groups) {
  Operation *op = reduction.contraction
                      ? widenContraction(cast<linalg::MatmulOp>(reduction.op))
                      : reduction.op;
  MLIRContext *ctx = op->getContext();
  Location loc = op->getLoc();
  Value partial = op->getResult(0);
  auto type = cast<RankedTensorType>(partial.getType());
  Value init = cast<DestinationStyleOpInterface>(op).getDpsInits()[0];
  OpBuilder b(ctx);
  b.setInsertionPointAfter(op);
  // A contraction's chain starts from zero: its last product's output
  // is the previous partial.
  if (reduction.contraction)
    init = arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(type, b.getZeroAttr(type.getElementType())));
  auto produce = ktdp::InterTileProduceOp::create(
      b, loc,
      ktdp::TileFutureType::get(ctx, {type}, IntegerSetAttr::get(groups)),
      IntegerSetAttr::get(tiles));
  Block *body = b.createBlock(&produce.getBody());
  body->addArgument(b.getIndexType(), loc);
  ktdp::YieldPartialOp::create(b, loc, ValueRange{partial});
  b.setInsertionPointAfter(produce);
  // The identity is the reduction's init: the neutral element.
  auto reduce = ktdp::InterTileReduceOp::create(
      b, loc, TypeRange{type}, produce.getFuture(), ValueRange{init},
      IntegerSetAttr::get(tiles), IntegerSetAttr());
  Block *combiner = b.createBlock(&reduce.getCombiner());
  Value lhs = combiner->addArgument(type, loc);
  Value rhs = combiner->addArgument(type, loc);
  OperationState state(loc, reduction.combiner);
  state.addOperands({lhs, rhs});
  state.addTypes(type);
  Value combined = b.create(state)->getResult(0);
  ktdp::YieldReducedOp::create(b, loc, ValueRange{combined});
  partial.replaceAllUsesExcept(reduce.getResult(0), body->getTerminator());
}

/// Moves `store` into a loop of one trip on part 0 and none on the others:
/// the parts' copies of a whole value are the same, and writing them all
/// would race.
static void storeOnFirstPart(OpBuilder &b, ktdp::StoreOp store, Value part) {
  Location loc = store.getLoc();
  b.setInsertionPoint(store);
  storeOnlyWhere(
      b, store,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, part,
                            arith::ConstantIndexOp::create(b, loc, 0)));
}

/// Gives each use of an empty or a splat constant tensor its own op, so
/// that a plan may cut one use and keep another whole (a zero fill of one
/// empty for a cut product, another for a contraction's whole partial).
static void separateLeaves(func::FuncOp func) {
  func.walk([](Operation *op) {
    auto constant = dyn_cast<arith::ConstantOp>(op);
    bool leaf = isa<tensor::EmptyOp>(op) ||
                (constant && isa<SplatElementsAttr>(constant.getValue()) &&
                 isa<RankedTensorType>(constant.getType()));
    if (!leaf || op->use_empty())
      return;
    for (OpOperand &use :
         llvm::make_early_inc_range(llvm::drop_begin(op->getUses()))) {
      OpBuilder b(op);
      use.set(b.clone(*op)->getResult(0));
    }
  });
}

/// Cuts `func` (grid `grid`) into `parts` column parts of its plan's rows,
/// the parts a new grid dimension: the first of one point, the last of
/// several (the shards' exchanges, `shared`, then fold the partials of
/// tiles `parts` apart, in the order of their tiles).
static void splitColumns(func::FuncOp func, ArrayRef<int64_t> grid,
                         const ColumnPlan &plan, int64_t parts,
                         ArrayRef<ktdp::InterTileReduceOp> shared) {
  OpBuilder b(func.getContext());
  bool onePoint = ktdp::getNumTiles(grid) == 1;
  if (onePoint) {
    // Every tile id the point reads is 0, whichever part runs it, and the
    // loops around the exchanges run the same trips on every part.
    b.setInsertionPointToStart(&func.getBody().front());
    Value zero = arith::ConstantIndexOp::create(b, func.getLoc(), 0);
    func.walk([&](ktdp::GetComputeTileIdOp ids) {
      for (Value id : ids.getResults())
        id.replaceAllUsesWith(zero);
      ids.erase();
    });
  }
  Value part = addGridDimension(func, ktdp::getGridOwner(func), grid, parts,
                                /*first=*/onePoint);
  int64_t width = plan.getColumns() / parts;
  b.setInsertionPointAfterValue(part);
  Value column = arith::MulIOp::create(
      b, func.getLoc(), part,
      arith::ConstantIndexOp::create(b, func.getLoc(), width));
  // A store writes its columns of a row tensor of the plan, or a value
  // every part computes whole: its own rows of an all-reduced sum
  // (storeOwnRows, storeShardRows, once the sums are exchanged), else on
  // part 0 alone.
  llvm::SmallPtrSet<Value, 16> cut(llvm::from_range, plan.getValues());
  SmallVector<ktdp::StoreOp> stores, whole;
  func.walk([&](ktdp::StoreOp store) { stores.push_back(store); });
  for (ktdp::StoreOp store : stores) {
    b.setInsertionPoint(store);
    if (cut.contains(store.getDataTile()))
      store.getAccessTileMutable().assign(
          buildColumnSlice(b, store.getAccessTile(), column, width));
    else
      whole.push_back(store);
  }
  auto cutAlong = [&](unsigned dim) {
    return [&, dim](Value v) {
      auto type = cast<RankedTensorType>(v.getType());
      SmallVector<int64_t> shape(type.getShape());
      shape[dim == 0 ? 0 : shape.size() - 1] = width;
      return type.clone(shape);
    };
  };
  retypeValues(b, plan.getValues(), cutAlong(1), [&](ktdp::LoadOp load) {
    return buildColumnSlice(b, load.getAccessTile(), column, width);
  });
  retypeValues(b, plan.getRowValues(), cutAlong(0), [&](ktdp::LoadOp load) {
    return buildDimSlice(b, load.getAccessTile(), 0, column, width);
  });
  func.walk([](ktdp::ConstructAccessTileOp tile) {
    if (tile->use_empty())
      tile.erase();
  });
  MLIRContext *ctx = func.getContext();
  if (onePoint) {
    for (const RowReduction &reduction : plan.getReductions())
      allReducePartial(reduction, everyTileSet(parts, ctx), groupRange(1, ctx));
    // Tile p of the one group is part p.
    for (ktdp::StoreOp store : whole)
      if (!storeOwnRows(b, store, part, parts)) {
        b.setInsertionPoint(store);
        storeOnFirstPart(b, store, part);
      }
    return;
  }
  // Runs of `parts` consecutive tiles sum their partials first (a ring of
  // neighbours), then the kernel's all-reduce sums those sums in `parts`
  // groups of tiles `parts` apart, one from each run: two short rings, not
  // one of every tile. Tiles number the first dimension fastest (shard s,
  // part p is tile s + S p), so a run is not one shard's parts.
  int64_t shards = ktdp::getNumTiles(grid);
  auto tiles = IntegerSetAttr::get(partTiles(parts, shards * parts, ctx));
  auto groups = IntegerSetAttr::get(groupRange(parts, ctx));
  for (auto [reduction, shardReduce] :
       llvm::zip(plan.getReductions(), shared)) {
    allReducePartial(reduction, shardTiles(parts, ctx),
                     groupRange(shards, ctx));
    ktdp::InterTileReduceOp reduce = shardReduce;
    auto produce = reduce.getFuture().getDefiningOp<ktdp::InterTileProduceOp>();
    auto type = cast<ktdp::TileFutureType>(produce.getFuture().getType());
    produce.getFuture().setType(
        ktdp::TileFutureType::get(ctx, type.getPartialTypes(), groups));
    produce.setProducerTilesPerGroupAttr(tiles);
    reduce.setConsumerTilesPerGroupAttr(tiles);
  }
  // A store of the kernel's sum (tile 0's, of a value every tile holds):
  // each shard its own rows, which its parts' reduce-scatter leaves it.
  SmallVector<int64_t> cutGrid(grid);
  cutGrid.push_back(parts);
  for (ktdp::StoreOp store : whole)
    if (!storeShardRows(b, store, part.getDefiningOp()->getResults(), cutGrid,
                        shared))
      storeOnFirstPart(b, store, part);
}

/// The largest divisor of `columns` at most `cores` whose parts keep at
/// least `minColumns` columns; 1 when none does.
static int64_t partsFor(int64_t columns, int64_t cores, int64_t minColumns) {
  for (int64_t parts = cores; parts > 1; --parts)
    if (columns % parts == 0 && columns / parts >= minColumns)
      return parts;
  return 1;
}

/// The fewest columns a part of a contraction keeps: spyre_like's PT is 8
/// wide. On mesh_device's 16-wide MXU a part of 8 pads the projections
/// that compute its columns (16 waves, as for 16 columns) but contracts
/// half the rows (8 waves): swiglu_ffn's six products a tile 954 -> 826
/// cycles. Fewer columns (16 parts of 4) keep the projections' waves and
/// double the all-reduce's ring.
constexpr int64_t kMinContractedColumns = 8;

/// The kernel's own all-reduce of `partial`, a contraction's partial over
/// a shard's columns, or null: its only use (through shape casts used
/// once) is the one value an inter_tile_produce yields, outside loops,
/// reduced once with an addf (or linalg.add) from zero by every tile of
/// the grid of `numTiles`, in one group. It can then sum, in groups of
/// tiles P apart, what runs of P consecutive tiles summed first (P parts
/// a shard). In a loop it would reduce that sum's result, a loaded tensor whose
/// views the next trip could overwrite (whyNotReusable).
static ktdp::InterTileReduceOp sharedAllReduce(Value partial,
                                               int64_t numTiles) {
  Value value = partial;
  while (value.hasOneUse() &&
         isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(
             *value.getUsers().begin()))
    value = value.getUsers().begin()->getResult(0);
  auto yield = value.hasOneUse()
                   ? dyn_cast<ktdp::YieldPartialOp>(*value.getUsers().begin())
                   : nullptr;
  auto produce = yield
                     ? dyn_cast<ktdp::InterTileProduceOp>(yield->getParentOp())
                     : nullptr;
  if (!produce || yield.getValues().size() != 1 ||
      !produce.getFuture().hasOneUse() ||
      produce->getParentOfType<scf::ForOp>())
    return {};
  auto reduce = dyn_cast<ktdp::InterTileReduceOp>(
      *produce.getFuture().getUsers().begin());
  if (!reduce || reduce.getIdentity().size() != 1 ||
      !isNeutral(reduce.getIdentity().front(),
                 arith::AddFOp::getOperationName()))
    return {};
  auto combined = reduce.getCombiner().front().getTerminator()->getOperands();
  Operation *combine =
      combined.size() == 1 ? combined.front().getDefiningOp() : nullptr;
  if (!isa_and_nonnull<arith::AddFOp, linalg::AddOp>(combine))
    return {};
  return isEveryTileReduce(reduce, numTiles) ? reduce : nullptr;
}

/// The all-reduces of the kernel's own that `plan`'s partials (contractions
/// only) join, one per partial; failure when a partial has none or the
/// kernel exchanges anything else, whose tile sets the new grid dimension
/// would change.
static FailureOr<SmallVector<ktdp::InterTileReduceOp>>
sharedAllReduces(func::FuncOp func, const ColumnPlan &plan, int64_t numTiles) {
  SmallVector<ktdp::InterTileReduceOp> shared;
  for (const RowReduction &reduction : plan.getReductions()) {
    auto reduce = reduction.contraction
                      ? sharedAllReduce(reduction.op->getResult(0), numTiles)
                      : nullptr;
    if (!reduce || llvm::is_contained(shared, reduce))
      return failure();
    shared.push_back(reduce);
  }
  int64_t exchanges = 0;
  func.walk([&](Operation *op) {
    exchanges += isa<ktdp::InterTileProduceOp, ktdp::InterTileReduceOp,
                     ktdp::InterTileConsumeOp>(op);
  });
  if (exchanges != 2 * static_cast<int64_t>(shared.size()))
    return failure();
  return shared;
}

namespace {
struct SplitWideReductionsPass
    : public ktflow::sched::WithScheduleTarget<
          ktdf::impl::KTDFSplitWideReductionsBase<SplitWideReductionsPass>> {
  using Base::Base;

  /// A store of a whole value moves into an `scf.for` (storeOnFirstPart).
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registry.insert<scf::SCFDialect>();
  }
  /// The parts `plan` is cut into on `cores` cores; 1 to leave it whole.
  int64_t partsFor(const ColumnPlan &plan, int64_t cores) {
    // A contraction divides its right operand, which every row reads,
    // between the parts: the rows are no better spread.
    if (plan.hasContraction())
      return ::partsFor(plan.getColumns(), cores, kMinContractedColumns);
    // Rows enough to fill the cores are spread by the passes that
    // spread rows, with no exchange.
    std::optional<int64_t> rows = knownRows(plan);
    if (rows && *rows >= cores)
      return 1;
    return ::partsFor(plan.getColumns(), cores, minPartColumns);
  }

  /// The parts of a one-point kernel, its plan in `plan`: from its stores,
  /// else from a contraction.
  int64_t planOnePoint(func::FuncOp func, ColumnPlan &plan, int64_t cores) {
    if (succeeded(plan.build(func)))
      return partsFor(plan, cores);
    separateLeaves(func);
    plan = ColumnPlan();
    if (succeeded(plan.build(func, /*fromContraction=*/true)))
      return partsFor(plan, cores);
    return 1;
  }

  /// The parts of each shard of a kernel of several points (grid `grid`):
  /// its contractions' columns, whose partials join the kernel's own
  /// all-reduces (`shared`), cut over the cores the shards leave idle.
  int64_t planShards(func::FuncOp func, ArrayRef<int64_t> grid,
                     ColumnPlan &plan, int64_t cores,
                     SmallVector<ktdp::InterTileReduceOp> &shared) {
    int64_t points = ktdp::getNumTiles(grid);
    separateLeaves(func);
    if (points >= cores || failed(plan.build(func, /*fromContraction=*/true,
                                             /*exchanges=*/true)))
      return 1;
    FailureOr<SmallVector<ktdp::InterTileReduceOp>> reduces =
        sharedAllReduces(func, plan, points);
    if (failed(reduces))
      return 1;
    shared = std::move(*reduces);
    return ::partsFor(plan.getColumns(), cores / points, kMinContractedColumns);
  }

  void runOnOperation() override {
    const ktflow::sched::ScheduleTarget *target = requireScheduleTarget();
    if (!target)
      return;
    // The all-reduce runs a ring between the cores' scratchpads.
    int64_t cores = target->getNumCores();
    if (cores < 2 || target->getRoofline().getInterconnects().empty() ||
        !target->getLocalMemory())
      return;
    for (auto [func, grid] : gridKernels(getOperation())) {
      if (ktdp::getGridOwner(func) != func.getOperation())
        continue;
      // Cut on a copy, kept only when ktdf-lower-inter-tile can lower
      // every exchange.
      func::FuncOp copy = func.clone();
      ColumnPlan plan;
      SmallVector<ktdp::InterTileReduceOp> shared;
      int64_t parts = ktdp::getNumTiles(grid) == 1
                          ? planOnePoint(copy, plan, cores)
                          : planShards(copy, grid, plan, cores, shared);
      if (parts >= 2)
        splitColumns(copy, grid, plan, parts, shared);
      // Left whole, each tile may still store its own rows of a sum.
      else if (ktdp::getNumTiles(grid) == 1 || !storeTileRows(copy, grid)) {
        copy.erase();
        continue;
      }
      bool lowerable =
          !copy.walk([&](ktdp::InterTileReduceOp reduce) {
                 if (whyNotAllReduce(reduce) || whyNotInLoops(reduce, copy))
                   return WalkResult::interrupt();
                 return WalkResult::advance();
               })
               .wasInterrupted();
      if (lowerable) {
        func.getBody().takeBody(copy.getBody());
        func->setDiscardableAttrs(copy->getDiscardableAttrDictionary());
      }
      copy.erase();
    }
  }
};
} // namespace

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
//===----------------------------------------------------------------------===//

#include "ColumnPlan.h"
#include "InterTile.h"
#include "OutputSlices.h"
#include "ScratchpadViews.h"
#include "TileSlices.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
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

/// Inserts after each reduction of `plan` the all-reduce of its partial
/// over the `parts` tiles of the grid (one group), whose result replaces
/// the partial for everything after it.
static void allReducePartials(const ColumnPlan &plan, int64_t parts) {
  for (const RowReduction &reduction : plan.getReductions()) {
    Operation *op = reduction.op;
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
    IntegerSet tiles = everyTileSet(parts, ctx);
    IntegerSet groups =
        IntegerSet::get(1, 0, {getAffineDimExpr(0, ctx)}, {true});
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
}

/// Moves `store` into a loop of one trip on part 0 and none on the others
/// (as ktdf-lower-if makes a branch): the parts' copies of a whole value
/// are the same, and writing them all would race.
static void storeOnFirstPart(OpBuilder &b, ktdp::StoreOp store, Value part) {
  Location loc = store.getLoc();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value first =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, part, zero);
  Value trips = arith::SelectOp::create(b, loc, first, one, zero);
  auto loop = scf::ForOp::create(b, loc, zero, trips, one);
  store->moveBefore(loop.getBody()->getTerminator());
  Operation *tile = store.getAccessTile().getDefiningOp();
  if (tile && tile->hasOneUse() && tile->getBlock() == loop->getBlock())
    tile->moveBefore(store);
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

/// Cuts `func` (one grid point, grid `grid`) into `parts` column parts of
/// its plan's rows, the parts a new first grid dimension.
static void splitColumns(func::FuncOp func, ArrayRef<int64_t> grid,
                         const ColumnPlan &plan, int64_t parts) {
  // One point: every tile id it reads is 0, whichever part runs it, and
  // the loops around the exchanges run the same trips on every part.
  OpBuilder b(func.getContext());
  b.setInsertionPointToStart(&func.getBody().front());
  Value zero = arith::ConstantIndexOp::create(b, func.getLoc(), 0);
  func.walk([&](ktdp::GetComputeTileIdOp ids) {
    for (Value id : ids.getResults())
      id.replaceAllUsesWith(zero);
    ids.erase();
  });
  Value part = addGridDimension(func, ktdp::getGridOwner(func), grid, parts,
                                /*first=*/true);
  int64_t width = plan.getColumns() / parts;
  b.setInsertionPointAfterValue(part);
  Value column = arith::MulIOp::create(
      b, func.getLoc(), part,
      arith::ConstantIndexOp::create(b, func.getLoc(), width));
  // A store writes its columns of a row tensor of the plan, or, on part
  // 0 alone, a value every part computes whole.
  llvm::SmallPtrSet<Value, 16> cut(llvm::from_range, plan.getValues());
  SmallVector<ktdp::StoreOp> stores;
  func.walk([&](ktdp::StoreOp store) { stores.push_back(store); });
  for (ktdp::StoreOp store : stores) {
    b.setInsertionPoint(store);
    if (cut.contains(store.getDataTile()))
      store.getAccessTileMutable().assign(
          buildColumnSlice(b, store.getAccessTile(), column, width));
    else
      storeOnFirstPart(b, store, part);
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
  allReducePartials(plan, parts);
}

/// The largest divisor of `columns` at most `cores` whose parts keep at
/// least `minColumns` columns; 1 when none does.
static int64_t partsFor(int64_t columns, int64_t cores, int64_t minColumns) {
  for (int64_t parts = cores; parts > 1; --parts)
    if (columns % parts == 0 && columns / parts >= minColumns)
      return parts;
  return 1;
}

/// The fewest columns a part of a contraction keeps: a matrix unit's width
/// (mesh_device's MXU is 16 wide), so that no part's product pads.
constexpr int64_t kMinContractedColumns = 16;

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
      if (ktdp::getNumTiles(grid) != 1 ||
          ktdp::getGridOwner(func) != func.getOperation())
        continue;
      // Cut on a copy, kept only when ktdf-lower-inter-tile can lower
      // every exchange.
      func::FuncOp copy = func.clone();
      ColumnPlan plan;
      bool planned = succeeded(plan.build(copy));
      if (!planned) {
        separateLeaves(copy);
        plan = ColumnPlan();
        planned = succeeded(plan.build(copy, /*fromContraction=*/true));
      }
      int64_t parts = planned ? partsFor(plan, cores) : 1;
      if (parts < 2) {
        copy.erase();
        continue;
      }
      splitColumns(copy, grid, plan, parts);
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

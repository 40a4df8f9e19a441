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

namespace {
/// A reduction along the row: its result (one value per row) is what the
/// parts all-reduce with `combiner` (an arith op name).
struct RowReduction {
  Operation *op;
  std::string combiner;
};

/// The row tensors of a kernel, cut along their last dimension: found from
/// the stores backwards and from each cut value forwards to all its uses.
class ColumnPlan {
public:
  LogicalResult build(func::FuncOp func);
  int64_t getColumns() const { return columns; }
  ArrayRef<Value> getValues() const { return values.getArrayRef(); }
  ArrayRef<RowReduction> getReductions() const { return reductions; }

private:
  LogicalResult add(Value value);
  LogicalResult addDefinition(Value value);
  LogicalResult addUse(OpOperand &use);
  LogicalResult addGeneric(linalg::GenericOp generic);
  LogicalResult addReduction(Operation *op, std::optional<StringRef> combiner,
                             Value init);

  llvm::SetVector<Value> values;
  llvm::SmallPtrSet<Operation *, 4> reduced;
  SmallVector<RowReduction> reductions;
  SmallVector<Value> worklist;
  int64_t columns = 0;
};
} // namespace

/// The combiner `op` applies, if it is one the all-reduce supports.
static std::optional<StringRef> combinerName(Operation *op) {
  StringRef name = op->getName().getStringRef();
  if (op->getNumOperands() == 2 && isAllReduceCombiner(name))
    return name;
  return std::nullopt;
}

/// The combiner of a `linalg.reduce` whose body applies one to its two
/// arguments.
static std::optional<StringRef> reduceCombiner(linalg::ReduceOp reduce) {
  Block &body = reduce.getCombiner().front();
  if (body.getNumArguments() != 2 ||
      !llvm::hasSingleElement(body.without_terminator()))
    return std::nullopt;
  Operation &combine = body.front();
  if (!llvm::is_contained(combine.getOperands(), body.getArgument(0)) ||
      !llvm::is_contained(combine.getOperands(), body.getArgument(1)) ||
      body.getTerminator()->getOperand(0) != combine.getResult(0))
    return std::nullopt;
  return combinerName(&combine);
}

/// The combiner of a generic reducing into one output: what it yields is
/// that combiner applied to the accumulator (used nowhere else) and a value
/// computed from the inputs.
static std::optional<StringRef> genericCombiner(linalg::GenericOp generic) {
  if (generic.getNumDpsInits() != 1)
    return std::nullopt;
  Block *body = generic.getBody();
  Value acc = body->getArgument(generic.getNumDpsInputs());
  Operation *combine = body->getTerminator()->getOperand(0).getDefiningOp();
  if (!combine || !acc.hasOneUse() || *acc.getUsers().begin() != combine)
    return std::nullopt;
  return combinerName(combine);
}

LogicalResult ColumnPlan::build(func::FuncOp func) {
  SmallVector<ktdp::StoreOp> stores;
  bool unsupported = false;
  func.walk([&](Operation *op) {
    if (isa<ktdp::ConstructIndirectAccessTileOp, ktdp::InterTileProduceOp,
            ktdp::InterTileReduceOp, ktdp::InterTileConsumeOp, scf::IfOp,
            scf::WhileOp>(op))
      unsupported = true;
    if (auto view = dyn_cast<ktdp::ConstructMemoryViewOp>(op)) {
      auto space = ktdp::normalizeMemorySpace(view.getMemorySpace());
      unsupported |= !space || space->kind != ktdp::MemoryKind::global;
    }
    if (auto store = dyn_cast<ktdp::StoreOp>(op))
      stores.push_back(store);
  });
  if (unsupported || stores.empty())
    return failure();
  for (ktdp::StoreOp store : stores)
    if (failed(add(store.getDataTile())))
      return failure();
  if (failed(propagate(
          worklist, [&](Value v) { return addDefinition(v); },
          [&](OpOperand &use) { return addUse(use); })))
    return failure();
  return success(!reductions.empty());
}

LogicalResult ColumnPlan::add(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || type.getRank() < 1 || type.getRank() > 2 ||
      !type.hasStaticShape())
    return failure();
  if (columns == 0)
    columns = type.getShape().back();
  if (type.getShape().back() != columns)
    return failure();
  if (values.insert(value))
    worklist.push_back(value);
  return success();
}

/// A load or store tile that a column slice can replace.
static bool isColumnTile(Value tile, int64_t columns) {
  auto type = dyn_cast<ktdp::AccessTileType>(tile.getType());
  return isSliceableTile(tile) && type && type.getShape().back() == columns;
}

/// What cutting `value` asks of the op that computes it.
LogicalResult ColumnPlan::addDefinition(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return failure(); // Loop-carried rows are not cut.
  if (auto load = dyn_cast<ktdp::LoadOp>(def))
    return success(isColumnTile(load.getAccessTile(), columns));
  if (isa<tensor::EmptyOp, tensor::SplatOp>(def))
    return success();
  if (auto constant = dyn_cast<arith::ConstantOp>(def))
    return success(isa<SplatElementsAttr>(constant.getValue()));
  if (auto fill = dyn_cast<linalg::FillOp>(def))
    return add(fill.getOutputs()[0]);
  if (auto generic = dyn_cast<linalg::GenericOp>(def))
    return addGeneric(generic);
  if (isElementwiseOnTensors(def)) {
    for (Value operand : def->getOperands())
      if (failed(add(operand)))
        return failure();
    return success();
  }
  return failure();
}

/// What cutting a value asks of one of its users.
LogicalResult ColumnPlan::addUse(OpOperand &use) {
  Operation *user = use.getOwner();
  if (auto store = dyn_cast<ktdp::StoreOp>(user))
    return success(use.get() == store.getDataTile() &&
                   isColumnTile(store.getAccessTile(), columns));
  if (auto fill = dyn_cast<linalg::FillOp>(user))
    return success(use.get() == fill.getOutputs()[0] &&
                   succeeded(add(fill.getResult(0))));
  if (auto generic = dyn_cast<linalg::GenericOp>(user))
    return addGeneric(generic);
  if (auto reduce = dyn_cast<linalg::ReduceOp>(user)) {
    int64_t last = cast<ShapedType>(use.get().getType()).getRank() - 1;
    if (reduce.getNumDpsInputs() != 1 || use.get() != reduce.getInputs()[0] ||
        reduce.getDimensions() != ArrayRef<int64_t>{last})
      return failure();
    return addReduction(reduce, reduceCombiner(reduce), reduce.getInits()[0]);
  }
  if (isElementwiseOnTensors(user))
    return add(user->getResult(0));
  return failure();
}

/// A generic whose last loop walks the columns: parallel (its outputs are
/// cut) or a reduction into one value per row. An operand reading that loop
/// reads it as its last coordinate only and is cut; the others are read
/// whole by every part (a row's broadcast maximum).
LogicalResult ColumnPlan::addGeneric(linalg::GenericOp generic) {
  unsigned loops = generic.getNumLoops();
  if (!generic.hasPureTensorSemantics() || loops < 1 || loops > 2 ||
      llvm::any_of(
          generic.getBody()->getOps<linalg::IndexOp>(),
          [&](linalg::IndexOp index) { return index.getDim() == loops - 1; }))
    return failure();
  SmallVector<utils::IteratorType> iterators = generic.getIteratorTypesArray();
  if (llvm::any_of(ArrayRef(iterators).drop_back(),
                   [](auto it) { return it != utils::IteratorType::parallel; }))
    return failure();
  bool reduces = iterators.back() == utils::IteratorType::reduction;
  for (OpOperand &operand : generic->getOpOperands()) {
    AffineMap map = generic.getMatchingIndexingMap(&operand);
    bool init = generic.isDpsInit(&operand);
    if (!map.isFunctionOfDim(loops - 1)) {
      if (values.contains(operand.get()) || (init && !reduces))
        return failure();
      continue;
    }
    if (init && reduces)
      return failure();
    if (map.getNumResults() < 1 ||
        map.getResults().back() !=
            getAffineDimExpr(loops - 1, generic.getContext()) ||
        llvm::any_of(
            map.getResults().drop_back(),
            [&](AffineExpr e) { return e.isFunctionOfDim(loops - 1); }) ||
        failed(add(operand.get())))
      return failure();
  }
  if (reduces)
    return addReduction(generic, genericCombiner(generic),
                        generic.getDpsInits()[0]);
  for (Value result : generic->getResults())
    if (failed(add(result)))
      return failure();
  return success();
}

/// A reduction along the row: its parts' partials combine exactly as its
/// own fold when it starts from the combiner's neutral element.
LogicalResult ColumnPlan::addReduction(Operation *op,
                                       std::optional<StringRef> combiner,
                                       Value init) {
  if (!combiner || !isNeutral(init, *combiner) ||
      values.contains(op->getResult(0)))
    return failure();
  if (reduced.insert(op).second)
    reductions.push_back({op, combiner->str()});
  return success();
}

/// Rows the reductions of `plan` reduce that the device could run apart
/// (the product of their loops' constant trips and their tensors' rows), or
/// nullopt when a loop's trips are not known.
static std::optional<int64_t> knownRows(const ColumnPlan &plan) {
  int64_t most = 0;
  for (const RowReduction &reduction : plan.getReductions()) {
    auto type = cast<ShapedType>(reduction.op->getResult(0).getType());
    int64_t rows = type.getNumElements();
    for (auto loop = reduction.op->getParentOfType<scf::ForOp>(); loop;
         loop = loop->getParentOfType<scf::ForOp>()) {
      std::optional<APInt> trips = loop.getStaticTripCount();
      if (!trips)
        return std::nullopt;
      rows *= trips->getSExtValue();
    }
    most = std::max(most, rows);
  }
  return most;
}

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
    IntegerSet tiles = everyTileSet(parts, ctx);
    IntegerSet groups =
        IntegerSet::get(1, 0, {getAffineDimExpr(0, ctx)}, {true});
    OpBuilder b(ctx);
    b.setInsertionPointAfter(op);
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
  // Every store writes a row tensor of the plan.
  func.walk([&](ktdp::StoreOp store) {
    b.setInsertionPoint(store);
    store.getAccessTileMutable().assign(
        buildColumnSlice(b, store.getAccessTile(), column, width));
  });
  retypeValues(
      b, plan.getValues(),
      [&](Value v) {
        auto type = cast<RankedTensorType>(v.getType());
        SmallVector<int64_t> shape(type.getShape());
        shape.back() = width;
        return type.clone(shape);
      },
      [&](ktdp::LoadOp load) {
        return buildColumnSlice(b, load.getAccessTile(), column, width);
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

namespace {
struct SplitWideReductionsPass
    : public ktflow::sched::WithScheduleTarget<
          ktdf::impl::KTDFSplitWideReductionsBase<SplitWideReductionsPass>> {
  using Base::Base;
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
      ColumnPlan plan;
      if (failed(plan.build(func)))
        continue;
      // Rows enough to fill the cores are spread by the passes that
      // spread rows, with no exchange.
      std::optional<int64_t> rows = knownRows(plan);
      if (rows && *rows >= cores)
        continue;
      int64_t parts = partsFor(plan.getColumns(), cores, minPartColumns);
      if (parts < 2)
        continue;
      // Kept only when ktdf-lower-inter-tile can lower every exchange.
      func::FuncOp copy = func.clone();
      ColumnPlan copyPlan;
      if (failed(copyPlan.build(copy))) {
        copy.erase();
        continue;
      }
      splitColumns(copy, grid, copyPlan, parts);
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

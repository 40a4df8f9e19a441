//===- ColumnPlan.cpp - Row tensors cut into column parts ----------------===//
//
// This file implements the analysis of ktdf-split-wide-reductions (see
// ColumnPlan.h): the row tensors found from the stores backwards, or from a
// contraction's left operand, and from each cut value forwards to all its
// uses.
//
//===----------------------------------------------------------------------===//

#include "ColumnPlan.h"

#include "InterTile.h"
#include "OutputSlices.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::ktdf;

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

LogicalResult ColumnPlan::build(func::FuncOp func, bool fromContraction,
                                bool exchanges) {
  SmallVector<ktdp::StoreOp> stores;
  linalg::MatmulOp seed;
  bool unsupported = false;
  func.walk([&](Operation *op) {
    if (isa<ktdp::ConstructIndirectAccessTileOp, ktdp::InterTileConsumeOp,
            scf::IfOp, scf::WhileOp>(op) ||
        (!exchanges &&
         isa<ktdp::InterTileProduceOp, ktdp::InterTileReduceOp>(op)))
      unsupported = true;
    if (auto view = dyn_cast<ktdp::ConstructMemoryViewOp>(op)) {
      auto space = ktdp::normalizeMemorySpace(view.getMemorySpace());
      unsupported |= !space || space->kind != ktdp::MemoryKind::global;
    }
    if (auto store = dyn_cast<ktdp::StoreOp>(op))
      stores.push_back(store);
    auto product = dyn_cast<linalg::MatmulOp>(op);
    if (product && !seed &&
        !product.getInputs()[0].getDefiningOp<ktdp::LoadOp>())
      seed = product;
  });
  if (unsupported || stores.empty())
    return failure();
  if (fromContraction) {
    // The stores of whole values are each part's copy of one value.
    if (!seed || failed(add(seed.getInputs()[0])))
      return failure();
  } else {
    for (ktdp::StoreOp store : stores)
      if (failed(add(store.getDataTile())))
        return failure();
  }
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
  if (type.getShape().back() != columns || whole.contains(value) ||
      rowValues.contains(value))
    return failure();
  if (values.insert(value))
    worklist.push_back(value);
  return success();
}

/// Marks `value` as computed whole by every part.
LogicalResult ColumnPlan::addWhole(Value value) {
  whole.insert(value);
  return success(!values.contains(value));
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
  if (auto product = dyn_cast<linalg::MatmulOp>(def))
    return addProduct(product);
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
  if (auto product = dyn_cast<linalg::MatmulOp>(user)) {
    if (use.getOperandNumber() == 0)
      return addContraction(product);
    return add(product.getResult(0));
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

/// A product computing a cut value: its columns are its right operand's
/// and its output's; its left operand every part reads whole.
LogicalResult ColumnPlan::addProduct(linalg::MatmulOp product) {
  if (product.hasUserDefinedMaps() || !product.hasPureTensorSemantics())
    return failure();
  return success(succeeded(addWhole(product.getInputs()[0])) &&
                 succeeded(add(product.getInputs()[1])) &&
                 succeeded(add(product.getOutputs()[0])) &&
                 succeeded(add(product.getResult(0))));
}

/// Whether `init` starts a sum: a splat zero, a fill with zero or an
/// empty (zeros, as the interpreter reads it: sharded_ffn's products).
static bool startsSum(Value init) {
  if (init.getDefiningOp<tensor::EmptyOp>())
    return true;
  if (auto fill = init.getDefiningOp<linalg::FillOp>())
    init = fill.getInputs()[0];
  return isNeutral(init, arith::AddFOp::getOperationName());
}

/// A product whose left operand is cut: it contracts the cut columns with
/// its right operand's rows (a load each part reads its rows of), so each
/// part's result is a partial of the whole product. A product accumulating
/// into another's result (its only use) continues that partial; the last
/// of such a chain is all-reduced, whose first starts from zero.
LogicalResult ColumnPlan::addContraction(linalg::MatmulOp product) {
  if (reduced.contains(product))
    return success();
  Value right = product.getInputs()[1];
  auto rightType = dyn_cast<RankedTensorType>(right.getType());
  auto load = right.getDefiningOp<ktdp::LoadOp>();
  if (product.hasUserDefinedMaps() || !product.hasPureTensorSemantics() ||
      !load || !rightType || rightType.getRank() != 2 ||
      rightType.getShape().front() != columns ||
      !isSliceableTile(load.getAccessTile()) || values.contains(right) ||
      !right.hasOneUse() || failed(add(product.getInputs()[0])) ||
      failed(addWhole(product.getResult(0))))
    return failure();
  rowValues.insert(right);
  reduced.insert(product);
  Value init = product.getOutputs()[0];
  if (startsSum(init)) {
    if (failed(addWhole(init)))
      return failure();
  } else {
    auto previous = init.getDefiningOp<linalg::MatmulOp>();
    if (!previous || !init.hasOneUse() || failed(addContraction(previous)))
      return failure();
  }
  Value result = product.getResult(0);
  if (result.hasOneUse()) {
    OpOperand &use = *result.getUses().begin();
    auto next = dyn_cast<linalg::MatmulOp>(use.getOwner());
    if (next && use.getOperandNumber() == 2)
      return addContraction(next);
  }
  reductions.push_back(
      {product, arith::AddFOp::getOperationName().str(), true});
  return success();
}

std::optional<int64_t> mlir::ktdf::knownRows(const ColumnPlan &plan) {
  int64_t most = 0;
  for (const RowReduction &reduction : plan.getReductions()) {
    if (reduction.contraction)
      continue;
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

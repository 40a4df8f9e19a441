//===- OutputSlices.cpp - Column slices of a kernel's output blocks ------===//
//
// This file implements the analysis and rewrite of OutputSlices.h: from
// each store back to the loads, and from each sliced value forward to its
// users, every tensor must be sliceable along its columns (loads through
// 2-d identity-order box tiles, splat constants, empties, fills,
// element-wise ops, loop-carried values, a matrix product's right operand
// and output, a column reduction's input and its one value per column,
// 1-d tiles of such values; with `batched`, 3-d tiles and tensors of one
// batch, batch_matmuls of one batch and transposes, whose input is sliced
// along the dimension they move to the sliced one); the copies then
// compute their slices from the same operands in the same order.
//
//===----------------------------------------------------------------------===//

#include "OutputSlices.h"
#include "TileSlices.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::ktdf;

bool mlir::ktdf::isElementwiseOnTensors(Operation *op) {
  if (!op->hasTrait<OpTrait::Elementwise>() || op->getNumResults() != 1)
    return false;
  auto shape = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  return shape && llvm::all_of(op->getOperandTypes(), [&](Type type) {
           auto ranked = dyn_cast<RankedTensorType>(type);
           return ranked && ranked.getShape() == shape.getShape();
         });
}

bool mlir::ktdf::isUnitBatch(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped && shaped.hasRank() && shaped.getRank() == 3 &&
         shaped.getDimSize(0) == 1;
}

bool mlir::ktdf::isSliceableTile(Value tile, bool batched) {
  auto op = tile.getDefiningOp<ktdp::ConstructAccessTileOp>();
  if (!op || !op.getAccessTileOrder().isIdentity() ||
      op.getBaseMap().getNumResults() < 1 ||
      (op.getBaseMap().getNumResults() > 2 &&
       !(batched && isUnitBatch(op.getType()))))
    return false;
  FailureOr<ktdp::IntegerBox> box =
      ktdp::getBoundingBox(op.getAccessTileSet(), {});
  return succeeded(box) && ktdp::isBoxShaped(op.getAccessTileSet()) &&
         llvm::all_of(box->lower, [](int64_t l) { return l == 0; });
}

bool mlir::ktdf::isColumnReduction(Operation *op) {
  if (auto reduce = dyn_cast<linalg::ReduceOp>(op))
    return reduce.getDimensions() == ArrayRef<int64_t>{0} &&
           llvm::all_of(reduce.getInputs(), [](Value input) {
             return cast<ShapedType>(input.getType()).getRank() == 2;
           });
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumLoops() != 2 ||
      generic.getIteratorTypesArray() !=
          SmallVector<utils::IteratorType>{utils::IteratorType::reduction,
                                           utils::IteratorType::parallel})
    return false;
  MLIRContext *ctx = op->getContext();
  AffineMap whole = AffineMap::getMultiDimIdentityMap(2, ctx);
  AffineMap column = AffineMap::get(2, 0, getAffineDimExpr(1, ctx), ctx);
  for (OpOperand *input : generic.getDpsInputOperands())
    if (generic.getMatchingIndexingMap(input) != whole)
      return false;
  for (OpOperand &init : generic.getDpsInitsMutable())
    if (generic.getMatchingIndexingMap(&init) != column)
      return false;
  return true;
}

/// A load, or one extended to a wider float (an f32 product of f16 tiles):
/// what a left operand left whole may be.
static bool isLoaded(Value value) {
  if (auto extend = value.getDefiningOp<arith::ExtFOp>())
    value = extend.getIn();
  return value.getDefiningOp<ktdp::LoadOp>() != nullptr;
}

LogicalResult OutputSlicePlan::build(func::FuncOp func) {
  bool unsupported = false;
  func.walk([&](Operation *op) {
    if (isa<ktdp::ConstructIndirectAccessTileOp, ktdp::InterTileProduceOp,
            ktdp::InterTileReduceOp, scf::IfOp, scf::WhileOp>(op))
      unsupported = true;
    if (auto view = dyn_cast<ktdp::ConstructMemoryViewOp>(op)) {
      auto space = ktdp::normalizeMemorySpace(view.getMemorySpace());
      unsupported |= (!space || space->kind != ktdp::MemoryKind::global) &&
                     !isExchangeView(view);
    }
    if (auto store = dyn_cast<ktdp::StoreOp>(op))
      if (!isExchangeView(ktdp::getAccessTileView(store.getAccessTile())))
        stores.push_back(store);
  });
  if (unsupported || stores.empty())
    return failure();
  for (ktdp::StoreOp store : stores) {
    if (!isSliceableTile(store.getAccessTile(), batched) ||
        failed(add(store.getDataTile())))
      return failure();
  }
  return propagate(
      worklist, [&](Value v) { return addDefinition(v); },
      [&](OpOperand &use) { return addUse(use); });
}

LogicalResult OutputSlicePlan::add(Value value, std::optional<unsigned> dim) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || type.getRank() < 1 ||
      (type.getRank() > 2 && !(batched && isUnitBatch(type))) ||
      !type.hasStaticShape())
    return failure();
  // A batch is never cut: only a matrix's rows or columns.
  unsigned d = dim.value_or(type.getRank() - 1);
  if (type.getRank() == 3 && d == 0)
    return failure();
  int64_t width = type.getDimSize(d);
  if (columns == 0)
    columns = width;
  if (width != columns)
    return failure();
  auto [it, added] = dims.try_emplace(value, d);
  if (it->second != d)
    return failure();
  if (values.insert(value))
    worklist.push_back(value);
  return success();
}

bool OutputSlicePlan::slicedLast(Value value) const {
  return getDim(value) + 1 ==
         static_cast<unsigned>(cast<ShapedType>(value.getType()).getRank());
}

bool mlir::ktdf::isRowProduct(Operation *op, bool batched) {
  if (auto matmul = dyn_cast<linalg::MatmulOp>(op))
    return !matmul.hasUserDefinedMaps();
  auto batch = dyn_cast<linalg::BatchMatmulOp>(op);
  return batched && batch && !batch.hasUserDefinedMaps() &&
         isUnitBatch(batch.getInputs()[0].getType());
}

/// The dimension of a transpose's result that holds dimension `dim` of
/// its input.
static unsigned transposedDim(linalg::TransposeOp transpose, unsigned dim) {
  return llvm::find(transpose.getPermutation(), dim) -
         transpose.getPermutation().begin();
}

/// What slicing `value` asks of the op that computes it.
LogicalResult OutputSlicePlan::addDefinition(Value value) {
  unsigned dim = getDim(value);
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!loop || arg.getArgNumber() == 0)
      return failure();
    unsigned i = arg.getArgNumber() - 1;
    return success(succeeded(add(loop.getInitArgs()[i], dim)) &&
                   succeeded(add(loop.getYieldedValues()[i], dim)) &&
                   succeeded(add(loop.getResult(i), dim)));
  }
  Operation *def = value.getDefiningOp();
  if (auto load = dyn_cast<ktdp::LoadOp>(def))
    return success(isSliceableTile(load.getAccessTile(), batched));
  if (isa<tensor::EmptyOp>(def))
    return success();
  if (auto constant = dyn_cast<arith::ConstantOp>(def))
    return success(isa<SplatElementsAttr>(constant.getValue()));
  if (auto loop = dyn_cast<scf::ForOp>(def)) {
    unsigned i = cast<OpResult>(value).getResultNumber();
    return success(succeeded(add(loop.getInitArgs()[i], dim)) &&
                   succeeded(add(loop.getRegionIterArgs()[i], dim)));
  }
  if (auto fill = dyn_cast<linalg::FillOp>(def))
    return add(fill.getOutputs()[0], dim);
  if (isRowProduct(def, batched)) {
    // The left operand stays whole; only a load may be, so that the copies
    // repeat no computation. The output's columns are the right operand's.
    auto product = cast<linalg::LinalgOp>(def);
    if (!isLoaded(product.getDpsInputs()[0]) || !slicedLast(value))
      return failure();
    return success(succeeded(add(product.getDpsInputs()[1])) &&
                   succeeded(add(product.getDpsInits()[0])));
  }
  // A transpose keeps its input's columns apart: the slice of its result
  // is the transpose of the input's slice along the dimension it moves
  // there.
  if (auto transpose = dyn_cast<linalg::TransposeOp>(def);
      batched && transpose) {
    return success(
        succeeded(add(transpose.getInput(), transpose.getPermutation()[dim])) &&
        succeeded(add(transpose.getInit(), dim)));
  }
  if (isElementwiseOnTensors(def)) {
    for (Value operand : def->getOperands())
      if (failed(add(operand, dim)))
        return failure();
    return success();
  }
  if (isColumnReduction(def)) {
    for (Value operand : def->getOperands())
      if (failed(add(operand)))
        return failure();
    return success();
  }
  return failure();
}

/// What slicing a value asks of one of its users.
LogicalResult OutputSlicePlan::addUse(OpOperand &use) {
  Operation *user = use.getOwner();
  unsigned dim = getDim(use.get());
  if (auto store = dyn_cast<ktdp::StoreOp>(user))
    return success(use.get() == store.getDataTile());
  if (auto yield = dyn_cast<scf::YieldOp>(user)) {
    auto loop = dyn_cast<scf::ForOp>(yield->getParentOp());
    return success(loop &&
                   succeeded(add(loop.getResult(use.getOperandNumber()), dim)));
  }
  if (auto loop = dyn_cast<scf::ForOp>(user)) {
    if (use.getOperandNumber() < loop.getNumControlOperands())
      return failure();
    return add(loop.getTiedLoopRegionIterArg(&use), dim);
  }
  // A product's right operand and output are sliced by their columns (a
  // slice of the contracted rows would need every slice of them).
  if (isRowProduct(user, batched))
    return success(use.getOperandNumber() != 0 && slicedLast(use.get()) &&
                   succeeded(add(user->getResult(0))));
  if (auto transpose = dyn_cast<linalg::TransposeOp>(user);
      batched && transpose)
    return add(transpose.getResult()[0], use.get() == transpose.getInput()
                                             ? transposedDim(transpose, dim)
                                             : dim);
  if (auto fill = dyn_cast<linalg::FillOp>(user))
    return success(use.get() == fill.getOutputs()[0] &&
                   succeeded(add(fill.getResult(0), dim)));
  if (isElementwiseOnTensors(user))
    return add(user->getResult(0), dim);
  if (isColumnReduction(user)) {
    for (Value result : user->getResults())
      if (failed(add(result)))
        return failure();
    return success();
  }
  return failure();
}

ktdp::GetComputeTileIdOp mlir::ktdf::hoistTileIds(func::FuncOp func,
                                                  int64_t rank) {
  OpBuilder b(func.getContext());
  b.setInsertionPointToStart(&func.getBody().front());
  auto ids = ktdp::GetComputeTileIdOp::create(
      b, func.getLoc(), SmallVector<Type>(rank, b.getIndexType()));
  func.walk([&](ktdp::GetComputeTileIdOp old) {
    if (old == ids)
      return;
    for (auto [i, result] : llvm::enumerate(old.getResults()))
      result.replaceAllUsesWith(ids.getResult(i));
    old.erase();
  });
  return ids;
}

Value mlir::ktdf::addGridDimension(func::FuncOp func, Operation *gridOwner,
                                   ArrayRef<int64_t> grid, int64_t extent,
                                   bool first) {
  OpBuilder b(func.getContext());
  auto ids = hoistTileIds(func, grid.size() + 1);
  SmallVector<Attribute> extents;
  for (int64_t e : grid)
    extents.push_back(b.getI64IntegerAttr(e));
  if (!first) {
    extents.push_back(b.getI64IntegerAttr(extent));
    gridOwner->setAttr(ktdp::kGridAttrName, b.getArrayAttr(extents));
    return ids.getResults().back();
  }
  // Coordinate i of the old grid is coordinate i + 1.
  extents.insert(extents.begin(), b.getI64IntegerAttr(extent));
  gridOwner->setAttr(ktdp::kGridAttrName, b.getArrayAttr(extents));
  for (size_t i = grid.size(); i-- > 0;)
    ids.getResult(i).replaceAllUsesWith(ids.getResult(i + 1));
  return ids.getResult(0);
}

LogicalResult RowValues::add(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || type.getRank() < 1 || !type.hasStaticShape() ||
      type.getDimSize(rowDim(type)) != rows)
    return failure();
  if (values.insert(value))
    worklist.push_back(value);
  return success();
}

LogicalResult RowValues::addCarried(scf::ForOp loop, unsigned i) {
  return success(succeeded(add(loop.getInitArgs()[i])) &&
                 succeeded(add(loop.getRegionIterArgs()[i])) &&
                 succeeded(add(loop.getYieldedValues()[i])) &&
                 succeeded(add(loop.getResult(i))));
}

LogicalResult RowValues::addRowGeneric(linalg::GenericOp generic,
                                       bool rowIndex) {
  if (!generic.hasPureTensorSemantics() || generic.getNumLoops() < 1 ||
      generic.getIteratorTypesArray().front() !=
          utils::IteratorType::parallel ||
      (!rowIndex && !generic.getBody()->getOps<linalg::IndexOp>().empty()))
    return failure();
  for (OpOperand &operand : generic->getOpOperands()) {
    AffineMap map = generic.getMatchingIndexingMap(&operand);
    bool init = generic.isDpsInit(&operand);
    if (!map.isFunctionOfDim(0)) {
      if (init || values.contains(operand.get()))
        return failure();
      continue;
    }
    if (map.getResult(0) != getAffineDimExpr(0, generic.getContext()) ||
        llvm::any_of(map.getResults().drop_front(),
                     [](AffineExpr e) { return e.isFunctionOfDim(0); }) ||
        failed(add(operand.get())))
      return failure();
  }
  for (Value result : generic->getResults())
    if (failed(add(result)))
      return failure();
  return success();
}

bool mlir::ktdf::isRowReduction(Operation *op) {
  auto reduce = dyn_cast<linalg::ReduceOp>(op);
  return reduce && !llvm::is_contained(reduce.getDimensions(), 0);
}

std::optional<LogicalResult> RowValues::addLeaf(Operation *def) {
  if (auto constant = dyn_cast<arith::ConstantOp>(def))
    return success(isa<SplatElementsAttr>(constant.getValue()));
  if (auto load = dyn_cast<ktdp::LoadOp>(def))
    return success(tiles.contains(
        load.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>()));
  if (isa<tensor::EmptyOp>(def))
    return success();
  if (auto fill = dyn_cast<linalg::FillOp>(def))
    return add(fill.getOutputs()[0]);
  return std::nullopt;
}

LogicalResult
mlir::ktdf::propagate(SmallVectorImpl<Value> &worklist,
                      function_ref<LogicalResult(Value)> addDefinition,
                      function_ref<LogicalResult(OpOperand &)> addUse) {
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (failed(addDefinition(value)))
      return failure();
    for (OpOperand &use : value.getUses())
      if (failed(addUse(use)))
        return failure();
  }
  return success();
}

LogicalResult mlir::ktdf::addTileData(ktdp::ConstructAccessTileOp tile,
                                      function_ref<LogicalResult(Value)> add) {
  for (OpOperand &use : tile->getUses()) {
    if (auto load = dyn_cast<ktdp::LoadOp>(use.getOwner())) {
      if (failed(add(load.getResult())))
        return failure();
    } else if (auto store = dyn_cast<ktdp::StoreOp>(use.getOwner())) {
      if (use.get() != store.getAccessTile() ||
          failed(add(store.getDataTile())))
        return failure();
    } else {
      return failure();
    }
  }
  return success();
}

RankedTensorType mlir::ktdf::withRows(Type type, int64_t rows, unsigned dim) {
  auto ranked = cast<RankedTensorType>(type);
  SmallVector<int64_t> shape(ranked.getShape());
  shape[dim] = rows;
  return ranked.clone(shape);
}

void mlir::ktdf::retypeValues(OpBuilder &b, ArrayRef<Value> values,
                              function_ref<RankedTensorType(Value)> typeOf,
                              function_ref<Value(ktdp::LoadOp)> tileOf) {
  for (Value value : values) {
    RankedTensorType type = typeOf(value);
    Operation *def = value.getDefiningOp();
    if (!def || !isa<ktdp::LoadOp, tensor::EmptyOp, arith::ConstantOp>(def)) {
      value.setType(type);
      continue;
    }
    b.setInsertionPoint(def);
    Value tile;
    if (auto load = dyn_cast<ktdp::LoadOp>(def))
      tile = tileOf(load);
    value.replaceAllUsesWith(remakeWithType(b, def, type, tile));
    def->erase();
  }
}

Value mlir::ktdf::remakeWithType(OpBuilder &b, Operation *def,
                                 RankedTensorType type, Value tile) {
  if (auto load = dyn_cast<ktdp::LoadOp>(def))
    return ktdp::LoadOp::create(b, load.getLoc(), type, tile);
  if (isa<tensor::EmptyOp>(def))
    return tensor::EmptyOp::create(b, def->getLoc(), type.getShape(),
                                   type.getElementType());
  return arith::ConstantOp::create(
      b, def->getLoc(), type,
      SplatElementsAttr::get(
          type, cast<SplatElementsAttr>(cast<arith::ConstantOp>(def).getValue())
                    .getSplatValue<Attribute>()));
}

SmallVector<std::pair<func::FuncOp, SmallVector<int64_t>>>
mlir::ktdf::gridKernels(ModuleOp module) {
  SmallVector<std::pair<func::FuncOp, SmallVector<int64_t>>> kernels;
  for (auto func : module.getOps<func::FuncOp>()) {
    FailureOr<std::optional<SmallVector<int64_t>>> grid =
        ktdp::getLaunchGrid(func);
    if (!func.isExternal() && succeeded(grid) && *grid)
      kernels.emplace_back(func, **grid);
  }
  return kernels;
}

void mlir::ktdf::sliceColumns(func::FuncOp func, const OutputSlicePlan &plan,
                              Value copy, int64_t slices) {
  OpBuilder b(func.getContext());
  b.setInsertionPointAfterValue(copy);
  Location loc = func.getLoc();
  int64_t width = plan.getColumns() / slices;
  Value column = arith::MulIOp::create(
      b, loc, copy, arith::ConstantIndexOp::create(b, loc, width));

  for (ktdp::StoreOp store : plan.getStores()) {
    b.setInsertionPoint(store);
    store.getAccessTileMutable().assign(
        buildDimSlice(b, store.getAccessTile(),
                      plan.getDim(store.getDataTile()), column, width));
  }
  retypeValues(
      b, plan.getValues(),
      [&](Value v) { return withRows(v.getType(), width, plan.getDim(v)); },
      [&](ktdp::LoadOp load) {
        return buildDimSlice(b, load.getAccessTile(),
                             plan.getDim(load.getResult()), column, width);
      });
  // Tiles the sliced loads and stores no longer use.
  func.walk([](ktdp::ConstructAccessTileOp tile) {
    if (tile->use_empty())
      tile.erase();
  });
}

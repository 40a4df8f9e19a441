//===- MergeGridPoints.cpp - Consecutive grid points as one ---------------===//
//
// This file implements the merge of consecutive grid points that
// ktdf-share-left-operands asks for when a point's products have fewer
// rows than the device's matrix unit: a SwiGLU of 8 tokens a point leaves
// half of a 16-row unit idle on every product, whatever the copies share.
// The points' row tiles lie one block below the other, so F points are one
// point of F times the rows: the tile id steps F times as far and every
// tensor that flows from or to a row tile grows along its rows. The same
// analysis finds the rows ktdf-split-point-rows cuts in two halves or
// parts and ktdf-split-output-blocks cuts into parts (cutPointRows).
//
//===----------------------------------------------------------------------===//

#include "MergeGridPoints.h"
#include "IndexAnalysis.h"
#include "OutputSlices.h"
#include "TileSlices.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"
#include "ktflow/Scheduler/ScheduleTarget.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::ktdf;

/// The tile id reaches only tiles, through index arithmetic.
LogicalResult PointRowPlan::findTiles() {
  SmallVector<Value> work{id};
  llvm::SmallPtrSet<Operation *, 8> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (!seen.insert(user).second)
        continue;
      if (auto tile = dyn_cast<ktdp::ConstructAccessTileOp>(user)) {
        if (failed(addTile(tile)))
          return failure();
        continue;
      }
      if (!isa<arith::ArithDialect>(user->getDialect()) ||
          user->getNumRegions() != 0 ||
          llvm::any_of(user->getResultTypes(),
                       [](Type t) { return !t.isIndex(); }))
        return failure();
      llvm::append_range(work, user->getResults());
    }
  }
  return success(!tiles.empty());
}

/// A row tile: a box of device memory whose first coordinate moves one
/// tile's rows per point and whose others do not move (with `anyStride`,
/// any tile of the plan's rows the caller found).
LogicalResult PointRowPlan::addTile(ktdp::ConstructAccessTileOp tile) {
  auto shape = cast<ktdp::AccessTileType>(tile.getType()).getShape();
  ktdp::ConstructMemoryViewOp view = ktdp::getAccessTileView(tile);
  auto space =
      view ? ktdp::normalizeMemorySpace(view.getMemorySpace()) : std::nullopt;
  if (!isSliceableTile(tile, batched) || !space ||
      space->kind != ktdp::MemoryKind::global)
    return failure();
  unsigned row = rowDim(tile.getType());
  if (rows == 0)
    rows = shape[row];
  if (shape[row] != rows)
    return failure();
  // Parts of a point's rows need no more: they cut each row tile where it
  // is, and the plan checks that its rows are kept apart.
  if (!anyStride) {
    for (Value symbol : tile.getSymbolOperands())
      if (coefficient(symbol, id) != 0)
        return failure();
    for (unsigned r = 0; r < shape.size(); ++r)
      if (anchorCoefficient(tile, r, id) != (r == row ? rows : 0))
        return failure();
  }
  tiles.insert(tile);
  return addTileData(tile, [&](Value v) { return add(v); });
}

bool PointRowPlan::placesRows(ktdp::ConstructAccessTileOp tile) const {
  if (!anyCoordinate)
    return anchorCoefficient(tile, rowDim(tile.getType()), id) != 0;
  auto moves = [&](Value v) { return coefficient(v, id) != 0; };
  return llvm::any_of(
             llvm::seq<unsigned>(0, tile.getBaseMap().getNumResults()),
             [&](unsigned r) { return anchorCoefficient(tile, r, id) != 0; }) ||
         llvm::any_of(tile.getSymbolOperands(), moves);
}

/// Halves: the tiles the coordinate does not place are read whole by every
/// row (a key block), and the coordinate may place other things too (a
/// loop bound); every store goes through a row tile, so the two halves
/// write different rows.
LogicalResult PointRowPlan::findHalvesTiles(func::FuncOp func) {
  WalkResult walk = func.walk([&](Operation *op) {
    if (isa<scf::IfOp, scf::WhileOp, func::CallOp, ktdp::InterTileProduceOp,
            ktdp::InterTileReduceOp>(op))
      return WalkResult::interrupt();
    // A gather read whole by both halves (a paged attention's pages): its
    // tensor is no row value (addLeaf refuses one that would be).
    if (auto gather = dyn_cast<ktdp::ConstructIndirectAccessTileOp>(op))
      return llvm::all_of(
                 gather->getUsers(),
                 [](Operation *user) { return isa<ktdp::LoadOp>(user); })
                 ? WalkResult::advance()
                 : WalkResult::interrupt();
    auto tile = dyn_cast<ktdp::ConstructAccessTileOp>(op);
    if (tile && placesRows(tile) && failed(addTile(tile)))
      return WalkResult::interrupt();
    auto store = dyn_cast<ktdp::StoreOp>(op);
    if (store &&
        !tiles.contains(
            store.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>()))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return success(!walk.wasInterrupted() && !tiles.empty());
}

LogicalResult PointRowPlan::build(func::FuncOp func) {
  if (failed(halves ? findHalvesTiles(func) : findTiles()))
    return failure();
  return propagate(
      worklist, [&](Value v) { return addDefinition(v); },
      [&](OpOperand &use) { return addUse(use); });
}

/// A gather of the point's rows (halves only: ktdf-split-output-blocks'
/// parts keep theirs whole) and every tensor loaded from it.
LogicalResult
PointRowPlan::addGather(ktdp::ConstructIndirectAccessTileOp gather) {
  if (!halves || anyStride || whyNotRowGather(gather, id, rows))
    return failure();
  if (!gathers.insert(gather))
    return success();
  for (Operation *load : gather->getUsers())
    if (failed(add(load->getResult(0))))
      return failure();
  return success();
}

/// A broadcast that keeps dimension 0: each row's value spread along it.
static bool isRowBroadcast(Operation *op) {
  auto broadcast = dyn_cast<linalg::BroadcastOp>(op);
  return broadcast && !llvm::is_contained(broadcast.getDimensions(), 0);
}

/// Whether `op` works on a 3-d tensor of one batch, whose rows are not
/// its dimension 0: generics, reductions and broadcasts are taken on
/// their dimension 0 only.
static bool onBatch(Operation *op) {
  return llvm::any_of(op->getOperandTypes(),
                      [](Type type) { return isUnitBatch(type); });
}

/// What changing `value`'s rows asks of what computes it.
LogicalResult PointRowPlan::addDefinition(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!loop || arg.getArgNumber() == 0)
      return failure();
    return addCarried(loop, arg.getArgNumber() - 1);
  }
  Operation *def = value.getDefiningOp();
  if (auto load = dyn_cast<ktdp::LoadOp>(def))
    if (auto gather = load.getAccessTile()
                          .getDefiningOp<ktdp::ConstructIndirectAccessTileOp>())
      return addGather(gather);
  if (std::optional<LogicalResult> leaf = addLeaf(def))
    return *leaf;
  if (isRowProduct(def, batched)) {
    auto product = cast<linalg::LinalgOp>(def);
    if (values.contains(product.getDpsInputs()[1]))
      return failure();
    return success(succeeded(add(product.getDpsInputs()[0])) &&
                   succeeded(add(product.getDpsInits()[0])));
  }
  if (auto loop = dyn_cast<scf::ForOp>(def))
    return addCarried(loop, cast<OpResult>(value).getResultNumber());
  if (halves && isa<tensor::SplatOp>(def))
    return success();
  if (batched && !isElementwiseOnTensors(def) && onBatch(def))
    return failure();
  if (auto generic = dyn_cast<linalg::GenericOp>(def))
    return halves ? addRowGeneric(generic, /*rowIndex=*/true) : failure();
  if (isElementwiseOnTensors(def) ||
      (halves && (isRowReduction(def) || isRowBroadcast(def)))) {
    for (Value operand : def->getOperands())
      if (failed(add(operand)))
        return failure();
    for (Value result : def->getResults())
      if (failed(add(result)))
        return failure();
    return success();
  }
  return failure();
}

/// What changing a value's rows asks of one of its users.
LogicalResult PointRowPlan::addUse(OpOperand &use) {
  Operation *user = use.getOwner();
  if (auto store = dyn_cast<ktdp::StoreOp>(user))
    return success(
        use.get() == store.getDataTile() &&
        tiles.contains(store.getAccessTile()
                           .getDefiningOp<ktdp::ConstructAccessTileOp>()));
  if (auto fill = dyn_cast<linalg::FillOp>(user))
    return success(use.get() == fill.getOutputs()[0] &&
                   succeeded(add(fill.getResult(0))));
  if (isRowProduct(user, batched))
    return success(use.getOperandNumber() != 1 &&
                   succeeded(addDefinition(user->getResult(0))));
  if (auto loop = dyn_cast<scf::ForOp>(user)) {
    BlockArgument carried = loop.getTiedLoopRegionIterArg(&use);
    return success(carried &&
                   succeeded(addCarried(loop, carried.getArgNumber() - 1)));
  }
  if (auto yield = dyn_cast<scf::YieldOp>(user)) {
    auto loop = dyn_cast<scf::ForOp>(yield->getParentOp());
    return success(loop && succeeded(addCarried(loop, use.getOperandNumber())));
  }
  if (batched && !isElementwiseOnTensors(user) && onBatch(user))
    return failure();
  if (auto generic = dyn_cast<linalg::GenericOp>(user))
    return halves ? addRowGeneric(generic, /*rowIndex=*/true) : failure();
  if (isElementwiseOnTensors(user) ||
      (halves && (isRowReduction(user) || isRowBroadcast(user))))
    return addDefinition(user->getResult(0));
  return failure();
}

SmallVector<linalg::GenericOp> PointRowPlan::rowIndexedGenerics() const {
  SmallVector<linalg::GenericOp> generics;
  for (Value value : values)
    if (auto generic = value.getDefiningOp<linalg::GenericOp>())
      if (!llvm::is_contained(generics, generic))
        generics.push_back(generic);
  return generics;
}

LogicalResult mlir::ktdf::mergeGridPoints(func::FuncOp func,
                                          ArrayRef<int64_t> grid,
                                          int64_t factor) {
  SmallVector<ktdp::GetComputeTileIdOp> ids;
  func.walk([&](ktdp::GetComputeTileIdOp op) { ids.push_back(op); });
  if (factor < 2 || ids.size() != 1 ||
      ids.front()->getBlock() != &func.getBody().front())
    return failure();
  for (auto [d, extent] : llvm::enumerate(grid)) {
    if (extent % factor != 0)
      continue;
    Value id = ids.front().getResult(d);
    PointRowPlan plan(id, /*halves=*/false);
    if (failed(plan.build(func)))
      continue;

    OpBuilder b(func.getContext());
    DenseMap<Operation *, Value> grown;
    for (ktdp::ConstructAccessTileOp tile : plan.getTiles()) {
      b.setInsertionPoint(tile);
      SmallVector<int64_t> shape(
          cast<ktdp::AccessTileType>(tile.getType()).getShape());
      shape.front() *= factor;
      grown[tile] =
          buildBoxTile(b, tile, tile.getIndices(), tile.getBaseMap(), shape);
    }
    retypeValues(
        b, plan.getValues(),
        [&](Value v) { return withRows(v.getType(), plan.getRows() * factor); },
        [&](ktdp::LoadOp load) {
          return grown.lookup(load.getAccessTile().getDefiningOp());
        });
    for (ktdp::ConstructAccessTileOp tile : plan.getTiles()) {
      tile.getResult().replaceAllUsesWith(grown[tile]);
      tile.erase();
    }
    // Point q of the merged grid starts at the kernel's point F * q.
    b.setInsertionPointAfter(ids.front());
    Value first = arith::MulIOp::create(
        b, func.getLoc(), id,
        arith::ConstantIndexOp::create(b, func.getLoc(), factor));
    id.replaceAllUsesExcept(first, first.getDefiningOp());
    SmallVector<Attribute> extents;
    for (auto [e, old] : llvm::enumerate(grid))
      extents.push_back(b.getI64IntegerAttr(e == d ? old / factor : old));
    ktdp::getGridOwner(func)->setAttr(ktdp::kGridAttrName,
                                      b.getArrayAttr(extents));
    return success();
  }
  return failure();
}

void mlir::ktdf::cutPointRows(func::FuncOp func, ArrayRef<int64_t> grid,
                              const PointRowPlan &plan, int64_t parts,
                              bool first) {
  int64_t rows = plan.getRows() / parts;
  Value copy =
      addGridDimension(func, ktdp::getGridOwner(func), grid, parts, first);
  OpBuilder b(func.getContext());
  b.setInsertionPointAfter(copy.getDefiningOp());
  Location loc = func.getLoc();
  Value offset = arith::MulIOp::create(
      b, loc, copy, arith::ConstantIndexOp::create(b, loc, rows));
  DenseMap<Operation *, Value> cut;
  for (ktdp::ConstructAccessTileOp tile : plan.getTiles()) {
    b.setInsertionPoint(tile);
    cut[tile] =
        buildDimSlice(b, tile, plan.rowDim(tile.getType()), offset, rows);
    // A part piece of a straddling block stays one (its loads need not
    // zero the rows another part holds).
    if (tile->hasAttr(kPartPieceAttrName))
      cut[tile].getDefiningOp()->setAttr(kPartPieceAttrName,
                                         tile->getAttr(kPartPieceAttrName));
  }
  for (ktdp::ConstructIndirectAccessTileOp gather : plan.getGathers()) {
    b.setInsertionPoint(gather);
    cut[gather] = sliceRowGather(b, gather, offset, rows);
  }
  SmallVector<linalg::GenericOp> generics = plan.rowIndexedGenerics();
  retypeValues(
      b, plan.getValues(),
      [&](Value v) {
        return withRows(v.getType(), rows, plan.rowDim(v.getType()));
      },
      [&](ktdp::LoadOp load) {
        return cut.lookup(load.getAccessTile().getDefiningOp());
      });
  for (ktdp::ConstructAccessTileOp tile : plan.getTiles()) {
    tile.getResult().replaceAllUsesWith(cut[tile]);
    tile.erase();
  }
  for (ktdp::ConstructIndirectAccessTileOp gather : plan.getGathers())
    gather.erase();
  // A generic's row i of the part is row i + offset of the point. Added
  // to a value from outside the body (a mask's row origin q0 + i), the
  // offset moves into that value (q0 + offset, once before the generic):
  // the lowering makes `origin + i` one iota along the rows
  // (IndexIdioms.h), where `q0 + (i + offset)` took two more vectors.
  for (linalg::GenericOp generic : generics)
    for (auto index : llvm::make_early_inc_range(
             generic.getBody()->getOps<linalg::IndexOp>())) {
      if (index.getDim() != 0)
        continue;
      Value row;
      for (OpOperand &use : llvm::make_early_inc_range(index->getUses())) {
        auto add = dyn_cast<arith::AddIOp>(use.getOwner());
        OpOperand *origin =
            add ? &add->getOpOperand(1 - use.getOperandNumber()) : nullptr;
        if (origin &&
            !generic.getRegion().isAncestor(origin->get().getParentRegion())) {
          b.setInsertionPoint(generic);
          origin->set(
              arith::AddIOp::create(b, add.getLoc(), origin->get(), offset));
          continue;
        }
        if (!row) {
          b.setInsertionPointAfter(index);
          row = arith::AddIOp::create(b, index.getLoc(), index, offset);
        }
        use.set(row);
      }
    }
}

int64_t
mlir::ktdf::matrixRowsFactor(const ktflow::sched::ScheduleTarget &target,
                             int64_t rows) {
  const auto &matrix = target.getLanes().front().matrix;
  if (!matrix || rows <= 0)
    return 1;
  const auto &unit = target.getModel().getNode(matrix->unit).unit;
  if (!unit || !unit->matrix || unit->matrix->m <= rows)
    return 1;
  return (unit->matrix->m + rows - 1) / rows;
}

//===- WideRows.cpp - Row computations wider than a tile may be -----------===//
//
// This file implements the analysis of WideRows.h: starting from a load of
// whole rows, it collects every op of the block that computes on tensors
// whose last dimension is the row's width, and checks that each can be
// redone on a slice of the last dimension.
//
//===----------------------------------------------------------------------===//

#include "WideRows.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Support/ElementBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::ktdf;

/// Whether `t` is a statically shaped tensor whose last dimension is the
/// row of `width` elements.
static bool isRowType(Type t, int64_t width) {
  auto type = dyn_cast<RankedTensorType>(t);
  return type && type.hasStaticShape() && type.getRank() > 0 &&
         type.getShape().back() == width;
}

static bool isRowValue(Value v, int64_t width) {
  return isRowType(v.getType(), width);
}

/// Whether `tile` names whole rows of `width` elements that a shifted
/// tile of fewer columns can cover piece by piece: a direct access tile
/// over a view, in identity order, whose set is the box of its shape.
static bool isChunkableTile(Value tile, int64_t width) {
  auto op = tile.getDefiningOp<ktdp::ConstructAccessTileOp>();
  if (!op || !isa<MemRefType>(op.getBase().getType()) ||
      !op.getSymbolOperands().empty() || !op.getAccessTileOrder().isIdentity())
    return false;
  IntegerSet set = op.getAccessTileSet();
  auto type = cast<ktdp::AccessTileType>(op.getType());
  if (type.getShape().empty() || type.getShape().back() != width ||
      !ktdp::isBoxShaped(set))
    return false;
  FailureOr<ktdp::IntegerBox> box = ktdp::getBoundingBox(set, {});
  return succeeded(box) &&
         llvm::all_of(box->lower, [](int64_t l) { return l == 0; }) &&
         ArrayRef(box->getExtents()) == type.getShape();
}

/// The loop of a linalg.generic that walks the row's last dimension:
/// the same loop indexes the last dimension of every row operand and
/// nothing of the others. std::nullopt for other ops, and when the body
/// uses linalg.index.
static std::optional<unsigned> rowLoopOf(Operation *op, int64_t width) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic)
    return std::nullopt;
  std::optional<unsigned> loop;
  for (OpOperand &operand : generic->getOpOperands()) {
    if (!isRowValue(operand.get(), width))
      continue;
    AffineMap map = generic.getMatchingIndexingMap(&operand);
    auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (!last || (loop && *loop != last.getPosition()))
      return std::nullopt;
    loop = last.getPosition();
  }
  if (!loop)
    return std::nullopt;
  // The row loop indexes only the last dimension of row operands.
  for (OpOperand &operand : generic->getOpOperands()) {
    AffineMap map = generic.getMatchingIndexingMap(&operand);
    unsigned uses = llvm::count_if(map.getResults(), [&](AffineExpr e) {
      return e.isFunctionOfDim(*loop);
    });
    if (uses != (isRowValue(operand.get(), width) ? 1u : 0u))
      return std::nullopt;
  }
  // linalg.index would see the chunk's column, not the row's.
  if (!generic.getBody()->getOps<linalg::IndexOp>().empty())
    return std::nullopt;
  return loop;
}

namespace {
enum class Role { Row, Sink, Unsupported };
} // namespace

/// Whether `op` produces row tensors the group can redo chunk by chunk
/// (Role::Row), consumes them into narrower values or memory (Role::Sink),
/// or cannot take part.
static Role roleOf(Operation *op, int64_t width) {
  auto allRows = [&](ValueRange values) {
    return !values.empty() &&
           llvm::all_of(values, [&](Value v) { return isRowValue(v, width); });
  };
  auto noRows = [&](ValueRange values) {
    return llvm::none_of(values, [&](Value v) { return isRowValue(v, width); });
  };
  if (auto load = dyn_cast<ktdp::LoadOp>(op))
    return isRowValue(load.getResult(), width) &&
                   isChunkableTile(load.getAccessTile(), width)
               ? Role::Row
               : Role::Unsupported;
  if (auto store = dyn_cast<ktdp::StoreOp>(op))
    return isRowValue(store.getDataTile(), width) &&
                   isChunkableTile(store.getAccessTile(), width)
               ? Role::Sink
               : Role::Unsupported;
  if (auto reduce = dyn_cast<linalg::ReduceOp>(op)) {
    int64_t last =
        cast<RankedTensorType>(reduce.getInputs()[0].getType()).getRank() - 1;
    return allRows(reduce.getInputs()) && noRows(reduce.getInits()) &&
                   llvm::is_contained(reduce.getDimensions(), last)
               ? Role::Sink
               : Role::Unsupported;
  }
  if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
    std::optional<unsigned> loop = rowLoopOf(op, width);
    if (!loop)
      return Role::Unsupported;
    if (generic.getIteratorTypesArray()[*loop] ==
        utils::IteratorType::reduction)
      return noRows(generic.getDpsInits()) ? Role::Sink : Role::Unsupported;
    return allRows(generic.getDpsInits()) ? Role::Row : Role::Unsupported;
  }
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    return allRows(fill.getDpsInits()) ? Role::Row : Role::Unsupported;
  if (auto broadcast = dyn_cast<linalg::BroadcastOp>(op)) {
    int64_t last = broadcast.getInit().getType().getRank() - 1;
    bool fromRow = isRowValue(broadcast.getInput(), width);
    bool alongRow = llvm::is_contained(broadcast.getDimensions(), last);
    return isRowValue(broadcast.getInit(), width) && fromRow != alongRow
               ? Role::Row
               : Role::Unsupported;
  }
  if (isa<tensor::SplatOp, tensor::EmptyOp>(op))
    return allRows(op->getResults()) && op->getNumOperands() <= 1
               ? Role::Row
               : Role::Unsupported;
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    return isa<SplatElementsAttr>(constant.getValue()) &&
                   isRowValue(constant.getResult(), width)
               ? Role::Row
               : Role::Unsupported;
  if (isa_and_present<arith::ArithDialect, math::MathDialect>(
          op->getDialect()) &&
      op->hasTrait<OpTrait::Elementwise>() && op->getNumRegions() == 0 &&
      allRows(op->getResults()) &&
      llvm::all_of(op->getOperands(), [&](Value v) {
        return !isa<TensorType>(v.getType()) || isRowValue(v, width);
      }))
    return Role::Row;
  return Role::Unsupported;
}

static void sortInBlockOrder(MutableArrayRef<Operation *> ops) {
  llvm::sort(ops,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
}

std::optional<WideRowGroup> mlir::ktdf::findWideRowGroup(Operation *load) {
  auto loadOp = dyn_cast<ktdp::LoadOp>(load);
  if (!loadOp)
    return std::nullopt;
  auto rowType = dyn_cast<RankedTensorType>(loadOp.getResult().getType());
  if (!rowType || !rowType.hasStaticShape() || rowType.getRank() == 0)
    return std::nullopt;
  WideRowGroup group;
  group.width = rowType.getShape().back();
  Block *block = load->getBlock();
  llvm::SetVector<Operation *> sinks;
  SmallVector<Operation *> worklist{load};
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (group.rowOps.contains(op) || sinks.contains(op))
      continue;
    if (op->getBlock() != block)
      return std::nullopt;
    Role role = roleOf(op, group.width);
    if (role == Role::Unsupported)
      return std::nullopt;
    (role == Role::Row ? group.rowOps.insert(op) : sinks.insert(op));
    for (Value operand : op->getOperands()) {
      if (!isRowValue(operand, group.width))
        continue;
      Operation *def = operand.getDefiningOp();
      if (!def)
        return std::nullopt;
      worklist.push_back(def);
    }
    if (role == Role::Row)
      for (Operation *user : op->getUsers())
        worklist.push_back(user);
  }
  if (sinks.empty())
    return std::nullopt;
  SmallVector<Operation *> rowOps(group.rowOps.begin(), group.rowOps.end());
  sortInBlockOrder(rowOps);
  group.rowOps = llvm::SetVector<Operation *>(rowOps.begin(), rowOps.end());
  group.sinks.assign(sinks.begin(), sinks.end());
  sortInBlockOrder(group.sinks);
  for (Operation *op : group.rowOps)
    for (Value v : op->getResults()) {
      auto type = cast<RankedTensorType>(v.getType());
      int64_t bytes = ktflow::bytesPerElement(type.getElementType());
      group.elementBytes = std::max(group.elementBytes, bytes);
      group.leadingElements =
          std::max(group.leadingElements, type.getNumElements() / group.width);
    }
  group.rowBytes = group.leadingElements * group.width * group.elementBytes;
  return group;
}

SmallVector<Operation *> mlir::ktdf::sliceOf(const WideRowGroup &group,
                                             Operation *sink) {
  llvm::SetVector<Operation *> slice;
  SmallVector<Operation *> worklist{sink};
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (def && group.rowOps.contains(def) && slice.insert(def))
        worklist.push_back(def);
    }
  }
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  sortInBlockOrder(ordered);
  return ordered;
}

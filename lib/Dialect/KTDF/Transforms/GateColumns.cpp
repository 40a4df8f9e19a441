//===- GateColumns.cpp - A shared gate computed in column parts -----------===//
//
// This file implements what ktdf-share-left-operands asks of a shared
// gate's computation (GateColumns.h): the ops of the loop body it depends
// on, which of their tensors hold gate columns, found forwards from the
// products' right operands, and the clone of the computation for a part
// of them.
//
//===----------------------------------------------------------------------===//

#include "GateColumns.h"
#include "OutputSlices.h"
#include "TileSlices.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::ktdf;

/// Collects into `ops` the ops of `body` that `root` depends on and into
/// `outside` the ops outside the loop defining tensors they read. Fails
/// when `root` depends on a value the loop carries.
LogicalResult
mlir::ktdf::collectLoopSlice(Value root, Block *body,
                             llvm::SetVector<Operation *> &ops,
                             llvm::SetVector<Operation *> &outside) {
  SmallVector<Value> work{root};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() == body && arg.getArgNumber() != 0)
        return failure();
      continue;
    }
    Operation *def = v.getDefiningOp();
    Operation *inBody = body->findAncestorOpInBlock(*def);
    if (!inBody) {
      if (isa<RankedTensorType>(v.getType()))
        outside.insert(def);
      continue;
    }
    if (!ops.insert(inBody))
      continue;
    inBody->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (!operand.getParentRegion() ||
            !inBody->isProperAncestor(operand.getParentRegion()->getParentOp()))
          work.push_back(operand);
    });
  }
  return success();
}

/// A splat constant or an empty tensor: remade at any width.
static bool isSplatOrEmpty(Value v) {
  Operation *def = v.getDefiningOp();
  if (auto constant = dyn_cast_or_null<arith::ConstantOp>(def))
    return isa<SplatElementsAttr>(constant.getValue());
  return isa_and_nonnull<tensor::EmptyOp>(def);
}

FailureOr<llvm::SetVector<Value>>
mlir::ktdf::findGateColumns(ArrayRef<Operation *> slice, Value gate) {
  llvm::SetVector<Value> columns;
  auto uses = [&](Operation *op) {
    return llvm::any_of(op->getOperands(),
                        [&](Value v) { return columns.contains(v); });
  };
  for (Operation *op : slice) {
    auto product = dyn_cast<linalg::MatmulOp>(op);
    auto right = product && !product.hasUserDefinedMaps()
                     ? product.getInputs()[1].getDefiningOp<ktdp::LoadOp>()
                     : ktdp::LoadOp();
    if (right && llvm::is_contained(slice, right.getOperation()) &&
        isSliceableTile(right.getAccessTile())) {
      Value out = product.getOutputs()[0];
      auto fill = out.getDefiningOp<linalg::FillOp>();
      if (columns.contains(product.getInputs()[0]))
        return failure();
      if (fill && llvm::is_contained(slice, fill.getOperation()) &&
          isSplatOrEmpty(fill.getOutputs()[0]))
        columns.insert(fill.getOutputs()[0]);
      else if (!isSplatOrEmpty(out))
        return failure();
      columns.insert(right.getResult());
      columns.insert(out);
      columns.insert(product.getResult(0));
      continue;
    }
    if (!uses(op))
      continue;
    if (!isElementwiseOnTensors(op))
      return failure();
    for (Value operand : op->getOperands())
      if (!columns.contains(operand)) {
        if (!isSplatOrEmpty(operand))
          return failure();
        columns.insert(operand);
      }
    columns.insert(op->getResult(0));
  }
  if (!columns.contains(gate))
    return failure();
  // Every user in the slice of a value narrowed takes the narrow one.
  for (Value v : columns) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || type.getRank() != 2 || !type.hasStaticShape() ||
        type.getShape().back() !=
            cast<RankedTensorType>(gate.getType()).getShape().back())
      return failure();
    for (Operation *user : v.getUsers())
      if (llvm::is_contained(slice, user) && user->getNumResults() == 1 &&
          !columns.contains(user->getResult(0)))
        return failure();
  }
  return columns;
}

Value mlir::ktdf::cloneGateColumns(OpBuilder &b, ArrayRef<Operation *> slice,
                                   const llvm::SetVector<Value> &columns,
                                   IRMapping &map, Value gate, Value column,
                                   int64_t width) {
  auto narrow = [&](Value v) {
    auto type = cast<RankedTensorType>(v.getType());
    SmallVector<int64_t> shape(type.getShape());
    shape.back() = width;
    return type.clone(shape);
  };
  // Splats and empties read at every width are made at this one.
  for (Value v : columns)
    if (isSplatOrEmpty(v))
      map.map(v, remakeWithType(b, v.getDefiningOp(), narrow(v), Value()));
  for (Operation *op : slice) {
    if (op->getNumResults() == 1 && columns.contains(op->getResult(0))) {
      if (isSplatOrEmpty(op->getResult(0)))
        continue;
      if (auto load = dyn_cast<ktdp::LoadOp>(op)) {
        Value tile = buildColumnSlice(b, map.lookup(load.getAccessTile()),
                                      column, width);
        map.map(load.getResult(),
                ktdp::LoadOp::create(b, load.getLoc(), narrow(load), tile));
        continue;
      }
    }
    Operation *clone = b.clone(*op, map);
    for (auto [old, result] : llvm::zip(op->getResults(), clone->getResults()))
      if (columns.contains(old))
        result.setType(narrow(old));
  }
  return map.lookup(gate);
}

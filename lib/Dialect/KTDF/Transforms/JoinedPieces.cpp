//===- JoinedPieces.cpp - A straddling load's value, piece by piece -------===//
//
// This file implements the joining of a load read in pieces
// (ScratchpadParts.h, namespace parts): the scheduler has no op joining
// tensors (tensor.insert_slice), so a load whose box straddles parts is
// joined where its value goes, in the stores of the whole tile into device
// memory, of it or of what element-wise ops compute from it. Each piece
// runs those ops at its own shape, their other operands (`tensor.empty`s,
// `tensor.splat`s, splat constants) made again at that shape, and is stored
// into its box.
//
//===----------------------------------------------------------------------===//

#include "ScratchpadParts.h"
#include "StraddlingTiles.h"

#include "ktflow/Dialect/KTDP/IR/ScratchpadView.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::parts;

bool mlir::ktdf::parts::remakeableAtShape(Value value) {
  DenseElementsAttr dense;
  return value.getDefiningOp<tensor::EmptyOp>() ||
         value.getDefiningOp<tensor::SplatOp>() ||
         (matchPattern(value, m_Constant(&dense)) && dense.isSplat());
}

SmallVector<Operation *>
mlir::ktdf::parts::joinedUses(ktdp::LoadOp load, ArrayRef<int64_t> extents,
                              Operation *&refused) {
  llvm::SetVector<Operation *> uses;
  llvm::SmallPtrSet<Value, 8> values{load.getResult()};
  auto remakeable = [&](Value v) {
    return !isa<ShapedType>(v.getType()) || values.contains(v) ||
           remakeableAtShape(v);
  };
  // Every op computing from the value, checked in program order (so each
  // operand from the value is known when its user is checked).
  SmallVector<Value> worklist{load.getResult()};
  while (!worklist.empty()) {
    for (Operation *user : worklist.pop_back_val().getUsers()) {
      if (user->getBlock() != load->getBlock()) {
        refused = user;
        return {};
      }
      if (uses.insert(user))
        llvm::append_range(worklist, user->getResults());
    }
  }
  SmallVector<Operation *> ordered(uses.begin(), uses.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  for (Operation *user : ordered) {
    auto store = dyn_cast<ktdp::StoreOp>(user);
    std::optional<TileShape> into =
        store ? shapeOf(store.getAccessTile()) : std::nullopt;
    auto intoView =
        store ? ktdp::getAccessTileView(store.getAccessTile()) : nullptr;
    bool stored = store && values.contains(store.getDataTile()) && into &&
                  into->extents == extents && intoView &&
                  !ktdp::isScratchpadView(intoView);
    bool computed = !store && straddle::isElementwise(user, extents) &&
                    llvm::all_of(user->getOperands(), remakeable);
    if (!stored && !computed) {
      refused = user;
      return {};
    }
    values.insert(user->getResults().begin(), user->getResults().end());
  }
  return ordered;
}

void mlir::ktdf::parts::emitPiece(OpBuilder &b, Operation *op,
                                  ArrayRef<int64_t> at,
                                  ArrayRef<int64_t> extents, IRMapping &map) {
  if (auto store = dyn_cast<ktdp::StoreOp>(op)) {
    auto tile =
        store.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
    ktdp::StoreOp::create(b, store.getLoc(), map.lookup(store.getDataTile()),
                          pieceOfTile(b, tile, at, extents));
    return;
  }
  computePiece(b, op, extents, map);
}

void mlir::ktdf::parts::computePiece(OpBuilder &b, Operation *op,
                                     ArrayRef<int64_t> extents,
                                     IRMapping &map) {
  // The operands made at the piece's shape: empties, splats and splat
  // constants.
  auto pieceType = [&](Type type) {
    return RankedTensorType::get(extents,
                                 cast<ShapedType>(type).getElementType());
  };
  for (Value operand : op->getOperands()) {
    if (map.contains(operand) || !isa<ShapedType>(operand.getType()))
      continue;
    DenseElementsAttr dense;
    if (auto empty = operand.getDefiningOp<tensor::EmptyOp>())
      map.map(operand, tensor::EmptyOp::create(b, empty.getLoc(), extents,
                                               getElementTypeOrSelf(operand))
                           .getResult());
    else if (auto splat = operand.getDefiningOp<tensor::SplatOp>())
      map.map(operand, tensor::SplatOp::create(b, splat.getLoc(),
                                               pieceType(operand.getType()),
                                               splat.getInput())
                           .getResult());
    else if (matchPattern(operand, m_Constant(&dense)))
      map.map(operand,
              arith::ConstantOp::create(
                  b, op->getLoc(),
                  DenseElementsAttr::get(pieceType(operand.getType()),
                                         dense.getSplatValue<Attribute>()))
                  .getResult());
  }
  Operation *clone = b.clone(*op, map);
  for (Value result : clone->getResults())
    result.setType(pieceType(result.getType()));
}

//===- ProductTransfers.cpp - The transfers around a matrix stage --------===//
//
// This file implements ProductTransfers.h: following a matrix stage's
// operands and results to the transfers that feed and drain them.
//
//===----------------------------------------------------------------------===//

#include "ProductTransfers.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::ktdf;

DataTransferOp mlir::ktdf::onlyTransfer(Value v, bool isDst) {
  DataTransferOp found;
  for (Operation *user : v.getUsers()) {
    if (isa<ReadFromFifoOp, WriteToFifoOp>(user))
      continue;
    auto transfer = dyn_cast<DataTransferOp>(user);
    if (!transfer || (isDst ? transfer.getDst() : transfer.getSrc()) != v ||
        found)
      return nullptr;
    found = transfer;
  }
  return found;
}

DataTransferOp mlir::ktdf::bufferLoadOf(DataTransferOp feed) {
  if (!feed || !isa<MemRefType>(feed.getSrc().getType()) ||
      !feed.getSrcIndices().empty() ||
      !feed.getSrc().getDefiningOp<PrivateOp>())
    return nullptr;
  DataTransferOp load;
  for (Operation *user : feed.getSrc().getUsers()) {
    auto transfer = dyn_cast<DataTransferOp>(user);
    if (!transfer)
      return nullptr;
    if (transfer == feed)
      continue;
    if (load || transfer.getDst() != feed.getSrc() ||
        !isa<ktdp::AccessTileType>(transfer.getSrc().getType()) ||
        !transfer.getDstIndices().empty() || transfer.getRows())
      return nullptr;
    load = transfer;
  }
  return load;
}

DataTransferOp mlir::ktdf::feedOf(Value v) {
  auto read = v.getDefiningOp<ReadFromFifoOp>();
  if (!read || !read->hasOneUse())
    return nullptr;
  return onlyTransfer(read.getSlot(), /*isDst=*/true);
}

linalg::GenericOp mlir::ktdf::fillOf(Value v) {
  auto generic = v.getDefiningOp<linalg::GenericOp>();
  if (!generic || !generic->hasOneUse() ||
      llvm::any_of(generic.getDpsInputs(),
                   [](Value in) { return isa<ShapedType>(in.getType()); }))
    return nullptr;
  return generic;
}

void mlir::ktdf::retype(Value v, ArrayRef<int64_t> shape) {
  Type type = v.getType();
  if (auto slot = dyn_cast<FifoSlotType>(type))
    v.setType(FifoSlotType::get(v.getContext(), slot.getSrc(), slot.getDst(),
                                shape, slot.getElementType()));
  else if (auto memref = dyn_cast<MemRefType>(type))
    v.setType(MemRefType::get(shape, memref.getElementType(),
                              memref.getLayout(), memref.getMemorySpace()));
  else
    v.setType(RankedTensorType::get(
        shape, cast<RankedTensorType>(type).getElementType()));
}

Value mlir::ktdf::wholeViewTile(OpBuilder &b, ktdp::ConstructMemoryViewOp like,
                                int64_t address, ArrayRef<int64_t> shape) {
  MLIRContext *ctx = b.getContext();
  Location loc = like.getLoc();
  auto old = cast<MemRefType>(like.getType());
  auto memref = MemRefType::get(shape, old.getElementType(), old.getLayout(),
                                old.getMemorySpace());
  IntegerSet box = ktdp::getBoxSet(shape, ctx);
  Value offset = arith::ConstantIndexOp::create(b, loc, address);
  auto view = cast<ktdp::ConstructMemoryViewOp>(b.clone(*like));
  view.getResult().setType(memref);
  view.getOffsetMutable().assign(offset);
  view.setStaticSizes(shape);
  view.setStaticStrides({shape[1], 1});
  view.setCoordinateSetAttr(IntegerSetAttr::get(box));
  SmallVector<AffineExpr> origin(2, getAffineConstantExpr(0, ctx));
  return ktdp::ConstructAccessTileOp::create(
      b, loc, ktdp::AccessTileType::get(ctx, shape), view, ValueRange{},
      ValueRange{}, AffineMapAttr::get(AffineMap::get(0, 0, origin, ctx)),
      IntegerSetAttr::get(box),
      AffineMapAttr::get(AffineMap::getMultiDimIdentityMap(2, ctx)));
}

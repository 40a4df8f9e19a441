//===- TileSlices.cpp - Access tiles narrowed along their last dim --------===//
//
// This file implements the column slice of an access tile: the anchor's
// last coordinate gains the column as a new index, and the tile's set
// becomes the box of the narrower shape.
//
//===----------------------------------------------------------------------===//

#include "TileSlices.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

using namespace mlir;

Value ktdf::buildColumnSlice(OpBuilder &b, Value tile, Value column,
                             int64_t width) {
  auto op = tile.getDefiningOp<ktdp::ConstructAccessTileOp>();
  MLIRContext *ctx = b.getContext();
  AffineMap base = op.getBaseMap();
  SmallVector<AffineExpr> results(base.getResults());
  results.back() = results.back() + getAffineDimExpr(base.getNumDims(), ctx);
  auto shifted =
      AffineMap::get(base.getNumDims() + 1, base.getNumSymbols(), results, ctx);
  SmallVector<int64_t> shape(
      cast<ktdp::AccessTileType>(op.getType()).getShape());
  shape.back() = width;
  SmallVector<Value> indices(op.getIndices());
  indices.push_back(column);
  return ktdp::ConstructAccessTileOp::create(
      b, op.getLoc(), ktdp::AccessTileType::get(ctx, shape), op.getBase(),
      indices, op.getSymbolOperands(), AffineMapAttr::get(shifted),
      IntegerSetAttr::get(ktdp::getBoxSet(shape, ctx)),
      op.getAccessTileOrderAttr());
}

//===- TileSlices.cpp - Box access tiles of the passes that cut work -----===//
//
// This file implements the box tiles the passes cutting work build: a
// column slice of an access tile (the anchor's last coordinate gains the
// column as a new index, and the tile's set becomes the box of the
// narrower shape), or any anchor and shape in the tile's view.
//
//===----------------------------------------------------------------------===//

#include "TileSlices.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

using namespace mlir;

Value ktdf::buildBoxTile(OpBuilder &b, Value tile, ValueRange indices,
                         AffineMap base, ArrayRef<int64_t> shape) {
  auto op = tile.getDefiningOp<ktdp::ConstructAccessTileOp>();
  MLIRContext *ctx = b.getContext();
  return ktdp::ConstructAccessTileOp::create(
      b, op.getLoc(), ktdp::AccessTileType::get(ctx, shape), op.getBase(),
      indices, op.getSymbolOperands(), AffineMapAttr::get(base),
      IntegerSetAttr::get(ktdp::getBoxSet(shape, ctx)),
      op.getAccessTileOrderAttr());
}

Value ktdf::buildColumnSlice(OpBuilder &b, Value tile, Value column,
                             int64_t width) {
  auto op = tile.getDefiningOp<ktdp::ConstructAccessTileOp>();
  AffineMap base = op.getBaseMap();
  SmallVector<AffineExpr> results(base.getResults());
  results.back() =
      results.back() + getAffineDimExpr(base.getNumDims(), b.getContext());
  auto shifted = AffineMap::get(base.getNumDims() + 1, base.getNumSymbols(),
                                results, b.getContext());
  SmallVector<int64_t> shape(
      cast<ktdp::AccessTileType>(op.getType()).getShape());
  shape.back() = width;
  SmallVector<Value> indices(op.getIndices());
  indices.push_back(column);
  return buildBoxTile(b, tile, indices, shifted, shape);
}

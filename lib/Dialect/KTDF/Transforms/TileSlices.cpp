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

Value ktdf::buildDimSlice(OpBuilder &b, Value tile, unsigned dim, Value offset,
                          int64_t extent) {
  auto op = tile.getDefiningOp<ktdp::ConstructAccessTileOp>();
  AffineMap base = op.getBaseMap();
  SmallVector<int64_t> shape(
      cast<ktdp::AccessTileType>(op.getType()).getShape());
  // The anchor's coordinates end with the tile's dimensions.
  SmallVector<AffineExpr> results(base.getResults());
  AffineExpr &anchor = results[results.size() - shape.size() + dim];
  anchor = anchor + getAffineDimExpr(base.getNumDims(), b.getContext());
  auto shifted = AffineMap::get(base.getNumDims() + 1, base.getNumSymbols(),
                                results, b.getContext());
  shape[dim] = extent;
  SmallVector<Value> indices(op.getIndices());
  indices.push_back(offset);
  return buildBoxTile(b, tile, indices, shifted, shape);
}

Value ktdf::buildColumnSlice(OpBuilder &b, Value tile, Value column,
                             int64_t width) {
  auto type = cast<ktdp::AccessTileType>(tile.getType());
  return buildDimSlice(b, tile, type.getRank() - 1, column, width);
}

//===- TilePieces.cpp - A box within an access tile -----------------------===//

#include "ktflow/Dialect/KTDF/Transforms/TilePieces.h"

#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

using namespace mlir;

Value mlir::ktdf::pieceOfTile(OpBuilder &b, ktdp::ConstructAccessTileOp tile,
                              ArrayRef<int64_t> at, ArrayRef<int64_t> extents,
                              Value base) {
  MLIRContext *ctx = b.getContext();
  AffineMap map = tile.getBaseMap();
  SmallVector<AffineExpr> results;
  for (auto [result, delta] : llvm::zip(map.getResults(), at))
    results.push_back(result + delta);
  return ktdp::ConstructAccessTileOp::create(
      b, tile.getLoc(), ktdp::AccessTileType::get(ctx, extents),
      base ? base : tile.getBase(), tile.getIndices(), tile.getSymbolOperands(),
      AffineMap::get(map.getNumDims(), map.getNumSymbols(), results, ctx),
      ktdp::getBoxSet(extents, ctx),
      AffineMap::getMultiDimIdentityMap(extents.size(), ctx));
}

//===- TileSlices.h - Box tiles of the passes that cut work ---*- C++ -*-===//
//
// This file declares the access-tile builders that the passes cutting work
// share (ktdf-stream-wide-rows' column chunks, ktdf-split-output-blocks'
// column slices of a product's output block, ktdf-split-row-tiles' row
// slices of a loop's tiles).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_TILESLICES_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_TILESLICES_H

#include "mlir/IR/Builders.h"

namespace mlir::ktdf {

/// A box tile of `shape` into the view of `tile` (built by
/// ktdp.construct_access_tile), in its order, anchored at `base` applied to
/// `indices` and the tile's symbol operands.
Value buildBoxTile(OpBuilder &b, Value tile, ValueRange indices, AffineMap base,
                   ArrayRef<int64_t> shape);

/// A box tile like `tile` (built by ktdp.construct_access_tile), shifted
/// `offset` along its dimension `dim` and `extent` long there (a row slice
/// of a right operand whose rows a contraction reads).
Value buildDimSlice(OpBuilder &b, Value tile, unsigned dim, Value offset,
                    int64_t extent);

/// A box tile like `tile` (built by ktdp.construct_access_tile), shifted
/// `column` columns along its last dimension and `width` columns wide.
Value buildColumnSlice(OpBuilder &b, Value tile, Value column, int64_t width);

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_TILESLICES_H

//===- RowMajorViews.h - Views laid out by decreasing stride ----*- C++ -*-===//
//
// This file declares the reordering of a view whose innermost dimension is
// not contiguous (a column-major view, `sizes: [32, 64]`, `strides:
// [1, 64]`) into the row-major view of the same elements: its dimensions by
// decreasing stride (64x32, `strides: [64, 1]`). The load and store units
// move contiguous rows and the vector units have no transposing datapath;
// the DMA engines move permuted tiles (TransposeIdioms.h), so an access of
// the first is an access of the second and a linalg.transpose.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_ROWMAJORVIEWS_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_ROWMAJORVIEWS_H

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace mlir::ktdf {

/// The dimensions of `view` by decreasing stride (ties in order), when its
/// strides are static and the last of them is 1: dimension i of the
/// row-major view holding the same elements is dimension order[i] of
/// `view`. std::nullopt for a view with dynamic strides or none of 1.
std::optional<SmallVector<int64_t>>
rowMajorOrder(ktdp::ConstructMemoryViewOp view);

/// `values` in `order`.
SmallVector<int64_t> inOrder(ArrayRef<int64_t> values, ArrayRef<int64_t> order);

/// Makes `view` (a clone of it, in place) the row-major view of its
/// elements: sizes and strides in `order`, a coordinate set of `extents` in
/// `order` from the origin.
void reorderView(ktdp::ConstructMemoryViewOp view, ArrayRef<int64_t> order,
                 ArrayRef<int64_t> extents);

/// Makes `tile` (in place) the tile of the same elements of its view
/// reordered by `order`: its anchor, and its box of `extents`, in `order`.
void reorderTile(ktdp::ConstructAccessTileOp tile, ArrayRef<int64_t> order,
                 ArrayRef<int64_t> extents);

/// The inverse of the permutation `order`: the linalg.transpose
/// permutation that takes a value in `order` back to the original order.
SmallVector<int64_t> inverseOrder(ArrayRef<int64_t> order);

/// `value` transposed by `permutation` (dimension i of the result is
/// dimension permutation[i] of `value`), built at `b`'s insertion point.
Value transposed(OpBuilder &b, Location loc, Value value,
                 ArrayRef<int64_t> permutation);

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_ROWMAJORVIEWS_H

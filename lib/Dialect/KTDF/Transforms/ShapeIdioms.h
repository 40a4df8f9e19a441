//===- ShapeIdioms.h - Shape idioms the scheduler folds ---------*- C++ -*-===//
//
// This file declares the shape idioms of real kernels that the mapping
// group accepts although it streams no reshapes and no matrix products:
// tensor.collapse_shape / tensor.expand_shape that only remove or add
// dimensions of extent 1 (a 1x1 sum collapsed to a rank-0 tensor, a weight
// vector expanded to a 1xN row), which ktdf-generalize folds into indexing
// maps, and a row's sum of squares written as the dot product x . x^T
// (linalg.transpose + linalg.matmul with a 1x1 result), which it rewrites
// as a row reduction of x * x. ktdf-check-supported accepts exactly what
// these recognise; the masking check follows the reshapes.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_SHAPEIDIOMS_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_SHAPEIDIOMS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::ktdf {

/// Whether `op` is a tensor.collapse_shape or tensor.expand_shape between
/// static shapes that have the same extents other than 1, in the same
/// order: it only removes or adds dimensions of extent 1.
bool isUnitReshape(Operation *op);

/// The row `x` of `matmul(x, transpose(x))` when the product is a single
/// element (x is 1xK, the result 1x1): the sum of the squares of x's
/// elements added to the output. Null for every other matmul.
Value matchRowSumOfSquares(linalg::MatmulOp matmul);

/// Whether every use of `transpose` is the right-hand side of a matmul
/// matchRowSumOfSquares recognises (the rewrite then leaves it unused).
bool onlyFeedsRowSumsOfSquares(linalg::TransposeOp transpose);

/// Whether `v` is all +0.0: a splat constant or a linalg.fill of one.
bool isPositiveZero(Value v);

/// Replaces `op` (one ranked static tensor result) by a parallel
/// linalg.generic over its result's shape that copies `source`, read
/// through `read` (from the result's loops to `source`'s coordinates), into
/// a tensor.empty. The unit reshapes and Generalize's broadcast of a
/// one-element tensor are such copies.
void replaceWithCopy(PatternRewriter &rewriter, Operation *op, Value source,
                     AffineMap read);

/// Unit reshapes to linalg.generic copies whose indexing maps drop or add
/// the unit dimensions (element-wise fusion then folds them into their
/// neighbours).
void populateUnitReshapePatterns(RewritePatternSet &patterns);

/// A unit collapse of a gather's load to the load of the gather without
/// the unit variables, and of a direct tile's load to the load of a tile of
/// the view with each dropped dimension merged into its contiguous inner
/// neighbour (applied before unit reshapes become copies).
void populateUnitCollapseOfGatherPatterns(RewritePatternSet &patterns);

/// A unit collapse of a direct tile's load, and a store of a unit expand
/// to a direct tile, to the load or store of the tile of the view with each
/// unit dimension merged into its contiguous inner neighbour
/// (ktdf-split-point-rows then sees a 1x8x128 block's 8 rows).
void populateUnitTilePatterns(RewritePatternSet &patterns);

/// The row sum of squares to a reduction generic. Applied before named ops
/// are generalised (the transpose must still be a linalg.transpose).
void populateRowSumOfSquaresPatterns(RewritePatternSet &patterns);

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_SHAPEIDIOMS_H

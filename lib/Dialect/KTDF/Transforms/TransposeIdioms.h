//===- TransposeIdioms.h - Transposes as permuted accesses ------*- C++ -*-===//
//
// This file declares how the mapping group compiles `linalg.transpose`: the
// compute units stream rows and have no transposing datapath, but the DMA
// engines move a tile with a permuted `access_tile_order` (a transposed
// load or store) as strided transfers into the buffer's layout. So a
// transpose of a value computed element-wise from loads (K^T of an
// attention, `linalg.transpose(arith.extf(ktdp.load %tk))`) becomes the
// same element-wise computation on loads of tiles whose order is
// permuted, and a transpose whose only uses are stores becomes stores of
// its input through tiles whose order is permuted back. A permuted tile
// that may leave its view is clamped to it, and reads 0 past it, as a tile
// in its own order does.
// ktdf-check-supported accepts exactly what ktdf-generalize rewrites here.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_TRANSPOSEIDIOMS_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_TRANSPOSEIDIOMS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>
#include <string>

namespace mlir::ktdf {

/// Why the scheduler cannot turn `transpose` into permuted accesses, or
/// nothing when it can: its input is computed element-wise (ops with the
/// Elementwise trait, splat constants) from loads of tiles in device memory
/// that stay inside their views, or its only uses are stores through such
/// tiles.
std::optional<std::string> whyNotPermutedAccess(linalg::TransposeOp transpose);

/// The rewrites whyNotPermutedAccess accepts. Applied before named ops are
/// generalised (the transpose must still be a linalg.transpose).
void populatePermutedAccessPatterns(RewritePatternSet &patterns);

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_TRANSPOSEIDIOMS_H

//===- TileSlices.h - Access tiles narrowed along their last dim -*- C++
//-*-===//
//
// This file declares the access-tile builder that the passes cutting work
// along a row share (ktdf-stream-wide-rows' column chunks, and
// ktdf-split-output-blocks' column slices of a product's output block).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_TILESLICES_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_TILESLICES_H

#include "mlir/IR/Builders.h"

namespace mlir::ktdf {

/// A box tile like `tile` (built by ktdp.construct_access_tile), shifted
/// `column` columns along its last dimension and `width` columns wide.
Value buildColumnSlice(OpBuilder &b, Value tile, Value column, int64_t width);

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_TILESLICES_H

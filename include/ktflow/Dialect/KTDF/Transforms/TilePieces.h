//===- TilePieces.h - A box within an access tile ---------------*- C++ -*-===//
//
// This file declares pieceOfTile, the access tile of a box within a box
// tile: the distributed-view passes cut a tile into the pieces each part
// holds (ScratchpadParts.h), and the DMA lowering cuts a device-to-device
// copy into row pieces for several tiles (DuplicateStoreSplits.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDF_TRANSFORMS_TILEPIECES_H
#define KTFLOW_DIALECT_KTDF_TRANSFORMS_TILEPIECES_H

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/IR/Builders.h"

namespace mlir::ktdf {

/// The box `extents` at `at` in the box tile `tile` covers, of `base`
/// (default: of `tile`'s view).
Value pieceOfTile(OpBuilder &b, ktdp::ConstructAccessTileOp tile,
                  ArrayRef<int64_t> at, ArrayRef<int64_t> extents,
                  Value base = nullptr);

} // namespace mlir::ktdf

#endif // KTFLOW_DIALECT_KTDF_TRANSFORMS_TILEPIECES_H

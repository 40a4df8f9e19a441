//===- ProductTransfers.h - The transfers around a matrix stage -*- C++ -*-===//
//
// This file declares what ktdf-split-product-columns and
// ktdf-join-product-columns share when they follow a matrix stage's
// products to their transfers: the feed of a slot the stage reads, the
// load of the buffer behind it, the drain of a slot it writes, a fill
// initialising a product, a whole scratchpad view for a result, and the
// retyping of a slot, buffer or tensor
// whose shape a rewrite changes.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_PRODUCTTRANSFERS_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_PRODUCTTRANSFERS_H

#include "ktflow/Dialect/KTDF/IR/KTDF.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::ktdp {
class ConstructMemoryViewOp;
} // namespace mlir::ktdp

namespace mlir::ktdf {

/// The single transfer whose end `isDst` is slot `v` (which the compute
/// stage's FIFO read or write names too), or null.
DataTransferOp onlyTransfer(Value v, bool isDst);

/// The transfer loading the buffer behind the feed `feed` (a private
/// buffer to a slot, unindexed) from an access tile, whole (unindexed, no
/// row limit), when it is the buffer's only other user; else null.
DataTransferOp bufferLoadOf(DataTransferOp feed);

/// The feed filling the slot `v` is read from, when `v` is a
/// ktdf.read_from_fifo used once; else null.
DataTransferOp feedOf(Value v);

/// The fill defining `v` (a generic with no tensor input, used once), or
/// null.
linalg::GenericOp fillOf(Value v);

/// A whole row-major scratchpad view like `like`, of the 2-d `shape` at
/// element `address`, built at `b`'s insertion point, and the access tile
/// covering it from its origin; returns the tile.
Value wholeViewTile(OpBuilder &b, ktdp::ConstructMemoryViewOp like,
                    int64_t address, ArrayRef<int64_t> shape);

/// Gives the slot, buffer or tensor `v` the shape `shape`.
void retype(Value v, ArrayRef<int64_t> shape);

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_PRODUCTTRANSFERS_H

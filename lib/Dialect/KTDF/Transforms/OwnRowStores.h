//===- OwnRowStores.h - Each part stores its own rows of a sum -*- C++ -*-===//
//
// This file declares the rewrite ktdf-split-wide-reductions applies to a
// store of a value every part computes whole from an all-reduced sum:
// each part stores its own rows of it instead of part 0 storing it all
// (OwnRowStores.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_OWNROWSTORES_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_OWNROWSTORES_H

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::ktdf {

/// Makes `store` store rows [p R / `parts`, (p + 1) R / `parts`) of its
/// value, p = `part`, when the value is an inter_tile_reduce's result
/// (or its expand_shape) through element-wise ops whose other operands
/// every tile holds alike (splat constants, loads no tile id places), each
/// value on the way used once, and the value's first dimension R divides
/// into `parts`; marks the reduce `ktdf.scatter` (ScatterAttr.h). The
/// tiles of the reduce's one group must be the parts, tile p being part p.
/// Returns whether it did.
bool storeOwnRows(OpBuilder &b, ktdp::StoreOp store, Value part, int64_t parts);

/// The same for a store of a kernel of several points cut into parts, a
/// last grid dimension (`grid`, tile ids `ids`, the kernel's own
/// dimensions first): the value is one of the kernel's all-reduces
/// `shared`, whose group g holds tiles g, g + P, ... (P parts; tiles
/// numbered first dimension fastest), and the store runs on one tile
/// alone (ktdf-lower-if's loops of `scf.if %pid == c`, holding nothing
/// else with effects) or on every tile. The tiles of group 0 then store,
/// each its rows by its position in the group. Returns whether it did.
bool storeShardRows(OpBuilder &b, ktdp::StoreOp store, ValueRange ids,
                    ArrayRef<int64_t> grid,
                    ArrayRef<ktdp::InterTileReduceOp> shared);

/// Moves `store` into a loop of one trip where `condition` holds and none
/// elsewhere (as ktdf-lower-if makes a branch).
void storeOnlyWhere(OpBuilder &b, ktdp::StoreOp store, Value condition);

/// Whether `reduce` all-reduces over one group, 0, of every tile of a
/// grid of `numTiles`, every tile producing and consuming.
bool isEveryTileReduce(ktdp::InterTileReduceOp reduce, int64_t numTiles);

/// storeShardRows for the stores of a kernel of several points (`grid`)
/// left whole, of its all-reduces over every tile outside loops: each
/// tile t stores rows t of R / tiles. Returns whether a store changed.
bool storeTileRows(func::FuncOp func, ArrayRef<int64_t> grid);

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_OWNROWSTORES_H

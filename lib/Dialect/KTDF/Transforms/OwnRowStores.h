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

namespace mlir::ktdf {

/// Makes `store` store rows [p R / `parts`, (p + 1) R / `parts`) of its
/// value, p = `part`, when the value is an inter_tile_reduce's result
/// through element-wise ops, each (and the result) used once, and the
/// result's first dimension R divides into `parts`; marks the reduce
/// `ktdf.scatter` (ScatterAttr.h). The tiles of the reduce's one group
/// must be the parts, tile p being part p. Returns whether it did.
bool storeOwnRows(OpBuilder &b, ktdp::StoreOp store, Value part, int64_t parts);

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_OWNROWSTORES_H

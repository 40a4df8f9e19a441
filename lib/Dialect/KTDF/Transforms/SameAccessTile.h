//===- SameAccessTile.h - Tiles that address the same elements --*- C++ -*-===//
//
// This file declares the test ktdf-sink-into-loops uses to replace a load
// of a tile loaded earlier in the same block by that earlier load.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_SAMEACCESSTILE_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_SAMEACCESSTILE_H

#include "mlir/IR/Value.h"

namespace mlir::ktdf {

/// Whether the access tiles `a` and `b` address the same elements: the
/// same base, set, order, symbols (equal values or equal constants) and
/// anchor (constant indices folded in, so `%X[%r, 0]` and `%X[%r, %c0]`
/// compare equal).
bool sameAccessTile(Value a, Value b);

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_SAMEACCESSTILE_H

//===- SplitProductColumns.h - A product's columns over a core's lanes ----===//
//
// This file declares the attribute --ktdf-split-product-columns
// (SplitProductColumns.cpp) puts on the scratchpad views both lanes of a
// core share, which the lowering places in the core's first lane's region.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDF_TRANSFORMS_SPLITPRODUCTCOLUMNS_H
#define KTFLOW_DIALECT_KTDF_TRANSFORMS_SPLITPRODUCTCOLUMNS_H

#include "llvm/ADT/StringRef.h"

namespace mlir::ktdf {

/// The unit attribute ktdf-split-product-columns puts on a scratchpad view
/// both lanes of a core write and read.
constexpr llvm::StringLiteral kLanesSharedViewAttrName = "ktdf.lanes_shared";

} // namespace mlir::ktdf

#endif // KTFLOW_DIALECT_KTDF_TRANSFORMS_SPLITPRODUCTCOLUMNS_H

//===- SplitProductColumns.h - A product's columns over a core's lanes ----===//
//
// This file declares --ktdf-split-product-columns (SplitProductColumns.cpp)
// and the attribute it puts on the scratchpad views both lanes of a core
// share, which the lowering places in the core's first lane's region.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDF_TRANSFORMS_SPLITPRODUCTCOLUMNS_H
#define KTFLOW_DIALECT_KTDF_TRANSFORMS_SPLITPRODUCTCOLUMNS_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace mlir::ktdf {

/// The unit attribute ktdf-split-product-columns puts on a scratchpad view
/// both lanes of a core write and read.
constexpr llvm::StringLiteral kLanesSharedViewAttrName = "ktdf.lanes_shared";

/// After ktdf-split-point-rows put the halves of a grid point's rows on a
/// core's two lanes: where a lane's rows fill at most half the matrix
/// unit's m and the product has at least twice its n columns of a right
/// operand both lanes share, each lane multiplies the point's rows by its
/// half of the columns, the halves rejoined in a scratchpad view the lanes
/// share (SplitProductColumns.cpp).
std::unique_ptr<Pass> createKTDFSplitProductColumns();

/// Registers --ktdf-split-product-columns.
void registerKTDFSplitProductColumns();

} // namespace mlir::ktdf

#endif // KTFLOW_DIALECT_KTDF_TRANSFORMS_SPLITPRODUCTCOLUMNS_H

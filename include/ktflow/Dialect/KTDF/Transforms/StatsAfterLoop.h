//===- StatsAfterLoop.h - The views of statistics kept in a loop -*- C++
//-*-===//
//
// This file declares the attribute --ktdf-store-stats-after-loop
// (StatsAfterLoop.cpp) puts on the scratchpad views that keep a row loop's
// one-element stores, which the lowering stores after the loop straight
// from the scratchpad (ScratchpadStoreDma.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDF_TRANSFORMS_STATSAFTERLOOP_H
#define KTFLOW_DIALECT_KTDF_TRANSFORMS_STATSAFTERLOOP_H

#include "llvm/ADT/StringRef.h"

namespace mlir::ktdf {

/// The unit attribute put on the views ktdf-store-stats-after-loop makes,
/// beside `ktdf.carried` (which makes the lowering order their accesses).
constexpr llvm::StringLiteral kRowStatsViewAttrName = "ktdf.row_stats";

} // namespace mlir::ktdf

#endif // KTFLOW_DIALECT_KTDF_TRANSFORMS_STATSAFTERLOOP_H

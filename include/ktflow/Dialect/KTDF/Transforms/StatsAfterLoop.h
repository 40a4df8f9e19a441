//===- StatsAfterLoop.h - Per-row statistics stored after the loop -*- C++
//-*-===//
//
// This file declares --ktdf-store-stats-after-loop, which keeps the
// one-element results of a grid-stride row loop (a row's maximum, sum,
// mean or reciprocal standard deviation) in the scratchpad across the loop
// and stores each output with one strided transfer after it. The pass is
// written by hand, not in Passes.td: it has no options, and the generated
// header is included by most of the scheduler.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDF_TRANSFORMS_STATSAFTERLOOP_H
#define KTFLOW_DIALECT_KTDF_TRANSFORMS_STATSAFTERLOOP_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace mlir::ktdf {

/// The unit attribute put on the scratchpad views the pass makes.
constexpr llvm::StringLiteral kRowStatsViewAttrName = "ktdf.row_stats";

std::unique_ptr<Pass> createKTDFStoreStatsAfterLoop();

/// Registers the pass with MLIR's pass registry (ktflow-opt).
void registerKTDFStoreStatsAfterLoop();

} // namespace mlir::ktdf

#endif // KTFLOW_DIALECT_KTDF_TRANSFORMS_STATSAFTERLOOP_H

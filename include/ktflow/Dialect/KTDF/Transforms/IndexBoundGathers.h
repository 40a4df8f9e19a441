//===- IndexBoundGathers.h - Gathers bound by their index reads -*- C++ -*-===//
//
// This file declares ktdf-split-index-bound-gathers (SplitGathers.cpp): a
// gather that reads an index for every element and is only stored moves
// in chunks that ktdf-spread-iterations deals over the device's lanes.
// The optimising pipeline alone runs it: on one lane the chunks only add
// their stores' latencies.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDF_TRANSFORMS_INDEXBOUNDGATHERS_H
#define KTFLOW_DIALECT_KTDF_TRANSFORMS_INDEXBOUNDGATHERS_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace mlir::ktdf {

/// ktdf-split-index-bound-gathers, on a module.
std::unique_ptr<Pass> createSplitIndexBoundGathers();

/// Registers ktdf-split-index-bound-gathers (for ktflow-opt).
void registerSplitIndexBoundGathers();

} // namespace mlir::ktdf

#endif // KTFLOW_DIALECT_KTDF_TRANSFORMS_INDEXBOUNDGATHERS_H

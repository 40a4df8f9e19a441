//===- CopyPipelines.h - Walking a block's tile-copy pipelines --*- C++ -*-===//
//
// The op after `op` in its block that may touch memory, past the ops that
// cannot (the access tiles and index arithmetic built between pipelines):
// two pipelines with only such ops between them run back to back.
// Shared by ResidentCopies.cpp and TileCopyLowering.cpp only.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_CONVERSION_KTDFTODFIR_COPYPIPELINES_H
#define KTFLOW_CONVERSION_KTDFTODFIR_COPYPIPELINES_H

#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::ktdf::lowering {

inline Operation *nextEffectfulOp(Operation *op) {
  Operation *next = op->getNextNode();
  while (next && next->getNumRegions() == 0 && isMemoryEffectFree(next))
    next = next->getNextNode();
  return next;
}

} // namespace mlir::ktdf::lowering

#endif // KTFLOW_CONVERSION_KTDFTODFIR_COPYPIPELINES_H

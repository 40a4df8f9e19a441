//===- CopyPipelines.h - Walking a block's tile-copy pipelines --*- C++ -*-===//
//
// The op after `op` in its block that may touch memory, past the ops that
// cannot (the access tiles and index arithmetic built between pipelines):
// two pipelines with only such ops between them run back to back.
// Shared by ResidentCopies.cpp and TileCopyLowering.cpp only. Below it,
// what the rewrites of copy fills before the programs are built share
// (ExchangeDma.cpp, PassThroughDma.cpp, ResidentCopies.cpp,
// KeptCopySources.cpp, ScratchpadStoreDma.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_CONVERSION_KTDFTODFIR_COPYPIPELINES_H
#define KTFLOW_CONVERSION_KTDFTODFIR_COPYPIPELINES_H

#include "ktflow/Dialect/KTDF/IR/KTDF.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::ktdf::lowering {

inline Operation *nextEffectfulOp(Operation *op) {
  Operation *next = op->getNextNode();
  while (next && next->getNumRegions() == 0 && isMemoryEffectFree(next))
    next = next->getNextNode();
  return next;
}

/// Erases the private buffers and FIFO slots of `pipeline` that nothing
/// uses any more (its stages rewritten to DMAs alone).
void eraseUnusedPrivates(PipelineOp pipeline);

/// Drops the drain transfer `out` of a fill, the writes of compute stage
/// `compute` into the FIFO slot it drains, and the slot
/// (ResidentCopies.cpp).
void dropFillWrite(DataTransferOp out, StageOp compute);

/// Makes each tile copy whose senders keep what they send, filled with the
/// same data as its source, send that kept destination, and drops the
/// fills' writes of the source (KeptCopySources.cpp).
void sendKeptDestinations(func::FuncOp func);

/// Makes each pipeline that only passes the statistics a row loop kept in
/// a scratchpad view on to device memory one DMA from the view
/// (ScratchpadStoreDma.cpp).
void directKeptStores(func::FuncOp func);

} // namespace mlir::ktdf::lowering

#endif // KTFLOW_CONVERSION_KTDFTODFIR_COPYPIPELINES_H

//===- RowBlocks.h - Tiles handed over in blocks of rows --------*- C++ -*-===//
//
// This file declares what ktdf-row-blocks and the lowering share about a
// DMA load stage whose tile the feed takes in blocks of rows: the
// attribute that marks it and the feed's loop over the rows, where the
// lowering waits for each block.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDF_TRANSFORMS_ROWBLOCKS_H
#define KTFLOW_DIALECT_KTDF_TRANSFORMS_ROWBLOCKS_H

#include "ktflow/Dialect/KTDF/IR/KTDF.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::ktdf {

/// The i64 attribute ktdf-row-blocks puts on a DMA load stage: it loads its
/// tile in that many blocks of rows and hands each to the feed on its own.
constexpr llvm::StringLiteral kRowBlocksAttrName = "ktdf.row_blocks";

/// For a stage that only loads one 2-d tile into a buffer of its pipeline,
/// read by one other transfer stage of the pipeline (the feed) first in a
/// loop over the buffer's rows (constant, from 0 by 1, every read of the
/// buffer in it at the loop's row, only loops of constant bounds around
/// it): that loop. Else null.
scf::ForOp getRowBlockLoop(StageOp load);

/// The buffer `load` fills (null when it is not one data transfer).
Value getLoadedBuffer(StageOp load);

} // namespace mlir::ktdf

#endif // KTFLOW_DIALECT_KTDF_TRANSFORMS_ROWBLOCKS_H

//===- RowBlocks.h - Tiles handed over in blocks of rows --------*- C++ -*-===//
//
// This file declares what ktdf-row-blocks and the lowering share about a
// DMA load stage whose tile the feed takes in blocks of rows (or a DMA
// store stage whose tile the drain hands over in blocks of rows): the
// attribute that marks it and the feed's (drain's) loop over the rows,
// where the lowering waits for (hands over) each block.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDF_TRANSFORMS_ROWBLOCKS_H
#define KTFLOW_DIALECT_KTDF_TRANSFORMS_ROWBLOCKS_H

#include "ktflow/Dialect/KTDF/IR/KTDF.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::ktdf {

/// The i64 attribute ktdf-row-blocks puts on a DMA load stage: it loads its
/// tile in that many blocks of rows and hands each to the feed on its own
/// (on a DMA store stage: the drain hands each block over on its own and
/// the stage stores it once it has).
constexpr llvm::StringLiteral kRowBlocksAttrName = "ktdf.row_blocks";

/// For a stage that only loads one 2-d tile into a buffer of its pipeline,
/// read by one other transfer stage of the pipeline (the feed) first in a
/// loop over the buffer's rows (constant, from 0 by 1, every read of the
/// buffer in it at the loop's row, only loops of constant bounds around
/// it): that loop. For a stage that only stores one 2-d tile from such a
/// buffer, written by one other transfer stage (the drain) only in such a
/// loop: that loop. Else null.
scf::ForOp getRowBlockLoop(StageOp stage);

/// The buffer `stage` fills or stores, when it is one data transfer
/// between a 2-d access tile and a buffer of its pipeline; else null.
Value getLoadedBuffer(StageOp stage);

/// Whether `stage`'s one data transfer stores a buffer to a tile.
bool isRowBlockStore(StageOp stage);

} // namespace mlir::ktdf

#endif // KTFLOW_DIALECT_KTDF_TRANSFORMS_ROWBLOCKS_H

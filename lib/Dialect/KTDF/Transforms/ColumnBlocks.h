//===- ColumnBlocks.h - Loops over adjacent column blocks -------*- C++ -*-===//
//
// This file declares what --ktdf-merge-column-blocks knows about a loop
// over adjacent column blocks (MergeColumnBlocks.cpp): whether its body is
// one the pass can widen, and the widening itself, shared by the merge of a
// loop of constant trips into one block and the split of a loop whose trip
// count is known only at run time into loops of wider blocks
// (RuntimeColumnBlocks.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_COLUMNBLOCKS_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_COLUMNBLOCKS_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mlir::ktdf::column_blocks {

/// On a loop of wider blocks a split made: the column (its induction
/// variable's value) before which all its blocks end. Its blocks never
/// start past the views, so a row span it reads needs no zeros past them
/// for it (ktdf-hoist-invariant-transfers).
constexpr llvm::StringLiteral kBlocksEndAttrName = "ktdf.blocks_end";

/// A loop over adjacent column blocks: its constant lower bound and step,
/// its trip count when constant, the amount each carried index adds per
/// trip, and the block shape every tensor of its body has (with
/// `anyShape`, the width: a row block and the weight block it is scaled
/// by, expanded to the row's rank).
struct ColumnBlockLoop {
  int64_t lowerBound = 0, step = 0, trips = 0;
  SmallVector<int64_t> carriedSteps;
  SmallVector<int64_t> blockShape;
  bool anyShape = false;
  /// The views' extent along the last dimension over the block width,
  /// rounded up, when every tile's view has a constant one: more blocks
  /// than that lie past the views.
  std::optional<int64_t> blocksInViews;
  bool viewsBounded = true;
};

/// Whether the body of `loop` (whose `plan` has the lower bound, step and
/// carried steps filled in) only loads column-block tiles, computes
/// element-wise on block tensors and stores column-block tiles, no trip
/// reading what another writes; fills the block shape and the blocks in
/// the views.
bool planBody(scf::ForOp loop, ColumnBlockLoop &plan);

/// Bytes of the largest tensor in the body of `loop`.
int64_t widestBlockBytes(scf::ForOp loop);

/// Clones the body of `loop` (but its terminator) at `b` with every tile,
/// load, store and tensor `factor` times as wide; `mapping` maps the
/// induction variable and carried values, and the splats from outside the
/// loop are widened next to their definitions.
void widenBody(OpBuilder &b, scf::ForOp loop, IRMapping &mapping,
               int64_t factor);

/// Splits `loop`, a column-block loop (`plan`) of constant lower bound and
/// step whose trip count is known only at run time, into loops of blocks
/// K, K/2, ..., 2 times as wide and the loop itself, each starting where
/// the previous one stops: each block is one pipeline execution, so the
/// blocks a row moves as few transfers. K is a power of two, at most the
/// blocks in the views, and the widened blocks at most `maxBytes` per
/// tensor and kMaxRuntimeBlockBytes. The wider loops take no trip past the
/// views (the loop itself takes those). Returns false (and leaves the
/// loop) when K would be 1.
bool splitRuntimeLoop(scf::ForOp loop, const ColumnBlockLoop &plan,
                      int64_t maxBytes);

} // namespace mlir::ktdf::column_blocks

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_COLUMNBLOCKS_H

//===- WideRows.h - Row computations wider than a tile may be ---*- C++ -*-===//
//
// This file declares the analysis behind --ktdf-stream-wide-rows: the
// computation one block does on rows loaded whole (a softmax's 1x262144
// row: loads, element-wise ops, broadcasts of row scalars, reductions along
// the row, stores of whole rows), found as a group of ops that a chunk loop
// over the row's last dimension can redo piece by piece. The pass rewrites
// what this finds; the analysis says exactly which ops take part, so the
// rewrite never has to guess.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_WIDEROWS_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_WIDEROWS_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::ktdf {

/// The ops of one block that compute on whole rows of `width` elements.
struct WideRowGroup {
  int64_t width = 0;
  /// Bytes of the widest row tensor of the group (all its dimensions).
  int64_t rowBytes = 0;
  /// Product of the dimensions before the last of the widest tensor.
  int64_t leadingElements = 1;
  /// The largest element size of the group's row tensors, in bytes.
  int64_t elementBytes = 1;
  /// Ops producing row tensors (loads, element-wise ops, splats, empties,
  /// fills, broadcasts, splat constants, parallel generics), in block order.
  llvm::SetVector<Operation *> rowOps;
  /// Ops consuming row tensors into something narrower: reductions along
  /// the last dimension (linalg.reduce, reducing linalg.generic) and stores
  /// of whole rows, in block order.
  SmallVector<Operation *> sinks;
};

/// The group that `load` (a ktdp.load of a whole-row access tile) starts,
/// or std::nullopt when some op touching the group's row tensors cannot be
/// computed chunk by chunk (then the group stays as it is).
std::optional<WideRowGroup> findWideRowGroup(Operation *load);

/// The row ops `sink` needs (its backward slice within the group), in
/// block order.
SmallVector<Operation *> sliceOf(const WideRowGroup &group, Operation *sink);

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_WIDEROWS_H

//===- GroupParts.h - Compute groups cut into parts -------------*- C++ -*-===//
//
// This file declares what ktdf-split-matrix-groups and
// ktdf-split-shape-groups share: ktir-to-ktdf's compute groups of a block
// (the tensor ops that feed each other, with their loads and stores), cut
// into parts that become pipelines of their own, and the hand-over of the
// values one part computes for another through scratchpad views.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_GROUPPARTS_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_GROUPPARTS_H

#include "ScratchpadViews.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/EquivalenceClasses.h"

namespace mlir::ktdf {

/// Whether ktir-to-ktdf counts `op` in a compute group (its convertBlock).
bool isGroupMember(Operation &op);

/// A generic that reads no tensor (a fill), which every part may compute.
bool isFill(Operation *op);

/// Calls `split` on every block of every kernel of `module` (blocks listed
/// before any is split, so a split may add blocks), each kernel with a
/// scratchpad cursor of its own; fails at the first failing split.
LogicalResult splitEachBlock(
    ModuleOp module,
    function_ref<LogicalResult(Block &, func::FuncOp, ScratchpadCursor &)>
        split);

/// Cuts the compute groups of one block into parts; the passes decide the
/// parts (`parts`, and the uses between them in `crossing`).
class GroupSplitter {
public:
  GroupSplitter(Block &block, StringRef localKind, func::FuncOp func,
                ScratchpadCursor &cursor)
      : block(block), localKind(localKind), func(func), cursor(cursor) {}

protected:
  /// ktir-to-ktdf's compute groups of the block, each in program order;
  /// records every member's position.
  SmallVector<SmallVector<Operation *>> collectGroups();

  /// The ops of the block that define a tensor operand of `op`.
  SmallVector<Operation *> groupOperands(Operation *op);

  /// The position of the last op of `member`'s part.
  size_t lastOf(Operation *member);

  /// Leaves `op` to the part of `leaders.front()` and gives each other
  /// part of `leaders` a copy of its own, just before it.
  void copyForParts(Operation *op, ArrayRef<Operation *> leaders);

  /// Stores each crossing value into a `ktdf.handover` view of its own
  /// (ct_local, in `localKind`) right after its definition and loads it
  /// before its first user in each part that reads it.
  void handOver();

  Block &block;
  /// The memory kind of the scratchpad the handover views live in.
  StringRef localKind;
  func::FuncOp func;
  ScratchpadCursor &cursor;
  llvm::DenseMap<Operation *, size_t> position;
  /// The parts of the group being split, and the uses between them.
  llvm::EquivalenceClasses<Operation *> parts;
  SmallVector<std::pair<Operation *, Operation *>> crossing; // (def, user)
};

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_GROUPPARTS_H

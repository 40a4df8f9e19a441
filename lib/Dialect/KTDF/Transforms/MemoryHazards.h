//===- MemoryHazards.h - Accesses the scheduler cannot order ----*- C++ -*-===//
//
// This file declares the checks of ktdf-check-supported on pairs of
// accesses through memory that the schedule would not order.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_MEMORYHAZARDS_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_MEMORYHAZARDS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::ktdf {

/// Reports, at the load, every load of a tensor in device memory that a
/// store of the kernel may also write, unless it is an in-place update (a
/// load, then stores of the same access tile in the same block, on a tile
/// no other execution touches). Returns whether it reported anything.
bool checkMemoryHazards(func::FuncOp func);

/// Reports, at the load, every load of a scratchpad tile that a store
/// earlier in the same block, or in a loop around it, may have written.
/// Returns whether it reported anything.
bool checkScratchpadHazards(func::FuncOp func);

/// Reports, at a store, two executions (grid points or loop iterations)
/// whose stores through one view write a common element with values that
/// may differ, when every execution's loop bounds, branches and anchors
/// follow from tile ids and constants (StoreOverlaps.cpp). Returns whether
/// it reported anything.
bool checkOverlappingStores(func::FuncOp func);

/// Whether `v` is computed from a value `of` accepts, following defining
/// ops (false when unsure: a block argument `of` rejects, or too deep).
bool dependsOn(Value v, function_ref<bool(Value)> of, int depth = 0);

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_MEMORYHAZARDS_H

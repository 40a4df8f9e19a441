//===- GateColumns.h - A shared gate computed in column parts --*- C++ -*-===//
//
// This file declares what ktdf-share-left-operands finds of the gate a loop
// computes on each trip, and how it computes the gate in parts of its
// columns: each column of a gate comes from the same columns of its
// products' right operands and the element-wise work after them, so a part
// of the columns needs only that part of every right operand in the
// scratchpad.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_GATECOLUMNS_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_GATECOLUMNS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::ktdf {

/// Collects into `ops` the ops of `body` (a loop's body) that `root`
/// depends on and into `outside` the ops outside the loop defining tensors
/// they read. Fails when `root` depends on a value the loop carries.
LogicalResult collectLoopSlice(Value root, Block *body,
                               llvm::SetVector<Operation *> &ops,
                               llvm::SetVector<Operation *> &outside);

/// The tensors of `slice` (ops in program order computing `gate`) that hold
/// gate columns: the right operands of its products (loads through box
/// tiles), their outputs (splat constants, empties, fills of them), their
/// results and the element-wise work on them with the splats it reads.
/// Fails when a gate column needs more than the same column of those.
FailureOr<llvm::SetVector<Value>> findGateColumns(ArrayRef<Operation *> slice,
                                                  Value gate);

/// Clones `slice` at the builder's insertion point (operands through
/// `map`) for the `width` gate columns from `column` on; returns that part
/// of the gate.
Value cloneGateColumns(OpBuilder &b, ArrayRef<Operation *> slice,
                       const llvm::SetVector<Value> &columns, IRMapping &map,
                       Value gate, Value column, int64_t width);

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_GATECOLUMNS_H

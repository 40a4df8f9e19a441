//===- SharePlan.h - Loops whose left operands copies can share -*- C++ -*-===//
//
// This file declares what ktdf-share-left-operands finds of a loop before
// rewriting it (see ShareLeftOperands.cpp): a loop carrying one output
// block, each trip accumulating into it the product of a gate the trip
// computes from loads and a right operand it loads, nothing else in its
// body; and the trips of the exchange view that holds its gates.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_SHAREPLAN_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_SHAREPLAN_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::ktdf {

/// One loop whose product's left operand the copies share.
struct SharePlan {
  scf::ForOp loop;
  linalg::MatmulOp product;
  int64_t lb = 0, step = 1;
  /// Trips whose gates the exchange view holds, from the loop's lower
  /// bound.
  int64_t trips = 0;
  /// The upper bound is known only at run time: the view's last trip
  /// stands for every later one.
  bool clamped = false;
  /// The body's ops that compute the left operand, in program order.
  SmallVector<Operation *> slice;
  /// The tensors defined before the loop that `slice` reads (loads,
  /// constants, empties), in program order.
  SmallVector<Operation *> outside;
  /// Parts of its columns each gate is computed in, and the tensors of
  /// `slice` that hold gate columns when more than one.
  int64_t parts = 1;
  llvm::SetVector<Value> columns;
};

/// What `loop` asks of the rewrite, or failure when it does not have the
/// shape (see the file comment).
FailureOr<SharePlan> planSharing(scf::ForOp loop);

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_SHAREPLAN_H

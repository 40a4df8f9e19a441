//===- DerivedValues.h - Values computed from a kernel argument -*- C++ -*-===//
//
// This file declares the one closure the compiler and the interpreter use
// to follow a kernel argument through the address and size arithmetic of a
// kernel: integer arithmetic (arith, affine.apply/min/max,
// runtime_arg_extract), values carried by scf.for loops and yielded by
// their bodies, and calls into the callees' arguments. Whether an argument
// is the start address of a tensor is decided with it, so an argument passed
// to a helper that builds the view is an address before inlining as well as
// after.
//
// An argument is a start address when it enters a view offset as the
// base: `offset = argument + rest`, through additions (and the minuend of
// subtractions), integer casts, selects and min/max, affine maps in which it
// has coefficient 1, loop-carried copies and calls. An argument that enters
// an offset only in any other way (multiplied, divided, ...: a size scaled
// into an element offset, `ptr + n * 64`) is not an address, so it stays a
// launch scalar. An argument that is both (the base of one view and scaled
// into the offset of another) is refused by verifyAddressRoles.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_ANALYSIS_DERIVEDVALUES_H
#define KTFLOW_ANALYSIS_DERIVEDVALUES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SetVector.h"

namespace ktflow {

/// The argument of the callee that `use`, an operand of `call`, binds; null
/// when the callee is unknown or has no body (the value escapes).
mlir::Value calleeArgument(mlir::func::CallOp call, mlir::OpOperand &use);

/// `fn` and every function with a body it calls, directly or through
/// others, each once: `fn` first.
llvm::SmallVector<mlir::func::FuncOp>
getReachableFunctions(mlir::func::FuncOp fn);

/// The func.call ops of `fn` in its symbol table (its module).
llvm::SmallVector<mlir::func::CallOp> getCallers(mlir::func::FuncOp fn);

/// The results that `use`, an operand of `ret`, becomes: the result at its
/// position of every func.call of the function `ret` returns from (none
/// when the function is never called, as a kernel is not).
llvm::SmallVector<mlir::Value> callerResults(mlir::func::ReturnOp ret,
                                             mlir::OpOperand &use);

/// Values computed from `root` (including `root`), following calls into
/// the arguments of callees with a body.
llvm::SetVector<mlir::Value> derivedValues(mlir::Value root);

/// The memory views whose offsets `root` enters as the base (see above).
llvm::SmallVector<mlir::Operation *> getViewsBasedAt(mlir::Value root);

/// Whether `root` is the base of some memory view's offset.
bool reachesViewOffset(mlir::Value root);

/// Emits a located error, with a note at the other view, when an argument
/// of `fn` is the base of one view's offset and enters another view's
/// offset only scaled: it would be both a tensor and a size.
mlir::LogicalResult verifyAddressRoles(mlir::func::FuncOp fn);

} // namespace ktflow

#endif // KTFLOW_ANALYSIS_DERIVEDVALUES_H

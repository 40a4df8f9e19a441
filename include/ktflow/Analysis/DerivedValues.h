//===- DerivedValues.h - Values computed from a kernel argument -*- C++ -*-===//
//
// This file declares the one closure the compiler and the interpreter use
// to follow a kernel argument through the address and size arithmetic of a
// kernel: integer arithmetic (arith, affine.apply/min/max,
// runtime_arg_extract), values carried by scf.for loops and yielded by
// their bodies, and calls into the callees' arguments. Whether an argument
// is the start address of a tensor (some derived value is a memory view's
// offset) is decided with it, so an argument passed to a helper that builds
// the view is an address before inlining as well as after.
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

/// Values computed from `root` (including `root`), following calls into
/// the arguments of callees with a body.
llvm::SetVector<mlir::Value> derivedValues(mlir::Value root);

/// Whether a memory view starts at a value derived from `root`.
bool reachesViewOffset(mlir::Value root);

} // namespace ktflow

#endif // KTFLOW_ANALYSIS_DERIVEDVALUES_H

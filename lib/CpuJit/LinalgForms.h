//===- LinalgForms.h - linalg ops in generic form ---------------*- C++ -*-===//
//
// This file gives the compiled tier's rewrites of linalg ops (the loop
// order of contractions, the f32 accumulation of 16-bit reductions) the op
// they rewrite as a linalg.generic, whether it was written as one or as a
// named op.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_CPUJIT_LINALGFORMS_H
#define KTFLOW_LIB_CPUJIT_LINALGFORMS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace ktflow::jit {

/// `op` itself if it is a linalg.generic, else the generic that replaces it
/// (MLIR's generalizeNamedOp, which refuses generics). Fails when a named op
/// has no generic form.
inline mlir::FailureOr<mlir::linalg::GenericOp>
asGeneric(mlir::RewriterBase &rewriter, mlir::linalg::LinalgOp op) {
  if (auto generic = llvm::dyn_cast<mlir::linalg::GenericOp>(*op))
    return generic;
  rewriter.setInsertionPoint(op);
  return mlir::linalg::generalizeNamedOp(rewriter, op);
}

} // namespace ktflow::jit

#endif // KTFLOW_LIB_CPUJIT_LINALGFORMS_H

//===- LoopOrder.h - Loop orders the compiled tier chooses ------*- C++ -*-===//
//
// This file declares the loop interchange of contractions on the compiled
// tier (LoopOrder.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_CPUJIT_LOOPORDER_H
#define KTFLOW_LIB_CPUJIT_LOOPORDER_H

namespace mlir {
class Operation;
} // namespace mlir

namespace ktflow::jit {

/// Gives every contraction under `root` (linalg.matmul, batch_matmul and
/// generics of their shape) the loop order that keeps its last parallel
/// dimension innermost: (m, k, n) for a matmul.
void orderContractionLoops(mlir::Operation *root);

} // namespace ktflow::jit

#endif // KTFLOW_LIB_CPUJIT_LOOPORDER_H

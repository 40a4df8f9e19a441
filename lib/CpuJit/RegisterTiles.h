//===- RegisterTiles.h - Reductions accumulated in registers ----*- C++ -*-===//
//
// This file declares the register blocking of the compiled tier's
// reductions (RegisterTiles.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_CPUJIT_REGISTERTILES_H
#define KTFLOW_LIB_CPUJIT_REGISTERTILES_H

namespace mlir {
class Operation;
} // namespace mlir

namespace ktflow::jit {

/// Replaces every bufferized linalg.generic under `root` with one reduction
/// loop whose output's innermost dimension is contiguous in memory (a
/// matmul's (m, n) += (m, k) . (k, n)) by loops over blocks of a few output
/// rows and a vector of columns, each block held in registers across the
/// whole reduction loop and stored once; a reduction that is not a
/// contraction and whose inputs are not contiguous along the output (a row
/// reduction) gets a few scalar accumulators in registers instead. Every
/// output element still runs the body's ops in the generic's order, one
/// reduction step at a time, so results are unchanged bit for bit.
/// Generics of other forms are left to linalg-to-loops.
void blockReductionsInRegisters(mlir::Operation *root);

} // namespace ktflow::jit

#endif // KTFLOW_LIB_CPUJIT_REGISTERTILES_H

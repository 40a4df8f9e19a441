//===- Numerics.h - The interpreter's reduction policy ----------*- C++ -*-===//
//
// This file declares the rewrite that makes native code round structured
// reductions of 16-bit floats as the interpreter does under
// `--numerics=accumulate` (Numerics.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_CPUJIT_NUMERICS_H
#define KTFLOW_LIB_CPUJIT_NUMERICS_H

namespace mlir {
class Operation;
} // namespace mlir

namespace ktflow::jit {

/// Holds the f16/bf16 accumulators of every linalg reduction under `root`
/// in f32, rounding once per output element.
void applyAccumulateNumerics(mlir::Operation *root);

/// Computes every arith op on f16/bf16 under `root` in f32, and every math
/// op on f16/bf16/f32 in f64, rounding its result once to its type (casts,
/// constants, selects and bitcasts excepted).
void emulateNarrowFloats(mlir::Operation *root);

} // namespace ktflow::jit

#endif // KTFLOW_LIB_CPUJIT_NUMERICS_H

//===- ScalarIdioms.h - Scalar arithmetic on row values ---------*- C++ -*-===//
//
// This file declares the scalar idiom of real kernels that the mapping group
// computes as rank-0 tensors: float arithmetic on the element of a
// one-element tensor (a row's reduction read with tensor.extract), float
// kernel arguments, integer launch scalars converted to float and
// constants, such as a layernorm's `rsqrt(sum / N + eps)`. Rewritten to the
// same ops on tensor<T>, the chain is a row op that streaming computes once
// per row (the form RMSNorm's rank-0 `rsqrt(mean + eps)` already has), and
// the tensor.splat of its result a broadcast of a one-element tensor.
// ktdf-check-supported accepts exactly what this recognises.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_SCALARIDIOMS_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_SCALARIDIOMS_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::ktdf {

/// Whether `v` is a float scalar bound at launch: a float kernel argument
/// (a norm's `%eps: f16`) or an integer launch scalar converted to float
/// (ktflow::getFloatOfLaunchScalar). Compute units read it with
/// dfir.splat_arg.
bool isLaunchFloat(Value v);

/// Whether `v` is a float scalar the scheduler computes as a rank-0 tensor:
/// a constant (or the bitcast of an integer constant, which the rewrites
/// fold), a float kernel argument bound at launch, an integer launch
/// scalar converted to float (arith.sitofp), the element of a statically
/// shaped one-element tensor (tensor.extract), or an element-wise arith or
/// math op on such scalars (outside linalg bodies).
bool isRowScalar(Value v);

/// isRowScalar before ktdf-lift-slices: the element of any statically
/// shaped tensor (tensor.extract) counts, since the pass loads a loaded
/// tile's element alone and ktdf-check-supported refuses the others at the
/// extract. ktdf-lower-if keeps a select of tensors by such a row condition.
bool isRowScalarBeforeLiftSlices(Value v);

/// Whether `op` is a scalar element-wise float op (arith, math) whose
/// operands are all row scalars; its result is then one too.
bool isRowScalarOp(Operation *op);

/// Each row-scalar op to the same op on rank-0 tensors followed by a
/// tensor.extract of its result: its operands become rank-0 tensors (a
/// collapse of the one-element tensor an operand is extracted from, a
/// splat of an argument, a dense constant).
void populateRowScalarPatterns(RewritePatternSet &patterns);

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_SCALARIDIOMS_H

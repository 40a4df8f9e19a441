//===- MatrixIdioms.h - Matrix products the scheduler compiles --*- C++ -*-===//
//
// This file declares what the mapping group accepts of matrix products
// and how ktdf-generalize prepares them: a `linalg.matmul` of two static
// 2-d float tiles stays a named op (every other named op is generalised),
// so the scheduler can give its compute group to a matrix unit, and the
// running accumulator of real kernels — a product into a zero output added
// to a carried 16-bit tensor, `arith.addf %acc, matmul(a, b, 0)` — becomes
// the product into that accumulator, which the interpreter's numerics make
// the same value (outs + A·B, the product rounded once before the add); a
// product of extended 16-bit operands into f32 becomes the product of the
// 16-bit operands, which a 16-bit matrix unit runs.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_MATRIXIDIOMS_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_MATRIXIDIOMS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>
#include <string>

namespace mlir::ktdf {

/// Why the scheduler cannot compile `matmul` as a matrix product, or
/// nothing when it can: tensors of static 2-d shapes, the default indexing
/// maps, operands of one float type of at most 32 bits, a float output of
/// at most 32 bits.
std::optional<std::string> whyNotMatrixProduct(linalg::MatmulOp matmul);

/// The same for a `linalg.batch_matmul`, which must in addition hold one
/// batch (a tile of the batched tensors: the grid or a loop walks the
/// batches); the unit multiplies its trailing two dimensions.
std::optional<std::string> whyNotMatrixProduct(linalg::BatchMatmulOp matmul);

/// Named linalg ops to linalg.generic, except the matrix products
/// whyNotMatrixProduct accepts (matmul and batch_matmul).
void populateGeneralizeButMatmulPatterns(RewritePatternSet &patterns);

/// `arith.addf %acc, matmul(a, b, zero)` (either operand order) with a
/// 16-bit float result and a +0 or tensor.empty output, the product used
/// only there: `matmul(a, b, %acc)`. Applied before element-wise ops are
/// generalised.
void populateAccumulateIntoProductPatterns(RewritePatternSet &patterns);

/// `matmul(extf(a), extf(b), out)` with `a` and `b` of one 16-bit float
/// type and an f32 output: `matmul(a, b, out)`, the same value under the
/// interpreter's numerics (16-bit products are exact in f32), which a
/// matrix unit multiplying the 16-bit type runs; `matmul(a, extf(b), out)`
/// with `a` and `out` f32 and `b` 16-bit: `matmul(a, b, out)`, `b` extended
/// as the unit reads it. Applied after transposes become permuted access
/// tiles (K^T is then an extf of a load).
void populateMultiplyBeforeExtendingPatterns(RewritePatternSet &patterns);

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_MATRIXIDIOMS_H

//===- MatrixIdioms.cpp - Matrix products the scheduler compiles ----------===//
//
// This file implements MatrixIdioms.h: the check of a linalg.matmul the
// scheduler compiles, the generalisation of every other named op, and the
// fold of a running 16-bit accumulator into the product that feeds it.
//
//===----------------------------------------------------------------------===//

#include "MatrixIdioms.h"
#include "ShapeIdioms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::ktdf;

std::optional<std::string>
mlir::ktdf::whyNotMatrixProduct(linalg::MatmulOp matmul) {
  if (!matmul.hasPureTensorSemantics() || matmul.getInputs().size() != 2 ||
      matmul.getOutputs().size() != 1)
    return std::string("a matrix product on tensors with two operands and "
                       "one output");
  if (matmul.hasUserDefinedMaps())
    return std::string("a matrix product with the default indexing maps "
                       "(transposed or broadcast operands are not supported "
                       "yet)");
  auto lhs = cast<RankedTensorType>(matmul.getInputs()[0].getType());
  auto rhs = cast<RankedTensorType>(matmul.getInputs()[1].getType());
  auto out = cast<RankedTensorType>(matmul.getOutputs()[0].getType());
  if (!lhs.hasStaticShape() || !rhs.hasStaticShape() || !out.hasStaticShape())
    return std::string("a matrix product of static shapes");
  auto in = dyn_cast<FloatType>(lhs.getElementType());
  auto result = dyn_cast<FloatType>(out.getElementType());
  if (!in || lhs.getElementType() != rhs.getElementType() || !result ||
      in.getWidth() > 32 || result.getWidth() > 32)
    return std::string("operands of one float type and a float output, "
                       "each of at most 32 bits");
  return std::nullopt;
}

/// Whether `v` is +0.0 everywhere: a tensor.empty (the interpreter's fresh
/// tensor is zeros), a splat constant +0 or a linalg.fill of one.
static bool isZeroOutput(Value v) {
  return v.getDefiningOp<tensor::EmptyOp>() || isPositiveZero(v);
}

namespace {
struct GeneralizeButMatmul
    : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (auto matmul = dyn_cast<linalg::MatmulOp>(op.getOperation());
        matmul && !whyNotMatrixProduct(matmul))
      return failure();
    return linalg::generalizeNamedOp(rewriter, op);
  }
};

/// acc + matmul(a, b, 0) -> matmul(a, b, acc) for 16-bit floats: the
/// interpreter rounds the product once and adds it into its output, which
/// is what the addition does (up to the sign of a zero sum added to -0).
struct AccumulateIntoProduct : OpRewritePattern<arith::AddFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::AddFOp add,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(add.getType());
    if (!type || type.getElementTypeBitWidth() != 16)
      return failure();
    for (unsigned i = 0; i < 2; ++i) {
      Value acc = add.getOperand(i), product = add.getOperand(1 - i);
      auto matmul = product.getDefiningOp<linalg::MatmulOp>();
      if (!matmul || whyNotMatrixProduct(matmul) || !product.hasOneUse() ||
          !isZeroOutput(matmul.getOutputs()[0]) ||
          matmul.getOutputs()[0].getType() != acc.getType())
        continue;
      rewriter.replaceOpWithNewOp<linalg::MatmulOp>(
          add, TypeRange{type}, matmul.getInputs(), ValueRange{acc});
      rewriter.eraseOp(matmul);
      return success();
    }
    return failure();
  }
};
} // namespace

void mlir::ktdf::populateGeneralizeButMatmulPatterns(
    RewritePatternSet &patterns) {
  patterns.add<GeneralizeButMatmul>(patterns.getContext());
}

void mlir::ktdf::populateAccumulateIntoProductPatterns(
    RewritePatternSet &patterns) {
  patterns.add<AccumulateIntoProduct>(patterns.getContext());
}

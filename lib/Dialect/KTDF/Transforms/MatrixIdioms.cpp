//===- MatrixIdioms.cpp - Matrix products the scheduler compiles ----------===//
//
// This file implements MatrixIdioms.h: the check of a matrix product the
// scheduler compiles (linalg.matmul, and linalg.batch_matmul of one batch),
// the generalisation of every other named op, and the fold of a running
// 16-bit accumulator into the product that feeds it.
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

/// Why `product` (a matmul or batch_matmul) of operands of `rank` is not a
/// matrix product the scheduler compiles, or nothing.
static std::optional<std::string> whyNotProduct(linalg::LinalgOp product,
                                                bool userMaps, int64_t rank) {
  if (!product.hasPureTensorSemantics() || product.getNumDpsInputs() != 2 ||
      product.getNumDpsInits() != 1)
    return std::string("a matrix product on tensors with two operands and "
                       "one output");
  if (userMaps)
    return std::string("a matrix product with the default indexing maps "
                       "(transposed or broadcast operands are not supported "
                       "yet)");
  auto lhs = cast<RankedTensorType>(product.getDpsInputs()[0].getType());
  auto rhs = cast<RankedTensorType>(product.getDpsInputs()[1].getType());
  auto out = cast<RankedTensorType>(product.getDpsInits()[0].getType());
  if (lhs.getRank() != rank || !lhs.hasStaticShape() || !rhs.hasStaticShape() ||
      !out.hasStaticShape())
    return std::string("a matrix product of static shapes");
  auto in = dyn_cast<FloatType>(lhs.getElementType());
  auto right = dyn_cast<FloatType>(rhs.getElementType());
  auto result = dyn_cast<FloatType>(out.getElementType());
  // A narrower right operand is extended as it is read (P.V of an
  // attention: f32 probabilities times f16 values into f32).
  bool narrowRight = right && in && result && right != in && in == result &&
                     right.getWidth() < in.getWidth();
  if (!in || !right || (right != in && !narrowRight) || !result ||
      in.getWidth() > 32 || result.getWidth() > 32)
    return std::string("operands of one float type (or a narrower right "
                       "operand into an output of the left one's type) and "
                       "a float output, each of at most 32 bits");
  return std::nullopt;
}

std::optional<std::string>
mlir::ktdf::whyNotMatrixProduct(linalg::MatmulOp matmul) {
  return whyNotProduct(matmul, matmul.hasUserDefinedMaps(), 2);
}

std::optional<std::string>
mlir::ktdf::whyNotMatrixProduct(linalg::BatchMatmulOp matmul) {
  if (std::optional<std::string> why =
          whyNotProduct(matmul, matmul.hasUserDefinedMaps(), 3))
    return why;
  // The unit multiplies two matrices; a tile of several batches would be
  // several products, which the compute stage does not unroll yet.
  auto lhs = cast<RankedTensorType>(matmul.getDpsInputs()[0].getType());
  if (lhs.getDimSize(0) != 1)
    return std::string("a batched product of one batch per tile (the grid "
                       "or a loop walks the batches; this tile holds " +
                       std::to_string(lhs.getDimSize(0)) + ")");
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
    if (auto batch = dyn_cast<linalg::BatchMatmulOp>(op.getOperation());
        batch && !whyNotMatrixProduct(batch))
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

/// matmul(extf(a), extf(b), out) with a and b of one 16-bit float type:
/// matmul(a, b, out). The product of two 16-bit floats is exact in f32
/// and the interpreter sums 16-bit products in f32, so the value is the
/// same (up to the order of the sum, which --check allows for), and a
/// matrix unit that multiplies the 16-bit type can run it (an attention's
/// Q.K^T written on f32 operands). matmul(a, extf(b), out) with a and out
/// f32 and b 16-bit: matmul(a, b, out), the unit extending b as it reads
/// it (the value is the same: extension is exact) instead of a pass that
/// writes f32(b) (an attention's P.V: 16 x 128 x 128 products on the
/// vector unit, and no 128 x 128 conversion before them).
struct MultiplyBeforeExtending : OpRewritePattern<linalg::MatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::MatmulOp matmul,
                                PatternRewriter &rewriter) const override {
    if (whyNotMatrixProduct(matmul))
      return failure();
    Type f32 = rewriter.getF32Type();
    Value lhs = matmul.getInputs()[0], rhs = matmul.getInputs()[1];
    auto rhsExt = rhs.getDefiningOp<arith::ExtFOp>();
    if (!lhs.getDefiningOp<arith::ExtFOp>() && rhsExt &&
        getElementTypeOrSelf(lhs.getType()) == f32 &&
        getElementTypeOrSelf(matmul.getOutputs()[0].getType()) == f32 &&
        getElementTypeOrSelf(rhsExt.getIn().getType())
                .getIntOrFloatBitWidth() == 16) {
      rewriter.replaceOpWithNewOp<linalg::MatmulOp>(
          matmul, matmul.getResultTypes(), ValueRange{lhs, rhsExt.getIn()},
          matmul.getOutputs());
      return success();
    }
    SmallVector<Value> narrow;
    for (Value input : matmul.getInputs()) {
      auto ext = input.getDefiningOp<arith::ExtFOp>();
      auto type = ext ? dyn_cast<RankedTensorType>(ext.getIn().getType())
                      : RankedTensorType();
      if (!type || type.getElementTypeBitWidth() != 16 ||
          getElementTypeOrSelf(matmul.getOutputs()[0].getType()) !=
              rewriter.getF32Type() ||
          (!narrow.empty() && getElementTypeOrSelf(narrow.front().getType()) !=
                                  type.getElementType()))
        return failure();
      narrow.push_back(ext.getIn());
    }
    rewriter.replaceOpWithNewOp<linalg::MatmulOp>(
        matmul, matmul.getResultTypes(), narrow, matmul.getOutputs());
    return success();
  }
};
} // namespace

void mlir::ktdf::populateMultiplyBeforeExtendingPatterns(
    RewritePatternSet &patterns) {
  patterns.add<MultiplyBeforeExtending>(patterns.getContext());
}

void mlir::ktdf::populateGeneralizeButMatmulPatterns(
    RewritePatternSet &patterns) {
  patterns.add<GeneralizeButMatmul>(patterns.getContext());
}

void mlir::ktdf::populateAccumulateIntoProductPatterns(
    RewritePatternSet &patterns) {
  patterns.add<AccumulateIntoProduct>(patterns.getContext());
}

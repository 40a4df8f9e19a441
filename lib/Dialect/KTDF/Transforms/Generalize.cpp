//===- Generalize.cpp - Arithmetic into fused linalg.generic ops ----------===//
//
// This file implements --ktdf-generalize with upstream linalg patterns:
// element-wise ops on tensors to linalg.generic, named ops generalised,
// element-wise producers fused into consumers, then canonicalisation so
// splat constants fold into bodies.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFGENERALIZE
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

namespace {
struct GeneralizePass : public ktdf::impl::KTDFGeneralizeBase<GeneralizePass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    linalg::populateElementwiseToLinalgConversionPatterns(patterns);
    linalg::populateLinalgNamedOpsGeneralizationPatterns(patterns);
    linalg::populateElementwiseOpsFusionPatterns(
        patterns, [](OpOperand *) { return true; });
    for (Dialect *dialect : ctx->getLoadedDialects())
      dialect->getCanonicalizationPatterns(patterns);
    for (RegisteredOperationName op : ctx->getRegisteredOperations())
      op.getCanonicalizationPatterns(patterns, ctx);
    FrozenRewritePatternSet frozen(std::move(patterns));
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal() && failed(applyPatternsGreedily(func, frozen))) {
        func.emitError("generalisation did not converge");
        return signalPassFailure();
      }
  }
};
} // namespace

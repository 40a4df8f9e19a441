//===- Generalize.cpp - Arithmetic into fused linalg.generic ops ----------===//
//
// This file implements --ktdf-generalize with upstream linalg patterns:
// element-wise ops on tensors to linalg.generic, named ops generalised,
// element-wise producers fused into consumers, then canonicalisation so
// splat constants fold into bodies. One pattern of its own turns the
// broadcast idiom of real kernels, a one-element tensor (a row's reduction)
// extracted to a scalar and splat back over a tensor, into a
// linalg.generic that reads the one element everywhere; another turns a
// splat of a float kernel argument (`tensor.splat %eps`) into a generic
// yielding it, so fusion captures the argument in its consumers. Scalar
// arithmetic on such values becomes rank-0 tensor arithmetic
// (ScalarIdioms.h). Unit reshapes and a row's dot product with itself are
// rewritten first (ShapeIdioms.h), then other transposes become permuted
// access tiles (TransposeIdioms.h); matrix products stay named ops, a
// running 16-bit accumulator folded into the product that feeds it
// (MatrixIdioms.h). Last, a column reduction that keeps a leading
// dimension of extent 1 loses it (MLIR's dropUnitDims).
//
//===----------------------------------------------------------------------===//

#include "MatrixIdioms.h"
#include "ScalarIdioms.h"
#include "ShapeIdioms.h"
#include "TransposeIdioms.h"

#include "ktflow/Device/ComputeOpClass.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Support/ModuleLoader.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFGENERALIZE
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

namespace {
/// `tensor.splat (tensor.extract %t[...])` with `%t` a one-element tensor:
/// a linalg.generic broadcasting `%t` (constant indexing map) over the
/// splat's shape, which the stream planner reads as one value per row.
struct SplatOfOneElementTensor : OpRewritePattern<tensor::SplatOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::SplatOp splat,
                                PatternRewriter &rewriter) const override {
    auto extract = splat.getInput().getDefiningOp<tensor::ExtractOp>();
    auto type = dyn_cast<RankedTensorType>(splat.getType());
    if (!extract || !type || !type.hasStaticShape())
      return failure();
    Value source = extract.getTensor();
    auto sourceType = cast<RankedTensorType>(source.getType());
    if (!sourceType.hasStaticShape() || sourceType.getNumElements() != 1)
      return failure();
    MLIRContext *ctx = rewriter.getContext();
    SmallVector<AffineExpr> zeros(sourceType.getRank(),
                                  getAffineConstantExpr(0, ctx));
    replaceWithCopy(rewriter, splat, source,
                    AffineMap::get(type.getRank(), 0, zeros, ctx));
    return success();
  }
};

/// `tensor.splat %eps` of a float kernel argument bound at launch (or of an
/// integer one converted to float, a layernorm's `sitofp(%N)`): a
/// linalg.generic without inputs whose body yields the scalar, which fusion
/// then folds into its consumers as a captured value (the compute lowering
/// reads it with dfir.splat_arg).
struct SplatOfFloatArgument : OpRewritePattern<tensor::SplatOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::SplatOp splat,
                                PatternRewriter &rewriter) const override {
    Value scalar = splat.getInput();
    auto type = dyn_cast<RankedTensorType>(splat.getType());
    if (!isLaunchFloat(scalar) || !type || !type.hasStaticShape())
      return failure();
    Location loc = splat.getLoc();
    Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                         type.getElementType());
    AffineMap out = AffineMap::getMultiDimIdentityMap(type.getRank(),
                                                      rewriter.getContext());
    SmallVector<utils::IteratorType> iterators(type.getRank(),
                                               utils::IteratorType::parallel);
    rewriter.replaceOpWithNewOp<linalg::GenericOp>(
        splat, type, ValueRange{}, ValueRange{init}, ArrayRef<AffineMap>{out},
        iterators, [&](OpBuilder &b, Location l, ValueRange) {
          linalg::YieldOp::create(b, l, scalar);
        });
    return success();
  }
};

/// Whether fusing `op` into each of its users would cost more than
/// computing it once: its body computes a transcendental function (exp, a
/// division, ...), which a vector unit runs at a fraction of its
/// element-wise rate, or reads its coordinates (a mask), which a vector unit
/// materialises as coordinate vectors before comparing them.
static bool costlyToRepeat(linalg::GenericOp op) {
  WalkResult found = op.getBody()->walk([](Operation *inner) {
    Type rateType;
    return isa<linalg::IndexOp>(inner) ||
                   ktflow::device::getComputeOpClass(inner, rateType) ==
                       ktdf_arch::OpClass::Transcendental
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return found.wasInterrupted();
}

/// The number of points of `op`'s iteration space, INT64_MAX when dynamic.
static int64_t iterations(linalg::GenericOp op) {
  int64_t n = 1;
  for (int64_t range : op.getStaticLoopRanges())
    if (ShapedType::isDynamic(range) || llvm::MulOverflow(n, range, n))
      return INT64_MAX;
  return n;
}

/// Whether `producer` widens 16-bit floats and `generic` multiplies the
/// values it reads of it: fused, a row reduction of such products is a
/// dot product the lowering computes at the matrix rate (DotProducts.cpp),
/// which needs the widening inside its body.
static bool multipliesWidenedValuesOf(linalg::GenericOp generic,
                                      linalg::GenericOp producer) {
  auto ext = producer.getBody()
                 ->getTerminator()
                 ->getOperand(0)
                 .getDefiningOp<arith::ExtFOp>();
  if (!ext ||
      !(ext.getIn().getType().isF16() || ext.getIn().getType().isBF16()))
    return false;
  for (OpOperand &operand : generic->getOpOperands())
    if (operand.get().getDefiningOp() == producer)
      for (Operation *use :
           generic.getMatchingBlockArgument(&operand).getUsers())
        if (isa<arith::MulFOp>(use))
          return true;
  return false;
}

/// Whether every user of `producer` reads its values element by element
/// (a linalg.generic reading it through the identity map, or an
/// element-wise op on tensors that will become one), so that one chunk of
/// it serves them all:
/// - users that map it without waiting for a reduction of it consume each
///   chunk in the same pass over the rows, where the compute unit keeps the
///   producer's chunk for all of them, and fusing it into each would only
///   compute it again (RoPE's four extensions to f32 feed two products
///   each);
/// - users in later passes (a reduction of it, a map waiting for that
///   reduction) read it again in each pass, but ktdf-tile-streams keeps
///   a value an earlier pass computed, held in the compute unit or
///   in the scratchpad, where that beats computing it again
///   (StreamKeep.cpp); fused into each, nothing is left to keep (the
///   layernorm's extension of X to f32 ran in each of its three passes,
///   its centred values in two). Not a reduction that multiplies widened
///   16-bit values: fused, their sum of squares is a dot product.
static bool chunkServesEveryUser(linalg::GenericOp producer) {
  for (Operation *user : producer->getUsers()) {
    if (user->getBlock() != producer->getBlock())
      return false;
    auto generic = dyn_cast<linalg::GenericOp>(user);
    bool elementwise =
        generic
            ? llvm::all_of(generic->getOpOperands(),
                           [&](OpOperand &operand) {
                             return operand.get().getDefiningOp() != producer ||
                                    generic.getMatchingIndexingMap(&operand)
                                        .isIdentity();
                           }) &&
                  !(generic.getNumReductionLoops() > 0 &&
                    multipliesWidenedValuesOf(generic, producer))
            : user->hasTrait<OpTrait::Elementwise>() &&
                  llvm::all_of(user->getResultTypes(),
                               llvm::IsaPred<RankedTensorType>);
    if (!elementwise)
      return false;
  }
  return true;
}

/// Fusion control: everything fuses but where fusing would compute a value
/// more often than the kernel does:
/// - a producer the consumer reads broadcast (a rank-0 computation, a row's
///   scale computed on tensor<f16>, e.g. rsqrt of its mean square; or a
///   per-row vector, an online softmax's rescale exp(m - m') read by the
///   accumulator's rows) would run once per element instead of once per row;
/// - a producer with other users that is costly to repeat would run once per
///   user (an online softmax's exp(s - m') feeds both the row sum and P.V,
///   its causal mask both the row maximum and exp): it stays one op whose
///   result the users read;
/// - a cheap producer whose users all read its values element by element,
///   in the same pass over the rows or in later ones (chunkServesEveryUser),
///   would run once per user: it too stays one op.
/// A copy (the body only yields) costs nothing per element and always fuses.
static bool computedOnce(OpOperand *fused) {
  auto producer = fused->get().getDefiningOp<linalg::GenericOp>();
  auto consumer = dyn_cast<linalg::GenericOp>(fused->getOwner());
  if (!producer || !consumer ||
      isa<linalg::YieldOp>(producer.getBody()->front()))
    return true;
  if (producer.getNumLoops() == 0 && consumer.getNumLoops() != 0)
    return false;
  if (!consumer.getMatchingIndexingMap(fused).isPermutation() &&
      iterations(consumer) > iterations(producer))
    return false;
  return producer->hasOneUse() ||
         (!costlyToRepeat(producer) && !chunkServesEveryUser(producer));
}

/// The leading dimensions of extent 1 that `op` keeps while it reduces
/// the other leading ones and not the last (a 1x16x64 slab of a 3-D tensor
/// summed over its rows, the batch dimension kept). Empty when `op` is not
/// such a reduction, or keeps a longer leading dimension.
static SmallVector<unsigned> keptUnitDimsOfColumnReduction(Operation *op) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic)
    return {};
  SmallVector<utils::IteratorType> iters = generic.getIteratorTypesArray();
  if (iters.size() < 2 || linalg::isReductionIterator(iters.back()))
    return {};
  SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
  SmallVector<unsigned> kept;
  bool reduces = false;
  for (unsigned d = 0; d + 1 < iters.size(); ++d) {
    if (linalg::isReductionIterator(iters[d]))
      reduces = true;
    else if (ranges[d] == 1)
      kept.push_back(d);
    else
      return {};
  }
  return reduces ? kept : SmallVector<unsigned>{};
}

/// Drops the kept unit dimensions of column reductions (MLIR's
/// dropUnitDims, through reshapes the unit reshape patterns fold into the
/// maps): the stream planner takes a column reduction only over every
/// leading dimension, and a dimension of extent 1 changes nothing.
/// Whether it dropped any.
static bool dropKeptUnitDims(func::FuncOp func) {
  SmallVector<linalg::GenericOp> reductions;
  func.walk([&](linalg::GenericOp op) {
    if (!keptUnitDimsOfColumnReduction(op).empty())
      reductions.push_back(op);
  });
  linalg::ControlDropUnitDims control;
  control.controlFn = keptUnitDimsOfColumnReduction;
  IRRewriter rewriter(func.getContext());
  for (linalg::GenericOp op : reductions) {
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::DropUnitDimsResult> dropped =
        linalg::dropUnitDims(rewriter, op, control);
    if (succeeded(dropped))
      rewriter.replaceOp(op, dropped->replacements);
  }
  return !reductions.empty();
}

struct GeneralizePass : public ktdf::impl::KTDFGeneralizeBase<GeneralizePass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    // Generalising a named op copies its body, located or not.
    ktflow::locateImplicitOps(getOperation());
    // Matmuls of a row with its transpose, before the transpose is
    // generalised like any named op.
    RewritePatternSet dotPatterns(ctx);
    populateUnitCollapseOfGatherPatterns(dotPatterns);
    populateRowSumOfSquaresPatterns(dotPatterns);
    populateAccumulateIntoProductPatterns(dotPatterns);
    FrozenRewritePatternSet dots(std::move(dotPatterns));
    // Then every other transpose, into permuted access tiles.
    RewritePatternSet transposePatterns(ctx);
    populatePermutedAccessPatterns(transposePatterns);
    populateMultiplyBeforeExtendingPatterns(transposePatterns);
    FrozenRewritePatternSet transposes(std::move(transposePatterns));
    RewritePatternSet patterns(ctx);
    patterns.add<SplatOfOneElementTensor, SplatOfFloatArgument>(ctx);
    populateRowScalarPatterns(patterns);
    populateUnitReshapePatterns(patterns);
    linalg::populateElementwiseToLinalgConversionPatterns(patterns);
    populateGeneralizeButMatmulPatterns(patterns);
    linalg::populateElementwiseOpsFusionPatterns(patterns, computedOnce);
    for (Dialect *dialect : ctx->getLoadedDialects())
      dialect->getCanonicalizationPatterns(patterns);
    for (RegisteredOperationName op : ctx->getRegisteredOperations())
      op.getCanonicalizationPatterns(patterns, ctx);
    FrozenRewritePatternSet frozen(std::move(patterns));
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal() &&
          (failed(applyPatternsGreedily(func, dots)) ||
           failed(applyPatternsGreedily(func, transposes)) ||
           failed(applyPatternsGreedily(func, frozen)) ||
           (dropKeptUnitDims(func) &&
            failed(applyPatternsGreedily(func, frozen))))) {
        func.emitError("generalisation did not converge");
        return signalPassFailure();
      }
  }
};
} // namespace

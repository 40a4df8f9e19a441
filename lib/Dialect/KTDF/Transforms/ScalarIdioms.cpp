//===- ScalarIdioms.cpp - Scalar arithmetic on row values -----------------===//
//
// This file implements the recognition of row scalars (ScalarIdioms.h) and
// their rewrite to rank-0 tensor arithmetic, which ktdf-generalize applies
// before it generalises element-wise ops.
//
//===----------------------------------------------------------------------===//

#include "ScalarIdioms.h"
#include "LiftSlices.h"

#include "ktflow/Analysis/LaunchArguments.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::ktdf;

/// The one-element, statically shaped tensor `v` is the element of.
static Value extractedTensor(Value v) {
  auto extract = v.getDefiningOp<tensor::ExtractOp>();
  if (!extract)
    return {};
  auto type = cast<RankedTensorType>(extract.getTensor().getType());
  if (!type.hasStaticShape() || type.getNumElements() != 1)
    return {};
  return extract.getTensor();
}

/// A float scalar bound at launch: a float kernel argument, or an integer
/// launch scalar converted to float.
bool mlir::ktdf::isLaunchFloat(Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    return ktflow::isFloatLaunchScalar(arg);
  return static_cast<bool>(ktflow::getFloatOfLaunchScalar(v));
}

/// A float element of a larger tensor read with tensor.extract:
/// ktdf-lift-slices loads it alone when the tensor is a load through a box
/// access tile (a row's `x[r, 0]`), and ktdf-check-supported refuses it at
/// the extract otherwise.
static bool isElementToLift(Value v) {
  Operation *def = v.getDefiningOp();
  return def && isa<FloatType>(v.getType()) && isElementOfLargerTensor(def);
}

static bool rowScalar(Value v, bool beforeLift);

/// isRowScalarOp; with `beforeLift`, an element of a larger tensor counts
/// as a row scalar (isElementToLift).
static bool rowScalarOp(Operation *op, bool beforeLift) {
  // A comparison of row values is a row condition when only selects pick
  // by it (`max > 0 ? 1 / max : 1`), of row values or of tensors by its
  // splat; a branch on it would be control flow that depends on data.
  bool condition =
      isa<arith::CmpFOp>(op) &&
      llvm::all_of(op->getUsers(), [&](Operation *user) {
        return isa<tensor::SplatOp>(user) ||
               (isa<arith::SelectOp>(user) &&
                user->getOperand(0) == op->getResult(0) &&
                isa<FloatType, RankedTensorType>(user->getResult(0).getType()));
      });
  if (!isa_and_present<arith::ArithDialect, math::MathDialect>(
          op->getDialect()) ||
      !op->hasTrait<OpTrait::Elementwise>() || op->getNumRegions() != 0 ||
      op->getNumResults() != 1 || op->getNumOperands() == 0 ||
      !(condition || isa<FloatType>(op->getResult(0).getType())) ||
      op->getParentOfType<linalg::LinalgOp>())
    return false;
  return llvm::all_of(op->getOperands(),
                      [&](Value v) { return rowScalar(v, beforeLift); });
}

bool mlir::ktdf::isRowScalarOp(Operation *op) {
  return rowScalarOp(op, /*beforeLift=*/false);
}

/// A float constant spelt as the bitcast of an integer one (the field
/// guide's -inf, `arith.bitcast` of `0xFF800000 : i32`), which the
/// rewrites' folding turns into a constant.
static bool isBitcastConstant(Value v) {
  auto cast = v.getDefiningOp<arith::BitcastOp>();
  return cast && matchPattern(cast.getIn(), m_Constant());
}

static bool rowScalar(Value v, bool beforeLift) {
  bool element = extractedTensor(v) || (beforeLift && isElementToLift(v));
  if (v.getType().isInteger(1))
    return element || (v.getDefiningOp<arith::CmpFOp>() &&
                       rowScalarOp(v.getDefiningOp(), beforeLift));
  if (!isa<FloatType>(v.getType()))
    return false;
  if (matchPattern(v, m_Constant()) || isBitcastConstant(v) ||
      isLaunchFloat(v) || element)
    return true;
  Operation *def = v.getDefiningOp();
  return def && rowScalarOp(def, beforeLift);
}

bool mlir::ktdf::isRowScalar(Value v) {
  return rowScalar(v, /*beforeLift=*/false);
}

bool mlir::ktdf::isRowScalarBeforeLiftSlices(Value v) {
  return rowScalar(v, /*beforeLift=*/true);
}

/// `v`, a row scalar, as a rank-0 tensor.
static Value asRankZero(PatternRewriter &rewriter, Location loc, Value v) {
  auto type = RankedTensorType::get({}, v.getType());
  Attribute constant;
  if (matchPattern(v, m_Constant(&constant)))
    return arith::ConstantOp::create(
        rewriter, loc, type,
        DenseElementsAttr::get(type, cast<FloatAttr>(constant).getValue()));
  if (Value tensor = extractedTensor(v)) {
    if (cast<RankedTensorType>(tensor.getType()).getRank() == 0)
      return tensor;
    return tensor::CollapseShapeOp::create(rewriter, loc, type, tensor,
                                           ArrayRef<ReassociationIndices>{});
  }
  // A launch-time float: ktdf-generalize broadcasts it.
  return tensor::SplatOp::create(rewriter, loc, type, v);
}

namespace {
/// A row-scalar op to the same op on tensor<T>, read back with
/// tensor.extract (which the next op of the chain, or the splat that
/// broadcasts the result, then takes apart).
struct RowScalarToRankZero : RewritePattern {
  RowScalarToRankZero(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isRowScalarOp(op) || matchPattern(op->getResult(0), m_Constant()) ||
        isLaunchFloat(op->getResult(0)))
      return failure();
    Location loc = op->getLoc();
    SmallVector<Value> operands;
    for (Value v : op->getOperands())
      operands.push_back(asRankZero(rewriter, loc, v));
    OperationState state(loc, op->getName());
    state.addOperands(operands);
    state.addTypes(RankedTensorType::get({}, op->getResult(0).getType()));
    state.addAttributes(op->getAttrs());
    Operation *tensorOp = rewriter.create(state);
    rewriter.replaceOpWithNewOp<tensor::ExtractOp>(op, tensorOp->getResult(0),
                                                   ValueRange{});
    return success();
  }
};

/// The float operands of the comparison `condition` is, as row scalars: of
/// the scalar arith.cmpf, or of the rank-0 one RowScalarToRankZero made of
/// it (read back with tensor.extract). Empty when it is neither.
static SmallVector<Value, 2> comparedRowScalars(PatternRewriter &rewriter,
                                                Location loc, Value condition,
                                                arith::CmpFPredicate &pred) {
  if (auto cmp = condition.getDefiningOp<arith::CmpFOp>();
      cmp && isRowScalarOp(cmp)) {
    pred = cmp.getPredicate();
    return {cmp.getLhs(), cmp.getRhs()};
  }
  Value tensor = extractedTensor(condition);
  auto cmp = tensor ? tensor.getDefiningOp<arith::CmpFOp>() : arith::CmpFOp();
  if (!cmp || cast<RankedTensorType>(tensor.getType()).getRank() != 0)
    return {};
  pred = cmp.getPredicate();
  return {tensor::ExtractOp::create(rewriter, loc, cmp.getLhs()),
          tensor::ExtractOp::create(rewriter, loc, cmp.getRhs())};
}

/// A row condition broadcast to a tensor (its tensor.splat, or the
/// condition of a select of tensors) to the comparison of the broadcast
/// row values: the compute unit broadcasts floats, not i1, and compares
/// each element as the row's comparison does.
struct BroadcastRowComparison : RewritePattern {
  BroadcastRowComparison(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/2, ctx) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    auto splat = dyn_cast<tensor::SplatOp>(op);
    auto select = dyn_cast<arith::SelectOp>(op);
    Value condition = splat    ? splat.getInput()
                      : select ? select.getCondition()
                               : Value();
    auto type = splat    ? splat.getType()
                : select ? dyn_cast<RankedTensorType>(select.getType())
                         : RankedTensorType();
    if (!condition || !type || !condition.getType().isInteger(1))
      return failure();
    Location loc = op->getLoc();
    arith::CmpFPredicate pred;
    SmallVector<Value, 2> compared =
        comparedRowScalars(rewriter, loc, condition, pred);
    if (compared.empty())
      return failure();
    SmallVector<Value, 2> broadcast;
    for (Value v : compared)
      broadcast.push_back(
          tensor::SplatOp::create(rewriter, loc, type.clone(v.getType()), v));
    Value perElement =
        arith::CmpFOp::create(rewriter, loc, pred, broadcast[0], broadcast[1]);
    if (splat)
      rewriter.replaceOp(op, perElement);
    else
      rewriter.replaceOpWithNewOp<arith::SelectOp>(
          op, perElement, select.getTrueValue(), select.getFalseValue());
    return success();
  }
};

/// A row scalar a linalg.generic body captures from above (a softmax's
/// `%q = arith.divf %e, %sum` with `%sum` extracted from the row's
/// reduction) to one more input: the rank-0 tensor it is the element of,
/// read through the broadcasting map `(d...) -> ()`. The compute lowering
/// then streams it like any broadcast operand.
struct CapturedRowScalarToInput : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(op.getRegion(), captured);
    SmallVector<Value> scalars;
    for (Value v : captured)
      if (isRowScalar(v) && !matchPattern(v, m_Constant()) && !isLaunchFloat(v))
        scalars.push_back(v);
    if (scalars.empty())
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value> inputs(op.getDpsInputs());
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    auto broadcast = AffineMap::get(op.getNumLoops(), 0, rewriter.getContext());
    unsigned numInputs = inputs.size();
    for (Value v : scalars) {
      inputs.push_back(asRankZero(rewriter, loc, v));
      maps.insert(maps.begin() + inputs.size() - 1, broadcast);
    }
    auto generic = linalg::GenericOp::create(rewriter, loc, op.getResultTypes(),
                                             inputs, op.getDpsInits(), maps,
                                             op.getIteratorTypesArray());
    rewriter.inlineRegionBefore(op.getRegion(), generic.getRegion(),
                                generic.getRegion().end());
    Block &body = generic.getRegion().front();
    for (auto [i, v] : llvm::enumerate(scalars)) {
      BlockArgument arg =
          body.insertArgument(numInputs + i, v.getType(), v.getLoc());
      replaceAllUsesInRegionWith(v, arg, generic.getRegion());
    }
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};
} // namespace

void mlir::ktdf::populateRowScalarPatterns(RewritePatternSet &patterns) {
  patterns.add<RowScalarToRankZero, CapturedRowScalarToInput,
               BroadcastRowComparison>(patterns.getContext());
}

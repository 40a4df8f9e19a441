//===- Numerics.cpp - The interpreter's reduction policy, made explicit ---===//
//
// This file rewrites the structured reductions of a tile function so that
// native code computes what the interpreter does under
// `--numerics=accumulate` (docs/interpreter.md §4): a linalg op with a
// reduction loop and an f16/bf16 output holds that output in f32. Its block
// argument and every body op that reads it (casts included: a truncf of the
// accumulator keeps f32) compute in f32, and the result is rounded once
// after the loop. In a named contraction (linalg.matmul and the others of
// ContractionOpInterface) every arithmetic op of the body computes in f32,
// the sum starts from zero, and `outs` is added after the rounding (one
// more rounding), as the interpreter's `outs + A·B`. Bodies that bitcast
// such a value keep their literal types, as in the interpreter.
//
// Every other op on 16-bit floats is computed in f32 and rounded once to
// its type (emulateNarrowFloats), which for +, -, *, / and sqrt equals the
// interpreter's double computation rounded once (f32 has more than twice
// the precision plus two bits). Math functions on 16-bit floats and f32
// are computed in f64 with the same libm as the interpreter's, and rounded
// once, so they agree bit for bit too (math.rsqrt included: 1/sqrt in
// double, as the interpreter computes it). Upstream's
// arith-emulate-unsupported-floats does not serve: it marks its casts
// `contract`, and folding then drops the rounding between two ops.
//
//===----------------------------------------------------------------------===//

#include "Numerics.h"
#include "LinalgForms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

static bool isNarrowFloat(Type type) { return type.isF16() || type.isBF16(); }

static bool isCast(Operation *op) {
  return isa<arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::UIToFPOp,
             arith::FPToSIOp, arith::FPToUIOp, arith::BitcastOp>(op);
}

/// Whether `op` is a scalar arithmetic op of a body (what the interpreter
/// evaluates element-wise).
static bool isElementwise(Operation *op) {
  Dialect *dialect = op->getDialect();
  return dialect && isa<arith::ArithDialect, math::MathDialect>(dialect) &&
         op->getNumResults() == 1 && !isa<arith::ConstantOp>(op);
}

/// The f32 value of `v` (extended when it is a 16-bit float).
static Value widen(OpBuilder &b, Location loc, Value v, Type f32) {
  if (isNarrowFloat(v.getType()))
    return arith::ExtFOp::create(b, loc, f32, v);
  return v;
}

/// Rebuilds `generic` with its narrow-float outputs held in f32. Returns
/// failure (and changes nothing) when its body bitcasts a widened value.
static LogicalResult widenGeneric(RewriterBase &rewriter,
                                  linalg::GenericOp generic,
                                  bool isContraction) {
  Block &body = generic.getRegion().front();
  unsigned numInputs = generic.getNumDpsInputs();
  Type f32 = rewriter.getF32Type();
  SmallVector<bool> wideOutput;
  for (OpOperand &init : generic.getDpsInitsMutable())
    wideOutput.push_back(
        isNarrowFloat(getElementTypeOrSelf(init.get().getType())));
  if (!llvm::is_contained(wideOutput, true))
    return failure();
  // Which body ops compute in f32, in program order.
  DenseSet<Value> wide;
  for (auto [k, isWide] : llvm::enumerate(wideOutput))
    if (isWide)
      wide.insert(body.getArgument(numInputs + k));
  DenseSet<Operation *> widened;
  for (Operation &op : body.without_terminator()) {
    bool reads = llvm::any_of(op.getOperands(),
                              [&](Value v) { return wide.contains(v); });
    if (!isElementwise(&op) || !(reads || (isContraction && !isCast(&op))))
      continue;
    if (isa<arith::BitcastOp>(op))
      return failure();
    widened.insert(&op);
    if (isNarrowFloat(op.getResult(0).getType()) ||
        (isa<arith::ExtFOp>(op) && op.getResult(0).getType().isF32()))
      wide.insert(op.getResult(0));
  }
  // Contractions whose combiner is addf add `outs` after rounding.
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  bool addIntoOutputs =
      isContraction && llvm::all_of(yield.getValues(), [](Value v) {
        return isa_and_nonnull<arith::AddFOp>(v.getDefiningOp());
      });

  Location loc = generic.getLoc();
  rewriter.setInsertionPoint(generic);
  SmallVector<Value> inits;
  SmallVector<Type> resultTypes;
  for (auto [k, init] : llvm::enumerate(generic.getDpsInits())) {
    auto type = cast<RankedTensorType>(init.getType());
    if (!wideOutput[k]) {
      inits.push_back(init);
      resultTypes.push_back(type);
      continue;
    }
    auto wideType = type.clone(f32);
    Value wideInit;
    if (addIntoOutputs) {
      Value empty =
          tensor::EmptyOp::create(rewriter, loc, type.getShape(), f32);
      Value zero = arith::ConstantOp::create(rewriter, loc, f32,
                                             rewriter.getF32FloatAttr(0));
      wideInit = linalg::FillOp::create(rewriter, loc, zero, empty).result();
    } else {
      wideInit = arith::ExtFOp::create(rewriter, loc, wideType, init);
    }
    inits.push_back(wideInit);
    resultTypes.push_back(wideType);
  }
  auto rebuilt = linalg::GenericOp::create(
      rewriter, loc, resultTypes, generic.getDpsInputs(), inits,
      generic.getIndexingMapsArray(), generic.getIteratorTypesArray(),
      [&](OpBuilder &b, Location l, ValueRange args) {
        IRMapping map;
        for (auto [old, now] : llvm::zip(body.getArguments(), args))
          map.map(old, now);
        for (Operation &op : body.without_terminator()) {
          if (!widened.contains(&op)) {
            b.clone(op, map);
            continue;
          }
          Value result = op.getResult(0);
          bool keepsWide = wide.contains(result);
          // A cast of the accumulator to or from 16 bits is the f32 value.
          if (isa<arith::TruncFOp, arith::ExtFOp>(op) && keepsWide &&
              map.lookup(op.getOperand(0)).getType().isF32()) {
            map.map(result, map.lookup(op.getOperand(0)));
            continue;
          }
          SmallVector<Value> operands;
          bool floatOperands = !isCast(&op);
          for (Value operand : op.getOperands()) {
            Value mapped = map.lookup(operand);
            operands.push_back(floatOperands ? widen(b, l, mapped, f32)
                                             : mapped);
          }
          Type type = result.getType();
          if (isNarrowFloat(type))
            type = f32;
          OperationState state(l, op.getName(), operands, TypeRange{type},
                               op.getAttrs());
          map.map(result, b.create(state)->getResult(0));
        }
        SmallVector<Value> yielded;
        for (auto [k, v] : llvm::enumerate(yield.getValues())) {
          Value mapped = map.lookup(v);
          yielded.push_back(wideOutput[k] ? widen(b, l, mapped, f32) : mapped);
        }
        linalg::YieldOp::create(b, l, yielded);
      });
  SmallVector<Value> results;
  for (auto [k, result] : llvm::enumerate(rebuilt.getResults())) {
    Value init = generic.getDpsInits()[k];
    if (!wideOutput[k]) {
      results.push_back(result);
      continue;
    }
    Value rounded =
        arith::TruncFOp::create(rewriter, loc, init.getType(), result);
    if (addIntoOutputs)
      rounded = arith::AddFOp::create(rewriter, loc, rounded, init);
    results.push_back(rounded);
  }
  rewriter.replaceOp(generic, results);
  return success();
}

/// The type `op` computes in natively: math functions in f64 (the
/// interpreter evaluates them with the same libm in double and rounds
/// once), arithmetic on 16-bit floats in f32, anything else as written.
static Type computeType(Operation *op, Builder &b) {
  auto narrow = [](Type type) { return isNarrowFloat(type); };
  auto single = [](Type type) { return isNarrowFloat(type) || type.isF32(); };
  if (isa<math::MathDialect>(op->getDialect()) &&
      (llvm::any_of(op->getOperandTypes(), single) ||
       llvm::any_of(op->getResultTypes(), single)))
    return b.getF64Type();
  if (llvm::any_of(op->getOperandTypes(), narrow) ||
      llvm::any_of(op->getResultTypes(), narrow))
    return b.getF32Type();
  return Type();
}

/// `v` extended to `wide` when it is a narrower float.
static Value extendTo(OpBuilder &b, Location loc, Value v, Type wide) {
  auto type = dyn_cast<FloatType>(v.getType());
  if (type && type.getWidth() < wide.getIntOrFloatBitWidth())
    return arith::ExtFOp::create(b, loc, wide, v);
  return v;
}

/// `wide`, an f64, rounded once to the 16-bit float type `narrow`. LLVM
/// calls libgcc's software conversion for a direct f64 -> f16 truncation
/// (x86 has no instruction for it; ~10% of a softmax): instead the value
/// is rounded to f32 to odd (toward zero, the lowest bit set when
/// inexact), then to `narrow` by the hardware. f32 carries more than two
/// bits beyond either 16-bit type's precision, so this is the single
/// rounding's result, subnormals, overflow and NaN included.
static Value roundF64ToNarrow(OpBuilder &b, Location loc, Type narrow,
                              Value wide) {
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  Value nearest = arith::TruncFOp::create(b, loc, f32, wide);
  Value back = arith::ExtFOp::create(b, loc, wide.getType(), nearest);
  Value inexact =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ONE, back, wide);
  Value awayFromZero = arith::CmpFOp::create(
      b, loc, arith::CmpFPredicate::OGT, math::AbsFOp::create(b, loc, back),
      math::AbsFOp::create(b, loc, wide));
  Value bits = arith::BitcastOp::create(b, loc, i32, nearest);
  Value one = arith::ConstantIntOp::create(b, loc, 1, 32);
  // Sign and magnitude: one less is the next value toward zero.
  Value towardZero = arith::SelectOp::create(
      b, loc, awayFromZero, arith::SubIOp::create(b, loc, bits, one), bits);
  Value odd = arith::SelectOp::create(
      b, loc, inexact, arith::OrIOp::create(b, loc, towardZero, one), bits);
  return arith::TruncFOp::create(b, loc, narrow,
                                 arith::BitcastOp::create(b, loc, f32, odd));
}

/// `value` rounded once to `type`.
static Value roundTo(OpBuilder &b, Location loc, Type type, Value value) {
  if (isNarrowFloat(type) && value.getType().isF64())
    return roundF64ToNarrow(b, loc, type, value);
  return arith::TruncFOp::create(b, loc, type, value);
}

void ktflow::jit::emulateNarrowFloats(Operation *root) {
  OpBuilder b(root->getContext());
  SmallVector<std::pair<Operation *, Type>> ops;
  root->walk([&](Operation *op) {
    Dialect *dialect = op->getDialect();
    if (!dialect || !isa<arith::ArithDialect, math::MathDialect>(dialect) ||
        isa<arith::ExtFOp, arith::TruncFOp, arith::ConstantOp, arith::BitcastOp,
            arith::SelectOp, arith::SIToFPOp, arith::UIToFPOp>(op) ||
        op->getNumRegions() != 0)
      return;
    if (Type wide = computeType(op, b))
      ops.push_back({op, wide});
  });
  for (auto [op, wide] : ops) {
    b.setInsertionPoint(op);
    Location loc = op->getLoc();
    SmallVector<Value> operands;
    for (Value operand : op->getOperands())
      operands.push_back(extendTo(b, loc, operand, wide));
    SmallVector<Type> types;
    for (Type type : op->getResultTypes())
      types.push_back(isa<FloatType>(type) ? wide : type);
    OperationState state(loc, op->getName(), operands, types, op->getAttrs());
    Operation *computed = b.create(state);
    SmallVector<Value> results;
    for (auto [old, now] : llvm::zip(op->getResults(), computed->getResults()))
      results.push_back(old.getType() == now.getType()
                            ? now
                            : roundTo(b, loc, old.getType(), now));
    op->replaceAllUsesWith(results);
    op->erase();
  }
}

void ktflow::jit::applyAccumulateNumerics(Operation *root) {
  SmallVector<linalg::LinalgOp> reductions;
  root->walk([&](linalg::LinalgOp op) {
    if (op.hasPureTensorSemantics() && op.getNumReductionLoops() > 0 &&
        llvm::any_of(op.getDpsInits(), [](Value init) {
          return isNarrowFloat(getElementTypeOrSelf(init.getType()));
        }))
      reductions.push_back(op);
  });
  IRRewriter rewriter(root->getContext());
  for (linalg::LinalgOp op : reductions) {
    bool isContraction = isa<linalg::ContractionOpInterface>(*op);
    FailureOr<linalg::GenericOp> generic = asGeneric(rewriter, op);
    if (succeeded(generic))
      (void)widenGeneric(rewriter, *generic, isContraction);
  }
}

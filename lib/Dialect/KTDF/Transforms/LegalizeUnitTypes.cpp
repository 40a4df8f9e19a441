//===- LegalizeUnitTypes.cpp - Compute or refuse what the unit lacks ------===//
//
// This file implements --ktdf-legalize-unit-types. The bodies of a kernel's
// linalg.generic ops are what the lane's vector unit computes. An
// operation on a 16-bit float the unit has no rate for, where the unit has
// one for f32 (bf16 arithmetic on every shipped device: no vector unit has
// bf16 lanes), is computed in f32: its 16-bit operands extended, the op
// cloned on f32, its result rounded back to the 16-bit type, so every
// operation's result is still rounded as the kernel says. For +, -, *, /
// and sqrt this is exact (f32's 24 significand bits are at least 2 * 8 + 2,
// so rounding twice rounds once); for the transcendental functions it
// matches the reference interpreter's single rounding except within half
// an f32 ulp of a midpoint between two bf16 values, where it may differ
// by one bf16 ulp. The rounding truncf is charged at f32 on such a unit
// (ChargedType.h). A reduction into a bf16 accumulator accumulates in f32
// and rounds once (accumulateInF32). What cannot be legalized (f32 on an
// f16-only unit, integer arithmetic on tensor data where the unit computes
// floats only) is refused before scheduling, at the KTIR operation, with
// the unit and what it does compute, and so is an operation no unit has an
// instruction for (ScalarInstruction.h: math.powf, math.exp2, the shifts).
// math.powf by the constant 2.0, -1.0, 1.0 or 0.0 is computed first as
// x * x, 1 / x, x or 1, which is exact (liftExactPowers). The emitter keeps
// its own checks as the backstop.
//
//===----------------------------------------------------------------------===//

#include "WidenToF32.h"

#include "ktflow/Device/ComputeOpClass.h"
#include "ktflow/Device/ScalarInstruction.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Scheduler/ScheduleTarget.h"
#include "ktflow/Scheduler/ScheduleTargetPass.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFLEGALIZEUNITTYPES
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

namespace {
/// The element types `unit` computes `cls` on, as the description writes
/// them ("f16, f32"), or "nothing".
std::string typesComputed(const ktdf_arch::UnitSpec &unit,
                          ktdf_arch::OpClass cls) {
  std::string types;
  llvm::raw_string_ostream os(types);
  for (const ktdf_arch::ThroughputEntry &entry : unit.throughput)
    if (entry.opClass == cls && entry.perCycle > 0) {
      os << (types.empty() ? "" : ", ");
      entry.dtype.print(os);
    }
  return types.empty() ? "nothing" : types;
}

/// Whether `op` reads or makes an index: address or mask arithmetic, which
/// the lowering places elsewhere than the unit's dfir.map.
bool hasIndexType(Operation *op) {
  auto isIndex = [](Type t) { return t.isIndex(); };
  return llvm::any_of(op->getOperandTypes(), isIndex) ||
         llvm::any_of(op->getResultTypes(), isIndex);
}

/// Whether the vector unit computes `op` of `generic`'s body at its rate
/// for a type, and at which class and type: an operation folding into the
/// accumulator of a reduction is a reduction. That is an arith or math
/// operation charged at a float or at an integer type of tensor data
/// (i8 to i64), which the lowering clones into the unit's dfir.map as it
/// is. Not index arithmetic (an index operand or result: coordinates,
/// tile origins, address terms), which the lowering computes in f32
/// (MapBodies.cpp), and not i1 mask logic (comparisons' results combined
/// by andi/ori/xori), which is not tensor data: the emitter checks it.
bool isVectorArithmetic(linalg::GenericOp generic, Operation *op,
                        Type &rateType, ktdf_arch::OpClass &cls,
                        const ktdf_arch::UnitSpec &unit) {
  if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
      op->hasTrait<OpTrait::ConstantLike>())
    return false;
  cls = ktflow::device::getComputeOpClass(op, rateType, &unit);
  auto isAccumulator = [&](Value operand) {
    auto arg = dyn_cast<BlockArgument>(operand);
    return arg && arg.getOwner() == generic.getBody() &&
           arg.getArgNumber() >= generic.getNumDpsInputs();
  };
  if (generic.getNumReductionLoops() > 0 &&
      llvm::any_of(op->getOperands(), isAccumulator))
    cls = ktdf_arch::OpClass::Reduction;
  if (rateType && isa<FloatType>(rateType))
    return true;
  auto integer = dyn_cast_or_null<IntegerType>(rateType);
  return integer && integer.getWidth() > 1 && !hasIndexType(op);
}

/// Whether `unit` computes `cls` on `type`.
bool computes(const ktdf_arch::UnitSpec &unit, ktdf_arch::OpClass cls,
              Type type) {
  std::optional<double> rate = unit.getThroughput(cls, type);
  return rate && *rate > 0;
}

/// `value` (of a 16-bit float type) in f32 for an operation at `loc`: its
/// extension, made once after its definition (at the start of `body` for a
/// value defined outside it) and kept in `wide` for all its users; a
/// constant rebuilt in f32.
Value widened(OpBuilder &b, Location loc, Value value, Block &body,
              DenseMap<Value, Value> &wide) {
  Value &extension = wide[value];
  if (extension)
    return extension;
  OpBuilder::InsertionGuard guard(b);
  if (body.getParent()->isAncestor(value.getParentRegion()))
    b.setInsertionPointAfterValue(value);
  else
    b.setInsertionPointToStart(&body);
  FloatType f32 = b.getF32Type();
  if (auto constant = value.getDefiningOp<arith::ConstantFloatOp>())
    extension = arith::ConstantFloatOp::create(
        b, loc, f32, APFloat(constant.value().convertToDouble()));
  else
    extension = arith::ExtFOp::create(b, loc, f32, value);
  return extension;
}

/// A copy of `op` of `body`, before it, that computes in f32 (cloneInF32),
/// its 16-bit float operands widened() (`wide` as there).
Operation *cloneInF32InBody(Operation *op, Block &body,
                            DenseMap<Value, Value> &wide) {
  OpBuilder b(op);
  return ktdf::cloneInF32(b, op, [&](Value operand) {
    return widened(b, op->getLoc(), operand, body, wide);
  });
}

/// Computes `op` (of 16-bit float type `narrow`) in f32
/// (cloneInF32InBody), its results of type `narrow` rounded back with
/// arith.truncf.
void widenToF32(Operation *op, Type narrow, Block &body,
                DenseMap<Value, Value> &wide) {
  Operation *computed = cloneInF32InBody(op, body, wide);
  OpBuilder b(op);
  for (auto [old, result] :
       llvm::zip(op->getResults(), computed->getResults())) {
    Value value = result;
    if (old.getType() == narrow)
      value = arith::TruncFOp::create(b, op->getLoc(), narrow, value);
    old.replaceAllUsesWith(value);
  }
  op->erase();
}

/// Whether `op`, charged at the 16-bit float `narrow`, computes the same in
/// f32: an arith or math operation without regions whose float operands
/// and results are all of type `narrow`.
bool widensExactly(Operation *op, Type narrow) {
  if (!(narrow.isF16() || narrow.isBF16()) || op->getNumRegions() != 0)
    return false;
  auto ok = [&](Type t) { return !isa<FloatType>(t) || t == narrow; };
  return llvm::all_of(op->getOperandTypes(), ok) &&
         llvm::all_of(op->getResultTypes(), ok);
}

/// `source` converted element by element to `to` (arith.extf or truncf) by
/// a linalg.generic of its own, before `b`'s insertion point.
Value convertTensor(OpBuilder &b, Location loc, Value source, FloatType to) {
  auto type = cast<RankedTensorType>(source.getType());
  auto from = cast<FloatType>(type.getElementType());
  Value empty = tensor::EmptyOp::create(
      b, loc, tensor::getMixedSizes(b, loc, source), to);
  AffineMap id = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> parallel(type.getRank(),
                                            utils::IteratorType::parallel);
  auto convert = linalg::GenericOp::create(
      b, loc, TypeRange{empty.getType()}, ValueRange{source}, ValueRange{empty},
      ArrayRef<AffineMap>{id, id}, parallel,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value converted =
            from.getWidth() < to.getWidth()
                ? arith::ExtFOp::create(nested, nestedLoc, to, args[0])
                      .getResult()
                : arith::TruncFOp::create(nested, nestedLoc, to, args[0])
                      .getResult();
        linalg::YieldOp::create(nested, nestedLoc, converted);
      });
  return convert.getResult(0);
}

/// Accumulates the single 16-bit float output of reduction `generic` in
/// f32, where `unit` reduces f32 and not the 16-bit type: the initial
/// value extended before, the result rounded after (one linalg.generic
/// each), and every body operation that reads the accumulator, or a value
/// computed from it, computed in f32. The interpreter and the simulator
/// already keep a 16-bit accumulator wide inside a reduction, so the
/// result is the one they compute. `wide` is widened()'s cache, shared
/// with the element-wise operations of the body computed in f32 after.
void accumulateInF32(linalg::GenericOp generic, const ktdf_arch::UnitSpec &unit,
                     DenseMap<Value, Value> &wide) {
  if (generic.getNumReductionLoops() == 0 || generic.getNumDpsInits() != 1 ||
      !generic.hasPureTensorSemantics())
    return;
  Value init = generic.getDpsInits()[0];
  auto initType = dyn_cast<RankedTensorType>(init.getType());
  Type narrow = initType ? initType.getElementType() : Type();
  if (!narrow || !(narrow.isF16() || narrow.isBF16()) ||
      computes(unit, ktdf_arch::OpClass::Reduction, narrow) ||
      !computes(unit, ktdf_arch::OpClass::Reduction,
                Float32Type::get(generic.getContext())))
    return;
  Block &body = *generic.getBody();
  BlockArgument acc = body.getArgument(generic.getNumDpsInputs());
  // Every operation the accumulator reaches must compute the same in f32.
  llvm::SmallPtrSet<Operation *, 8> reached;
  llvm::SmallPtrSet<Value, 8> wideValues{acc};
  for (Operation &op : body.without_terminator()) {
    if (llvm::none_of(op.getOperands(),
                      [&](Value v) { return wideValues.contains(v); }))
      continue;
    if (!isa<arith::ArithDialect, math::MathDialect>(op.getDialect()) ||
        !widensExactly(&op, narrow))
      return;
    reached.insert(&op);
    for (Value result : op.getResults())
      if (result.getType() == narrow)
        wideValues.insert(result);
  }
  // The value yielded becomes the f32 accumulator.
  if (!wideValues.contains(body.getTerminator()->getOperand(0)))
    return;
  OpBuilder b(generic);
  FloatType f32 = b.getF32Type();
  Location loc = generic.getLoc();
  generic.getDpsInitsMutable()[0].assign(convertTensor(b, loc, init, f32));
  acc.setType(f32);
  Value result = generic.getResult(0);
  result.setType(initType.clone(f32));
  b.setInsertionPointAfter(generic);
  Value rounded = convertTensor(b, loc, result, cast<FloatType>(narrow));
  result.replaceAllUsesExcept(rounded, rounded.getDefiningOp());
  for (Operation &op : llvm::make_early_inc_range(body.without_terminator())) {
    if (!reached.contains(&op))
      continue;
    op.replaceAllUsesWith(cloneInF32InBody(&op, body, wide));
    op.erase();
  }
}

/// Computes each math.powf of `body` whose exponent is the constant 2.0 as
/// arith.mulf x, x, by -1.0 as arith.divf 1, x, by 1.0 as x and by 0.0 as
/// 1. Each is exact against the reference interpreter, which computes pow
/// in double and rounds once: the square of a float of at most 24
/// significand bits is exact in double, so pow rounds the exact square
/// once, as the multiply does; pow(x, -1.0) is within 0.52 double ulp of
/// 1 / x, and no reciprocal of such a float lies that close to a rounding
/// boundary of a narrower float (1 - m x, for a boundary m of 25 bits, is
/// 0 only for powers of two and otherwise at least 2^-49), so both round
/// alike, as the divide does; pow(x, 1.0) is x and pow(x, 0.0) is 1, NaN
/// included. All agree on zeros, infinities and NaN.
void liftExactPowers(Block &body) {
  for (Operation &op : llvm::make_early_inc_range(body.without_terminator())) {
    auto pow = dyn_cast<math::PowFOp>(op);
    APFloat exponent(0.0);
    if (!pow || !matchPattern(pow.getRhs(), m_ConstantFloat(&exponent)))
      continue;
    Value x = pow.getLhs();
    OpBuilder b(pow);
    Location loc = pow.getLoc();
    Value lifted;
    if (exponent.isExactlyValue(1.0)) {
      lifted = x;
    } else if (exponent.isExactlyValue(2.0)) {
      lifted = arith::MulFOp::create(b, loc, x, x, pow.getFastmathAttr());
    } else if (exponent.isExactlyValue(-1.0)) {
      Value one =
          arith::ConstantOp::create(b, loc, b.getFloatAttr(pow.getType(), 1.0));
      lifted = arith::DivFOp::create(b, loc, one, x, pow.getFastmathAttr());
    } else if (exponent.isZero()) {
      lifted =
          arith::ConstantOp::create(b, loc, b.getFloatAttr(pow.getType(), 1.0));
    } else {
      continue;
    }
    pow.replaceAllUsesWith(lifted);
    pow.erase();
  }
}

/// What a user can write instead of `op` (of result type `type`), which no
/// unit has an instruction for, to be computed on `unit`; or "".
std::string instead(Operation *op, Type type, const ktdf_arch::UnitSpec &unit) {
  if (isa<math::PowFOp>(op))
    return "; math.powf is computed only by the constant exponents 2.0 "
           "(as x * x), -1.0 (as 1 / x), 1.0 and 0.0, where it is exact: "
           "other exponents would be exp(y * log(x)), which is not exact "
           "against the reference's pow in double";
  if (isa<math::Exp2Op>(op) && type &&
      computes(unit, ktdf_arch::OpClass::Transcendental, type))
    return "; write exp2(x) as math.exp(x * 0.6931471805599453) (x times "
           "ln 2), which the unit computes";
  return "";
}

/// Refuses each operation of `generic`'s body that no compute unit has an
/// instruction for (index arithmetic excepted: it computes addresses and
/// masks, which the lowering places elsewhere), naming `model` and its
/// vector unit `node`. `reported` as in runOnOperation.
bool refuseWithoutInstruction(
    linalg::GenericOp generic, const ktflow::device::Node &node,
    const ktflow::device::DeviceModel &model,
    llvm::DenseSet<std::tuple<Location, OperationName, Type>> &reported) {
  bool failed = false;
  for (Operation &op : generic.getBody()->without_terminator()) {
    if (!isa<arith::ArithDialect, math::MathDialect>(op.getDialect()) ||
        op.hasTrait<OpTrait::ConstantLike>() || hasIndexType(&op) ||
        ktflow::device::getScalarInstruction(&op))
      continue;
    Type type = op.getNumResults() ? op.getResult(0).getType() : Type();
    if (!reported.insert({op.getLoc(), op.getName(), type}).second)
      continue;
    failed = true;
    op.emitError("no compute unit of device '")
        << model.getName() << "' computes " << op.getName()
        << " (its vector unit '" << node.name << "' has no instruction for it)"
        << instead(&op, type, *node.unit);
  }
  return failed;
}

struct LegalizeUnitTypesPass
    : public ktflow::sched::WithScheduleTarget<
          ktdf::impl::KTDFLegalizeUnitTypesBase<LegalizeUnitTypesPass>> {
  void runOnOperation() override {
    const ktflow::sched::ScheduleTarget *target = requireScheduleTarget();
    if (!target)
      return;
    const ktflow::device::DeviceModel &model = target->getModel();
    const ktflow::device::Node &node =
        model.getNode(target->getLanes().front().compute);
    const ktdf_arch::UnitSpec &unit = *node.unit;
    Type f32 = Float32Type::get(&getContext());
    // Computed in f32 first, where the unit has a rate for f32 and not for
    // the 16-bit type. An operation folding into a reduction's accumulator
    // is not: lowered, the reduction reduces at the accumulator's type.
    getOperation().walk([&](linalg::GenericOp generic) {
      // One extension of each 16-bit value, whichever step needs it.
      DenseMap<Value, Value> wide;
      liftExactPowers(*generic.getBody());
      accumulateInF32(generic, unit, wide);
      for (Operation &op : llvm::make_early_inc_range(
               generic.getBody()->without_terminator())) {
        Type rateType;
        ktdf_arch::OpClass cls;
        if (isVectorArithmetic(generic, &op, rateType, cls, unit) &&
            cls != ktdf_arch::OpClass::Reduction &&
            !computes(unit, cls, rateType) && computes(unit, cls, f32) &&
            widensExactly(&op, rateType))
          widenToF32(&op, rateType, *generic.getBody(), wide);
      }
    });
    // Fusion copies a user's operation into each consumer it fuses into:
    // one error per operation of the kernel.
    llvm::DenseSet<std::tuple<Location, OperationName, Type>> reported;
    bool failed = false;
    getOperation().walk([&](linalg::GenericOp generic) {
      failed |= refuseWithoutInstruction(generic, node, model, reported);
      for (Operation &op : generic.getBody()->without_terminator()) {
        Type rateType;
        ktdf_arch::OpClass cls;
        if (!ktflow::device::getScalarInstruction(&op) ||
            !isVectorArithmetic(generic, &op, rateType, cls, unit) ||
            computes(unit, cls, rateType) ||
            !reported.insert({op.getLoc(), op.getName(), rateType}).second)
          continue;
        failed = true;
        std::string type;
        llvm::raw_string_ostream(type) << rateType;
        op.emitError("the vector unit '")
            << node.name << "' of device '" << model.getName()
            << "' cannot compute " << op.getName() << " ("
            << ktdf_arch::stringifyOpClass(cls) << ") on " << type
            << ": it computes " << ktdf_arch::stringifyOpClass(cls)
            << " operations on " << typesComputed(unit, cls);
      }
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace

//===- CheckUnitTypes.cpp - Legalize or refuse arithmetic the unit lacks ===//
//
// This file implements --ktdf-check-unit-types. The bodies of a kernel's
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
// (ChargedType.h). What cannot be legalized (f32 on an f16-only unit) is
// refused before scheduling, at the KTIR operation, with the unit and what
// it does compute. The emitter keeps its own check as the backstop.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Device/ComputeOpClass.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Scheduler/ScheduleTarget.h"
#include "ktflow/Scheduler/ScheduleTargetPass.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFCHECKUNITTYPES
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

/// Whether the vector unit computes `op` of `generic`'s body (an arith or
/// math operation on floats: integer and index arithmetic in a body is
/// address or mask computation the lowering places elsewhere), and at
/// which class and type: an operation folding into the accumulator of a
/// reduction is a reduction.
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
  return rateType && isa<FloatType>(rateType);
}

/// Whether `unit` computes `cls` on `type`.
bool computes(const ktdf_arch::UnitSpec &unit, ktdf_arch::OpClass cls,
              Type type) {
  std::optional<double> rate = unit.getThroughput(cls, type);
  return rate && *rate > 0;
}

/// Computes `op` (of 16-bit float type `narrow`) in f32: operands of type
/// `narrow` extended (constants rebuilt in f32), results of type `narrow`
/// rounded back with arith.truncf. `wide` holds each value's extension, made
/// once after its definition (at the start of `body` for a value defined
/// outside it) for all its users.
void widenToF32(Operation *op, Type narrow, Block &body,
                DenseMap<Value, Value> &wide) {
  OpBuilder b(op);
  FloatType f32 = b.getF32Type();
  IRMapping mapping;
  for (Value operand : op->getOperands()) {
    if (operand.getType() != narrow)
      continue;
    Value &widened = wide[operand];
    if (!widened) {
      OpBuilder::InsertionGuard guard(b);
      if (body.getParent()->isAncestor(operand.getParentRegion()))
        b.setInsertionPointAfterValue(operand);
      else
        b.setInsertionPointToStart(&body);
      if (auto constant = operand.getDefiningOp<arith::ConstantFloatOp>())
        widened = arith::ConstantFloatOp::create(
            b, op->getLoc(), f32, APFloat(constant.value().convertToDouble()));
      else
        widened = arith::ExtFOp::create(b, op->getLoc(), f32, operand);
    }
    mapping.map(operand, widened);
  }
  Operation *computed = b.clone(*op, mapping);
  for (auto [old, result] :
       llvm::zip(op->getResults(), computed->getResults())) {
    if (old.getType() != narrow) {
      old.replaceAllUsesWith(result);
      continue;
    }
    result.setType(f32);
    old.replaceAllUsesWith(
        arith::TruncFOp::create(b, op->getLoc(), narrow, result).getResult());
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

struct CheckUnitTypesPass
    : public ktflow::sched::WithScheduleTarget<
          ktdf::impl::KTDFCheckUnitTypesBase<CheckUnitTypesPass>> {
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
      DenseMap<Value, Value> wide;
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
      for (Operation &op : generic.getBody()->without_terminator()) {
        Type rateType;
        ktdf_arch::OpClass cls;
        if (!isVectorArithmetic(generic, &op, rateType, cls, unit) ||
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

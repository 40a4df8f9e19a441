//===- CheckUnitTypes.cpp - Refuse arithmetic the vector unit lacks -------===//
//
// This file implements --ktdf-check-unit-types. The bodies of a kernel's
// linalg.generic ops are what the lane's vector unit computes; an
// operation on an element type the unit has no rate for (bf16 arithmetic
// on a unit with f16 and f32 lanes) used to be refused only by the bundle
// emitter, after scheduling, at a DataflowIR op. Here it is refused before
// scheduling, at the KTIR operation, with the unit and what it does
// compute. The emitter keeps its own check as the backstop (a lowering
// may still introduce an operation this pass did not see).
//
//===----------------------------------------------------------------------===//

#include "ktflow/Device/ComputeOpClass.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Scheduler/ScheduleTarget.h"
#include "ktflow/Scheduler/ScheduleTargetPass.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
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
                        Type &rateType, ktdf_arch::OpClass &cls) {
  if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
      op->hasTrait<OpTrait::ConstantLike>())
    return false;
  cls = ktflow::device::getComputeOpClass(op, rateType);
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
    // Fusion copies a user's operation into each consumer it fuses into:
    // one error per operation of the kernel.
    llvm::DenseSet<std::tuple<Location, OperationName, Type>> reported;
    bool failed = false;
    getOperation().walk([&](linalg::GenericOp generic) {
      for (Operation &op : generic.getBody()->without_terminator()) {
        Type rateType;
        ktdf_arch::OpClass cls;
        if (!isVectorArithmetic(generic, &op, rateType, cls))
          continue;
        std::optional<double> rate = unit.getThroughput(cls, rateType);
        if ((rate && *rate > 0) ||
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

//===- ComputeOpClass.cpp - What a compute unit charges an op -------------===//
//
// This file classes KTIR compute operations by the throughput a compute
// unit charges for them, as the simulator classes the instructions they
// lower to, at the element type ChargedType.h gives.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Device/ComputeOpClass.h"
#include "ktflow/Device/ChargedType.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

/// A conversion between a 16-bit float and f32 (ChargedType.h).
static bool isHalfFloatConversion(Operation *op) {
  if (!isa<arith::ExtFOp, arith::TruncFOp>(op))
    return false;
  Type from = getElementTypeOrSelf(op->getOperand(0).getType());
  Type to = getElementTypeOrSelf(op->getResult(0).getType());
  auto isHalf = [](Type t) { return t.isF16() || t.isBF16(); };
  return (isHalf(from) && to.isF32()) || (isHalf(to) && from.isF32());
}

ktdf_arch::OpClass
ktflow::device::getComputeOpClass(Operation *op, Type &rateType,
                                  const ktdf_arch::UnitSpec *unit) {
  Dialect *dialect = op->getDialect();
  ktdf_arch::OpClass cls = ktdf_arch::OpClass::Elementwise;
  if (isa<arith::DivFOp, math::ExpOp, math::LogOp, math::TanhOp, math::SqrtOp,
          math::RsqrtOp, math::ErfOp>(op) ||
      (dialect && dialect->getNamespace() == "spyreop"))
    cls = ktdf_arch::OpClass::Transcendental;
  Type result = op->getNumResults()
                    ? getElementTypeOrSelf(op->getResult(0).getType())
                    : Type();
  Type source = op->getNumOperands()
                    ? getElementTypeOrSelf(op->getOperand(0).getType())
                    : Type();
  ChargeKind kind = ChargeKind::Result;
  if (isa<arith::CmpFOp, arith::CmpIOp>(op))
    kind = ChargeKind::Operand;
  else if (unit && isHalfFloatConversion(op))
    kind = ChargeKind::Conversion;
  rateType = chargedType(kind, result, source, [&](Type t) {
    std::optional<double> rate = unit->getThroughput(cls, t);
    return rate && *rate > 0;
  });
  return cls;
}

Type ktflow::device::getHeldType(Type type, const ktdf_arch::UnitSpec &unit) {
  return heldType(type, type.isF16() || type.isBF16(),
                  Type(Float32Type::get(type.getContext())), [&](Type t) {
                    std::optional<double> rate =
                        unit.getThroughput(ktdf_arch::OpClass::Elementwise, t);
                    return rate && *rate > 0;
                  });
}

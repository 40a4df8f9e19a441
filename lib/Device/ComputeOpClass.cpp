//===- ComputeOpClass.cpp - What a compute unit charges an op -------------===//
//
// This file classes KTIR compute operations by the throughput a compute
// unit charges for them, as the simulator classes the instructions they
// lower to.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Device/ComputeOpClass.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

ktdf_arch::OpClass ktflow::device::getComputeOpClass(Operation *op,
                                                     Type &rateType) {
  rateType = op->getNumResults() ? op->getResult(0).getType() : Type();
  if (isa<arith::CmpFOp, arith::CmpIOp>(op))
    rateType = op->getOperand(0).getType();
  if (rateType)
    rateType = getElementTypeOrSelf(rateType);
  Dialect *dialect = op->getDialect();
  if (isa<arith::DivFOp, math::ExpOp, math::LogOp, math::TanhOp, math::SqrtOp,
          math::RsqrtOp, math::ErfOp>(op) ||
      (dialect && dialect->getNamespace() == "spyreop"))
    return ktdf_arch::OpClass::Transcendental;
  return ktdf_arch::OpClass::Elementwise;
}

//===- ComputeOpClass.h - What a compute unit charges an op -----*- C++ -*-===//
//
// This file declares the one mapping from a KTIR compute operation (arith,
// math or spyreop, on a scalar or a tensor) to the throughput class and
// element type whose rate a compute unit charges for it. The scheduler's
// cost estimates and the roofline count both ask it, so the two charge an
// operation the way the simulator does (machine::scalarOpClass on the
// lowered instructions).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DEVICE_COMPUTEOPCLASS_H
#define KTFLOW_DEVICE_COMPUTEOPCLASS_H

#include "ktflow/Dialect/KTDFArch/IR/KTDFArch.h"

#include "mlir/IR/Operation.h"

namespace ktflow::device {

/// The class of a compute unit's throughput that `op` costs: divisions,
/// transcendental functions and spyreop activations are transcendental,
/// everything else element-wise. `rateType` is the element type the rate is
/// read for (ChargedType.h): a comparison's operand type, else the result
/// type (the element type of a tensor result), null for an op without
/// results. Given the `unit` that computes it, a conversion between a
/// 16-bit float and f32 is charged at the type the unit has lanes for;
/// without, at its result type.
mlir::ktdf_arch::OpClass
getComputeOpClass(mlir::Operation *op, mlir::Type &rateType,
                  const mlir::ktdf_arch::UnitSpec *unit = nullptr);

/// The element type `unit` holds and moves values of `type` in
/// (ChargedType.h's Move): `type`, or f32 for a 16-bit float the unit has
/// no element-wise lanes for where it has f32 lanes.
mlir::Type getHeldType(mlir::Type type, const mlir::ktdf_arch::UnitSpec &unit);

} // namespace ktflow::device

#endif // KTFLOW_DEVICE_COMPUTEOPCLASS_H

//===- ScalarInstruction.h - The ops a compute unit has an instruction for ===//
//
// This file declares the one table of the KTIR scalar operations (arith,
// math and spyreop) that a compute unit executes as an instruction of its
// element-wise micro-programs (machine::ScalarOp). The bundle emitter
// lowers a dfir.map body through it; ktdf-legalize-unit-types asks it to
// refuse, before scheduling and at the KTIR operation, what no unit of a
// device computes.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DEVICE_SCALARINSTRUCTION_H
#define KTFLOW_DEVICE_SCALARINSTRUCTION_H

#include "ktflow/Machine/Program.h"

#include "mlir/IR/Operation.h"

#include <optional>

namespace ktflow::device {

/// The micro-op a compute unit executes for `op`, or none when no unit has
/// an instruction for it (math.powf, math.exp2, the shifts, ...). Whether
/// a given unit computes that instruction on a given type is its
/// throughput's business (ComputeOpClass.h).
std::optional<machine::ScalarOp> getScalarInstruction(mlir::Operation *op);

} // namespace ktflow::device

#endif // KTFLOW_DEVICE_SCALARINSTRUCTION_H

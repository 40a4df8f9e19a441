//===- Passes.h - Conversions between ktflow's IRs --------------*- C++ -*-===//
//
// This file declares the passes that cross an IR boundary (KTIR to
// ScheduleIR, ScheduleIR to DataflowIR) and their registration.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_CONVERSION_PASSES_H
#define KTFLOW_CONVERSION_PASSES_H

#include "ktflow/Dialect/DFIR/IR/DFIR.h"
#include "ktflow/Dialect/KTDF/IR/KTDF.h"

#include "mlir/Pass/Pass.h"

namespace mlir {

#define GEN_PASS_DECL
#include "ktflow/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ktflow/Conversion/Passes.h.inc"

} // namespace mlir

#endif // KTFLOW_CONVERSION_PASSES_H

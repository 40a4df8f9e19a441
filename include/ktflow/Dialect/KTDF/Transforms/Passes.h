//===- Passes.h - ScheduleIR passes -----------------------------*- C++ -*-===//
//
// This file declares the ScheduleIR passes (mapping preparation,
// checkpoints, scheduling) and their registration.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDF_TRANSFORMS_PASSES_H
#define KTFLOW_DIALECT_KTDF_TRANSFORMS_PASSES_H

#include "ktflow/Dialect/KTDF/IR/KTDF.h"
#include "ktflow/Dialect/KTDFArch/IR/KTDFArch.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/PDL/IR/PDL.h"
#include "mlir/Dialect/PDLInterp/IR/PDLInterp.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir::ktdf {

#define GEN_PASS_DECL
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"

/// The checkpoint names of the pipeline, in order.
ArrayRef<StringRef> getCheckpoints();

} // namespace mlir::ktdf

#endif // KTFLOW_DIALECT_KTDF_TRANSFORMS_PASSES_H

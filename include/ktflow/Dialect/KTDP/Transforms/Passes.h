//===- Passes.h - ktdp passes -----------------------------------*- C++ -*-===//
//
// This file declares the ktdp passes and their registration.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDP_TRANSFORMS_PASSES_H
#define KTFLOW_DIALECT_KTDP_TRANSFORMS_PASSES_H

#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "mlir/Pass/Pass.h"

namespace mlir::ktdp {

#define GEN_PASS_DECL
#include "ktflow/Dialect/KTDP/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ktflow/Dialect/KTDP/Transforms/Passes.h.inc"

} // namespace mlir::ktdp

#endif // KTFLOW_DIALECT_KTDP_TRANSFORMS_PASSES_H

//===- Passes.h - Passes of the compiler driver -----------------*- C++ -*-===//
//
// This file declares the compiler driver's passes (Passes.td) and their
// registration.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_COMPILER_PASSES_H
#define KTFLOW_COMPILER_PASSES_H

#include "ktflow/Dialect/KTDFArch/IR/KTDFArch.h"

#include "mlir/Dialect/PDL/IR/PDL.h"
#include "mlir/Pass/Pass.h"

namespace mlir {

#define GEN_PASS_DECL
#include "ktflow/Compiler/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ktflow/Compiler/Passes.h.inc"

} // namespace mlir

#endif // KTFLOW_COMPILER_PASSES_H

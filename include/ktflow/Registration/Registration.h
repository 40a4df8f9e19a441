//===- Registration.h - Register every ktflow dialect and pass --*- C++ -*-===//
//
// This file declares the one place that knows every dialect a KTIR kernel
// may use and every ktflow pass. Tools call these instead of listing
// dialects themselves.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_REGISTRATION_REGISTRATION_H
#define KTFLOW_REGISTRATION_REGISTRATION_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace ktflow {

/// Adds the ktflow dialects and the upstream dialects KTIR uses (affine,
/// arith, func, linalg, math, memref, pdl, scf, tensor) to `registry`.
void registerAllDialects(mlir::DialectRegistry &registry);

/// Registers every ktflow pass and the generic upstream transforms
/// (canonicalize, cse, ...) with the global pass registry.
void registerAllPasses();

} // namespace ktflow

#endif // KTFLOW_REGISTRATION_REGISTRATION_H

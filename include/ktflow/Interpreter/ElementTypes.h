//===- ElementTypes.h - MLIR scalar types as host element types -*- C++ -*-===//
//
// This file declares the reference interpreter's map from MLIR scalar types
// (spyre's df16 included) to host element types, public so the compiled CPU
// tier binds its buffers with the same answer the interpreter computes with.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_INTERPRETER_ELEMENTTYPES_H
#define KTFLOW_INTERPRETER_ELEMENTTYPES_H

#include "ktflow/HostTensor/ElementType.h"

#include "mlir/IR/Types.h"

#include <optional>

namespace ktflow::interp {

/// The interpreter element type of an MLIR scalar type (std::nullopt for
/// types the interpreter does not compute with).
std::optional<host::DType> dtypeFromType(mlir::Type type);

} // namespace ktflow::interp

#endif // KTFLOW_INTERPRETER_ELEMENTTYPES_H

//===- KTDFArch.h - The ktdf_arch dialect -----------------------*- C++ -*-===//
//
// This file declares the ktdf_arch dialect, its types, attributes and
// operations, and the one graph helper every consumer of a description
// needs: resolving a node handle through the groups that yield it.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDFARCH_IR_KTDFARCH_H
#define KTFLOW_DIALECT_KTDFARCH_IR_KTDFARCH_H

#include "ktflow/Dialect/KTDFArch/IR/NodeSpec.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "ktflow/Dialect/KTDFArch/IR/KTDFArchDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "ktflow/Dialect/KTDFArch/IR/KTDFArchAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "ktflow/Dialect/KTDFArch/IR/KTDFArchTypes.h.inc"

#define GET_OP_CLASSES
#include "ktflow/Dialect/KTDFArch/IR/KTDFArchOps.h.inc"

namespace mlir::ktdf_arch {

/// The `memory` or `exec_unit` op a node handle denotes: the defining op
/// itself, or, for the result of a group, the node its body yields
/// (recursively). Returns null for anything else.
Operation *resolveNode(Value handle);

/// The names of the four pipeline checkpoints a `patterns` block may list.
ArrayRef<StringRef> getCheckpointNames();

} // namespace mlir::ktdf_arch

#endif // KTFLOW_DIALECT_KTDFARCH_IR_KTDFARCH_H

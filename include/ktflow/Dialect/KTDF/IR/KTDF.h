//===- KTDF.h - The ktdf (ScheduleIR) dialect -------------------*- C++ -*-===//
//
// This file declares the ktdf dialect, ktflow's ScheduleIR: its types
// (tokens, FIFO slots), the unit-role attribute and its operations.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDF_IR_KTDF_H
#define KTFLOW_DIALECT_KTDF_IR_KTDF_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "ktflow/Dialect/KTDF/IR/KTDFDialect.h.inc"
#include "ktflow/Dialect/KTDF/IR/KTDFEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "ktflow/Dialect/KTDF/IR/KTDFAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "ktflow/Dialect/KTDF/IR/KTDFTypes.h.inc"

#define GET_OP_CLASSES
#include "ktflow/Dialect/KTDF/IR/KTDFOps.h.inc"

namespace mlir::ktdf {

/// The device memory kind of a ScheduleIR buffer (the string memory space
/// of its memref type), or "" when it has none.
StringRef getBufferMemoryKind(MemRefType type);

/// The memref type of a buffer of `shape` x `elementType` in device memory
/// `kind`.
MemRefType getBufferType(ArrayRef<int64_t> shape, Type elementType,
                         StringRef kind);

} // namespace mlir::ktdf

#endif // KTFLOW_DIALECT_KTDF_IR_KTDF_H

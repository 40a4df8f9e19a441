//===- SpyreOp.h - The spyreop dialect --------------------------*- C++ -*-===//
//
// This file declares the spyreop dialect: Spyre intrinsics and df16 types.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_SPYREOP_IR_SPYREOP_H
#define KTFLOW_DIALECT_SPYREOP_IR_SPYREOP_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "ktflow/Dialect/SpyreOp/IR/SpyreOpDialect.h.inc"
#include "ktflow/Dialect/SpyreOp/IR/SpyreOpEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "ktflow/Dialect/SpyreOp/IR/SpyreOpAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "ktflow/Dialect/SpyreOp/IR/SpyreOpTypes.h.inc"

#define GET_OP_CLASSES
#include "ktflow/Dialect/SpyreOp/IR/SpyreOpOps.h.inc"

#endif // KTFLOW_DIALECT_SPYREOP_IR_SPYREOP_H

//===- DFIR.h - The dfir (DataflowIR) dialect -------------------*- C++ -*-===//
//
// This file declares the dfir dialect and its operations.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_DFIR_IR_DFIR_H
#define KTFLOW_DIALECT_DFIR_IR_DFIR_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "ktflow/Dialect/DFIR/IR/DFIRDialect.h.inc"
#include "ktflow/Dialect/DFIR/IR/DFIREnums.h.inc"

#define GET_OP_CLASSES
#include "ktflow/Dialect/DFIR/IR/DFIROps.h.inc"

#endif // KTFLOW_DIALECT_DFIR_IR_DFIR_H

//===- DFIRDialect.cpp - The dfir dialect ---------------------------------===//
//
// This file registers the dfir dialect and its operations.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/DFIR/IR/DFIR.h"

using namespace mlir;
using namespace mlir::dfir;

#include "ktflow/Dialect/DFIR/IR/DFIRDialect.cpp.inc"
#include "ktflow/Dialect/DFIR/IR/DFIREnums.cpp.inc"

void DFIRDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "ktflow/Dialect/DFIR/IR/DFIROps.cpp.inc"
      >();
}

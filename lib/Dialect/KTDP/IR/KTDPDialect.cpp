//===- KTDPDialect.cpp - ktdp dialect registration ------------------------===//
//
// This file registers the ktdp dialect's attributes, types and operations.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

using namespace mlir;
using namespace mlir::ktdp;

#include "ktflow/Dialect/KTDP/IR/KTDPDialect.cpp.inc"

void KTDPDialect::initialize() {
  registerAttributes();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "ktflow/Dialect/KTDP/IR/KTDPOps.cpp.inc"
      >();
}

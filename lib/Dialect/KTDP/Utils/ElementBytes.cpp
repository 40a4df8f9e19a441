//===- ElementBytes.cpp - Bytes one element occupies in memory ------------===//
//
// This file implements the byte size of one element as memory holds it.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDP/Utils/ElementBytes.h"

using namespace mlir;

int64_t mlir::ktdp::bytesPerElement(Type element) {
  return (element.getIntOrFloatBitWidth() + 7) / 8;
}

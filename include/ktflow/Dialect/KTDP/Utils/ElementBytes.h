//===- ElementBytes.h - Bytes one element occupies in memory ----*- C++ -*-===//
//
// This file declares the byte size of one element of an integer or float
// type as memory holds it: the bit width rounded up to whole bytes, so an
// i1 takes one byte. The scheduler, the analyses and the lowering all size
// buffers and transfers with it.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDP_UTILS_ELEMENTBYTES_H
#define KTFLOW_DIALECT_KTDP_UTILS_ELEMENTBYTES_H

#include "mlir/IR/Types.h"

#include <cstdint>

namespace mlir::ktdp {

/// Bytes of one element of integer or float type `element`: its bit width
/// rounded up to whole bytes.
int64_t bytesPerElement(Type element);

} // namespace mlir::ktdp

#endif // KTFLOW_DIALECT_KTDP_UTILS_ELEMENTBYTES_H

//===- ElementBytes.h - Bytes one element occupies in memory ----*- C++ -*-===//
//
// This file defines the one rule for the bytes an element of integer, float
// or index type occupies in memory: its bit width rounded up to whole bytes
// (an i1 and an i4 take one byte, an i12 two) and 8 for index, as the
// interpreter, the runtime and LLVM's stores hold them. The scheduler, the
// analyses, the lowering, the DataflowIR verifier, the bundle emitter and
// the compiled interpreter tier all size buffers and transfers with it.
// Header-only, so libraries that do not link each other share it.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_SUPPORT_ELEMENTBYTES_H
#define KTFLOW_SUPPORT_ELEMENTBYTES_H

#include "mlir/IR/BuiltinTypes.h"

#include <cstdint>

namespace ktflow {

/// Bytes of one element of integer, float or index type `element`: its bit
/// width rounded up to whole bytes, 8 for index.
inline int64_t bytesPerElement(mlir::Type element) {
  if (element.isIndex())
    return 8;
  return (element.getIntOrFloatBitWidth() + 7) / 8;
}

} // namespace ktflow

#endif // KTFLOW_SUPPORT_ELEMENTBYTES_H

//===- WidenToF32.h - An op computed in f32 instead of f16/bf16 -*- C++ -*-===//
//
// This file declares the copy of an operation that computes in f32 what it
// computed in a 16-bit float: ktdf-legalize-unit-types computes bf16 body
// operations with it, and the device patterns' `widen_to_f32` rewrite
// (ApplyDevicePatterns.cpp) whole tensor operations. Each caller extends
// the operands its own way and rounds the results back itself.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_WIDENTOF32_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_WIDENTOF32_H

#include "mlir/IR/Builders.h"

namespace mlir::ktdf {

/// `type` with its 16-bit float type (or element type) replaced by f32, or
/// null when it has none.
Type widenedType(Type type);

/// A copy of the region-less `op`, at `b`'s insertion point, that computes
/// in f32: each operand of a 16-bit float (element) type replaced by
/// `widen(operand)`, each such result typed as widenedType() says.
Operation *cloneInF32(OpBuilder &b, Operation *op,
                      function_ref<Value(Value)> widen);

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_WIDENTOF32_H

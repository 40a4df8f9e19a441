//===- WidenToF32.cpp - An op computed in f32 instead of f16/bf16 ---------===//
//
// This file implements the copy of an operation computing in f32 that
// ktdf-legalize-unit-types and the `widen_to_f32` device pattern share.
//
//===----------------------------------------------------------------------===//

#include "WidenToF32.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

Type mlir::ktdf::widenedType(Type type) {
  Type elem = getElementTypeOrSelf(type);
  if (!elem.isF16() && !elem.isBF16())
    return {};
  Type f32 = Float32Type::get(type.getContext());
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.clone(f32);
  return f32;
}

Operation *mlir::ktdf::cloneInF32(OpBuilder &b, Operation *op,
                                  function_ref<Value(Value)> widen) {
  SmallVector<Value> operands;
  for (Value operand : op->getOperands())
    operands.push_back(widenedType(operand.getType()) ? widen(operand)
                                                      : operand);
  SmallVector<Type> resultTypes;
  for (Type type : op->getResultTypes()) {
    Type wide = widenedType(type);
    resultTypes.push_back(wide ? wide : type);
  }
  OperationState state(op->getLoc(), op->getName(), operands, resultTypes,
                       op->getAttrs());
  return b.create(state);
}

//===- ArithOps.cpp - Constants and non-element-wise arith ops ------------===//
//
// This file implements the arith ops that are not element-wise kernels:
// scalar and dense tensor constants. Every other arith/math/spyreop scalar
// op goes through runElementwiseOp.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace ktflow::interp;

static double apfloatToDouble(const APFloat &value) {
  APFloat copy = value;
  bool losesInfo;
  copy.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
               &losesInfo);
  return copy.convertToDouble();
}

static LogicalResult runConstant(TileExecutor &exec, Operation *op) {
  auto constant = cast<arith::ConstantOp>(op);
  Attribute value = constant.getValue();
  Type type = constant.getType();
  if (auto intAttr = dyn_cast<IntegerAttr>(value)) {
    std::optional<DType> dtype = dtypeFromType(type);
    if (!dtype)
      return exec.error(op) << "unsupported constant type " << type;
    exec.set(constant, Scalar::ofInt(intAttr.getValue().getSExtValue(),
                                     *dtype));
    return success();
  }
  if (auto floatAttr = dyn_cast<FloatAttr>(value)) {
    std::optional<DType> dtype = dtypeFromType(type);
    if (!dtype)
      return exec.error(op) << "unsupported constant type " << type;
    exec.set(constant,
             Scalar::ofFloat(apfloatToDouble(floatAttr.getValue()), *dtype));
    return success();
  }
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense)
    return exec.error(op) << "unsupported constant value " << value;
  auto tensorType = dyn_cast<RankedTensorType>(type);
  std::optional<DType> dtype =
      tensorType ? dtypeFromType(tensorType.getElementType()) : std::nullopt;
  if (!dtype)
    return exec.error(op) << "unsupported constant type " << type;
  auto tensor = std::make_shared<Tensor>(
      Tensor::zeros(*dtype, tensorType.getShape()));
  int64_t n = tensor->numElements();
  if (isFloat(*dtype)) {
    if (dense.isSplat()) {
      std::fill(tensor->floats.begin(), tensor->floats.end(),
                roundToDType(apfloatToDouble(dense.getSplatValue<APFloat>()),
                             *dtype));
    } else {
      int64_t i = 0;
      for (const APFloat &v : dense.getValues<APFloat>())
        if (i < n)
          tensor->floats[i++] = roundToDType(apfloatToDouble(v), *dtype);
    }
  } else {
    if (dense.isSplat()) {
      std::fill(tensor->ints.begin(), tensor->ints.end(),
                wrapInt(dense.getSplatValue<APInt>().getSExtValue(), *dtype));
    } else {
      int64_t i = 0;
      for (const APInt &v : dense.getValues<APInt>())
        if (i < n)
          tensor->ints[i++] = wrapInt(v.getSExtValue(), *dtype);
    }
  }
  exec.set(constant, TensorRef(std::move(tensor)));
  return success();
}

void ktflow::interp::registerArithHandlers(HandlerTable &table) {
  table.add<arith::ConstantOp>(runConstant);
}

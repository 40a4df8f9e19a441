//===- HostTypes.cpp - The host types the interpreter computes on ---------===//
//
// This file implements the interpreter's map from MLIR scalar types (spyre's
// df16 included) to host element types.
//
//===----------------------------------------------------------------------===//

#include "HostTypes.h"

#include "ktflow/Dialect/SpyreOp/IR/SpyreOp.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace ktflow::interp;

std::optional<DType> ktflow::interp::dtypeFromType(mlir::Type type) {
  if (type.isIndex())
    return DType::Index;
  if (type.isF16())
    return DType::F16;
  if (type.isBF16())
    return DType::BF16;
  if (type.isF32())
    return DType::F32;
  if (type.isF64())
    return DType::F64;
  if (llvm::isa<mlir::spyreop::DF16Type>(type))
    return DType::DF16;
  if (auto intType = llvm::dyn_cast<mlir::IntegerType>(type)) {
    switch (intType.getWidth()) {
    case 1:
      return DType::I1;
    case 8:
      return DType::I8;
    case 16:
      return DType::I16;
    case 32:
      return DType::I32;
    case 64:
      return DType::I64;
    default:
      return std::nullopt;
    }
  }
  return std::nullopt;
}

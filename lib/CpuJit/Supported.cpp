//===- Supported.cpp - What the compiled tier lowers ----------------------===//
//
// This file decides, before any rewriting, whether the compiled tier can
// run a kernel with the interpreter's semantics. Two kinds of construct are
// refused: those it does not lower yet (spyreop intrinsics but gelu on
// f16, df16; views the tile function refuses), and those
// whose native code would crash or hang where the interpreter reports an error
// (an integer division by a value that may be zero, an affine one by a
// divisor that is not a positive constant, a tensor index that may be
// out of bounds, a shift that may be as wide as its type, a float-to-integer
// conversion, which saturates in the interpreter). Loops, `scf.while`
// included, are bounded by the work budget (AccessLowering.cpp).
//
//===----------------------------------------------------------------------===//

#include "TileFunction.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;

/// Whether `v` is a constant integer (or splat) that is neither 0 nor -1.
static bool isSafeDivisor(Value v) {
  APInt value;
  if (matchPattern(v, m_ConstantInt(&value)))
    return !value.isZero() && !value.isAllOnes();
  return false;
}

/// Whether `v` is a constant shift amount below `width`.
static bool isSafeShift(Value v, unsigned width) {
  APInt value;
  return matchPattern(v, m_ConstantInt(&value)) && value.ult(width);
}

static bool isSupportedScalar(Type type) {
  if (isa<IndexType>(type))
    return true;
  if (auto integer = dyn_cast<IntegerType>(type))
    return llvm::is_contained({1u, 8u, 16u, 32u, 64u}, integer.getWidth());
  return type.isF16() || type.isBF16() || type.isF32() || type.isF64();
}

/// Why `type` cannot be compiled, or "".
static std::string checkType(Type type) {
  if (isa<ktdp::AccessTileType, ktdp::TileFutureType>(type))
    return "";
  if (auto runtimeArg = dyn_cast<ktdp::RuntimeArgType>(type))
    return checkType(runtimeArg.getUnderlyingType());
  if (auto shaped = dyn_cast<ShapedType>(type)) {
    if (isa<RankedTensorType>(type) && !shaped.hasStaticShape())
      return "tensors of dynamic shape";
    return checkType(shaped.getElementType());
  }
  if (isSupportedScalar(type))
    return "";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "values of type " << type;
  return text;
}

/// Whether `indices` are constants inside `type`'s static shape.
static bool constantInBounds(ValueRange indices, Type type) {
  auto shaped = cast<ShapedType>(type);
  for (auto [d, v] : llvm::enumerate(indices)) {
    APInt value;
    if (!matchPattern(v, m_ConstantInt(&value)) || value.isNegative() ||
        !shaped.hasStaticShape() || value.sge(shaped.getDimSize(d)))
      return false;
  }
  return true;
}

/// Whether an affine map or set among `op`'s attributes divides (floordiv,
/// ceildiv, mod) by anything but a positive constant: the interpreter's
/// evaluation has no value there (an error, or a coordinate outside the
/// set), native code divides by zero.
static bool hasUnsafeAffineDivisor(Operation *op) {
  bool unsafe = false;
  auto check = [&](AffineExpr root) {
    root.walk([&](AffineExpr expr) {
      if (expr.getKind() != AffineExprKind::FloorDiv &&
          expr.getKind() != AffineExprKind::CeilDiv &&
          expr.getKind() != AffineExprKind::Mod)
        return;
      auto divisor =
          dyn_cast<AffineConstantExpr>(cast<AffineBinaryOpExpr>(expr).getRHS());
      unsafe |= !divisor || divisor.getValue() <= 0;
    });
  };
  op->getAttrDictionary().walk([&](Attribute attr) {
    if (auto map = dyn_cast<AffineMapAttr>(attr))
      llvm::for_each(map.getValue().getResults(), check);
    else if (auto set = dyn_cast<IntegerSetAttr>(attr))
      llvm::for_each(set.getValue().getConstraints(), check);
  });
  return unsafe;
}

/// Why op `op` cannot be compiled, or "".
static std::string checkOp(Operation *op) {
  if (hasUnsafeAffineDivisor(op))
    return "'" + op->getName().getStringRef().str() +
           "' with an affine floordiv, ceildiv or mod by a divisor that is "
           "not a positive constant";
  StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace() : "";
  StringRef name = op->getName().getStringRef();
  if (dialect == "ktdp") {
    if (isa<ktdp::GetComputeTileIdOp, ktdp::ConstructMemoryViewOp,
            ktdp::ConstructDistributedMemoryViewOp, ktdp::ConstructAccessTileOp,
            ktdp::ConstructIndirectAccessTileOp, ktdp::RegionTerminatorOp,
            ktdp::LoadOp, ktdp::StoreOp, ktdp::RuntimeArgExtractOp,
            ktdp::InterTileProduceOp, ktdp::InterTileConsumeOp,
            ktdp::InterTileReduceOp, ktdp::YieldPartialOp,
            ktdp::YieldReducedOp>(op))
      return "";
    return "'" + name.str() + "' is not lowered yet";
  }
  if (dialect == "arith") {
    if (op->getNumResults() != 1)
      return "'" + name.str() + "' (the interpreter does not implement it)";
    if (isa<arith::FPToSIOp, arith::FPToUIOp>(op))
      return "'" + name.str() +
             "' (the interpreter saturates, native code does not)";
    if (isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
            arith::FloorDivSIOp, arith::CeilDivSIOp, arith::CeilDivUIOp>(op) &&
        !isSafeDivisor(op->getOperand(1)))
      return "'" + name.str() + "' by a divisor that may be 0 or -1";
    if (isa<arith::ShLIOp, arith::ShRSIOp, arith::ShRUIOp>(op) &&
        !isSafeShift(
            op->getOperand(1),
            getElementTypeOrSelf(op->getResult(0)).getIntOrFloatBitWidth()))
      return "'" + name.str() +
             "' by an amount that is not a constant below "
             "the width";
    return "";
  }
  if (dialect == "spyreop")
    return ktflow::jit::isLoweredIntrinsic(op)
               ? ""
               : "'" + name.str() + "' is not lowered yet";
  if (dialect == "math" || dialect == "linalg")
    return "";
  if (dialect == "tensor") {
    if (auto extract = dyn_cast<tensor::ExtractOp>(op);
        extract &&
        !constantInBounds(extract.getIndices(), extract.getTensor().getType()))
      return "'tensor.extract' at indices that are not constants in bounds";
    if (auto insert = dyn_cast<tensor::InsertOp>(op);
        insert &&
        !constantInBounds(insert.getIndices(), insert.getDest().getType()))
      return "'tensor.insert' at indices that are not constants in bounds";
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op);
        slice && !slice.getOffsets().empty())
      return "'tensor.extract_slice' at offsets that are not constants";
    if (auto slice = dyn_cast<tensor::InsertSliceOp>(op);
        slice && !slice.getOffsets().empty())
      return "'tensor.insert_slice' at offsets that are not constants";
    return "";
  }
  if (dialect == "scf")
    return "";
  if (name == "affine.apply" || name == "affine.min" || name == "affine.max" ||
      name == "func.return" || name == "func.call")
    return "";
  return "'" + name.str() + "' is not lowered yet";
}

std::string ktflow::jit::findUnsupportedConstruct(Operation *fn) {
  std::string why;
  fn->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == fn)
      return WalkResult::advance();
    why = checkOp(op);
    for (Value result : op->getResults())
      if (why.empty())
        why = checkType(result.getType());
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (why.empty())
            why = checkType(arg.getType());
    return why.empty() ? WalkResult::advance() : WalkResult::interrupt();
  });
  if (!why.empty())
    return why;
  for (Type type : cast<FunctionOpInterface>(fn).getArgumentTypes())
    if (std::string t = checkType(type); !t.empty())
      return "arguments: " + t;
  return "";
}

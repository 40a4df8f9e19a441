//===- Intrinsics.cpp - spyreop intrinsics as upstream ops ----------------===//
//
// This file rewrites the spyreop intrinsics the tier lowers into arith and
// math ops with the interpreter's semantics (docs/interpreter.md §4): the
// documented formula computed in f64 from the exact operand, with the same
// libm and the same evaluation order, and rounded once to the result type.
// It runs after the work budget is measured (the interpreter charges an
// intrinsic as one op, not as the ops of its formula).
//
//===----------------------------------------------------------------------===//

#include "TileFunction.h"

#include "ktflow/Dialect/SpyreOp/IR/SpyreOp.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;

bool ktflow::jit::isLoweredIntrinsic(Operation *op) {
  // Scalars only (linalg bodies), f16 (native code has no df16).
  return isa<spyreop::GeluOp>(op) && op->getNumResults() == 1 &&
         op->getResult(0).getType().isF16();
}

/// gelu(x) = 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))),
/// evaluated left to right as the interpreter's C++ expression is.
static Value emitGelu(OpBuilder &b, Location loc, Value x) {
  Type f64 = b.getF64Type();
  auto constant = [&](double v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(f64, v));
  };
  auto mul = [&](Value a, Value c) -> Value {
    return arith::MulFOp::create(b, loc, a, c);
  };
  Value cube = mul(mul(mul(constant(0.044715), x), x), x);
  Value inner = mul(constant(std::sqrt(2.0 / M_PI)),
                    arith::AddFOp::create(b, loc, x, cube));
  Value onePlus = arith::AddFOp::create(b, loc, constant(1.0),
                                        math::TanhOp::create(b, loc, inner));
  return mul(mul(constant(0.5), x), onePlus);
}

void ktflow::jit::lowerIntrinsics(Operation *fn) {
  SmallVector<Operation *> intrinsics;
  fn->walk([&](spyreop::GeluOp op) { intrinsics.push_back(op); });
  for (Operation *op : intrinsics) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    Type type = op->getResult(0).getType();
    Value x = op->getOperand(0);
    if (!type.isF64())
      x = arith::ExtFOp::create(b, loc, b.getF64Type(), x);
    Value result = emitGelu(b, loc, x);
    if (!type.isF64())
      result = arith::TruncFOp::create(b, loc, type, result);
    op->getResult(0).replaceAllUsesWith(result);
    op->erase();
  }
}

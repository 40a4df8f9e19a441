//===- ViewGuards.cpp - Whether and where a coordinate is in a view -------===//
//
// This file emits the guards and addresses of view coordinates that the
// lowering of direct, indirect and dense tiles shares (TileLowering.h):
// whether a coordinate is in a view's coordinate_set, where it lies in the
// tensor's buffer, and whether that is inside the view's sizes and the
// buffer; for a distributed view, through the first part that holds it.
//
//===----------------------------------------------------------------------===//

#include "TileLowering.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace ktflow::jit;

static Value indexConstant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value ktflow::jit::emitContains(OpBuilder &b, Location loc, IntegerSet set,
                                ValueRange dims, ValueRange symbols) {
  Value all = arith::ConstantIntOp::create(b, loc, 1, 1);
  Value zero = indexConstant(b, loc, 0);
  for (unsigned c = 0; c < set.getNumConstraints(); ++c) {
    Value v =
        affine::expandAffineExpr(b, loc, set.getConstraint(c), dims, symbols);
    Value holds = arith::CmpIOp::create(b, loc,
                                        set.isEq(c) ? arith::CmpIPredicate::eq
                                                    : arith::CmpIPredicate::sge,
                                        v, zero);
    all = arith::AndIOp::create(b, loc, all, holds);
  }
  return all;
}

void ktflow::jit::emitViewAddress(OpBuilder &b, Location loc,
                                  const ViewLowering &view, ValueRange coord,
                                  Value &address, Value &valid) {
  Value zero = indexConstant(b, loc, 0);
  valid = arith::ConstantIntOp::create(b, loc, 1, 1);
  address = view.relativeOffset;
  for (unsigned d = 0; d < coord.size(); ++d) {
    Value local = arith::SubIOp::create(b, loc, coord[d],
                                        indexConstant(b, loc, view.lower[d]));
    valid = arith::AndIOp::create(
        b, loc, valid,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, local, zero));
    valid = arith::AndIOp::create(
        b, loc, valid,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, local,
                              view.sizes[d]));
    address = arith::AddIOp::create(
        b, loc, address, arith::MulIOp::create(b, loc, local, view.strides[d]));
  }
  Value length = memref::DimOp::create(b, loc, view.bufferValue, 0);
  valid = arith::AndIOp::create(
      b, loc, valid,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, address, zero));
  valid = arith::AndIOp::create(b, loc, valid,
                                arith::CmpIOp::create(b, loc,
                                                      arith::CmpIPredicate::slt,
                                                      address, length));
}

void ktflow::jit::emitViewLookup(OpBuilder &b, Location loc,
                                 const ViewLowering &view, ValueRange coord,
                                 Value &inView, Value &address, Value &valid) {
  if (view.parts.empty()) {
    inView = emitContains(b, loc, view.set, coord, view.setSymbols);
    emitViewAddress(b, loc, view, coord, address, valid);
    return;
  }
  // The first part that holds the coordinate serves it: fold from the last.
  inView = arith::ConstantIntOp::create(b, loc, 0, 1);
  address = indexConstant(b, loc, 0);
  valid = arith::ConstantIntOp::create(b, loc, 1, 1);
  for (const ViewLowering &part : llvm::reverse(view.parts)) {
    Value holds = emitContains(b, loc, part.set, coord, part.setSymbols);
    Value partAddress, partValid;
    emitViewAddress(b, loc, part, coord, partAddress, partValid);
    address = arith::SelectOp::create(b, loc, holds, partAddress, address);
    valid = arith::SelectOp::create(b, loc, holds, partValid, valid);
    inView = arith::OrIOp::create(b, loc, holds, inView);
  }
}

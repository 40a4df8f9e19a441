//===- WorkBudget.cpp - The interpreter's work budget in native code ------===//
//
// This file emits the work-budget charges of WorkBudget.h. What is left of
// the budget is an unsigned count in the status buffer; a charge is
// compared with it before it is subtracted, so the count never wraps.
//
//===----------------------------------------------------------------------===//

#include "WorkBudget.h"
#include "TileFunction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <algorithm>

using namespace mlir;
using namespace ktflow::jit;

static uint64_t saturatingAdd(uint64_t a, uint64_t b) {
  uint64_t sum;
  return __builtin_add_overflow(a, b, &sum) ? UINT64_MAX : sum;
}

static uint64_t staticElements(ValueRange values) {
  uint64_t n = 0;
  for (Value v : values)
    if (auto type = dyn_cast<RankedTensorType>(v.getType());
        type && type.hasStaticShape())
      n = saturatingAdd(n, static_cast<uint64_t>(type.getNumElements()));
  return n;
}

/// Runs `op` costs the interpreter beyond its dispatch (tensorElements and
/// LinalgRun::compute in lib/Interpreter).
static uint64_t opElements(Operation *op) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    uint64_t points = 1;
    for (int64_t range : linalgOp.getStaticLoopRanges()) {
      if (ShapedType::isDynamic(range))
        return 0;
      if (__builtin_mul_overflow(points, static_cast<uint64_t>(range), &points))
        return UINT64_MAX;
    }
    return points;
  }
  return staticElements(op->getNumResults() == 0
                            ? ValueRange(op->getOperands())
                            : ValueRange(op->getResults()));
}

static uint64_t blockWork(Block &block) {
  uint64_t work = 1;
  for (Operation &op : block)
    if (!op.hasTrait<OpTrait::IsTerminator>())
      work = saturatingAdd(work, saturatingAdd(1, opElements(&op)));
  return work;
}

KernelWork ktflow::jit::measureKernelWork(func::FuncOp fn) {
  KernelWork work;
  // Running a tile is work even when its function is empty.
  work.entry = saturatingAdd(1, blockWork(fn.getBody().front()));
  fn.walk([&](Operation *op) {
    if (auto loop = dyn_cast<scf::ForOp>(op))
      work.charges.push_back({op, blockWork(*loop.getBody()), 0});
    else if (auto loop = dyn_cast<scf::WhileOp>(op))
      work.charges.push_back({op, blockWork(*loop.getBeforeBody()),
                              blockWork(*loop.getAfterBody())});
    else if (auto branch = dyn_cast<scf::IfOp>(op))
      work.charges.push_back(
          {op, blockWork(*branch.thenBlock()),
           branch.elseBlock() ? blockWork(*branch.elseBlock()) : 0});
  });
  return work;
}

namespace {
/// Emits the comparison and subtraction of one charge at a builder's
/// insertion point.
struct Charger {
  OpBuilder &b;
  Location loc;
  Value status;

  Value i64(uint64_t v) {
    return arith::ConstantIntOp::create(b, loc, static_cast<int64_t>(v), 64);
  }
  Value slot(int64_t index) {
    return arith::ConstantIndexOp::create(b, loc, index);
  }
  /// Subtracts `amount` (an i64 read as unsigned) from what is left when it
  /// fits; otherwise records kErrorWorkBudget and leaves nothing, so that
  /// every later charge fails too. Returns whether it fit.
  Value charge(Value amount) {
    Value left = memref::LoadOp::create(b, loc, status,
                                        ValueRange{slot(kStatusWorkLeft)});
    Value fits =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, amount, left);
    Value rest = arith::SelectOp::create(
        b, loc, fits, arith::SubIOp::create(b, loc, left, amount), i64(0));
    memref::StoreOp::create(b, loc, rest, status,
                            ValueRange{slot(kStatusWorkLeft)});
    Value over = arith::XOrIOp::create(
        b, loc, fits, arith::ConstantIntOp::create(b, loc, 1, 1));
    scf::IfOp::create(b, loc, over, [&](OpBuilder &then, Location l) {
      memref::StoreOp::create(
          then, l, arith::ConstantIntOp::create(then, l, kErrorWorkBudget, 64),
          status,
          ValueRange{arith::ConstantIndexOp::create(then, l, kStatusError)});
      scf::YieldOp::create(then, l);
    });
    return fits;
  }
};
} // namespace

/// The loop's trip count times `perIteration`, drawn as it starts; a loop
/// that cannot fit runs no iteration.
static void chargeFor(scf::ForOp loop, uint64_t perIteration, Value status) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Charger charger{b, loc, status};
  Type i64 = b.getI64Type();
  auto toI64 = [&](Value v) {
    return arith::IndexCastUIOp::create(b, loc, i64, v).getResult();
  };
  Value lb = toI64(loop.getLowerBound()), ub = toI64(loop.getUpperBound());
  Value step = toI64(loop.getStep());
  Value runs =
      arith::CmpIOp::create(b, loc,
                            loop.getUnsignedCmp() ? arith::CmpIPredicate::ult
                                                  : arith::CmpIPredicate::slt,
                            lb, ub);
  // ub - lb is the distance as an unsigned number whenever lb < ub (signed
  // or unsigned), so the count ⌈distance / step⌉ cannot overflow.
  Value distance = arith::SubIOp::create(b, loc, ub, lb);
  Value partial = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne,
      arith::RemUIOp::create(b, loc, distance, step), charger.i64(0));
  Value trips = arith::AddIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, distance, step),
      arith::ExtUIOp::create(b, loc, i64, partial));
  trips = arith::SelectOp::create(b, loc, runs, trips, charger.i64(0));
  // trips × perIteration saturates: past 2^64 it cannot fit anyway.
  Value weight = charger.i64(std::max<uint64_t>(perIteration, 1));
  Value overflows = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ugt, trips,
      arith::DivUIOp::create(b, loc, charger.i64(UINT64_MAX), weight));
  Value amount =
      arith::SelectOp::create(b, loc, overflows, charger.i64(UINT64_MAX),
                              arith::MulIOp::create(b, loc, trips, weight));
  Value fits = charger.charge(amount);
  loop.getUpperBoundMutable().assign(arith::SelectOp::create(
      b, loc, fits, loop.getUpperBound(), loop.getLowerBound()));
}

/// The condition block each time it runs, the body with it when the loop
/// goes on (the body runs exactly then); the loop ends when it cannot fit.
static void chargeWhile(scf::WhileOp loop, uint64_t condition, uint64_t body,
                        Value status) {
  scf::ConditionOp terminator = loop.getConditionOp();
  OpBuilder b(terminator);
  Location loc = terminator.getLoc();
  Charger charger{b, loc, status};
  Value goesOn = terminator.getCondition();
  Value amount = arith::SelectOp::create(
      b, loc, goesOn, charger.i64(saturatingAdd(condition, body)),
      charger.i64(condition));
  Value fits = charger.charge(amount);
  terminator.getConditionMutable().assign(
      arith::AndIOp::create(b, loc, goesOn, fits));
}

/// The branch taken, as it starts. A branch is straight-line code (its
/// loops charge themselves): it runs to its end, and the next charge fails.
static void chargeBlock(Block &block, uint64_t work, Value status) {
  OpBuilder b = OpBuilder::atBlockBegin(&block);
  Location loc = block.getParentOp()->getLoc();
  Charger charger{b, loc, status};
  charger.charge(charger.i64(work));
}

void ktflow::jit::chargeKernelWork(func::FuncOp fn, const KernelWork &work,
                                   Value status) {
  chargeBlock(fn.getBody().front(), work.entry, status);
  for (const KernelWork::Charge &charge : work.charges) {
    if (auto loop = dyn_cast<scf::ForOp>(charge.op))
      chargeFor(loop, charge.first, status);
    else if (auto loop = dyn_cast<scf::WhileOp>(charge.op))
      chargeWhile(loop, charge.first, charge.second, status);
    else if (auto branch = dyn_cast<scf::IfOp>(charge.op)) {
      chargeBlock(*branch.thenBlock(), charge.first, status);
      if (branch.elseBlock())
        chargeBlock(*branch.elseBlock(), charge.second, status);
    }
  }
}

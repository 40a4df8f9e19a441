//===- WorkCount.cpp - The arithmetic a KTIR kernel performs --------------===//
//
// This file counts a generalised KTIR kernel's operations: for every grid
// point it evaluates the index arithmetic and loop bounds that control the
// linalg.generic ops and adds, per generic, its iteration count times the
// operations of its body, classed as the device's throughput tables class
// them (element-wise, transcendental, reduction).
//
//===----------------------------------------------------------------------===//

#include "ktflow/Analysis/WorkCount.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace ktflow;
using ktdf_arch::OpClass;

double WorkCount::total() const {
  double sum = 0;
  for (auto &[key, n] : ops)
    sum += n;
  return sum;
}

double WorkCount::cycles(const device::Roofline &roofline) const {
  double sum = 0;
  for (auto &[key, n] : ops)
    if (const device::ComputePeak *peak = roofline.getComputePeak(
            static_cast<OpClass>(key.first), key.second);
        peak && peak->perDevice > 0)
      sum += n / peak->perDevice;
  return sum;
}

namespace {
class Counter {
public:
  Counter(const DenseMap<unsigned, int64_t> &runtimeArgs)
      : runtimeArgs(runtimeArgs) {}

  void run(func::FuncOp kernel, ArrayRef<int64_t> ids) {
    env.clear();
    this->ids = ids;
    walk(kernel.getBody().front(), 1);
  }

  WorkCount count;

private:
  std::optional<int64_t> value(Value v) {
    if (auto it = env.find(v); it != env.end())
      return it->second;
    APInt k;
    if (matchPattern(v, m_ConstantInt(&k)))
      return k.getSExtValue();
    return std::nullopt;
  }

  void evaluate(Operation *op) {
    if (auto id = dyn_cast<ktdp::GetComputeTileIdOp>(op)) {
      for (auto [r, result] : llvm::enumerate(id.getResults()))
        env[result] = r < ids.size() ? ids[r] : 0;
      return;
    }
    if (auto extract = dyn_cast<ktdp::RuntimeArgExtractOp>(op)) {
      if (auto arg = dyn_cast<BlockArgument>(extract->getOperand(0)))
        if (auto it = runtimeArgs.find(arg.getArgNumber());
            it != runtimeArgs.end())
          env[extract->getResult(0)] = it->second;
      return;
    }
    if (op->getNumOperands() != 2 || op->getNumResults() != 1 ||
        !op->getResult(0).getType().isIntOrIndex())
      return;
    auto a = value(op->getOperand(0)), b = value(op->getOperand(1));
    if (!a || !b)
      return;
    std::optional<int64_t> r;
    if (isa<arith::AddIOp>(op))
      r = *a + *b;
    else if (isa<arith::SubIOp>(op))
      r = *a - *b;
    else if (isa<arith::MulIOp>(op))
      r = *a * *b;
    else if (isa<arith::DivUIOp, arith::DivSIOp>(op) && *b != 0)
      r = *a / *b;
    else if (isa<arith::RemUIOp, arith::RemSIOp>(op) && *b != 0)
      r = *a % *b;
    else if (isa<arith::MinSIOp, arith::MinUIOp>(op))
      r = std::min(*a, *b);
    else if (isa<arith::MaxSIOp, arith::MaxUIOp>(op))
      r = std::max(*a, *b);
    if (r)
      env[op->getResult(0)] = *r;
  }

  static OpClass classOf(Operation *op) {
    Dialect *d = op->getDialect();
    if (isa<math::ExpOp, math::LogOp, math::TanhOp, math::SqrtOp, math::RsqrtOp,
            math::ErfOp>(op) ||
        (d && d->getNamespace() == "spyreop"))
      return OpClass::Transcendental;
    return OpClass::Elementwise;
  }

  void countGeneric(linalg::GenericOp op, double times) {
    double iterations = 1;
    for (int64_t range : op.getStaticLoopRanges()) {
      if (ShapedType::isDynamic(range)) {
        count.complete = false;
        return;
      }
      iterations *= range;
    }
    Block &body = op.getRegion().front();
    for (Operation &inner : body.without_terminator()) {
      if (inner.getNumResults() != 1 || isa<arith::ConstantOp>(inner))
        continue;
      OpClass cls = classOf(&inner);
      // The op that folds into an output is the reduction itself.
      if (op.getNumReductionLoops() > 0)
        for (Value operand : inner.getOperands())
          if (auto arg = dyn_cast<BlockArgument>(operand);
              arg && arg.getOwner() == &body &&
              arg.getArgNumber() >= op.getNumDpsInputs())
            cls = OpClass::Reduction;
      count.ops[{static_cast<unsigned>(cls), inner.getResult(0).getType()}] +=
          iterations * times;
    }
  }

  void walk(Block &block, double times) {
    for (Operation &op : block) {
      if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
        countGeneric(generic, times);
        continue;
      }
      if (auto loop = dyn_cast<scf::ForOp>(op)) {
        auto lb = value(loop.getLowerBound()), ub = value(loop.getUpperBound()),
             step = value(loop.getStep());
        if (!lb || !ub || !step || *step <= 0) {
          count.complete = false;
          continue;
        }
        for (int64_t iv = *lb; iv < *ub; iv += *step) {
          env[loop.getInductionVar()] = iv;
          walk(*loop.getBody(), times);
        }
        continue;
      }
      evaluate(&op);
    }
  }

  const DenseMap<unsigned, int64_t> &runtimeArgs;
  DenseMap<Value, int64_t> env;
  ArrayRef<int64_t> ids;
};
} // namespace

WorkCount ktflow::countWork(func::FuncOp kernel,
                            const DenseMap<unsigned, int64_t> &args) {
  Counter counter(args);
  auto grid = ktdp::getLaunchGrid(kernel);
  if (failed(grid) || !*grid) {
    counter.count.complete = false;
    return counter.count;
  }
  int64_t tiles = ktdp::getNumTiles(**grid);
  for (int64_t t = 0; t < tiles && t < (int64_t(1) << 20); ++t) {
    SmallVector<int64_t> ids = ktdp::delinearizeTileId(t, **grid);
    counter.run(kernel, ids);
  }
  return counter.count;
}

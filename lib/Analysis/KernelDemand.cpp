//===- KernelDemand.cpp - What a KTIR kernel must do ----------------------===//
//
// This file walks a kernel as written once per grid point, following its
// control flow with the index arithmetic evaluated (tile ids, constants, the
// scalar arguments given), and adds up what every executed op demands: its
// element operations (OperationCount.h), and for views, tiles, loads and
// stores the device memory they touch (MemoryTraffic.h) and the tiles they
// move.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Analysis/KernelDemand.h"

#include "MemoryTraffic.h"
#include "OperationCount.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/KernelFunction.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace ktflow;

namespace {

/// Ops the walk visits before it gives up on a kernel (about a second).
constexpr uint64_t kMaxVisits = uint64_t(1) << 26;
/// Grid points the walk visits.
constexpr int64_t kMaxTiles = int64_t(1) << 20;

class DemandCounter {
public:
  DemandCounter(func::FuncOp kernel, const ScalarArgs &args,
                const IndexValues &indexValues,
                const DevicePatterns &devicePatterns)
      : kernel(kernel), args(args), indexValues(indexValues),
        rewrites(devicePatterns) {}

  /// Walks the kernel for the grid point `ids`.
  void countTile(ArrayRef<int64_t> ids) {
    env.clear();
    tileIds = ids;
    walk(kernel.getBody().front());
  }

  device::KernelDemand finish() {
    traffic.finish();
    demand.chain = countLongestChain(kernel);
    return std::move(demand);
  }

  device::KernelDemand demand;

private:
  //===--------------------------------------------------------------------===//
  // Index values
  //===--------------------------------------------------------------------===//

  std::optional<int64_t> value(Value v) {
    if (auto it = env.find(v); it != env.end())
      return it->second;
    APInt constant;
    if (matchPattern(v, m_ConstantInt(&constant)))
      return constant.getSExtValue();
    if (auto arg = dyn_cast<BlockArgument>(v);
        arg && arg.getOwner() == &kernel.getBody().front())
      if (auto it = args.find(arg.getArgNumber()); it != args.end())
        return it->second;
    return std::nullopt;
  }

  static std::optional<int64_t> binary(Operation *op, int64_t a, int64_t b) {
    if (isa<arith::AddIOp>(op))
      return a + b;
    if (isa<arith::SubIOp>(op))
      return a - b;
    if (isa<arith::MulIOp>(op))
      return a * b;
    // Read unsigned, a negative value is huge: min and max compare it so
    // (whatever the width); dividing it depends on the width, left a gap.
    auto ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
    if (isa<arith::MinUIOp, arith::MaxUIOp>(op))
      return (ua < ub) == isa<arith::MinUIOp>(op) ? a : b;
    if (isa<arith::DivUIOp, arith::RemUIOp, arith::CeilDivUIOp>(op) &&
        (a < 0 || b < 0))
      return std::nullopt;
    if (b != 0) {
      if (isa<arith::DivUIOp, arith::DivSIOp>(op))
        return a / b;
      if (isa<arith::RemUIOp, arith::RemSIOp>(op))
        return a % b;
      if (isa<arith::CeilDivSIOp, arith::CeilDivUIOp>(op))
        return llvm::divideCeilSigned(a, b);
      if (isa<arith::FloorDivSIOp>(op))
        return llvm::divideFloorSigned(a, b);
    }
    if (isa<arith::MinSIOp>(op))
      return std::min(a, b);
    if (isa<arith::MaxSIOp>(op))
      return std::max(a, b);
    if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
      using P = arith::CmpIPredicate;
      switch (cmp.getPredicate()) {
      case P::eq:
        return a == b;
      case P::ne:
        return a != b;
      case P::slt:
        return a < b;
      case P::sle:
        return a <= b;
      case P::sgt:
        return a > b;
      case P::sge:
        return a >= b;
      case P::ult:
        return ua < ub;
      case P::ule:
        return ua <= ub;
      case P::ugt:
        return ua > ub;
      case P::uge:
        return ua >= ub;
      }
    }
    return std::nullopt;
  }

  /// Records the value of an integer or index op whose operands are known.
  void evaluate(Operation *op) {
    if (auto id = dyn_cast<ktdp::GetComputeTileIdOp>(op)) {
      for (auto [r, result] : llvm::enumerate(id.getResults()))
        env[result] = r < tileIds.size() ? tileIds[r] : 0;
      return;
    }
    if (op->getNumResults() != 1 || !op->getResult(0).getType().isIntOrIndex())
      return;
    Value result = op->getResult(0);
    if (auto extract = dyn_cast<ktdp::RuntimeArgExtractOp>(op)) {
      if (auto v = value(extract.getInput()))
        env[result] = *v;
      return;
    }
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(op)) {
      if (auto v = value(op->getOperand(0)))
        env[result] = *v;
      return;
    }
    if (auto select = dyn_cast<arith::SelectOp>(op)) {
      if (auto c = value(select.getCondition()))
        if (auto v = value(*c ? select.getTrueValue() : select.getFalseValue()))
          env[result] = *v;
      return;
    }
    if (auto apply = dyn_cast<affine::AffineApplyOp>(op)) {
      SmallVector<Attribute> operands;
      for (Value operand : apply.getMapOperands()) {
        auto v = value(operand);
        if (!v)
          return;
        operands.push_back(
            IntegerAttr::get(IndexType::get(op->getContext()), *v));
      }
      SmallVector<Attribute> folded;
      if (succeeded(apply.getAffineMap().constantFold(operands, folded)))
        env[result] = cast<IntegerAttr>(folded.front()).getInt();
      return;
    }
    if (op->getNumOperands() != 2)
      return;
    auto a = value(op->getOperand(0)), b = value(op->getOperand(1));
    if (a && b)
      if (auto r = binary(op, *a, *b))
        env[result] = *r;
  }

  //===--------------------------------------------------------------------===//
  // Control flow
  //===--------------------------------------------------------------------===//

  void walk(Block &block) {
    for (Operation &op : block) {
      if (stopped)
        return;
      visit(&op);
    }
  }

  /// Sets `results` to the known values `terminator` yields.
  void bindYielded(Operation *terminator, ValueRange results) {
    for (auto [result, yielded] : llvm::zip(results, terminator->getOperands()))
      if (auto v = value(yielded))
        env[result] = *v;
      else
        env.erase(result);
  }

  void walkFor(scf::ForOp loop) {
    auto lb = value(loop.getLowerBound()), ub = value(loop.getUpperBound()),
         step = value(loop.getStep());
    if (!lb || !ub || !step || *step <= 0) {
      demand.addGap("loops whose bounds are not known (pass the scalar "
                    "arguments they depend on)");
      return;
    }
    for (auto [arg, init] :
         llvm::zip(loop.getRegionIterArgs(), loop.getInitArgs()))
      if (auto v = value(init))
        env[arg] = *v;
    // As the interpreter runs it: `scf.for unsigned` compares unsigned.
    auto below = [&](int64_t iv) {
      return loop.getUnsignedCmp()
                 ? static_cast<uint64_t>(iv) < static_cast<uint64_t>(*ub)
                 : iv < *ub;
    };
    for (int64_t iv = *lb; below(iv) && !stopped; iv += *step) {
      env[loop.getInductionVar()] = iv;
      walk(*loop.getBody());
      bindYielded(loop.getBody()->getTerminator(), loop.getRegionIterArgs());
    }
    bindYielded(loop.getBody()->getTerminator(), loop.getResults());
  }

  void walkIf(scf::IfOp branch) {
    auto condition = value(branch.getCondition());
    if (!condition) {
      demand.addGap("branches whose condition is not known");
      return;
    }
    Region &taken =
        *condition ? branch.getThenRegion() : branch.getElseRegion();
    if (taken.empty())
      return;
    walk(taken.front());
    bindYielded(taken.front().getTerminator(), branch.getResults());
  }

  /// Gives `to` what the walk knows of `from`: its value, or the view,
  /// tile or address it is.
  void bind(Value to, Value from) {
    if (auto v = value(from))
      env[to] = *v;
    else
      env.erase(to);
    traffic.bind(to, from);
  }

  /// Walks the helper `call` calls as if inlined: its arguments are the
  /// call's operands, the call's results what it returns. Each call walks
  /// the body again, with the values of that call.
  void walkCall(func::CallOp call) {
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    if (!callee || callee.isExternal() || !callee.getBody().hasOneBlock() ||
        callee.getNumArguments() != call.getNumOperands() ||
        callee.getNumResults() != call.getNumResults())
      return demand.addGap("calls of functions without a one-block body");
    if (llvm::is_contained(calls, callee))
      return demand.addGap("recursive calls");
    Block &body = callee.getBody().front();
    for (auto [arg, operand] :
         llvm::zip(body.getArguments(), call.getOperands()))
      bind(arg, operand);
    calls.push_back(callee);
    walk(body);
    calls.pop_back();
    if (stopped)
      return;
    for (auto [result, returned] :
         llvm::zip(call.getResults(), body.getTerminator()->getOperands()))
      bind(result, returned);
  }

  void visit(Operation *op) {
    if (++visits > kMaxVisits) {
      demand.addGap("the rest of the kernel (the count stops after 2^26 "
                    "operations)");
      stopped = true;
      return;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op))
      return walkFor(loop);
    if (auto branch = dyn_cast<scf::IfOp>(op))
      return walkIf(branch);
    if (isa<scf::WhileOp>(op))
      return demand.addGap("scf.while loops");
    if (auto call = dyn_cast<func::CallOp>(op))
      return walkCall(call);
    if (isa<ktdp::InterTileReduceOp>(op))
      return demand.addGap("the combining of inter-tile reductions");
    if (traffic.visit(op))
      return;
    countOperations(op, demand, &rewrites);
    evaluate(op);
    // Regions of other ops (an inter-tile produce, ...) are not followed:
    // say so when they compute.
    if (op->getNumRegions() > 0 && !isa<linalg::LinalgOp>(op) &&
        op->walk([](Operation *inner) {
            return isComputeOp(inner) ? WalkResult::interrupt()
                                      : WalkResult::advance();
          }).wasInterrupted())
      demand.addGap("operations inside " + op->getName().getStringRef().str() +
                    " regions");
  }

  func::FuncOp kernel;
  const ScalarArgs &args;
  const IndexValues &indexValues;
  DeviceRewrites rewrites;
  ArrayRef<int64_t> tileIds;
  DenseMap<Value, int64_t> env;
  MemoryTraffic traffic{kernel, [this](Value v) { return value(v); },
                        indexValues, demand};
  /// The helpers being walked, innermost last.
  SmallVector<func::FuncOp, 2> calls;
  uint64_t visits = 0;
  bool stopped = false;
};

} // namespace

device::KernelDemand
ktflow::countKernelDemand(func::FuncOp kernel, const ScalarArgs &args,
                          const IndexValues &indexValues,
                          const DevicePatterns &devicePatterns) {
  DemandCounter counter(kernel, args, indexValues, devicePatterns);
  FailureOr<std::optional<SmallVector<int64_t>>> grid =
      ktdp::getLaunchGrid(kernel);
  if (failed(grid)) {
    counter.demand.addGap("the kernel (its grid is malformed)");
    return counter.finish();
  }
  // A kernel without a grid is one tile.
  SmallVector<int64_t> extents = grid->value_or(SmallVector<int64_t>{1});
  int64_t tiles = ktdp::getNumTiles(extents);
  counter.demand.gridPoints = std::max<int64_t>(tiles, 1);
  if (tiles > kMaxTiles)
    counter.demand.addGap("grid points past the first 2^20");
  for (int64_t t = 0; t < std::min(tiles, kMaxTiles); ++t)
    counter.countTile(ktdp::delinearizeTileId(t, extents));
  return counter.finish();
}

func::FuncOp ktflow::findKernel(ModuleOp module, StringRef name) {
  std::string error;
  FailureOr<func::FuncOp> kernel = ktdp::selectKernel(module, name, error);
  return succeeded(kernel) ? *kernel : func::FuncOp();
}

//===- ControlFlowOps.cpp - scf, affine and func ops ----------------------===//
//
// This file implements structured control flow (scf.for with iter_args,
// scf.if, scf.while, scf.parallel with scf.reduce, scf.forall with
// tensor.parallel_insert_slice, scf.execute_region, scf.index_switch),
// affine.apply/min/max and func.call. Parallel loops run their iterations
// sequentially in lexicographic order, which is one valid schedule of them.
//
//===----------------------------------------------------------------------===//

#include "BufferPool.h"
#include "Executor.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace ktflow::interp;

static SmallVector<RValue> valuesOf(TileExecutor &exec, ValueRange values) {
  SmallVector<RValue> result;
  for (Value v : values)
    result.push_back(exec.get(v));
  return result;
}

static void bindResults(TileExecutor &exec, Operation *op,
                        ArrayRef<RValue> values) {
  for (auto [result, value] : llvm::zip(op->getResults(), values))
    exec.set(result, value);
}

static Scalar inductionValue(int64_t v, Value iv) {
  return Scalar::ofInt(v, dtypeFromType(iv.getType()).value_or(DType::Index));
}

/// How many iterations [lb, ub) has with the positive `step`.
static uint64_t tripCount(int64_t lb, int64_t ub, int64_t step) {
  if (lb >= ub)
    return 0;
  uint64_t span = uint64_t(ub) - uint64_t(lb);
  return span / uint64_t(step) + (span % uint64_t(step) != 0);
}

/// How many points the box [lb, ub) has with the positive `steps`
/// (UINT64_MAX for more).
static uint64_t pointCount(ArrayRef<int64_t> lb, ArrayRef<int64_t> ub,
                           ArrayRef<int64_t> steps) {
  SmallVector<uint64_t, 4> trips;
  for (size_t d = 0; d < lb.size(); ++d)
    trips.push_back(tripCount(lb[d], ub[d], steps[d]));
  if (llvm::is_contained(trips, 0))
    return 0;
  uint64_t n = 1;
  for (uint64_t trip : trips)
    if (__builtin_mul_overflow(n, trip, &n))
      return UINT64_MAX;
  return n;
}

/// Fails (naming `op`) when `iterations` runs of the loop body `body`
/// cannot fit what is left of the work budget. Each run enters the block
/// and runs each of its ops but the terminator, one element operation at
/// least apiece (TileExecutor::runBlock, runOp), so a loop of 2^62
/// iterations is refused before its first one instead of running until the
/// wall-clock budget stops it an hour later.
static LogicalResult reserveIterations(TileExecutor &exec, Operation *op,
                                       Block &body, uint64_t iterations) {
  uint64_t perIteration = body.getOperations().size();
  uint64_t least;
  if (__builtin_mul_overflow(iterations, perIteration, &least))
    least = UINT64_MAX;
  uint64_t budget = exec.state.options.maxElementOps;
  if (least <= budget - std::min(budget, exec.state.elementOps))
    return success();
  return exec.error(op) << "the loop's " << iterations
                        << " iterations need at least " << least
                        << " element operations, more than is left of the "
                           "work budget of "
                        << budget << "; raise it with --max-element-ops";
}

/// Checks a multi-dimensional loop's bounds (evaluated, steps positive) and
/// reserves its points' iterations of `body` (scf.parallel, scf.forall).
static LogicalResult
checkPoints(TileExecutor &exec, Operation *op, Block &body,
            const FailureOr<SmallVector<int64_t, 4>> &lb,
            const FailureOr<SmallVector<int64_t, 4>> &ub,
            const FailureOr<SmallVector<int64_t, 4>> &steps) {
  if (failed(lb) || failed(ub) || failed(steps))
    return failure();
  if (llvm::any_of(*steps, [](int64_t s) { return s <= 0; }))
    return exec.error(op) << "steps must be positive";
  return reserveIterations(exec, op, body, pointCount(*lb, *ub, *steps));
}

static LogicalResult runFor(TileExecutor &exec, Operation *op) {
  auto loop = cast<scf::ForOp>(op);
  FailureOr<int64_t> lb = exec.getIndex(op, loop.getLowerBound());
  FailureOr<int64_t> ub = exec.getIndex(op, loop.getUpperBound());
  FailureOr<int64_t> step = exec.getIndex(op, loop.getStep());
  if (failed(lb) || failed(ub) || failed(step))
    return failure();
  if (*step <= 0)
    return exec.error(op) << "step " << *step << " is not positive";
  SmallVector<RValue> iters = valuesOf(exec, loop.getInitArgs());
  Value iv = loop.getInductionVar();
  DType ivType = dtypeFromType(iv.getType()).value_or(DType::Index);
  bool isUnsigned = loop.getUnsignedCmp();
  // (An unsigned loop's count also depends on where its signed induction
  // variable stops before wrapping: the budget stops those as it goes.)
  if (!isUnsigned && failed(reserveIterations(exec, op, *loop.getBody(),
                                              tripCount(*lb, *ub, *step))))
    return failure();
  SmallVector<RValue> args, yielded;
  for (int64_t i = *lb;; i += *step) {
    bool inRange = isUnsigned ? zeroExtend(i, ivType) < zeroExtend(*ub, ivType)
                              : i < *ub;
    if (!inRange)
      break;
    args.assign({RValue(inductionValue(i, iv))});
    args.append(iters.begin(), iters.end());
    if (failed(exec.runBlock(*loop.getBody(), args, yielded)))
      return failure();
    iters.assign(yielded.begin(), yielded.end());
    // Stop before the induction variable wraps around.
    if (i > std::numeric_limits<int64_t>::max() - *step)
      break;
  }
  bindResults(exec, op, iters);
  return success();
}

/// Runs the entry block of a region that takes no arguments (if, switch,
/// execute_region) and binds what it yields to `op`'s results.
static LogicalResult runRegionAndBind(TileExecutor &exec, Operation *op,
                                      Region &region) {
  SmallVector<RValue> yielded;
  if (failed(exec.runBlock(region.front(), {}, yielded)))
    return failure();
  bindResults(exec, op, yielded);
  return success();
}

static LogicalResult runIf(TileExecutor &exec, Operation *op) {
  auto ifOp = cast<scf::IfOp>(op);
  FailureOr<int64_t> cond = exec.getIndex(op, ifOp.getCondition());
  if (failed(cond))
    return failure();
  Region &region = (*cond & 1) ? ifOp.getThenRegion() : ifOp.getElseRegion();
  if (region.empty())
    return success();
  return runRegionAndBind(exec, op, region);
}

static LogicalResult runWhile(TileExecutor &exec, Operation *op) {
  auto loop = cast<scf::WhileOp>(op);
  SmallVector<RValue> args = valuesOf(exec, loop.getInits());
  SmallVector<RValue> yielded;
  while (true) {
    Operation *terminator = nullptr;
    if (failed(exec.runBlock(loop.getBefore().front(), args, yielded,
                             &terminator)))
      return failure();
    if (!isa_and_nonnull<scf::ConditionOp>(terminator) || yielded.empty() ||
        !yielded.front().isScalar())
      return exec.error(op) << "before region must end in scf.condition";
    bool cond = yielded.front().scalar().i & 1;
    SmallVector<RValue> forwarded(yielded.begin() + 1, yielded.end());
    if (!cond) {
      bindResults(exec, op, forwarded);
      return success();
    }
    if (failed(exec.runBlock(loop.getAfter().front(), forwarded, yielded)))
      return failure();
    args.assign(yielded.begin(), yielded.end());
  }
}

/// Calls `body` for every point of the box [lb, ub) with `steps`, in
/// lexicographic order.
static LogicalResult
forEachPoint(ArrayRef<int64_t> lb, ArrayRef<int64_t> ub, ArrayRef<int64_t> steps,
             function_ref<LogicalResult(ArrayRef<int64_t>)> body) {
  size_t rank = lb.size();
  for (size_t d = 0; d < rank; ++d)
    if (lb[d] >= ub[d])
      return success();
  SmallVector<int64_t, 4> point(lb.begin(), lb.end());
  while (true) {
    if (failed(body(point)))
      return failure();
    int64_t d = static_cast<int64_t>(rank) - 1;
    for (; d >= 0; --d) {
      // A step past INT64_MAX ends the dimension like one past ub.
      if (!__builtin_add_overflow(point[d], steps[d], &point[d]) &&
          point[d] < ub[d])
        break;
      point[d] = lb[d];
    }
    if (d < 0)
      return success();
  }
}

static LogicalResult runParallel(TileExecutor &exec, Operation *op) {
  auto loop = cast<scf::ParallelOp>(op);
  FailureOr<SmallVector<int64_t, 4>> lb =
      exec.getIndices(op, loop.getLowerBound());
  FailureOr<SmallVector<int64_t, 4>> ub =
      exec.getIndices(op, loop.getUpperBound());
  FailureOr<SmallVector<int64_t, 4>> steps = exec.getIndices(op, loop.getStep());
  if (failed(checkPoints(exec, op, *loop.getBody(), lb, ub, steps)))
    return failure();
  SmallVector<RValue> accs = valuesOf(exec, loop.getInitVals());
  auto reduce = cast<scf::ReduceOp>(loop.getBody()->getTerminator());
  LogicalResult result = forEachPoint(
      *lb, *ub, *steps, [&](ArrayRef<int64_t> point) -> LogicalResult {
        SmallVector<RValue> args, partials;
        for (auto [v, iv] : llvm::zip(point, loop.getInductionVars()))
          args.push_back(inductionValue(v, iv));
        if (failed(exec.runBlock(*loop.getBody(), args, partials)))
          return failure();
        for (auto [k, region] : llvm::enumerate(reduce.getReductions())) {
          SmallVector<RValue> combined;
          if (failed(exec.runBlock(region.front(), {accs[k], partials[k]},
                                   combined)))
            return failure();
          if (combined.size() != 1)
            return exec.error(op) << "reduction must yield one value";
          accs[k] = combined.front();
        }
        return success();
      });
  if (failed(result))
    return failure();
  bindResults(exec, op, accs);
  return success();
}

static LogicalResult runForall(TileExecutor &exec, Operation *op) {
  auto loop = cast<scf::ForallOp>(op);
  FailureOr<SmallVector<int64_t, 4>> lb =
      evaluateMixed(exec, op, loop.getMixedLowerBound());
  FailureOr<SmallVector<int64_t, 4>> ub =
      evaluateMixed(exec, op, loop.getMixedUpperBound());
  FailureOr<SmallVector<int64_t, 4>> steps =
      evaluateMixed(exec, op, loop.getMixedStep());
  if (failed(checkPoints(exec, op, *loop.getBody(), lb, ub, steps)))
    return failure();
  SmallVector<std::shared_ptr<Tensor>> outs;
  for (Value init : loop.getOutputs()) {
    FailureOr<TensorRef> t = exec.getTensor(op, init);
    if (failed(t))
      return failure();
    outs.push_back(makeTensorCopy(**t));
  }
  Block *body = loop.getBody();
  auto inParallel = cast<scf::InParallelOp>(body->getTerminator());
  LogicalResult result = forEachPoint(
      *lb, *ub, *steps, [&](ArrayRef<int64_t> point) -> LogicalResult {
        SmallVector<RValue> args, ignored;
        for (auto [v, iv] : llvm::zip(point, loop.getInductionVars()))
          args.push_back(inductionValue(v, iv));
        for (auto &out : outs)
          args.push_back(TensorRef(makeTensorCopy(*out)));
        if (failed(exec.runBlock(*body, args, ignored)))
          return failure();
        for (Operation &yieldOp : inParallel.getRegion().front()) {
          auto insert = dyn_cast<tensor::ParallelInsertSliceOp>(yieldOp);
          if (!insert)
            return exec.error(&yieldOp) << "unsupported op in scf.forall.in_parallel";
          auto dest = dyn_cast<BlockArgument>(insert.getDest());
          if (!dest || dest.getOwner() != body ||
              dest.getArgNumber() < loop.getRank())
            return exec.error(&yieldOp) << "destination must be a shared_outs "
                                           "block argument";
          FailureOr<TensorRef> src = exec.getTensor(&yieldOp, insert.getSource());
          FailureOr<SmallVector<int64_t, 4>> offsets =
              evaluateMixed(exec, &yieldOp, insert.getMixedOffsets());
          FailureOr<SmallVector<int64_t, 4>> sizes =
              evaluateMixed(exec, &yieldOp, insert.getMixedSizes());
          FailureOr<SmallVector<int64_t, 4>> strides =
              evaluateMixed(exec, &yieldOp, insert.getMixedStrides());
          if (failed(src) || failed(offsets) || failed(sizes) || failed(strides))
            return failure();
          std::string message;
          if (failed(insertSlice(*outs[dest.getArgNumber() - loop.getRank()],
                                 **src, *offsets, *sizes, *strides, message)))
            return exec.error(&yieldOp) << message;
        }
        return success();
      });
  if (failed(result))
    return failure();
  for (auto [r, out] : llvm::enumerate(outs))
    exec.set(op->getResult(r), TensorRef(out));
  return success();
}

static LogicalResult runExecuteRegion(TileExecutor &exec, Operation *op) {
  auto region = cast<scf::ExecuteRegionOp>(op);
  if (!region.getRegion().hasOneBlock())
    return exec.error(op) << "multi-block regions are not supported";
  return runRegionAndBind(exec, op, region.getRegion());
}

static LogicalResult runIndexSwitch(TileExecutor &exec, Operation *op) {
  auto sw = cast<scf::IndexSwitchOp>(op);
  FailureOr<int64_t> arg = exec.getIndex(op, sw.getArg());
  if (failed(arg))
    return failure();
  Region *region = &sw.getDefaultRegion();
  for (auto [value, caseRegion] : llvm::zip(sw.getCases(), sw.getCaseRegions()))
    if (value == *arg)
      region = &caseRegion;
  return runRegionAndBind(exec, op, *region);
}

/// Evaluates an affine map applied to `operands` (dims, then symbols).
static FailureOr<SmallVector<int64_t, 4>>
applyMap(TileExecutor &exec, Operation *op, AffineMap map, ValueRange operands) {
  FailureOr<SmallVector<int64_t, 4>> values = exec.getIndices(op, operands);
  if (failed(values))
    return failure();
  ArrayRef<int64_t> all = *values;
  FailureOr<SmallVector<int64_t, 4>> results =
      evaluateMap(map, all.take_front(map.getNumDims()),
                  all.drop_front(map.getNumDims()));
  if (failed(results))
    return exec.error(op) << "affine map evaluation failed (division by zero)";
  return results;
}

static LogicalResult runAffineApply(TileExecutor &exec, Operation *op) {
  auto apply = cast<affine::AffineApplyOp>(op);
  FailureOr<SmallVector<int64_t, 4>> r =
      applyMap(exec, op, apply.getAffineMap(), apply.getMapOperands());
  if (failed(r))
    return failure();
  exec.set(apply, Scalar::ofInt(r->front(), DType::Index));
  return success();
}

template <typename OpT, bool isMin>
static LogicalResult runAffineMinMax(TileExecutor &exec, Operation *op) {
  auto minMax = cast<OpT>(op);
  FailureOr<SmallVector<int64_t, 4>> r =
      applyMap(exec, op, minMax.getAffineMap(), minMax.getMapOperands());
  if (failed(r))
    return failure();
  int64_t v = isMin ? *llvm::min_element(*r) : *llvm::max_element(*r);
  exec.set(op->getResult(0), Scalar::ofInt(v, DType::Index));
  return success();
}

static LogicalResult runCall(TileExecutor &exec, Operation *op) {
  auto call = cast<func::CallOp>(op);
  auto callee =
      SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(op, call.getCalleeAttr());
  if (!callee || callee.isExternal())
    return exec.error(op) << "callee @" << call.getCallee()
                          << " is not a function with a body in this module";
  SmallVector<RValue> results;
  if (failed(exec.runFunction(callee, valuesOf(exec, call.getOperands()),
                              results)))
    return failure();
  if (results.size() != op->getNumResults())
    return exec.error(op) << "callee returned " << results.size()
                          << " values, expected " << op->getNumResults();
  bindResults(exec, op, results);
  return success();
}

void ktflow::interp::registerControlFlowHandlers(HandlerTable &table) {
  table.add<scf::ForOp>(runFor);
  table.add<scf::IfOp>(runIf);
  table.add<scf::WhileOp>(runWhile);
  table.add<scf::ParallelOp>(runParallel);
  table.add<scf::ForallOp>(runForall);
  table.add<scf::ExecuteRegionOp>(runExecuteRegion);
  table.add<scf::IndexSwitchOp>(runIndexSwitch);
  table.add<affine::AffineApplyOp>(runAffineApply);
  table.add<affine::AffineMinOp>(runAffineMinMax<affine::AffineMinOp, true>);
  table.add<affine::AffineMaxOp>(runAffineMinMax<affine::AffineMaxOp, false>);
  table.add<func::CallOp>(runCall);
}

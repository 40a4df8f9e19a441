//===- LinalgExec.cpp - Running linalg structured ops ---------------------===//
//
// This file runs a decoded linalg op over its iteration space: it decodes
// the op once per run (the plan cache), binds its operands (LinalgBind.cpp),
// picks how iteration points are grouped and walks the loop nest. Points are
// processed in columns: all values of one loop dimension with the others
// fixed, the others visited in lexicographic order. A column runs every
// body instruction as one tight loop (LinalgColumns.cpp), which is exact
// sequential semantics as long as the points of a column write distinct
// output elements:
//  - map mode: all loops parallel and every output indexed by every loop
//    (adjacent loops are collapsed, so an element-wise op on contiguous
//    tensors is one long column);
//  - column mode: the column dimension is a parallel loop that indexes
//    every output directly;
//  - combine mode: each output is `acc = combine(acc, x)`; x is computed
//    in columns along the innermost loop and folded in order;
//  - otherwise, or with non-linear indexing maps, one point at a time.
//
//===----------------------------------------------------------------------===//

#include "LinalgRun.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace ktflow::interp;

LogicalResult LinalgRun::runNest(int colDim, bool combine) {
  size_t rank = nestRanges.size();
  if (llvm::any_of(nestRanges, [](int64_t r) { return r == 0; }))
    return success();
  unsigned total = operands.size();
  SmallVector<int64_t, 4> point(rank, 0);
  SmallVector<int64_t, 4> bases(total), steps(total);
  for (unsigned o = 0; o < total; ++o)
    steps[o] = colDim >= 0 ? operands[o].coeff[colDim] : 0;
  int64_t colRange = colDim >= 0 ? nestRanges[colDim] : 1;
  while (true) {
    for (int64_t start = 0; start < colRange; start += kColumnCapacity) {
      if (colDim >= 0)
        point[colDim] = start;
      for (unsigned o = 0; o < total; ++o) {
        int64_t b = operands[o].constant;
        for (size_t d = 0; d < rank; ++d)
          b += operands[o].coeff[d] * point[d];
        bases[o] = b;
      }
      int64_t n = std::min<int64_t>(kColumnCapacity, colRange - start);
      if (failed(processChunk(point, colDim, n, bases, steps, combine)))
        return failure();
    }
    if (colDim >= 0)
      point[colDim] = 0;
    int64_t d = static_cast<int64_t>(rank) - 1;
    for (; d >= 0; --d) {
      if (d == colDim)
        continue;
      if (++point[d] < nestRanges[d])
        break;
      point[d] = 0;
    }
    if (d < 0)
      return success();
  }
}

LogicalResult LinalgRun::runPointwise() {
  // Non-linear indexing maps: evaluate every map at every point.
  size_t rank = ranges.size();
  if (llvm::any_of(ranges, [](int64_t r) { return r == 0; }))
    return success();
  unsigned total = operands.size();
  SmallVector<int64_t, 4> point(rank, 0), bases(total), steps(total, 0);
  while (true) {
    for (unsigned o = 0; o < total; ++o) {
      int64_t b = 0;
      if (!operands[o].isScalar) {
        for (auto [r, expr] : llvm::enumerate(plan.exprs[o])) {
          std::optional<int64_t> v = expr.eval(point, {});
          int64_t size = operands[o].tensor->shape[r];
          if (!v || *v < 0 || *v >= size)
            return exec.error(op)
                   << "type mismatch: indexing map #" << o << " at iteration "
                   << formatCoords(point) << " leaves dim " << r
                   << " of size " << size;
          b += *v * operands[o].strides[r];
        }
      }
      bases[o] = b;
    }
    if (failed(processChunk(point, -1, 1, bases, steps, false)))
      return failure();
    int64_t d = static_cast<int64_t>(rank) - 1;
    for (; d >= 0; --d) {
      if (++point[d] < ranges[d])
        break;
      point[d] = 0;
    }
    if (d < 0)
      return success();
  }
}

LogicalResult LinalgRun::compute() {
  if (failed(bindOperands()) || failed(computeRanges()))
    return failure();
  // The op costs its iteration space: charge it before computing it.
  uint64_t points = 1;
  for (int64_t range : ranges)
    if (__builtin_mul_overflow(points, static_cast<uint64_t>(range), &points))
      points = UINT64_MAX;
  if (failed(exec.chargeWork(op, points)))
    return failure();
  for (const auto &[slot, value] : plan.captured)
    if (!exec.get(value).isScalar())
      return exec.error(op) << "the body uses a non-scalar value from outside";
  prepareSlots(points);
  mulAcc = matchMultiplyAccumulate(plan);
  LogicalResult result = success();
  if (!plan.allMapsLinear) {
    result = runPointwise();
  } else {
    if (failed(checkLinearBounds()))
      return failure();
    nestRanges = ranges;
    int colDim = chooseColumnDim();
    bool allParallel = llvm::none_of(plan.isReduction, [](bool r) { return r; });
    bool usesIndex = llvm::any_of(plan.instrs, [](const BodyInstr &i) {
      return i.kind == BodyInstr::Kind::Index;
    });
    bool injective = true;
    for (unsigned d = 0; d < plan.numLoops; ++d)
      for (unsigned k = 0; k < plan.numOutputs; ++k)
        injective &= llvm::is_contained(
            plan.maps[plan.numInputs + k].getResults(),
            getAffineDimExpr(d, op->getContext()));
    if (allParallel && injective && !usesIndex && plan.numLoops > 0) {
      // Collapse each loop into its outer neighbour when every operand
      // walks them as one: row-major contiguous data becomes one column.
      for (int64_t d = static_cast<int64_t>(plan.numLoops) - 2; d >= 0; --d) {
        bool mergeable = llvm::all_of(operands, [&](const LinalgOperand &o) {
          return o.coeff[d] == o.coeff[d + 1] * nestRanges[d + 1];
        });
        if (!mergeable)
          continue;
        nestRanges[d] *= nestRanges[d + 1];
        nestRanges.erase(nestRanges.begin() + d + 1);
        for (LinalgOperand &o : operands)
          o.coeff.erase(o.coeff.begin() + d); // keep the inner stride
      }
      result = runNest(static_cast<int>(nestRanges.size()) - 1, false);
    } else {
      int inner = static_cast<int>(plan.numLoops) - 1;
      int64_t colLength = colDim >= 0 ? ranges[colDim] : 1;
      bool preferCombine = plan.simpleCombine && inner >= 0 &&
                           colLength < 64 && ranges[inner] > colLength;
      if (preferCombine)
        result = runNest(inner, true);
      else
        result = runNest(colDim, false);
    }
  }
  if (failed(result))
    return failure();
  for (unsigned k = 0; k < plan.numOutputs; ++k)
    if (!plan.wideOutputs.empty() && plan.wideOutputs[k] && !plan.magnitude)
      finishWideOutput(plan, *outputs[k], *inits[k], *plan.wideOutputs[k]);
  return success();
}

LogicalResult LinalgRun::run() {
  if (failed(compute()))
    return failure();
  // A run that measures how far a reordered reduction may move the
  // kernel's outputs (InterpreterOptions::displacedReduction).
  if (op == exec.state.options.displacedReduction && isReorderable(plan)) {
    llvm::SmallVector<std::shared_ptr<Tensor>, 2> magnitudes;
    if (std::unique_ptr<LinalgPlan> magnitude = buildMagnitudePlan(plan)) {
      LinalgRun magnitudeRun(exec, op, *magnitude);
      if (failed(magnitudeRun.compute()))
        return failure();
      magnitudes = magnitudeRun.outputs;
    }
    int64_t terms = 1;
    for (unsigned d = 0; d < plan.numLoops; ++d)
      if (plan.isReduction[d])
        terms *= ranges[d];
    displaceByReorderBound(plan, terms, outputs, magnitudes,
                           exec.state.options.displaceDownward);
  }
  for (unsigned k = 0; k < plan.numOutputs; ++k)
    exec.set(op->getResult(k), TensorRef(outputs[k]));
  return success();
}

LogicalResult ktflow::interp::runLinalgOp(TileExecutor &exec, Operation *op) {
  std::unique_ptr<LinalgPlan> &plan = exec.state.linalgPlans[op];
  if (!plan) {
    std::string error;
    Operation *errorOp = nullptr;
    plan = buildLinalgPlan(op, error, errorOp);
    if (plan && exec.state.options.numerics == NumericsPolicy::Accumulate)
      widenAccumulators(*plan, isa<linalg::ContractionOpInterface>(op));
    if (!plan) {
      exec.state.linalgPlans.erase(op);
      if (errorOp != op)
        return exec.error(errorOp) << "in the body of '" << op->getName()
                                   << "': " << error;
      return exec.error(op) << error;
    }
  }
  if (op->getNumResults() != plan->numOutputs)
    return exec.error(op) << "results do not match outputs";
  LinalgRun run(exec, op, *plan);
  return run.run();
}

/// Registers the common linalg ops; every other structured op (named ops
/// carry their body as a region) reaches runLinalgOp through the
/// LinalgOp interface.
void ktflow::interp::registerLinalgHandlers(HandlerTable &table) {
  table.add<linalg::GenericOp>(runLinalgOp);
  table.add<linalg::MapOp>(runLinalgOp);
  table.add<linalg::ReduceOp>(runLinalgOp);
  table.add<linalg::MatmulOp>(runLinalgOp);
}

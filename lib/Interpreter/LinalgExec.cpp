//===- LinalgExec.cpp - Running linalg structured ops ---------------------===//
//
// This file runs a decoded linalg op over its iteration space. Points are
// processed in columns: all values of one loop dimension with the others
// fixed, the others visited in lexicographic order. A column runs every
// body instruction as one tight loop, which is exact sequential semantics
// as long as the points of a column write distinct output elements:
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

#include "Executor.h"
#include "Linalg.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace ktflow::interp;

namespace {

constexpr int64_t kColumnCapacity = 4096;

struct Operand {
  bool isScalar = false;
  const Tensor *tensor = nullptr; ///< Input data, or the output being built.
  Tensor *output = nullptr;
  DType dtype = DType::F32;
  llvm::SmallVector<int64_t, 4> strides;
  /// Linear offset: constant + Σ coeff[d] * i_d over the current loop nest.
  llvm::SmallVector<int64_t, 4> coeff;
  int64_t constant = 0;
};

class LinalgRun {
public:
  LinalgRun(TileExecutor &exec, Operation *op, const LinalgPlan &plan)
      : exec(exec), op(op), plan(plan) {}

  LogicalResult run();

private:
  /// Computes the outputs (without binding the op's results).
  LogicalResult compute();
  LogicalResult bindOperands();
  LogicalResult computeRanges();
  LogicalResult checkLinearBounds();
  void prepareSlots();
  LogicalResult runNest(int colDim, bool combine);
  LogicalResult runPointwise();
  LogicalResult processChunk(ArrayRef<int64_t> point, int colDim, int64_t n,
                             ArrayRef<int64_t> bases, ArrayRef<int64_t> steps,
                             bool combine);
  void loadColumn(unsigned slot, const Operand &operand, int64_t base,
                  int64_t step, int64_t n);
  LogicalResult foldCombine(unsigned k, int64_t base, int64_t step, int64_t n);
  int chooseColumnDim() const;

  TileExecutor &exec;
  Operation *op;
  const LinalgPlan &plan;
  llvm::SmallVector<Operand, 4> operands;
  llvm::SmallVector<std::shared_ptr<Tensor>, 2> outputs;
  /// The `outs` operands, as the op received them.
  llvm::SmallVector<const Tensor *, 2> inits;
  llvm::SmallVector<int64_t, 4> ranges;
  /// Loop nest actually iterated (possibly collapsed).
  llvm::SmallVector<int64_t, 4> nestRanges;
  bool collapsed = false;
  // One buffer per slot; `colF`/`colI` point at the current column data.
  std::vector<std::vector<double>> bufF;
  std::vector<std::vector<int64_t>> bufI;
  llvm::SmallVector<ColumnIn, 16> cols;
};

} // namespace

LogicalResult LinalgRun::bindOperands() {
  auto linalgOp = cast<linalg::LinalgOp>(op);
  unsigned total = plan.numInputs + plan.numOutputs;
  for (unsigned o = 0; o < total; ++o) {
    Value v = linalgOp->getOperand(o);
    const RValue &value = exec.get(v);
    Operand operand;
    if (value.isScalar()) {
      if (o >= plan.numInputs)
        return exec.error(op) << "outputs must be tensors";
      operand.isScalar = true;
      operand.dtype = value.scalar().dtype;
    } else if (value.isTensor()) {
      const Tensor &t = *value.tensor();
      if (static_cast<int64_t>(plan.maps[o].getNumResults()) != t.rank())
        return exec.error(op) << "type mismatch: operand #" << o
                              << " has rank " << t.rank()
                              << " but its indexing map has "
                              << plan.maps[o].getNumResults() << " results";
      operand.dtype = t.dtype;
      if (o >= plan.numInputs) {
        unsigned k = o - plan.numInputs;
        bool wide = !plan.wideOutputs.empty() && plan.wideOutputs[k];
        if (wide && t.dtype != *plan.wideOutputs[k])
          return exec.error(op)
                 << "type mismatch: operand #" << o << " holds "
                 << dtypeName(t.dtype) << " but the body expects "
                 << dtypeName(*plan.wideOutputs[k]);
        inits.push_back(&t);
        outputs.push_back(wide ? makeWideOutput(plan, t)
                               : std::make_shared<Tensor>(t));
        operand.dtype = outputs.back()->dtype;
        operand.output = outputs.back().get();
        operand.tensor = operand.output;
      } else {
        operand.tensor = &t;
      }
      operand.strides = rowMajorStrides(t.shape);
    } else {
      return exec.error(op) << "operand #" << o
                            << " must be a tensor or a scalar";
    }
    // Block arguments must see exactly their declared element type.
    int slot = o < plan.numInputs ? static_cast<int>(o)
                                  : plan.outputSlot(o - plan.numInputs);
    if (slot >= 0 && plan.slotTypes[slot] != operand.dtype)
      return exec.error(op) << "type mismatch: operand #" << o << " holds "
                            << dtypeName(operand.dtype)
                            << " but the body expects "
                            << dtypeName(plan.slotTypes[slot]);
    operands.push_back(std::move(operand));
  }
  return success();
}

LogicalResult LinalgRun::computeRanges() {
  ranges.assign(plan.numLoops, -1);
  for (auto [o, map] : llvm::enumerate(plan.maps)) {
    if (operands[o].isScalar)
      continue;
    for (auto [r, expr] : llvm::enumerate(map.getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      if (!dim)
        continue;
      int64_t extent = operands[o].tensor->shape[r];
      int64_t &range = ranges[dim.getPosition()];
      if (range >= 0 && range != extent)
        return exec.error(op) << "type mismatch: loop " << dim.getPosition()
                              << " has extent " << range
                              << " from one operand and " << extent
                              << " from operand #" << o;
      range = extent;
    }
  }
  for (auto [d, range] : llvm::enumerate(ranges))
    if (range < 0)
      return exec.error(op) << "cannot infer the extent of loop " << d;
  return success();
}

LogicalResult LinalgRun::checkLinearBounds() {
  for (auto [o, operand] : llvm::enumerate(operands)) {
    operand.coeff.assign(plan.numLoops, 0);
    operand.constant = 0;
    if (operand.isScalar)
      continue;
    for (auto [r, expr] : llvm::enumerate(plan.exprs[o])) {
      std::optional<int64_t> rest = expr.eval(
          SmallVector<int64_t, 4>(plan.numLoops, 0), {});
      if (!rest)
        return exec.error(op) << "cannot evaluate indexing map #" << o;
      int64_t lo = *rest, hi = *rest;
      for (unsigned d = 0; d < plan.numLoops; ++d) {
        int64_t c = expr.coeffs[d];
        int64_t span = c * (ranges[d] - 1);
        (span < 0 ? lo : hi) += span;
        operand.coeff[d] += c * operand.strides[r];
      }
      operand.constant += *rest * operand.strides[r];
      int64_t size = operand.tensor->shape[r];
      if (lo < 0 || hi >= size)
        return exec.error(op)
               << "type mismatch: indexing map #" << o << " reaches index "
               << (lo < 0 ? lo : hi) << " of dim " << r
               << ", whose size is " << size;
    }
  }
  return success();
}

void LinalgRun::prepareSlots() {
  size_t numSlots = plan.slotTypes.size();
  bufF.assign(numSlots, {});
  bufI.assign(numSlots, {});
  cols.assign(numSlots, ColumnIn());
  for (size_t s = 0; s < numSlots; ++s) {
    if (isFloat(plan.slotTypes[s]))
      bufF[s].resize(kColumnCapacity);
    else
      bufI[s].resize(kColumnCapacity);
    cols[s] = {bufF[s].data(), bufI[s].data()};
  }
  auto fill = [&](unsigned slot, const Scalar &s) {
    if (isFloat(plan.slotTypes[slot]))
      std::fill(bufF[slot].begin(), bufF[slot].end(),
                roundToDType(s.toDouble(), plan.slotTypes[slot]));
    else
      std::fill(bufI[slot].begin(), bufI[slot].end(), s.i);
  };
  for (const auto &[slot, value] : plan.constants)
    fill(slot, value);
  for (const auto &[slot, value] : plan.captured)
    fill(slot, exec.get(value).scalar());
  for (unsigned o = 0; o < plan.numInputs; ++o)
    if (operands[o].isScalar)
      fill(o, exec.get(op->getOperand(o)).scalar());
}

void LinalgRun::loadColumn(unsigned slot, const Operand &operand, int64_t base,
                           int64_t step, int64_t n) {
  if (operand.isScalar)
    return; // pre-filled
  const Tensor &t = *operand.tensor;
  if (isFloat(t.dtype)) {
    const double *src = t.floats.data() + base;
    if (step == 1) {
      cols[slot].f = src;
      return;
    }
    double *dst = bufF[slot].data();
    cols[slot].f = dst;
    for (int64_t i = 0; i < n; ++i)
      dst[i] = src[i * step];
  } else {
    const int64_t *src = t.ints.data() + base;
    if (step == 1) {
      cols[slot].i = src;
      return;
    }
    int64_t *dst = bufI[slot].data();
    cols[slot].i = dst;
    for (int64_t i = 0; i < n; ++i)
      dst[i] = src[i * step];
  }
}

/// out[base + i * step] = round(f(out[...], x[i])) in order; the rounding
/// is chosen once, outside the loop.
template <typename F>
static void foldLoop(double *out, int64_t base, int64_t step, const double *x,
                     int64_t n, DType t, F f) {
  double *o = out + base;
  if (t == DType::F64) {
    for (int64_t i = 0; i < n; ++i)
      o[i * step] = f(o[i * step], x[i]);
  } else if (t == DType::F32) {
    for (int64_t i = 0; i < n; ++i)
      o[i * step] = static_cast<float>(f(o[i * step], x[i]));
  } else {
    for (int64_t i = 0; i < n; ++i)
      o[i * step] = roundToDType(f(o[i * step], x[i]), t);
  }
}

LogicalResult LinalgRun::foldCombine(unsigned k, int64_t base, int64_t step,
                                     int64_t n) {
  Tensor &out = *outputs[k];
  unsigned xSlot = plan.combineOperand[k];
  int instrIndex = plan.combineInstr[k];
  if (instrIndex < 0) {
    // The body ignores the accumulator: the last point wins.
    for (int64_t i = 0; i < n; ++i) {
      if (isFloat(out.dtype))
        out.floats[base + i * step] = cols[xSlot].f[i];
      else
        out.ints[base + i * step] = cols[xSlot].i[i];
    }
    return success();
  }
  const BodyInstr &instr = plan.instrs[instrIndex];
  DType t = instr.ew.resultType;
  const double *x = cols[xSlot].f;
  switch (instr.ew.kind) {
  case EwKind::AddF:
    foldLoop(out.floats.data(), base, step, x, n, t,
             [](double a, double b) { return a + b; });
    return success();
  case EwKind::MulF:
    foldLoop(out.floats.data(), base, step, x, n, t,
             [](double a, double b) { return a * b; });
    return success();
  case EwKind::MaximumF:
  case EwKind::MaxNumF:
    if (instr.ew.kind == EwKind::MaxNumF)
      break; // NaN handling differs; use the generic path
    foldLoop(out.floats.data(), base, step, x, n, t, [](double a, double b) {
      if (a != a || b != b)
        return std::numeric_limits<double>::quiet_NaN();
      if (a == 0 && b == 0)
        return std::signbit(a) ? b : a;
      return a > b ? a : b;
    });
    return success();
  default:
    break;
  }
  // Generic fold: one element at a time through the op's kernel.
  bool accFirst = instr.operands[0] != xSlot ||
                  instr.operands[1] == xSlot;
  for (int64_t i = 0; i < n; ++i) {
    int64_t at = base + i * step;
    ColumnIn acc{out.floats.data() + (isFloat(out.dtype) ? at : 0),
                 out.ints.data() + (isFloat(out.dtype) ? 0 : at)};
    ColumnIn xi{cols[xSlot].f ? cols[xSlot].f + i : nullptr,
                cols[xSlot].i ? cols[xSlot].i + i : nullptr};
    ColumnIn ins[2] = {accFirst ? acc : xi, accFirst ? xi : acc};
    double f;
    int64_t v;
    if (runElementwise(instr.ew, ins, {&f, &v}, 1) >= 0)
      return exec.error(op) << "integer division by zero";
    if (isFloat(out.dtype))
      out.floats[at] = f;
    else
      out.ints[at] = v;
  }
  return success();
}

LogicalResult LinalgRun::processChunk(ArrayRef<int64_t> point, int colDim,
                                      int64_t n, ArrayRef<int64_t> bases,
                                      ArrayRef<int64_t> steps, bool combine) {
  for (unsigned o = 0; o < plan.numInputs; ++o)
    loadColumn(o, operands[o], bases[o], steps[o], n);
  for (unsigned k = 0; k < plan.numOutputs; ++k) {
    int slot = plan.outputSlot(k);
    if (slot >= 0 && !combine)
      loadColumn(slot, operands[plan.numInputs + k],
                 bases[plan.numInputs + k], steps[plan.numInputs + k], n);
  }
  SmallVector<ColumnIn, 4> ins;
  for (const BodyInstr &instr : plan.instrs) {
    if (combine && instr.readsAccumulator)
      continue;
    unsigned r = instr.result;
    if (instr.kind == BodyInstr::Kind::Index) {
      int64_t *dst = bufI[r].data();
      cols[r].i = dst;
      for (int64_t i = 0; i < n; ++i)
        dst[i] = static_cast<int>(instr.dim) == colDim ? point[instr.dim] + i
                                                      : point[instr.dim];
      continue;
    }
    // Widening casts change no value: reuse the operand's column.
    if (instr.ew.kind == EwKind::ExtF) {
      cols[r] = cols[instr.operands.front()];
      continue;
    }
    ins.clear();
    for (unsigned s : instr.operands)
      ins.push_back(cols[s]);
    ColumnOut out{bufF[r].data(), bufI[r].data()};
    int64_t zeroAt = runElementwise(instr.ew, ins, out, n);
    cols[r] = {bufF[r].data(), bufI[r].data()};
    if (zeroAt >= 0) {
      SmallVector<int64_t, 4> where(point.begin(), point.end());
      if (colDim >= 0)
        where[colDim] += zeroAt;
      return exec.error(op) << "integer division by zero at iteration "
                            << formatCoords(where);
    }
  }
  for (unsigned k = 0; k < plan.numOutputs; ++k) {
    int64_t base = bases[plan.numInputs + k];
    int64_t step = steps[plan.numInputs + k];
    if (combine) {
      if (failed(foldCombine(k, base, step, n)))
        return failure();
      continue;
    }
    Tensor &out = *outputs[k];
    const ColumnIn &y = cols[plan.yields[k]];
    if (isFloat(out.dtype)) {
      double *dst = out.floats.data() + base;
      for (int64_t i = 0; i < n; ++i)
        dst[i * step] = y.f[i];
    } else {
      int64_t *dst = out.ints.data() + base;
      for (int64_t i = 0; i < n; ++i)
        dst[i * step] = y.i[i];
    }
  }
  return success();
}

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

/// A parallel loop that every output map uses as a plain result and no
/// other output result mentions, with the largest extent; -1 if none.
int LinalgRun::chooseColumnDim() const {
  int best = -1;
  for (unsigned d = 0; d < plan.numLoops; ++d) {
    if (plan.isReduction[d])
      continue;
    bool ok = true;
    for (unsigned k = 0; k < plan.numOutputs && ok; ++k) {
      bool plain = false;
      for (AffineExpr expr : plan.maps[plan.numInputs + k].getResults()) {
        if (expr == getAffineDimExpr(d, op->getContext()))
          plain = true;
        else if (expr.isFunctionOfDim(d))
          ok = false;
      }
      ok &= plain;
    }
    if (ok && (best < 0 || ranges[d] > ranges[best]))
      best = static_cast<int>(d);
  }
  return best;
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
  prepareSlots();
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
        bool mergeable = llvm::all_of(operands, [&](const Operand &o) {
          return o.coeff[d] == o.coeff[d + 1] * nestRanges[d + 1];
        });
        if (!mergeable)
          continue;
        nestRanges[d] *= nestRanges[d + 1];
        nestRanges.erase(nestRanges.begin() + d + 1);
        for (Operand &o : operands)
          o.coeff.erase(o.coeff.begin() + d); // keep the inner stride
        collapsed = true;
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
    displaceByReorderBound(plan, terms, outputs, magnitudes);
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

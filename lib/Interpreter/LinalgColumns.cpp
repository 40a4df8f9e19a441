//===- LinalgColumns.cpp - Column kernels of linalg bodies ----------------===//
//
// This file runs a decoded linalg body over one column of iteration points:
// it loads each operand's column (in place when contiguous), runs every body
// instruction as one element-wise kernel over the column, and writes the
// yielded column into the outputs or, in combine mode, folds it into them in
// order (with tight loops for addf, mulf and maximumf).
//
//===----------------------------------------------------------------------===//

#include "LinalgRun.h"

#include "BufferPool.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace ktflow::interp;

LinalgRun::~LinalgRun() {
  for (std::vector<double> &buffer : bufF)
    giveBuffer(buffer);
  for (std::vector<int64_t> &buffer : bufI)
    giveBuffer(buffer);
}

void LinalgRun::prepareSlots(uint64_t points) {
  // No column is longer than the iteration space: a small op does not
  // fill kColumnCapacity elements a slot.
  size_t capacity = static_cast<size_t>(
      std::clamp<uint64_t>(points, 1, static_cast<uint64_t>(kColumnCapacity)));
  size_t numSlots = plan.slotTypes.size();
  bufF.resize(numSlots);
  bufI.resize(numSlots);
  slotBufs.assign(numSlots, ColumnOut());
  cols.assign(numSlots, ColumnIn());
  for (size_t s = 0; s < numSlots; ++s) {
    if (isFloat(plan.slotTypes[s])) {
      bufF[s] = takeZeroFloats(capacity);
      slotBufs[s].f = bufF[s].data();
    } else {
      bufI[s] = takeZeroInts(capacity);
      slotBufs[s].i = bufI[s].data();
    }
    cols[s] = {slotBufs[s].f, slotBufs[s].i};
  }
  auto fill = [&](unsigned slot, const Scalar &s) {
    if (isFloat(plan.slotTypes[slot]))
      std::fill_n(slotBufs[slot].f, capacity,
                  roundToDType(s.toDouble(), plan.slotTypes[slot]));
    else
      std::fill_n(slotBufs[slot].i, capacity, s.i);
  };
  for (const auto &[slot, value] : plan.constants)
    fill(slot, value);
  for (const auto &[slot, value] : plan.captured)
    fill(slot, exec.get(value).scalar());
  for (unsigned o = 0; o < plan.numInputs; ++o)
    if (operands[o].isScalar)
      fill(o, exec.get(op->getOperand(o)).scalar());
}

void LinalgRun::loadColumn(unsigned slot, const LinalgOperand &operand,
                           int64_t base, int64_t step, int64_t n) {
  if (operand.isScalar)
    return; // pre-filled
  const Tensor &t = *operand.tensor;
  if (isFloat(t.dtype)) {
    const double *src = t.floats.data() + base;
    if (step == 1) {
      cols[slot].f = src;
      return;
    }
    double *dst = slotBufs[slot].f;
    cols[slot].f = dst;
    for (int64_t i = 0; i < n; ++i)
      dst[i] = src[i * step];
  } else {
    const int64_t *src = t.ints.data() + base;
    if (step == 1) {
      cols[slot].i = src;
      return;
    }
    int64_t *dst = slotBufs[slot].i;
    cols[slot].i = dst;
    for (int64_t i = 0; i < n; ++i)
      dst[i] = src[i * step];
  }
}

namespace {
/// Rounding to a float type chosen outside the loop: none for f64, a cast
/// for f32, roundToDType for the others (and for any type, as a fallback).
enum class RoundingKind { None, F32, Any };
template <RoundingKind Kind> struct Rounding {
  DType type;
  double operator()(double x) const {
    if constexpr (Kind == RoundingKind::None)
      return x;
    else if constexpr (Kind == RoundingKind::F32)
      return static_cast<float>(x);
    else
      return roundToDType(x, type);
  }
};
} // namespace

/// Calls `f` with the rounding to `t`, chosen once: none for f64, a cast
/// for f32, roundToDType for the others.
template <typename F> static void withRounding(DType t, F f) {
  if (t == DType::F64)
    f(Rounding<RoundingKind::None>{t});
  else if (t == DType::F32)
    f(Rounding<RoundingKind::F32>{t});
  else
    f(Rounding<RoundingKind::Any>{t});
}

/// out[base + i * step] = round(f(out[...], x[i])) in order; the rounding
/// is chosen once, outside the loop.
template <typename F>
static void foldLoop(double *out, int64_t base, int64_t step, const double *x,
                     int64_t n, DType t, F f) {
  double *o = out + base;
  withRounding(t, [&](auto round) {
    for (int64_t i = 0; i < n; ++i)
      o[i * step] = round(f(o[i * step], x[i]));
  });
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
  bool accFirst = instr.operands[0] != xSlot || instr.operands[1] == xSlot;
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

/// out[i * outStep] = roundSum(out[...] + roundProduct(x[i * xStep] *
/// y[i * yStep])) in order (the rounded product's absolute value for a
/// magnitude plan): what the mulf and addf kernels and the column
/// write compute, one element at a time (the column's output elements are
/// distinct, or folded in order as foldCombine does). The row of a matmul
/// (one x times a contiguous row of y into a contiguous row of out) gets
/// its own loop, which the compiler vectorizes; a fold into one element
/// keeps it in a register.
template <bool AccumulatorFirst, bool Absolute, typename RoundProduct,
          typename RoundSum>
static void mulAccLoop(const double *x, int64_t xStep, const double *y,
                       int64_t yStep, double *out, int64_t outStep, int64_t n,
                       RoundProduct roundProduct, RoundSum roundSum) {
  // Separate statements: the product rounds before the add, never fused
  // into one multiply-add.
  auto step = [&](double xi, double yi, double &acc) {
    double product = roundProduct(xi * yi);
    if constexpr (Absolute)
      product = std::fabs(product);
    double sum = AccumulatorFirst ? acc + product : product + acc;
    acc = roundSum(sum);
  };
  if (outStep == 1 && xStep == 0 && yStep == 1) {
    const double scalar = *x;
    for (int64_t i = 0; i < n; ++i)
      step(scalar, y[i], out[i]);
  } else if (outStep == 1 && xStep == 1 && yStep == 0) {
    const double scalar = *y;
    for (int64_t i = 0; i < n; ++i)
      step(x[i], scalar, out[i]);
  } else if (outStep == 0) {
    // Combine mode folds the column into one element: keep it in a
    // register rather than in memory the loads might alias.
    double acc = *out;
    for (int64_t i = 0; i < n; ++i)
      step(x[i * xStep], y[i * yStep], acc);
    *out = acc;
  } else {
    for (int64_t i = 0; i < n; ++i)
      step(x[i * xStep], y[i * yStep], out[i * outStep]);
  }
}

template <RoundingKind ProductKind, RoundingKind SumKind, bool Absolute = false>
static void mulAccLoop(const MultiplyAccumulate &mulAcc, const double *x,
                       int64_t xStep, const double *y, int64_t yStep,
                       double *out, int64_t outStep, int64_t n) {
  Rounding<ProductKind> roundProduct{mulAcc.productType};
  Rounding<SumKind> roundSum{mulAcc.sumType};
  if (mulAcc.accumulatorFirst)
    mulAccLoop<true, Absolute>(x, xStep, y, yStep, out, outStep, n,
                               roundProduct, roundSum);
  else
    mulAccLoop<false, Absolute>(x, xStep, y, yStep, out, outStep, n,
                                roundProduct, roundSum);
}

void LinalgRun::multiplyAccumulate(int64_t n, ArrayRef<int64_t> bases,
                                   ArrayRef<int64_t> steps) {
  // An input column in place: its data and step (0 for a scalar input,
  // whose slot buffer is pre-filled).
  auto column = [&](unsigned o) -> std::pair<const double *, int64_t> {
    if (operands[o].isScalar)
      return {slotBufs[o].f, 0};
    return {operands[o].tensor->floats.data() + bases[o], steps[o]};
  };
  auto [x, xStep] = column(mulAcc->lhsInput);
  auto [y, yStep] = column(mulAcc->rhsInput);
  double *out = outputs[0]->floats.data() + bases[plan.numInputs];
  int64_t outStep = steps[plan.numInputs];
  DType s = mulAcc->sumType;
  bool exact = mulAcc->exactProduct;
  if (mulAcc->absoluteProduct) {
    // A magnitude plan folds in f64.
    if (exact && s == DType::F64)
      mulAccLoop<RoundingKind::None, RoundingKind::None, true>(
          *mulAcc, x, xStep, y, yStep, out, outStep, n);
    else if (mulAcc->productType == DType::F32 && s == DType::F64)
      mulAccLoop<RoundingKind::F32, RoundingKind::None, true>(
          *mulAcc, x, xStep, y, yStep, out, outStep, n);
    else
      mulAccLoop<RoundingKind::Any, RoundingKind::Any, true>(
          *mulAcc, x, xStep, y, yStep, out, outStep, n);
    return;
  }
  if (exact && s == DType::F32)
    mulAccLoop<RoundingKind::None, RoundingKind::F32>(*mulAcc, x, xStep, y,
                                                      yStep, out, outStep, n);
  else if (exact && s == DType::F64)
    mulAccLoop<RoundingKind::None, RoundingKind::None>(*mulAcc, x, xStep, y,
                                                       yStep, out, outStep, n);
  else if (mulAcc->productType == DType::F32 && s == DType::F32)
    mulAccLoop<RoundingKind::F32, RoundingKind::F32>(*mulAcc, x, xStep, y,
                                                     yStep, out, outStep, n);
  else
    mulAccLoop<RoundingKind::Any, RoundingKind::Any>(*mulAcc, x, xStep, y,
                                                     yStep, out, outStep, n);
}

LogicalResult LinalgRun::processChunk(ArrayRef<int64_t> point, int colDim,
                                      int64_t n, ArrayRef<int64_t> bases,
                                      ArrayRef<int64_t> steps, bool combine) {
  // A multiply-accumulate in one loop, where the column's points write
  // distinct output elements or fold in order (combine mode).
  if (mulAcc && (combine || n == 1 || steps[plan.numInputs] != 0)) {
    multiplyAccumulate(n, bases, steps);
    return success();
  }
  for (unsigned o = 0; o < plan.numInputs; ++o)
    loadColumn(o, operands[o], bases[o], steps[o], n);
  for (unsigned k = 0; k < plan.numOutputs; ++k) {
    int slot = plan.outputSlot(k);
    if (slot >= 0 && !combine)
      loadColumn(slot, operands[plan.numInputs + k], bases[plan.numInputs + k],
                 steps[plan.numInputs + k], n);
  }
  SmallVector<ColumnIn, 4> ins;
  for (const BodyInstr &instr : plan.instrs) {
    if (combine && instr.readsAccumulator)
      continue;
    unsigned r = instr.result;
    if (instr.kind == BodyInstr::Kind::Index) {
      int64_t *dst = slotBufs[r].i;
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
    int64_t zeroAt = runElementwise(instr.ew, ins, slotBufs[r], n);
    cols[r] = {slotBufs[r].f, slotBufs[r].i};
    if (zeroAt >= 0) {
      SmallVector<int64_t, 4> where(point.begin(), point.end());
      if (colDim >= 0)
        where[colDim] += zeroAt;
      return exec.error(op)
             << "integer division by zero at iteration " << formatCoords(where);
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

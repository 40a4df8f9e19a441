//===- Compute.cpp - Vector and matrix compute in the simulator -----------===//
//
// This file implements the compute instructions. Each costs, per op class,
// ceil(elements / throughput) cycles where the throughput is the unit's
// elements per cycle for that class and element type; a Map costs the sum
// over its micro-ops; a matmul costs what MatrixTiming.h says (waves of the
// engine's block after a pipeline fill). Compute uses no shared
// resource, so it never stalls. Reductions of 16-bit floats (reduce,
// matmul, accumulating maps) hold their accumulator in f32 inside the unit
// and round once (docs/simulator.md, "Functional model").
//
//===----------------------------------------------------------------------===//

#include "Engine.h"

#include "ktflow/Device/ChargedType.h"
#include "ktflow/Machine/Values.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstring>

using namespace ktflow::machine;
using namespace ktflow::sim;
using namespace ktflow::sim::detail;

/// Whether the unit accumulates reductions of `t` in f32 (16-bit floats).
static bool accumulatesWide(ElemType t) {
  return t == ElemType::f16 || t == ElemType::bf16;
}

/// Charges `cycles` of compute to the unit and records it.
static Step charge(Engine &e, UnitState &u, Opcode op, uint64_t cycles) {
  Tick start = u.now;
  Tick t = e.cyclesToTicks(cycles);
  u.busy += t;
  u.now += t;
  ++u.instructions;
  e.record(u, op, start, u.now, 0);
  ++u.pc;
  return Step::Continue;
}

/// The throughput of `c` on `t` for the unit, or 0 with an error recorded.
static double throughputOf(Engine &e, UnitState &u, OpClass c, ElemType t,
                           const char *what) {
  double thr = e.machine.units[u.prog->unit].getThroughput(c, t);
  if (thr <= 0)
    e.fail(u, llvm::formatv("{0} cannot compute {1} ({2}) on {3}",
                            e.unitName(u), what, stringifyOpClass(c),
                            elemTypeName(t))
                  .str());
  return thr;
}

Step Engine::stepMap(UnitState &u, const Inst &in) {
  const MapBody &body = u.prog->maps[in.b];
  const VectorType &type = u.prog->vtypes[in.c];
  size_t n = type.numElements();
  size_t numSlots = body.numSlots;
  u.slots.resize(numSlots * n);
  // An accumulating map (sub = 1 + the accumulator's input) reads the f32
  // values of its wide inputs and computes every value that depends on the
  // accumulator in f32: the accumulator stays wide across the loop.
  unsigned accumulator = in.sub;
  std::vector<bool> wideSlot(accumulator ? numSlots : 0, false);
  if (accumulator)
    wideSlot[accumulator - 1] = true;
  for (size_t i = 0; i < body.inputs.size(); ++i) {
    uint32_t reg = body.inputs[i];
    if (!u.vtype[reg])
      return fail(u, "reads a vector register that was never written");
    const std::vector<double> &src =
        accumulator && !u.wide[reg].empty() ? u.wide[reg] : u.v[reg];
    if (src.size() != n)
      return fail(u, llvm::formatv("map input {0} has {1} elements, the "
                                   "result {2}",
                                   i, src.size(), n)
                         .str());
    std::copy(src.begin(), src.end(), u.slots.begin() + i * n);
  }
  uint64_t cycles = 0;
  const MachineUnit &unit = machine.units[u.prog->unit];
  for (const MicroOp &op : body.ops) {
    if (op.op != ScalarOp::Const) {
      OpClass c = scalarOpClass(op.op);
      ElemType costType = ktflow::device::chargedType(op, unit);
      double thr = unit.getThroughput(c, costType);
      if (thr <= 0)
        return fail(u, llvm::formatv("{0} cannot compute {1} ({2}) on {3}",
                                     unit.name, scalarOpName(op.op),
                                     stringifyOpClass(c),
                                     elemTypeName(costType))
                           .str());
      cycles += costCycles(n, thr);
    }
    double *base = u.slots.data();
    MicroOp eval = op;
    if (accumulator && op.op != ScalarOp::Const) {
      uint32_t operands[] = {op.a, op.b, op.c};
      bool wide = false;
      for (unsigned k = 0; k < scalarOpArity(op.op); ++k)
        wide = wide || wideSlot[operands[k]];
      wideSlot[op.dst] = wide;
      if (wide && accumulatesWide(op.type))
        eval.type = ElemType::f32;
    }
    evalMicroOp(eval, base + size_t(op.a) * n, base + size_t(op.b) * n,
                base + size_t(op.c) * n, base + size_t(op.dst) * n, n);
  }
  std::vector<double> &out = u.v[in.a];
  out.assign(u.slots.begin() + size_t(body.resultSlot) * n,
             u.slots.begin() + size_t(body.resultSlot + 1) * n);
  u.wide[in.a].clear();
  if (accumulator && wideSlot[body.resultSlot] && accumulatesWide(type.elem)) {
    u.wide[in.a] = out;
    for (double &x : out)
      x = roundToType(type.elem, x);
  }
  u.vtype[in.a] = &type;
  return charge(*this, u, Opcode::Map, cycles);
}

Step Engine::stepReduce(UnitState &u, const Inst &in) {
  const VectorType *src = u.vtype[in.b];
  if (!src)
    return fail(u, "reads a vector register that was never written");
  const VectorType &type = u.prog->vtypes[in.c];
  if (src->elem != type.elem)
    return fail(u, "reduce changes the element type");
  uint64_t n = src->numElements();
  uint64_t inner = src->shape.back();
  if (type.numElements() != n / inner)
    return fail(u, llvm::formatv("reduce of {0} cannot produce {1}",
                                 src->str(), type.str())
                       .str());
  double thr = throughputOf(*this, u, OpClass::Reduction, src->elem,
                            "a reduction");
  if (thr <= 0)
    return Step::Error;
  ReduceKind kind = reduceKindOf(in.sub);
  // A fold from an initial accumulator reads one value per row from d.
  const std::vector<double> *init = nullptr;
  if (reduceSubHasInit(in.sub)) {
    const VectorType *initType = u.vtype[in.d];
    if (!initType)
      return fail(u, "reads a vector register that was never written");
    if (initType->elem != type.elem ||
        initType->numElements() != type.numElements())
      return fail(u, llvm::formatv("reduce into {0} cannot start from {1}",
                                   type.str(), initType->str())
                         .str());
    init = &u.v[in.d];
  }
  const std::vector<double> &x = u.v[in.b];
  // 16-bit floats accumulate in f32 inside the unit (at the rate of the
  // input type) and round once; the f32 sum stays available to the map
  // that folds it into an accumulator.
  bool wide = accumulatesWide(src->elem);
  ElemType accType = wide ? ElemType::f32 : src->elem;
  std::vector<double> out(n / inner);
  for (uint64_t r = 0; r < out.size(); ++r) {
    double acc = init ? (*init)[r] : x[r * inner];
    for (uint64_t i = init ? 0 : 1; i < inner; ++i)
      acc = reduceStep(kind, accType, acc, x[r * inner + i]);
    out[r] = acc;
  }
  u.wide[in.a].clear();
  if (wide) {
    u.wide[in.a] = out;
    for (double &sum : out)
      sum = roundToType(src->elem, sum);
  }
  u.v[in.a] = std::move(out);
  u.vtype[in.a] = &type;
  return charge(*this, u, Opcode::Reduce, costCycles(n, thr));
}

Step Engine::stepBroadcast(UnitState &u, const Inst &in) {
  const VectorType *src = u.vtype[in.b];
  if (!src)
    return fail(u, "reads a vector register that was never written");
  const VectorType &type = u.prog->vtypes[in.c];
  uint64_t nIn = src->numElements(), nOut = type.numElements();
  if (src->elem != type.elem || nOut % nIn != 0)
    return fail(u, llvm::formatv("cannot broadcast {0} to {1}", src->str(),
                                 type.str())
                       .str());
  double thr = throughputOf(
      *this, u, OpClass::Elementwise,
      ktflow::device::heldType(type.elem, machine.units[u.prog->unit]),
      "a broadcast");
  if (thr <= 0)
    return Step::Error;
  uint64_t repeat = nOut / nIn;
  const std::vector<double> x = u.v[in.b];
  std::vector<double> &out = u.v[in.a];
  out.resize(nOut);
  for (uint64_t i = 0; i < nOut; ++i)
    out[i] = x[i / repeat];
  u.wide[in.a].clear();
  u.vtype[in.a] = &type;
  return charge(*this, u, Opcode::Broadcast, costCycles(nOut, thr));
}

Step Engine::stepIota(UnitState &u, const Inst &in) {
  const VectorType &type = u.prog->vtypes[in.c];
  double thr = throughputOf(*this, u, OpClass::Elementwise, type.elem,
                            "coordinates (iota)");
  if (thr <= 0)
    return Step::Error;
  // Row-major: the coordinate along dimension d is (i / inner) % extent,
  // with `inner` the product of the extents after d.
  uint64_t n = type.numElements(), inner = 1, extent = 1;
  if (in.sub) {
    unsigned d = in.sub - 1;
    extent = type.shape[d];
    for (size_t k = d + 1; k < type.shape.size(); ++k)
      inner *= type.shape[k];
  }
  int64_t base = u.s[in.b];
  std::vector<double> &out = u.v[in.a];
  out.resize(n);
  for (uint64_t i = 0; i < n; ++i)
    out[i] = roundToType(
        type.elem,
        static_cast<double>(base + static_cast<int64_t>((i / inner) % extent)));
  u.wide[in.a].clear();
  u.vtype[in.a] = &type;
  return charge(*this, u, Opcode::Iota, costCycles(n, thr));
}

Step Engine::stepSplat(UnitState &u, const Inst &in) {
  const VectorType &type = u.prog->vtypes[in.c];
  double value;
  std::memcpy(&value, &in.imm, sizeof(double));
  u.v[in.a].assign(type.numElements(), roundToType(type.elem, value));
  u.wide[in.a].clear();
  u.vtype[in.a] = &type;
  ++u.instructions;
  ++u.pc;
  return Step::Continue;
}

Step Engine::stepMatmul(UnitState &u, const Inst &in) {
  const VectorType *a = u.vtype[in.b], *b = u.vtype[in.c], *acc = u.vtype[in.d];
  if (!a || !b || !acc)
    return fail(u, "reads a vector register that was never written");
  const VectorType &type = u.prog->vtypes[in.e];
  // A dot product (rank-1 operands) is a 1×K by K×N=1 product.
  std::optional<MatrixDims> dims = matrixDims(a->shape, b->shape);
  if (!dims || !(*acc == type) ||
      type.numElements() != dims->rows * dims->cols ||
      type.shape.size() != a->shape.size() || type.shape[0] != dims->rows)
    return fail(u, llvm::formatv("matmul shapes do not agree: {0} x {1} + {2}",
                                 a->str(), b->str(), acc->str())
                       .str());
  uint64_t m = dims->rows, k = dims->depth, n = dims->cols;
  double thr = throughputOf(*this, u, OpClass::Matrix, a->elem, "a matmul");
  if (thr <= 0)
    return Step::Error;
  const std::vector<double> &x = u.v[in.b], &y = u.v[in.c];
  std::vector<double> out = u.v[in.d];
  // A 16-bit accumulator: the product accumulates in f32 from zero, rounds
  // once and is added to the accumulator (as the interpreter's matmul).
  // Each product rounds to the sum's type before the add, as the body's
  // arith.mulf does: exact for 16-bit operands, but a bf16 product past
  // f32's range is infinite (a fused multiply-add kept +inf where the
  // products' +inf and -inf make the reference's NaN).
  bool wide = accumulatesWide(type.elem);
  ElemType sumType = wide ? ElemType::f32 : type.elem;
  // B's columns, each contiguous for the inner loop (the same sums in the
  // same order).
  std::vector<double> columns(k * n);
  for (uint64_t l = 0; l < k; ++l)
    for (uint64_t j = 0; j < n; ++j)
      columns[j * k + l] = y[l * n + j];
  auto multiply = [&](auto round) {
    for (uint64_t i = 0; i < m; ++i)
      for (uint64_t j = 0; j < n; ++j) {
        const double *row = x.data() + i * k, *column = &columns[j * k];
        double sum = wide ? 0.0 : out[i * n + j];
        for (uint64_t l = 0; l < k; ++l)
          sum = round(sum + round(row[l] * column[l]));
        out[i * n + j] =
            wide ? roundToType(type.elem,
                               out[i * n + j] + roundToType(type.elem, sum))
                 : sum;
      }
  };
  // roundToType inlined for the float accumulators (a call per MAC was half
  // of a matmul kernel's simulation).
  if (sumType == ElemType::f32)
    multiply([](double v) -> double { return static_cast<float>(v); });
  else if (sumType == ElemType::f64)
    multiply([](double v) { return v; });
  else
    multiply([&](double v) { return roundToType(sumType, v); });
  u.wide[in.a].clear();
  u.v[in.a] = std::move(out);
  u.vtype[in.a] = &type;
  // A matrix engine works in waves of its block after one pipeline fill;
  // a unit without one at its multiply-accumulate rate.
  uint64_t cycles =
      matrixProductCycles(machine.units[u.prog->unit].matrix, thr, m, n, k);
  u.matrixCycles += cycles;
  u.matrixPeakCycles += static_cast<double>(m * n * k) / thr;
  return charge(*this, u, Opcode::Matmul, cycles);
}

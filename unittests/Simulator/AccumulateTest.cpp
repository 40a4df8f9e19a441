//===- AccumulateTest.cpp - Wide accumulators of the simulated units ------===//
//
// This file tests how the simulator reduces 16-bit floats: a reduce sums an
// f16 vector in f32 and rounds once, an accumulating map folds reduce
// results into a loop-carried accumulator in f32 (a plain map rounds at
// every fold), and a matmul into an f16 accumulator rounds the f32 product
// once before adding it. References are plain loops over the compiler's
// `float` and `_Float16`; the reduce is charged at the f16 reduction rate
// (the test machine has no f32 reduction rate at all). A reduce of the
// select form with the accumulator on the left folds each chunk from the
// accumulator it reads, so a row streamed in chunks keeps what follows its
// last NaN.
//
//===----------------------------------------------------------------------===//

#include "../Machine/TestMachine.h"

#include "ktflow/Machine/Values.h"
#include "ktflow/Simulator/Simulator.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

using namespace ktflow::machine;
using namespace ktflow::sim;
using namespace ktflow::machine::test;

namespace {

constexpr uint32_t L1 = 1;
constexpr uint32_t LU = 1, VEC = 2, SU = 3;
constexpr int kChunks = 64, kWidth = 64;

uint32_t reduce(ProgramBuilder &b, ReduceKind kind, uint32_t type,
                uint32_t x) {
  uint32_t r = b.vreg();
  Inst &i = b.emit(Opcode::Reduce);
  i.a = r, i.b = x, i.c = type, i.sub = static_cast<uint8_t>(kind);
  return r;
}

uint32_t splat(ProgramBuilder &b, uint32_t type, double value) {
  uint32_t r = b.vreg();
  Inst &i = b.emit(Opcode::Splat);
  i.a = r, i.c = type;
  std::memcpy(&i.imm, &value, sizeof(double));
  return r;
}

void move(ProgramBuilder &b, uint32_t dst, uint32_t src) {
  Inst &i = b.emit(Opcode::MovV);
  i.a = dst, i.b = src;
}

/// How VEC folds one chunk: given the chunk's and the one-element
/// accumulator's types, the chunk and the accumulator, the next
/// accumulator's register.
using ChunkFold =
    llvm::function_ref<uint32_t(ProgramBuilder &vec, uint32_t chunkType,
                                uint32_t oneType, uint32_t x, uint32_t acc)>;

/// A row of kChunks x kWidth f16 values streamed in chunks to VEC, which
/// folds each into an accumulator splat to `init` (of `accElem`) and sends
/// the result, stored at 32768.
Executable chunkedRow(double init, ElemType accElem, ChunkFold fold) {
  Executable exe;
  exe.fifos = {{"in", LU, VEC, 5, 4, 128}, {"out", VEC, SU, 6, 4, 128}};
  ProgramBuilder lu(LU);
  lu.load(0, L1, 0, 2 * kChunks * kWidth);
  ProgramBuilder vec(VEC);
  uint32_t chunk = vec.vtype(ElemType::f16, {kWidth});
  uint32_t one = vec.vtype(ElemType::f16, {1});
  uint32_t acc = splat(vec, vec.vtype(accElem, {1}), init);
  size_t loop = vec.loopBegin(kChunks);
  uint32_t x = vec.recv(0, chunk);
  move(vec, acc, fold(vec, chunk, one, x, acc));
  vec.loopEnd(loop);
  vec.send(1, acc);
  ProgramBuilder su(SU);
  su.store(1, L1, 32768, 2);
  exe.programs = {lu.done(), vec.done(), su.done()};
  return exe;
}

/// The row sum: each chunk reduced, then folded into the accumulator by a
/// map that is accumulating (input 1) or not.
Executable chunkedSum(bool accumulating) {
  return chunkedRow(0.0, ElemType::f16,
                    [&](ProgramBuilder &vec, uint32_t chunk, uint32_t one,
                        uint32_t x, uint32_t acc) {
                      uint32_t r = reduce(vec, ReduceKind::Add, chunk, x);
                      // The reduce's result type is the one-element vector.
                      vec.p.insts.back().c = one;
                      uint32_t next = vec.map(ScalarOp::AddF, one, r, acc);
                      if (accumulating)
                        vec.p.insts.back().sub = 2; // input 1: accumulator
                      return next;
                    });
}

/// Runs `exe` on the f16 row `x`: the f16 stored at 32768, or the
/// simulator's error.
llvm::Expected<double> runRow(const Executable &exe,
                              const std::vector<float> &x,
                              uint64_t *vecBusy = nullptr) {
  Machine m = makeTestMachine();
  MemoryImage mem(m);
  for (size_t i = 0; i < x.size(); ++i)
    storeElement(ElemType::f16, x[i], mem.writePointer(L1, 2 * i, 2));
  auto stats = simulate(m, exe, mem);
  if (!stats)
    return stats.takeError();
  if (vecBusy)
    *vecBusy = stats->units[1].busyCycles;
  return loadElement(ElemType::f16, mem.readPointer(L1, 32768, 2));
}

std::vector<float> randomHalves(int n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> uniform(-1, 1);
  std::vector<float> v(n);
  for (float &x : v)
    x = static_cast<float>(static_cast<_Float16>(uniform(rng)));
  return v;
}

double runChunkedSum(const std::vector<float> &x, bool accumulating,
                     uint64_t *vecBusy = nullptr) {
  auto got = runRow(chunkedSum(accumulating), x, vecBusy);
  EXPECT_TRUE(static_cast<bool>(got)) << llvm::toString(got.takeError());
  return got ? *got : 0;
}

TEST(AccumulateTest, ReducesAndAccumulatingFoldsStayInF32) {
  std::vector<float> x = randomHalves(kChunks * kWidth, 11);
  float wide = 0;
  _Float16 narrow = 0;
  for (int c = 0; c < kChunks; ++c) {
    float chunk = x[c * kWidth];
    for (int i = 1; i < kWidth; ++i)
      chunk += x[c * kWidth + i];
    wide += chunk;
    narrow = static_cast<_Float16>(
        static_cast<float>(narrow) +
        static_cast<float>(static_cast<_Float16>(chunk)));
  }
  uint64_t busy = 0;
  EXPECT_EQ(runChunkedSum(x, true, &busy),
            static_cast<double>(static_cast<_Float16>(wide)));
  // Per chunk: a 64-wide reduce at 32 f16 elements per cycle (2 cycles)
  // and a one-element add (1 cycle); sends are a fraction of a cycle.
  EXPECT_EQ(busy, static_cast<uint64_t>(kChunks * 3));
  // A plain map rounds the accumulator to f16 at every fold.
  double plain = runChunkedSum(x, false);
  EXPECT_EQ(plain, static_cast<double>(narrow));
  EXPECT_NE(plain, static_cast<double>(static_cast<_Float16>(wide)))
      << "the seed should make per-fold f16 rounding visible";
}

/// The row `x` reduced by `kind` (an after-NaN kind) chunk by chunk, each
/// reduce starting from the accumulator (`init` at first) and its result
/// the next accumulator; or the simulator's error.
llvm::Expected<double> runChunkedAfterNaN(const std::vector<float> &x,
                                          ReduceKind kind, double init,
                                          ElemType accElem = ElemType::f16) {
  return runRow(chunkedRow(init, accElem,
                           [&](ProgramBuilder &vec, uint32_t, uint32_t one,
                               uint32_t x, uint32_t acc) {
                             uint32_t r = reduce(vec, kind, one, x);
                             vec.p.insts.back().d = acc;
                             return r;
                           }),
                x);
}

TEST(AccumulateTest, AfterNaNReducesFoldFromTheAccumulator) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  // A NaN mid-row, after the row's largest and smallest values: only what
  // follows it counts, the chunks before it and the init included.
  std::vector<float> x = randomHalves(kChunks * kWidth, 13);
  x[5] = 7.5f, x[6] = -7.5f;
  x[kWidth + 20] = nan;
  float max = -INFINITY, min = INFINITY;
  for (int i = kWidth + 21; i < kChunks * kWidth; ++i)
    max = std::max(max, x[i]), min = std::min(min, x[i]);
  auto got = runChunkedAfterNaN(x, ReduceKind::MaxAfterNaN, 100);
  ASSERT_TRUE(static_cast<bool>(got)) << llvm::toString(got.takeError());
  EXPECT_EQ(*got, max);
  got = runChunkedAfterNaN(x, ReduceKind::MinAfterNaN, -inf);
  ASSERT_TRUE(static_cast<bool>(got)) << llvm::toString(got.takeError());
  EXPECT_EQ(*got, min);
  // No NaN: the init takes part.
  x[kWidth + 20] = 0;
  got = runChunkedAfterNaN(x, ReduceKind::MaxAfterNaN, 100);
  ASSERT_TRUE(static_cast<bool>(got)) << llvm::toString(got.takeError());
  EXPECT_EQ(*got, 100);
  // A NaN last: NaN.
  x.back() = nan;
  got = runChunkedAfterNaN(x, ReduceKind::MaxAfterNaN, -inf);
  ASSERT_TRUE(static_cast<bool>(got)) << llvm::toString(got.takeError());
  EXPECT_TRUE(std::isnan(*got));
  // An accumulator of another type is an error, not a fold.
  got = runChunkedAfterNaN(x, ReduceKind::MaxAfterNaN, -inf, ElemType::f32);
  ASSERT_FALSE(static_cast<bool>(got));
  EXPECT_NE(llvm::toString(got.takeError()).find("cannot start from"),
            std::string::npos);
}

TEST(AccumulateTest, MatmulRoundsTheF32ProductOnceThenAdds) {
  // [1x64] x [64x1] + 100.5, f16: each operand is one FIFO entry.
  const int k = 64;
  std::vector<float> ab = randomHalves(2 * k, 12);
  const double init = 100.5;
  Machine m = makeTestMachine();
  m.units[VEC].setThroughput(OpClass::Matrix, ElemType::f16, 64);
  Executable exe;
  exe.fifos = {{"in", LU, VEC, 5, 4, 128}, {"out", VEC, SU, 6, 4, 128}};
  ProgramBuilder lu(LU);
  lu.load(0, L1, 0, 4 * k);
  ProgramBuilder vec(VEC);
  uint32_t a = vec.recv(0, vec.vtype(ElemType::f16, {1, k}));
  uint32_t b = vec.recv(0, vec.vtype(ElemType::f16, {k, 1}));
  uint32_t scalar = vec.vtype(ElemType::f16, {1, 1});
  uint32_t acc = splat(vec, scalar, init);
  uint32_t c = vec.vreg();
  Inst &mm = vec.emit(Opcode::Matmul);
  mm.a = c, mm.b = a, mm.c = b, mm.d = acc, mm.e = scalar;
  vec.send(1, c);
  ProgramBuilder su(SU);
  su.store(1, L1, 32768, 2);
  exe.programs = {lu.done(), vec.done(), su.done()};
  MemoryImage mem(m);
  for (int i = 0; i < 2 * k; ++i)
    storeElement(ElemType::f16, ab[i], mem.writePointer(L1, 2 * i, 2));
  auto stats = simulate(m, exe, mem);
  ASSERT_TRUE(static_cast<bool>(stats)) << llvm::toString(stats.takeError());

  float sum = 0;
  _Float16 stepwise = static_cast<_Float16>(init);
  for (int i = 0; i < k; ++i) {
    sum += ab[i] * ab[k + i]; // exact products, f32 sum
    stepwise = static_cast<_Float16>(static_cast<float>(stepwise) +
                                     ab[i] * ab[k + i]);
  }
  double want = static_cast<double>(static_cast<_Float16>(
      init + static_cast<double>(static_cast<_Float16>(sum))));
  double got = loadElement(ElemType::f16, mem.readPointer(L1, 32768, 2));
  EXPECT_EQ(got, want);
  EXPECT_NE(got, static_cast<double>(stepwise))
      << "the seed should make per-step f16 rounding visible";
}

} // namespace

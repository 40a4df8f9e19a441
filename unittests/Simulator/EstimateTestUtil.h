//===- EstimateTestUtil.h - Programs shared by the estimate tests -*- C++
//-*-===//
//
// The test machine's units and memories, the simulated cycles, and the
// stages the whole-kernel estimate tests (EstimateTest.cpp,
// SkewedEstimateTest.cpp) build their programs from.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_UNITTESTS_SIMULATOR_ESTIMATETESTUTIL_H
#define KTFLOW_UNITTESTS_SIMULATOR_ESTIMATETESTUTIL_H

#include "../Machine/TestMachine.h"

#include "ktflow/Machine/Estimate.h"
#include "ktflow/Simulator/Simulator.h"

#include "gtest/gtest.h"

namespace ktflow::machine::test {

constexpr uint32_t DDR = 0, L1 = 1;
constexpr uint32_t DMA = 0, LU = 1, VEC = 2, SU = 3, DMA2 = 4;

/// The test machine with its L1 in core 0 (device memory stays outside).
inline Machine coreMachine(double ddrBandwidth = 0) {
  Machine m = makeTestMachine(ddrBandwidth);
  m.memories[L1].core = 0;
  return m;
}

inline uint64_t simulatedCycles(const Machine &m, const Executable &exe) {
  sim::MemoryImage mem(m);
  auto stats = sim::simulate(m, exe, mem);
  EXPECT_TRUE(static_cast<bool>(stats));
  return stats ? stats->cycles : 0;
}

/// Expects the simulated cycles of `exe` at least `estimate` and at most
/// `slack` more: the ways of the entries and tokens the estimate leaves out.
inline void expectSimulatedAbove(const Machine &m, const Executable &exe,
                                 uint64_t estimate, uint64_t slack) {
  uint64_t simulated = simulatedCycles(m, exe);
  EXPECT_GE(simulated, estimate);
  EXPECT_LE(simulated, estimate + slack);
}

/// Expects `e` bound by the resource named `bottleneck`, with `latency`
/// added to it: `cycles` in all.
inline void expectBoundBy(const KernelEstimate &e, const char *bottleneck,
                          double latency, double cycles) {
  EXPECT_EQ(e.bottleneck, bottleneck);
  EXPECT_DOUBLE_EQ(e.latency, latency);
  EXPECT_DOUBLE_EQ(e.cycles, cycles);
}

/// Expects `exe`'s first program (an engine) busy `engineBusy` cycles and
/// its third (the vector unit) `vectorBusy` in the estimate, which
/// `bottleneck` binds with `latency` added, `cycles` in all; and the
/// simulated cycles at least those and at most `slack` more.
inline void expectEngineAndVector(const Machine &m, const Executable &exe,
                                  double engineBusy, double vectorBusy,
                                  const char *bottleneck, double latency,
                                  double cycles, uint64_t slack) {
  KernelEstimate e = estimateResources(m, exe);
  EXPECT_DOUBLE_EQ(e.unitBusy[0], engineBusy);
  EXPECT_DOUBLE_EQ(e.unitBusy[2], vectorBusy);
  expectBoundBy(e, bottleneck, latency, cycles);
  expectSimulatedAbove(m, exe, static_cast<uint64_t>(cycles), slack);
}

/// The vector unit's program: `entries` entries of 64 f16 received from
/// FIFO 0, each mapped by `op` (unary, or with the entry as both operands)
/// and sent to FIFO 1.
inline UnitProgram mapEntries(int64_t entries, ScalarOp op,
                              bool binary = false) {
  ProgramBuilder vec(VEC);
  uint32_t t = vec.vtype(ElemType::f16, {64});
  size_t loop = vec.loopBegin(entries);
  uint32_t x = vec.recv(0, t);
  vec.send(1, vec.map(op, t, x, binary ? x : kNoReg));
  vec.loopEnd(loop);
  return vec.done();
}

/// The vector unit's program: `entries` entries of 64 f16 received from
/// FIFO 0, each through four exps (16 cycles) and sent to FIFO 1 (2).
inline UnitProgram fourExps(int64_t entries) {
  ProgramBuilder vec(VEC);
  uint32_t t = vec.vtype(ElemType::f16, {64});
  size_t loop = vec.loopBegin(entries);
  uint32_t x = vec.recv(0, t);
  for (int i = 0; i < 4; ++i)
    x = vec.map(ScalarOp::Exp, t, x);
  vec.send(1, x);
  vec.loopEnd(loop);
  return vec.done();
}

/// The load unit, which waits for token 0 and feeds `bytes` from L1 to
/// FIFO 0, and the store unit, which stores what FIFO 1 brings at L1 +
/// 4096 in `rows` rows, each on its own, then sends token 1.
inline std::pair<UnitProgram, UnitProgram> feedAndRows(int64_t bytes,
                                                       int64_t rows) {
  ProgramBuilder lu(LU), su(SU);
  lu.syncRecv(0);
  lu.load(0, L1, 0, bytes);
  size_t loop = su.loopBegin(rows);
  su.store(1, L1, 4096, bytes / rows);
  su.loopEnd(loop);
  su.syncSend(1);
  return {lu.done(), su.done()};
}

/// The store unit stores FIFO 1's entries at L1 + 4096 in `blocks` blocks
/// of `bytes` and signals `done` after each; `engine` stores each block to
/// DDR at 8192 once its token has arrived.
inline void storeInBlocks(ProgramBuilder &engine, ProgramBuilder &su,
                          uint32_t done, int blocks, int64_t bytes) {
  for (int block = 0; block < blocks; ++block) {
    engine.syncRecv(done);
    engine.dma(L1, 4096 + bytes * block, DDR, 8192 + bytes * block, bytes);
    su.store(1, L1, 4096 + bytes * block, bytes);
    su.syncSend(done);
  }
}

/// The load, vector and store units' programs of a compute-bound stage: the
/// load unit waits for `tokens` (sync indices), then feeds 100 chunks of 64
/// f16 from L1 to the vector unit, which takes each one's exp (4 cycles)
/// and sends it (2) to the store unit (600 busy cycles in all), which
/// stores them at L1 + 4096 and then sends each of `signals`.
inline std::vector<UnitProgram> expStage(llvm::ArrayRef<uint32_t> tokens,
                                         llvm::ArrayRef<uint32_t> signals) {
  ProgramBuilder lu(LU);
  for (uint32_t token : tokens)
    lu.syncRecv(token);
  lu.load(0, L1, 0, 128 * 100);
  ProgramBuilder su(SU);
  su.store(1, L1, 4096, 128 * 100);
  for (uint32_t signal : signals)
    su.syncSend(signal);
  return {lu.done(), mapEntries(100, ScalarOp::Exp), su.done()};
}

/// FIFOs from the load unit to the vector unit and on to the store unit,
/// and a sync channel `full` from dma2 to the load unit.
inline Executable fedByDma2() {
  Executable exe;
  exe.fifos = {{"in", LU, VEC, 5, 4, 128}, {"out", VEC, SU, 6, 4, 128}};
  exe.syncs = {{"full", DMA2, LU}};
  return exe;
}

} // namespace ktflow::machine::test

#endif // KTFLOW_UNITTESTS_SIMULATOR_ESTIMATETESTUTIL_H

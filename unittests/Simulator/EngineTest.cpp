//===- EngineTest.cpp - Tests of the simulator's event engine -------------===//
//
// This file tests the timing model against hand-computed cycle counts
// (bandwidth, latency, FIFO pipelining, back-pressure, contention, syncs),
// the functional results, deadlock reports and determinism.
//
//===----------------------------------------------------------------------===//

#include "../Machine/TestMachine.h"

#include "ktflow/Machine/Values.h"
#include "ktflow/Simulator/Simulator.h"

#include "gtest/gtest.h"

#include <limits>

using namespace ktflow::machine;
using namespace ktflow::sim;
using namespace ktflow::machine::test;

namespace {

constexpr uint32_t DDR = 0, L1 = 1;
constexpr uint32_t DMA = 0, LU = 1, VEC = 2, SU = 3, DMA2 = 4;

Executable pipeline(ScalarOp op, int entries) {
  Executable exe;
  exe.fifos = {{"in", LU, VEC, 5, 4, 128}, {"out", VEC, SU, 6, 4, 128}};
  ProgramBuilder lu(LU);
  lu.load(0, L1, 0, 128 * entries);
  ProgramBuilder vec(VEC);
  uint32_t t = vec.vtype(ElemType::f16, {64});
  size_t loop = vec.loopBegin(entries);
  uint32_t x = vec.recv(0, t);
  uint32_t y = op == ScalarOp::AddF ? vec.map(op, t, x, x) : vec.map(op, t, x);
  vec.send(1, y);
  vec.loopEnd(loop);
  ProgramBuilder su(SU);
  su.store(1, L1, 4096, 128 * entries);
  exe.programs = {lu.done(), vec.done(), su.done()};
  return exe;
}

TEST(EngineTest, DmaTakesBytesOverBandwidthPlusLatency) {
  Machine m = makeTestMachine();
  Executable exe;
  ProgramBuilder dma(DMA);
  dma.dma(DDR, 0, L1, 0, 4096);
  exe.programs = {dma.done()};
  MemoryImage mem(m);
  for (int i = 0; i < 4096; ++i)
    mem.writePointer(DDR, i, 1)[0] = static_cast<uint8_t>(i * 7);
  auto stats = simulate(m, exe, mem);
  ASSERT_TRUE(static_cast<bool>(stats)) << llvm::toString(stats.takeError());
  // ceil(4096 / 32) + (10 + 2) latency.
  EXPECT_EQ(stats->cycles, 128u + 12u);
  EXPECT_EQ(stats->units[0].busyCycles, 140u);
  EXPECT_EQ(stats->units[0].stalledCycles, 0u);
  EXPECT_EQ(stats->units[0].bytesMoved, 4096u);
  for (int i = 0; i < 4096; ++i)
    ASSERT_EQ(mem.readPointer(L1, i, 1)[0], static_cast<uint8_t>(i * 7));
}

TEST(EngineTest, FifoPipelineComputesAndOverlaps) {
  Machine m = makeTestMachine();
  Executable exe = pipeline(ScalarOp::AddF, 8);
  MemoryImage mem(m);
  for (int i = 0; i < 512; ++i)
    storeElement(ElemType::f16, i - 100, mem.writePointer(L1, 2 * i, 2));
  auto stats = simulate(m, exe, mem);
  ASSERT_TRUE(static_cast<bool>(stats)) << llvm::toString(stats.takeError());
  // Entry k reaches vec at 2k+4; vec needs 1 (add) + 2 (send) cycles per
  // entry, so output k is available at 8+3k; su writes the last (k = 7)
  // from 29 to 31 and it lands at 32.
  EXPECT_EQ(stats->cycles, 32u);
  // lu never waits; vec waits only for the first entry (4 cycles).
  EXPECT_EQ(stats->units[0].stalledCycles, 0u);
  EXPECT_EQ(stats->units[1].stalledCycles, 4u);
  EXPECT_EQ(stats->units[1].busyCycles, 8u * 3u);
  for (int i = 0; i < 512; ++i)
    ASSERT_EQ(loadElement(ElemType::f16, mem.readPointer(L1, 4096 + 2 * i, 2)),
              2.0 * (i - 100));
}

TEST(EngineTest, FullFifoStallsTheProducer) {
  Machine m = makeTestMachine();
  Executable exe = pipeline(ScalarOp::Exp, 16);
  MemoryImage mem(m);
  auto stats = simulate(m, exe, mem);
  ASSERT_TRUE(static_cast<bool>(stats)) << llvm::toString(stats.takeError());
  // vec: 64/16 = 4 cycles of exp + 2 of send per entry; output k is
  // available at 11+6k; the last (k = 15) is written 101..103, lands 104.
  EXPECT_EQ(stats->cycles, 104u);
  EXPECT_GT(stats->units[0].stalledCycles, 0u);
}

TEST(EngineTest, SyncOrdersTwoUnits) {
  Machine m = makeTestMachine();
  Executable exe;
  exe.syncs = {{"ready", DMA, DMA2}};
  ProgramBuilder a(DMA);
  a.dma(DDR, 0, L1, 0, 1024);
  a.syncSend(0);
  ProgramBuilder b(DMA2);
  b.syncRecv(0);
  b.dma(DDR, 1024, L1, 1024, 1024);
  exe.programs = {a.done(), b.done()};
  MemoryImage mem(m);
  auto stats = simulate(m, exe, mem);
  ASSERT_TRUE(static_cast<bool>(stats)) << llvm::toString(stats.takeError());
  // 1024/32 + 12 = 44; the token lands 3 cycles later; then 44 again.
  EXPECT_EQ(stats->cycles, 44u + 3u + 44u);
  EXPECT_EQ(stats->units[1].stalledCycles, 47u);
}

TEST(EngineTest, SharedMemoryBandwidthIsContended) {
  Machine m = makeTestMachine(/*ddrBandwidth=*/32);
  Executable exe;
  ProgramBuilder a(DMA), b(DMA2);
  a.dma(DDR, 0, L1, 0, 4096);
  b.dma(DDR, 4096, L1, 4096, 4096);
  exe.programs = {a.done(), b.done()};
  MemoryImage mem(m);
  auto stats = simulate(m, exe, mem);
  ASSERT_TRUE(static_cast<bool>(stats)) << llvm::toString(stats.takeError());
  // 8192 bytes through a 32 B/cycle DDR: 256 cycles, + 12 latency.
  EXPECT_EQ(stats->cycles, 268u);
  EXPECT_GT(stats->units[1].stalledCycles, 100u);
}

TEST(EngineTest, LaterRequestFillsTheGapBeforeAReservation) {
  // DDR at 32 B/cycle, L1 at 64: a 128-byte chunk holds DDR and the DMA
  // links 4 cycles and L1 2 of them.
  Machine m = makeTestMachine(/*ddrBandwidth=*/32);
  m.memories[L1].bandwidth = 64;
  Executable exe;
  exe.fifos = {{"in", LU, VEC, 5, 4, 128}};
  ProgramBuilder a(DMA), b(DMA2), lu(LU), vec(VEC);
  a.dma(DDR, 0, L1, 0, 128);
  b.dma(DDR, 128, L1, 128, 128);
  lu.load(0, L1, 1024, 128);
  vec.recv(0, vec.vtype(ElemType::f16, {64}));
  exe.programs = {a.done(), b.done(), lu.done(), vec.done()};
  MemoryImage mem(m);
  auto stats = simulate(m, exe, mem);
  ASSERT_TRUE(static_cast<bool>(stats)) << llvm::toString(stats.takeError());
  // All start at 0, run in program order. dma: DDR 0-4, L1 0-2. dma2 waits
  // for DDR: 4-8, L1 4-6. The load (L1 and its links, 2 cycles) asks at 0
  // after both: L1 is free 2-4, so it starts at 2, not behind dma2's
  // reservation at 6.
  EXPECT_EQ(stats->units[2].stalledCycles, 2u);
  EXPECT_EQ(stats->units[2].busyCycles, 2u);
  // dma2 lands at 8 + 12.
  EXPECT_EQ(stats->cycles, 20u);
}

TEST(EngineTest, DeadlockNamesTheWaitingUnits) {
  Machine m = makeTestMachine();
  Executable exe;
  exe.fifos = {{"in", LU, VEC, 5, 4, 128}};
  exe.syncs = {{"go", DMA, DMA2}};
  ProgramBuilder lu(LU);
  ProgramBuilder vec(VEC);
  vec.recv(0, vec.vtype(ElemType::f16, {64}));
  ProgramBuilder dma(DMA), dma2(DMA2);
  dma2.syncRecv(0);
  exe.programs = {lu.done(), vec.done(), dma.done(), dma2.done()};
  MemoryImage mem(m);
  auto stats = simulate(m, exe, mem);
  ASSERT_FALSE(static_cast<bool>(stats));
  std::string msg = llvm::toString(stats.takeError());
  EXPECT_NE(msg.find("deadlock"), std::string::npos) << msg;
  EXPECT_NE(msg.find("core0.vec"), std::string::npos) << msg;
  EXPECT_NE(msg.find("FIFO 'in' (empty; its producer is core0.lu)"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("core0.dma2"), std::string::npos) << msg;
  EXPECT_NE(msg.find("sync 'go' from core0.dma"), std::string::npos) << msg;
}

TEST(EngineTest, OutOfBoundsAccessIsAnError) {
  Machine m = makeTestMachine();
  Executable exe;
  ProgramBuilder dma(DMA);
  dma.dma(DDR, 0, L1, (64 << 10) - 64, 128);
  exe.programs = {dma.done()};
  MemoryImage mem(m);
  auto stats = simulate(m, exe, mem);
  ASSERT_FALSE(static_cast<bool>(stats));
  std::string msg = llvm::toString(stats.takeError());
  EXPECT_NE(msg.find("outside core0.L1 (65536 bytes capacity)"),
            std::string::npos)
      << msg;
}

// A source address near 2^63 (a fuzzed bundle's): the transfer's byte range
// must not overflow (UBSan in the sanitized CI job) and the access is an
// error, not a wild read.
TEST(EngineTest, AddressNearTheTopOfInt64IsAnError) {
  Machine m = makeTestMachine();
  Executable exe;
  ProgramBuilder dma(DMA);
  dma.dma(DDR, std::numeric_limits<int64_t>::max() - 57, L1, 0, 8192);
  exe.programs = {dma.done()};
  MemoryImage mem(m);
  auto stats = simulate(m, exe, mem);
  ASSERT_FALSE(static_cast<bool>(stats));
  std::string msg = llvm::toString(stats.takeError());
  EXPECT_NE(msg.find("outside"), std::string::npos) << msg;
}

TEST(EngineTest, ProgramOfWrongUnitIsRejected) {
  Machine m = makeTestMachine();
  Executable exe;
  exe.fifos = {{"in", LU, VEC, 5, 4, 128}};
  ProgramBuilder su(SU); // not the consumer of "in"
  su.recv(0, su.vtype(ElemType::f16, {64}));
  exe.programs = {su.done()};
  MemoryImage mem(m);
  auto stats = simulate(m, exe, mem);
  ASSERT_FALSE(static_cast<bool>(stats));
  EXPECT_NE(llvm::toString(stats.takeError()).find("not the consumer"),
            std::string::npos);
}

TEST(EngineTest, SimulationIsDeterministic) {
  Machine m = makeTestMachine(/*ddrBandwidth=*/48);
  auto runOnce = [&] {
    Executable exe = pipeline(ScalarOp::Exp, 16);
    ProgramBuilder a(DMA), b(DMA2);
    a.dma(DDR, 0, L1, 8192, 3000);
    b.dma(DDR, 4096, L1, 16384, 5000);
    exe.programs.push_back(a.done());
    exe.programs.push_back(b.done());
    MemoryImage mem(m);
    std::vector<TraceEvent> trace;
    SimOptions options;
    options.recordTrace = true;
    auto stats = simulate(m, exe, mem, options, &trace);
    EXPECT_TRUE(static_cast<bool>(stats));
    std::vector<uint64_t> out{stats->cycles};
    for (const UnitStats &u : stats->units)
      out.insert(out.end(), {u.busyCycles, u.stalledCycles, u.finishCycle});
    for (const TraceEvent &e : trace)
      out.insert(out.end(), {e.start, e.end});
    return out;
  };
  EXPECT_EQ(runOnce(), runOnce());
}

} // namespace

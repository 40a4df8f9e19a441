//===- EngineSlotEstimateTest.cpp - Slots of an engine that waits tokens -===//
//
// This file checks machine::estimateKernel on an engine that keeps several
// transfers in flight and waits for a load unit to hand its buffers back,
// against hand values and the simulator.
//
//===----------------------------------------------------------------------===//

#include "EstimateTestUtil.h"

#include "ktflow/Machine/Estimate.h"

using namespace ktflow::machine;
using namespace ktflow::sim;
using namespace ktflow::machine::test;

namespace {

TEST(EngineSlotEstimateTest, HandedBackBufferLeavesLaterTransfersInFlight) {
  // An engine that keeps two transfers in flight loads eight 128-byte rows
  // into four buffer copies and signals each (token 0); from the fifth on
  // it first waits for the load unit to hand the copy back (token 1), which
  // the load unit does after feeding each of the first four rows
  // (while_loop's rows on sample_device: four in flight, eight copies).
  // Each row leaves in 128 / 32 = 4 cycles and lands 12 later; a token
  // leaves once the rows in flight landed. By hand: #0 0-4 (lands 16,
  // token 16), #1 4-8 (20, token 20); #2 waits for #0, 16-20 (32); #3
  // 20-24 (36). #4's copy comes back after token #0 (16): #2 and #3 may
  // still be in flight, so #4 waits for #2, 32-36 (48); #5's after token
  // #1 (20), 36-40 (52; #3 landed at 36); #6 waits for #4, 48-52 (64); #7
  // 52-56 (68). Busy 56. Before, every transfer in flight was taken to land
  // while the engine waited for a token: #4 24-28 (40), #5 28-32 (44), #6
  // waits for #4, 40-44, #7 44-48: busy 48.
  Machine m = coreMachine();
  m.units[DMA2].maxOutstanding = 2;
  Executable exe = fedByDma2();
  exe.syncs.push_back({"free", LU, DMA2});
  ProgramBuilder dma(DMA2), lu(LU), su(SU);
  for (int i = 0; i < 8; ++i) {
    if (i >= 4)
      dma.syncRecv(1);
    dma.dma(DDR, i * 128, L1, (i % 4) * 128, 128);
    dma.syncSend(0);
    lu.syncRecv(0);
    lu.load(0, L1, (i % 4) * 128, 128);
    if (i < 4)
      lu.syncSend(1);
  }
  su.store(1, L1, 4096, 128 * 8);
  exe.programs = {dma.done(), lu.done(), mapEntries(8, ScalarOp::Exp),
                  su.done()};
  KernelEstimate e = estimateResources(m, exe);
  EXPECT_DOUBLE_EQ(e.unitBusy[0], 56);
  // The engine binds, followed by the first row's latency and the last
  // row's compute and store (18); simulated 87: the tail through the load,
  // vector and store units, each a row behind.
  expectBoundBy(e, "core0.dma2", 18, 74);
  expectSimulatedAbove(m, exe, 74, 13);
}

TEST(EngineSlotEstimateTest, StoreEngineBehindFasterRowsRunsAtItsSlotsRate) {
  // dma2 loads eight 128-byte rows in one DMA and signals the load unit
  // (token 0); the vector unit maps each row (4 cycles, sent in 2) and the
  // store unit signals each row stored (token 1), on which the other
  // engine, two transfers in flight, stores the row as four 32-byte DMAs
  // (row_stats' one-element stores on sample_device: a row every ~6
  // cycles, each store 13 cycles in flight, 1 on the route and 12 of
  // latency). By hand: the first token comes once the rows have landed
  // (1024 / 32 + 12 = 44), the first row has gone through the load unit,
  // both FIFOs and the store unit (2 + 1 + 1 + 1 + 1 = 6) and the token
  // (3): 53; from it the 32 stores go two at a time, one pair each 13
  // cycles, the last landing 16 x 13 + 1 = 209 cycles later: 262.
  // Simulated 273 (the first row's map and sends). Before, the walk took
  // the stores in flight to land while the engine waited for each row's
  // token (15 cycles a row, busy 120): 192.
  Machine m = coreMachine();
  m.units[DMA].maxOutstanding = 2;
  Executable exe = fedByDma2();
  exe.syncs.push_back({"row", SU, DMA});
  ProgramBuilder dma(DMA), dma2(DMA2), lu(LU), su(SU);
  dma2.dma(DDR, 0, L1, 0, 1024);
  dma2.syncSend(0);
  lu.syncRecv(0);
  lu.load(0, L1, 0, 1024);
  for (int row = 0; row < 8; ++row) {
    dma.syncRecv(1);
    for (int part = 0; part < 4; ++part)
      dma.dma(L1, 4096 + row * 128 + part * 32, DDR,
              8192 + row * 128 + part * 32, 32);
    su.store(1, L1, 4096 + row * 128, 128);
    su.syncSend(1);
  }
  exe.programs = {dma.done(), lu.done(), mapEntries(8, ScalarOp::Exp),
                  su.done(), dma2.done()};
  KernelEstimate e = estimateResources(m, exe);
  EXPECT_DOUBLE_EQ(e.unitBusy[0], 120);
  expectBoundBy(e, "core0.dma slots", 53, 262);
  expectSimulatedAbove(m, exe, 262, 11);
}

TEST(EngineSlotEstimateTest, EnginesLoadingAtOnceShareTheDeviceMemory) {
  // Two engines, each with its 32 B/cycle route from DDR (latency 12) and
  // two transfers in flight, load four 1024-byte blocks at once from a DDR
  // of 32 B/cycle (attention_1024x1024x128 on spyre_like: 32 DMA_IN
  // engines in step on 1024 B/cycle, 32 each). Each moves at its 16
  // B/cycle share: a block holds the engine 64 cycles and a slot 76, so
  // by hand block k leaves at 64 (k + 1), busy 256 an engine, the last
  // landing at 268. Before, the walk moved each at the route's 32 B/cycle
  // (busy 128) and only DDR's 8 KiB at 32 B/cycle (256) saw the sharing.
  Machine m = coreMachine(/*ddrBandwidth=*/32);
  m.units[DMA].maxOutstanding = m.units[DMA2].maxOutstanding = 2;
  Executable exe;
  ProgramBuilder dma(DMA), dma2(DMA2);
  for (int i = 0; i < 4; ++i) {
    dma.dma(DDR, i * 1024, L1, i * 1024, 1024);
    dma2.dma(DDR, 4096 + i * 1024, L1, 4096 + i * 1024, 1024);
  }
  exe.programs = {dma.done(), dma2.done()};
  KernelEstimate e = estimateResources(m, exe);
  EXPECT_DOUBLE_EQ(e.unitBusy[0], 256);
  EXPECT_DOUBLE_EQ(e.unitBusy[1], 256);
  EXPECT_DOUBLE_EQ(e.memoryBusy[DDR], 256);
  EXPECT_DOUBLE_EQ(e.cycles, 268);
  expectSimulatedAbove(m, exe, 268, 0);
}

TEST(EngineSlotEstimateTest, GatherEnginesThatLoadOnceAnIndexReadStayInStep) {
  // Two engines, two transfers in flight each, gather four 256-byte rows
  // from a DDR of 32 B/cycle: per row an 8-byte index read from DDR (8 /
  // 32 + 10 cycles) and one DMA of the row to L1 (latency 12). Each engine's
  // next index read waits for DDR to serve both engines' rows, asked for at
  // once: they read each index at once and idle at once, so every row moves
  // at the equal share, 16 B/cycle (indexed_add_2048x1024 on spyre_like:
  // 32 DMA_IN engines, one 1 KiB row an index read). By hand each row
  // holds its engine 10.25 + 256 / 16 = 26.25 cycles, four 105, and the
  // last lands 12 later: 117. Before, the walk took the other engine's
  // index reads to fall between this one's rows (the duty share after
  // the first row): 96 busy, 108 in all.
  Machine m = coreMachine(/*ddrBandwidth=*/32);
  m.units[DMA].maxOutstanding = m.units[DMA2].maxOutstanding = 2;
  Executable exe;
  ProgramBuilder dma(DMA), dma2(DMA2);
  for (int row = 0; row < 4; ++row) {
    dma.readIndex(DDR, 16384 + 8 * row, 8, 64);
    dma.dma(DDR, row * 2048, L1, row * 256, 256);
    dma2.readIndex(DDR, 16384 + 8 * row, 8, 64);
    dma2.dma(DDR, 8192 + row * 2048, L1, 4096 + row * 256, 256);
  }
  exe.programs = {dma.done(), dma2.done()};
  KernelEstimate e = estimateKernel(m, exe);
  EXPECT_DOUBLE_EQ(e.unitBusy[0], 105);
  EXPECT_DOUBLE_EQ(e.unitBusy[1], 105);
  EXPECT_DOUBLE_EQ(e.cycles, 117);
  expectSimulatedAbove(m, exe, 117, 8);
}

} // namespace

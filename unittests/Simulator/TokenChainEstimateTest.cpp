//===- TokenChainEstimateTest.cpp - Tokens passed unit to unit, by hand ---===//
//
// This file checks the whole-kernel estimate's token chains (TokenChains.h)
// on a ring of units that each wait for the token of the one before: the
// per-unit walk charges each unit its own cycles, the chain the waits
// between them. Hand values on the test machine (TestMachine.h), compared
// with the simulator.
//
//===----------------------------------------------------------------------===//

#include "EstimateTestUtil.h"

using namespace ktflow::machine;
using namespace ktflow::machine::test;

namespace {

/// Eight steps of a ring: the engine copies 64 bytes from DDR to L1 and
/// signals the load unit, which loads a 128-byte entry for the vector
/// unit; that takes its exp and sends it to the store unit, which stores
/// it and signals the engine, whose next copy waits for that token (a ring
/// reduction's steps, each unit waiting for the one before).
Executable ring() {
  Executable exe;
  exe.fifos = {{"in", LU, VEC, 5, 4, 128}, {"out", VEC, SU, 6, 4, 128}};
  exe.syncs = {{"copied", DMA, LU}, {"stored", SU, DMA}};
  ProgramBuilder dma(DMA);
  dma.dma(DDR, 0, L1, 0, 64);
  dma.syncSend(0);
  size_t dmaLoop = dma.loopBegin(7);
  dma.syncRecv(1);
  dma.dma(DDR, 0, L1, 0, 64);
  dma.syncSend(0);
  dma.loopEnd(dmaLoop);
  dma.syncRecv(1);
  ProgramBuilder lu(LU);
  size_t luLoop = lu.loopBegin(8);
  lu.syncRecv(0);
  lu.load(0, L1, 0, 128);
  lu.loopEnd(luLoop);
  ProgramBuilder su(SU);
  size_t suLoop = su.loopBegin(8);
  su.store(1, L1, 1024, 128);
  su.syncSend(1);
  su.loopEnd(suLoop);
  exe.programs = {dma.done(), lu.done(), mapEntries(8, ScalarOp::Exp),
                  su.done()};
  return exe;
}

TEST(TokenChainEstimateTest, RingOfTokensAddsEachUnitsStep) {
  // Each step, by hand: the copy (64 / 32 = 2 cycles, landing 10 + 2
  // later) 14; the token 3; the load (128 / 64 = 2) and its entry through
  // L1 -> lu and the FIFO (1 + 1) 4; the exp (64 / 16) 4; the send (2) and
  // the FIFO (1) 3; the store (2) landing (1) 3; the token back 3: 34, and
  // 8 x 34 = 272 when the engine has the last token (simulated 272). The
  // units' own cycles are 8 x 14 = 112 at most (the engine's): before,
  // the estimate was those and 6 of fill and drain, 118.
  Machine m = coreMachine();
  Executable exe = ring();
  KernelEstimate e = estimateKernel(m, exe);
  EXPECT_DOUBLE_EQ(e.unitBusy[0], 112);
  expectBoundBy(e, "core0.dma token chain", 0, 272);
  EXPECT_DOUBLE_EQ(estimateResources(m, exe).cycles, 118);
  expectSimulatedAbove(m, exe, 272, 0);
}

TEST(TokenChainEstimateTest, ReplayKeepsOnlyTheStorageOfTheLast) {
  // The replay keeps its FIFOs' and channels' storage for the next one
  // (TokenChains.cpp): a replay that stops with tokens and entries left
  // (no load unit: the engine's tokens and the vector unit's wait are
  // never answered) leaves nothing the next estimate of the ring reads.
  Machine m = coreMachine();
  Executable exe = ring();
  Executable stuck = ring();
  stuck.programs.erase(stuck.programs.begin() + 1);
  expectBoundBy(estimateKernel(m, exe), "core0.dma token chain", 0, 272);
  EXPECT_NE(estimateKernel(m, stuck).bottleneck, "core0.dma token chain");
  expectBoundBy(estimateKernel(m, exe), "core0.dma token chain", 0, 272);
}

} // namespace

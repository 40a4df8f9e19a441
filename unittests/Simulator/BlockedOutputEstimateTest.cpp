//===- BlockedOutputEstimateTest.cpp - Output stored in blocks ------------===//
//
// This file checks machine::estimateKernel where a stage's output is stored
// in blocks, each announced by its own token from the store unit: only the
// stores after the last block's token follow the compute.
//
//===----------------------------------------------------------------------===//

#include "EstimateTestUtil.h"

#include "ktflow/Machine/Estimate.h"

using namespace ktflow::machine;
using namespace ktflow::machine::test;

namespace {

TEST(EstimateTest, DrainIsTheStoresAfterTheOutputsLastToken) {
  // dma2 first hands `ready` to the store engine (dma: the handshake of a
  // copy between tiles), then loads 1 KiB and signals `full`; the load
  // unit feeds it as 8 entries to the vector unit (four exps and a send
  // each: 8 x 18 = 144 cycles), whose store unit stores two entries a
  // block and signals `done` after each; dma waits for `ready`, then
  // stores each 256-byte block after its `done`.
  Machine m = coreMachine();
  Executable exe;
  exe.fifos = {{"in", LU, VEC, 5, 4, 128}, {"out", VEC, SU, 6, 4, 128}};
  exe.syncs = {{"ready", DMA2, DMA}, {"full", DMA2, LU}, {"done", SU, DMA}};
  ProgramBuilder loader(DMA2), storer(DMA), lu(LU), su(SU);
  loader.syncSend(0);
  loader.dma(DDR, 0, L1, 0, 1024);
  loader.syncSend(1);
  storer.syncRecv(0);
  lu.syncRecv(1);
  lu.load(0, L1, 0, 1024);
  storeInBlocks(storer, su, 2, 4, 256);
  exe.programs = {storer.done(), lu.done(), fourExps(8), su.done(),
                  loader.done()};
  KernelEstimate e = estimateResources(m, exe);
  // The vector unit binds (144). Before its first entry: the 1 KiB loaded
  // before `full` at 32 B/cycle and the route's latency 10 + 2: 44. After
  // its last: the 256 bytes stored after the last `done`, 8, and 2 + 10:
  // 20. (`ready`, sent before dma2's load, announces no output: with the
  // 1 KiB stored after it, 44, the estimate was 232.)
  EXPECT_DOUBLE_EQ(e.unitBusy[2], 144);
  expectBoundBy(e, "core0.vec", 64, 208);
  // The simulator adds the entries' ways and the tokens' latencies.
  expectSimulatedAbove(m, exe, 208, 20);
}

} // namespace

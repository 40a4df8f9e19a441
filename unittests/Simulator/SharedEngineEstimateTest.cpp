//===- SharedEngineEstimateTest.cpp - An engine that loads and stores ----===//
//
// This file checks machine::estimateKernel on one engine that loads and
// stores in program order (mesh_device's DMA): an execution's loads, then,
// after its compute, its stores, then the next execution's loads.
//
//===----------------------------------------------------------------------===//

#include "EstimateTestUtil.h"

#include "ktflow/Machine/Estimate.h"

using namespace ktflow::machine;
using namespace ktflow::machine::test;

namespace {

TEST(EstimateTest, SharedEngineWaitsForSlotsBeforeTheComputesData) {
  // Two executions: the engine, two transfers in flight, loads eight
  // 64-byte rows (a paged gather's) and signals `full`, waits for `done`
  // and stores the 512-byte result; before the second execution's loads it
  // waits for the load unit's `free`. The load unit feeds each execution's
  // 512 bytes to the vector unit (4 entries, exp 4 + send 2: 24 cycles),
  // whose store unit stores them to L1 and signals `done`.
  Machine m = coreMachine();
  m.units[DMA].maxOutstanding = 2;
  Executable exe;
  exe.fifos = {{"in", LU, VEC, 5, 4, 128}, {"out", VEC, SU, 6, 4, 128}};
  exe.syncs = {{"full", DMA, LU}, {"done", SU, DMA}, {"free", LU, DMA}};
  ProgramBuilder dma(DMA), lu(LU), su(SU);
  for (int execution = 0; execution < 2; ++execution) {
    if (execution)
      dma.syncRecv(2);
    for (int i = 0; i < 8; ++i)
      dma.dma(DDR, i * 64, L1, i * 64, 64);
    dma.syncSend(0);
    dma.syncRecv(1);
    dma.dma(L1, 4096 + 512 * execution, DDR, 8192 + 512 * execution, 512);
    lu.syncRecv(0);
    lu.load(0, L1, 0, 512);
    if (!execution)
      lu.syncSend(2);
    su.store(1, L1, 4096 + 512 * execution, 512);
    su.syncSend(1);
  }
  exe.programs = {dma.done(), lu.done(), mapEntries(8, ScalarOp::Exp),
                  su.done()};
  // An execution's loads as in
  // EngineWaitsForASlotForEachTransferPastItsMaximum: 46 cycles, 16
  // leaving and 30 waiting for a slot (the token to the load unit leaves
  // once they have landed, at 58); the store ceil(512 / 32) = 16 leaving:
  // the engine is busy 2 x 62 = 124. The serial sum charged the loads
  // their occupancy and one landing, 12, an execution: 124 - 60 + 24 = 88,
  // plus the vector unit's 2 x 24 = 48 and the last store's landing 12:
  // 148. But the vector unit waits, empty, for `full`, behind the waits
  // for a slot: 30 more an execution, 208. The simulator (246 cycles) adds
  // the tokens' and the entries' ways, and the second execution's loads
  // wait for a slot the first store holds.
  expectEngineAndVector(m, exe, 124, 48, "core0.dma + compute", 12, 208, 40);
}

} // namespace

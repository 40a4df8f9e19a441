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
  // the engine is busy 2 x 62 = 124. The engine loads the second
  // execution only after `done`, the store unit's token for the first's
  // output: each execution is one chain the vector unit waits through,
  // empty -- the loads landed (58), the token to the load unit (3), the
  // first entry fed (128 bytes at 64 B/cycle: 2), the vector unit's 24,
  // the token back (3) and the engine's store (16): 2 x 106 = 212, plus
  // the last store's landing 12: 224 (the serial sum of the engine's
  // transfers and the compute, with the waits for a slot before `full`,
  // gave 208). The simulator (246 cycles) adds the entries' ways and the
  // second execution's loads wait for a slot the first store holds.
  expectEngineAndVector(m, exe, 124, 48, "core0.dma + compute", 12, 224, 24);
}

TEST(EstimateTest, SharedEngineRefillsABufferOnceItIsFed) {
  // Four executions through one 512-byte buffer: the engine loads each
  // (after the first, once the load unit's `free` has arrived) and signals
  // `full`; the load unit feeds each as four entries and hands the buffer
  // back as soon as it has loaded them, before the vector unit has
  // computed them. After the last, the engine waits for the store unit's
  // `done` and stores the 2 KiB result.
  Machine m = coreMachine();
  Executable exe;
  exe.fifos = {{"in", LU, VEC, 5, 4, 128}, {"out", VEC, SU, 6, 4, 128}};
  exe.syncs = {{"full", DMA, LU}, {"done", SU, DMA}, {"free", LU, DMA}};
  ProgramBuilder dma(DMA), lu(LU), vec(VEC), su(SU);
  for (int execution = 0; execution < 4; ++execution) {
    if (execution)
      dma.syncRecv(2);
    dma.dma(DDR, 512 * execution, L1, 0, 512);
    dma.syncSend(0);
    lu.syncRecv(0);
    lu.load(0, L1, 0, 512);
    if (execution < 3)
      lu.syncSend(2);
  }
  dma.syncRecv(1);
  dma.dma(L1, 4096, DDR, 8192, 2048);
  // Four exps (4 cycles each) and a send (2) an entry: 16 x 18 = 288.
  uint32_t t = vec.vtype(ElemType::f16, {64});
  size_t loop = vec.loopBegin(16);
  uint32_t x = vec.recv(0, t);
  for (int i = 0; i < 4; ++i)
    x = vec.map(ScalarOp::Exp, t, x);
  vec.send(1, x);
  vec.loopEnd(loop);
  su.store(1, L1, 4096, 2048);
  su.syncSend(1);
  exe.programs = {dma.done(), lu.done(), vec.done(), su.done()};
  // The engine, one transfer in flight, is busy 4 x (16 + 12) loading and
  // 64 + 12 storing: 188. Its loads after the first wait only for `free`:
  // they overlap the vector unit's 288 cycles, and only the first
  // execution is a chain -- its load landed (28), the token (3), the first
  // entry fed (2), the compute (288), `done` (3) and the store, landed
  // (76): 400 (the serial sum of the engine's transfers and the compute
  // gave 188 + 12 + 288 + 12 = 500). Simulated 406: the entries' ways.
  expectEngineAndVector(m, exe, 188, 288, "core0.dma + compute", 0, 400, 10);
}

} // namespace

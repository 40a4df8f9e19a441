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
  // once they have landed, at 58); the store ceil(512 / 32) = 16 leaving,
  // 46-62, landing at 62 + 12 = 74. The load unit's `free` answers the
  // token of 58: the store may still be in flight and holds a slot, so the
  // second execution's loads take 56 (#0 62-64, #1 waits for the store,
  // 74-76, each later one for the one two before: 78, 88, 92, 102, 106,
  // 116-118): the engine is busy 62 + 56 + 16 = 134. The engine loads the
  // second execution only after `done`, the store unit's token for the first's
  // output: each execution is one chain the vector unit waits through,
  // empty -- the loads landed (58), the token to the load unit (3), the
  // first entry fed (128 bytes at 64 B/cycle: 2), the vector unit's 24,
  // the token back (3) and the engine's store (16): 2 x 106 = 212, plus
  // the last store's landing 12: 224 (the serial sum of the engine's
  // transfers and the compute, with the waits for a slot before `full`,
  // gave 208). The simulator (246 cycles) adds the entries' ways and the
  // second execution's loads wait for a slot the first store holds.
  expectEngineAndVector(m, exe, 134, 48, "core0.dma + compute", 12, 224, 24);
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
  ProgramBuilder dma(DMA), lu(LU), su(SU);
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
  su.store(1, L1, 4096, 2048);
  su.syncSend(1);
  exe.programs = {dma.done(), lu.done(), fourExps(16), su.done()};
  // The engine, one transfer in flight, is busy 4 x (16 + 12) loading and
  // 64 + 12 storing: 188. Its loads after the first wait only for `free`:
  // they overlap the vector unit's 288 cycles, and only the first
  // execution is a chain -- its load landed (28), the token (3), the first
  // entry fed (2), the compute (288), `done` (3) and the store, landed
  // (76): 400 (the serial sum of the engine's transfers and the compute
  // gave 188 + 12 + 288 + 12 = 500). Simulated 406: the entries' ways.
  expectEngineAndVector(m, exe, 188, 288, "core0.dma + compute", 0, 400, 10);
}

TEST(EstimateTest, SharedEngineStoresEachBlockWhileTheNextIsComputed) {
  // One execution whose output the store unit stores in four blocks,
  // each announced by its own `done`: the engine loads 1 KiB (32 + 12 =
  // 44 cycles, one in flight) and signals `full`; the load unit feeds it
  // as 8 entries to the vector unit (four exps and a send each: 8 x 18 =
  // 144 cycles), whose store unit stores two entries a block; the engine
  // stores each 256-byte block (8 + 12 = 20) after its token.
  Machine m = coreMachine();
  Executable exe;
  exe.fifos = {{"in", LU, VEC, 5, 4, 128}, {"out", VEC, SU, 6, 4, 128}};
  exe.syncs = {{"full", DMA, LU}, {"done", SU, DMA}};
  ProgramBuilder dma(DMA), lu(LU), su(SU);
  dma.dma(DDR, 0, L1, 0, 1024);
  dma.syncSend(0);
  lu.syncRecv(0);
  lu.load(0, L1, 0, 1024);
  storeInBlocks(dma, su, 1, 4, 256);
  exe.programs = {dma.done(), lu.done(), fourExps(8), su.done()};
  // The engine is busy 44 + 4 x 20 = 124. Its one execution is a chain
  // through the vector unit: the load landed (44), the token (3), the
  // first entry fed (2), the compute (144), the token back (3) and the
  // stores; but each of the first three blocks' stores (20) goes while the
  // vector unit computes the next block (144 / 4 = 36), so only the last
  // block's follows the compute: 44 + 3 + 2 + 144 + 3 + 20 = 216 (all four
  // after the compute gave 276). Simulated 223: the entries' ways.
  expectEngineAndVector(m, exe, 124, 144, "core0.dma + compute", 0, 216, 10);
}

TEST(EstimateTest, StoreUnitWorksBetweenTheEnginesLoadsAndStores) {
  // StoreUnitBoundStoresEachRowOfAMaskedTile with one engine that loads
  // and stores: it loads the 1 KiB (32 + 12 = 44 cycles, one in flight),
  // signals the load unit, waits for the store unit's `stored` and stores
  // the 1 KiB back (44).
  Machine m = coreMachine();
  m.links[7].latency = 6;
  Executable exe;
  exe.fifos = {{"in", LU, VEC, 5, 4, 128}, {"out", VEC, SU, 6, 4, 128}};
  exe.syncs = {{"full", DMA, LU}, {"stored", SU, DMA}};
  ProgramBuilder dma(DMA);
  dma.dma(DDR, 0, L1, 0, 1024);
  dma.syncSend(0);
  dma.syncRecv(1);
  dma.dma(L1, 4096, DDR, 8192, 1024);
  auto [lu, su] = feedAndRows(1024, 8);
  exe.programs = {dma.done(), lu,
                  mapEntries(8, ScalarOp::AddF, /*binary=*/true), su};
  KernelEstimate e = estimateResources(m, exe);
  // The engine's one execution is a chain through the vector unit: the
  // loads landed (44), the token (3), the first entry fed (2), its 24
  // cycles, the token back (3) and the store (44): 120, the estimate
  // before. The store unit's 64 cycles of rows lie between the same 44
  // and 44 (as in the masked tile's test): 152. Simulated 166: the
  // tokens' and the first entry's ways.
  EXPECT_DOUBLE_EQ(e.unitBusy[3], 64);
  expectBoundBy(e, "core0.su", 88, 152);
  expectSimulatedAbove(m, exe, 152, 20);
}

/// The test machine with a second core: core 0 holds dma, lu, vec, su and
/// dma2; core 1 its own L1 (memory 2) and copies of dma, lu, vec and su
/// (units 5 to 8), linked alike (links 10 to 17, its FIFOs 15 and 16).
Machine twoCores() {
  Machine m = coreMachine();
  m.interconnect.numCores = 2;
  for (MachineUnit &unit : m.units)
    unit.core = 0;
  m.memories.push_back(m.memories[L1]);
  m.memories.back().name = "core1.L1";
  m.memories.back().core = 1;
  for (uint32_t u = DMA; u <= SU; ++u) {
    m.units.push_back(m.units[u]);
    m.units.back().name = "core1." + m.units[u].name.substr(6);
    m.units.back().core = 1;
  }
  auto moved = [](NodeRef node) {
    if (node.kind == NodeRef::Unit)
      node.index += 5;
    else if (node.index == L1)
      node.index = 2;
    return node;
  };
  for (uint32_t l = 0; l < 8; ++l) {
    MachineLink link = m.links[l];
    link.from = moved(link.from);
    link.to = moved(link.to);
    m.links.push_back(link);
  }
  return m;
}

/// One execution on `core`'s engine (unit `base`, L1 `l1`): it loads
/// `bytes` and signals the load unit, which feeds them to the vector unit
/// (`vec`'s program); the store unit stores the result and signals the
/// engine, which stores it back.
void oneExecution(Executable &exe, uint32_t base, uint32_t l1, int64_t bytes,
                  UnitProgram vec) {
  uint32_t fifo = exe.fifos.size(), sync = exe.syncs.size();
  uint32_t link = base ? 15 : 5;
  exe.fifos.push_back({"in", base + LU, base + VEC, link, 4, 128});
  exe.fifos.push_back({"out", base + VEC, base + SU, link + 1, 4, 128});
  exe.syncs.push_back({"full", base + DMA, base + LU});
  exe.syncs.push_back({"done", base + SU, base + DMA});
  ProgramBuilder dma(base + DMA), lu(base + LU), su(base + SU);
  dma.dma(DDR, 0, l1, 0, bytes);
  dma.syncSend(sync);
  dma.syncRecv(sync + 1);
  dma.dma(l1, 8192, DDR, 16384 * (base + 1), bytes);
  lu.syncRecv(sync);
  lu.load(fifo, l1, 0, bytes);
  su.store(fifo + 1, l1, 8192, bytes);
  su.syncSend(sync + 1);
  vec.unit = base + VEC;
  for (Inst &in : vec.insts)
    if (in.op == Opcode::Recv)
      in.b = fifo;
    else if (in.op == Opcode::Send)
      in.a = fifo + 1;
  exe.programs.push_back(dma.done());
  exe.programs.push_back(lu.done());
  exe.programs.push_back(std::move(vec));
  exe.programs.push_back(su.done());
}

TEST(EstimateTest, EachEnginesChainRunsWithItsOwnCoresCompute) {
  // Core 0 loads 1 KiB and computes it long: 8 entries of four exps and a
  // send, 8 x 18 = 144 cycles. Core 1 loads 4 KiB and computes it short:
  // 32 entries of an add and a send, 32 x 3 = 96.
  Machine m = twoCores();
  Executable exe;
  oneExecution(exe, 0, L1, 1024, fourExps(8));
  oneExecution(exe, 5, 2, 4096, mapEntries(32, ScalarOp::AddF));
  KernelEstimate e = estimateResources(m, exe);
  EXPECT_DOUBLE_EQ(e.unitBusy[2], 144);
  EXPECT_DOUBLE_EQ(e.unitBusy[6], 96);
  // Each execution is one chain: the loads landed (one in flight: 32 + 12
  // on core 0, 128 + 12 on core 1), the token (3), the first entry fed
  // (2), the compute, the token back (3) and the store, landed (as the
  // load). Core 0: 44 + 3 + 2 + 144 + 3 + 44 = 240; core 1: 140 + 3 + 2 +
  // 96 + 3 + 140 = 384. (Before, core 1's engine ran with core 0's vector
  // unit, the busiest: 44 + 3 + 2 + 144 + 3 + 140 = 336.) Simulated 390:
  // the entries' ways.
  expectBoundBy(e, "core1.dma + compute", 0, 384);
  expectSimulatedAbove(m, exe, 384, 10);
}

TEST(EstimateTest, DeviceToDeviceCopyIsNoLoadTheComputeWaitsFor) {
  // The engine, four transfers in flight, copies 3 KiB from DDR to DDR,
  // then waits for the store unit's `done` and stores the 1 KiB the vector
  // unit computed from data already in L1 (lx_resident_copy on
  // mesh_device: the global rows copied device to device, the resident
  // part transposed on the tile): the load unit feeds the 1 KiB (8
  // entries, exp 4 + send 2: 48 cycles) and the store unit signals `done`.
  Machine m = coreMachine();
  m.units[DMA].maxOutstanding = 4;
  Executable exe;
  exe.fifos = {{"in", LU, VEC, 5, 4, 128}, {"out", VEC, SU, 6, 4, 128}};
  exe.syncs = {{"done", SU, DMA}};
  ProgramBuilder dma(DMA), lu(LU), su(SU);
  dma.dma(DDR, 0, DDR, 65536, 3072);
  dma.syncRecv(0);
  dma.dma(L1, 4096, DDR, 8192, 1024);
  lu.load(0, L1, 0, 1024);
  su.store(1, L1, 4096, 1024);
  su.syncSend(0);
  exe.programs = {dma.done(), lu.done(), mapEntries(8, ScalarOp::Exp),
                  su.done()};
  KernelEstimate e = estimateResources(m, exe);
  // The copy ceil(3072 / 32) = 96 cycles; the compute's `done` is there by
  // then (the load unit 16, the vector unit 48), so the store leaves at 96:
  // 32 cycles, the engine busy 128, and it lands 10 + 2 later: 140 (the
  // copy, its way in and out 10 + 10, landed at 116). Before,
  // the copy was an execution's loads the compute waited for, and its way
  // in, 10, the fill before it: 150. The simulator takes 140.
  expectBoundBy(e, "core0.dma", 12, 140);
  EXPECT_EQ(simulatedCycles(m, exe), 140u);
}

} // namespace

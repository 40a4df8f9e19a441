//===- EstimateTest.cpp - The whole-kernel estimate against hand values ---===//
//
// This file checks machine::estimateKernel on small programs of the test
// machine (TestMachine.h) whose estimate is computed by hand next to each
// expectation, and compares it with the simulated cycles: equal where one
// resource is busy the whole run, short by the fill the estimate leaves
// out where stages overlap.
//
//===----------------------------------------------------------------------===//

#include "EstimateTestUtil.h"

#include "ktflow/Machine/Estimate.h"

using namespace ktflow::machine;
using namespace ktflow::sim;
using namespace ktflow::machine::test;

namespace {

TEST(EstimateTest, DmaEngineThatWaitsForEachTransfer) {
  Machine m = coreMachine();
  Executable exe;
  ProgramBuilder dma(DMA);
  dma.dma(DDR, 0, L1, 0, 4096);
  exe.programs = {dma.done()};
  KernelEstimate e = estimateResources(m, exe);
  // ceil(4096 / 32) + (10 + 2) latency; the engine waits for it, so no
  // latency is added on top.
  EXPECT_DOUBLE_EQ(e.unitBusy[0], 140);
  EXPECT_DOUBLE_EQ(e.latency, 0);
  EXPECT_DOUBLE_EQ(e.cycles, 140);
  EXPECT_EQ(e.bottleneck, "core0.dma");
  EXPECT_EQ(simulatedCycles(m, exe), 140u);
}

TEST(EstimateTest, IndexReadThenGatheredRow) {
  // A gather's run: read an i32 index from DDR (0 in a fresh image, below
  // the bound 4), then move 1024 bytes DDR -> L1.
  Machine m = coreMachine();
  Executable exe;
  ProgramBuilder dma(DMA);
  uint32_t at = dma.imm(0), bound = dma.imm(4), value = dma.sreg();
  Inst &read = dma.emit(Opcode::ReadIndex);
  read.a = value, read.b = DDR, read.c = at, read.d = bound, read.sub = 4;
  dma.dma(DDR, 0, L1, 0, 1024);
  exe.programs = {dma.done()};
  KernelEstimate e = estimateResources(m, exe);
  // The read: 4 / 32 + 10 latency = 10.125, waited for; the DMA:
  // ceil(1024 / 32) + (10 + 2) = 44. The simulator charges the same and
  // reports whole cycles.
  EXPECT_DOUBLE_EQ(e.unitBusy[0], 54.125);
  EXPECT_DOUBLE_EQ(e.cycles, 54.125);
  EXPECT_EQ(e.bottleneck, "core0.dma");
  EXPECT_EQ(simulatedCycles(m, exe), 55u);
}

TEST(EstimateTest, IndexReadWaitsForTheTransferThatStagesIt) {
  // A staged gather (indexed_add on mesh_device): an engine that keeps 4
  // transfers in flight moves 64 bytes of ids DDR -> L1 at 0, reads the id
  // at L1 + 0 and gathers a 1 KiB row to L1 + 1024, then reads the id at
  // L1 + 4 and gathers a row to L1 + 2048. The simulator's engine reads an
  // index only once the transfers in flight that write it have landed.
  Machine m = coreMachine();
  m.units[DMA].maxOutstanding = 4;
  Executable exe;
  ProgramBuilder dma(DMA);
  uint32_t bound = dma.imm(4);
  auto readIndex = [&](int64_t at) {
    uint32_t addr = dma.imm(at), value = dma.sreg();
    Inst &read = dma.emit(Opcode::ReadIndex);
    read.a = value, read.b = L1, read.c = addr, read.d = bound, read.sub = 4;
  };
  dma.dma(DDR, 0, L1, 0, 64);
  readIndex(0);
  dma.dma(DDR, 0, L1, 1024, 1024);
  readIndex(4);
  dma.dma(DDR, 0, L1, 2048, 1024);
  exe.programs = {dma.done()};
  KernelEstimate e = estimateResources(m, exe);
  // The ids: ceil(64 / 32) = 2 cycles, landing at 2 + 10 + 2 = 14; the
  // first read waits 12 for them, then 4 / 32 + 2 = 2.125 (at 16.125);
  // the row, 32 cycles (48.125), in flight until 60.125; the second read
  // is of bytes no transfer in flight writes: 2.125 (50.25); the second
  // row 32 (82.25), landing 12 later. Busy 82.25, 94.25 in all (70.25 and
  // 82.25 when the reads did not wait).
  EXPECT_DOUBLE_EQ(e.unitBusy[0], 82.25);
  EXPECT_DOUBLE_EQ(e.cycles, 94.25);
  EXPECT_EQ(simulatedCycles(m, exe), 95u);
}

TEST(EstimateTest, IndexValuesNamePagesTwoApart) {
  // 100 rows, each an index read and a DMA of 32 * (index + 1) bytes: the
  // estimate reads no data and takes the k-th index read to be 2k (below
  // the bound), so a gather's pages start new runs. Walked row by row
  // (100 trips, at most 128 are): row i reads 10.125 (4 / 32 + 10) and
  // moves 64i + 32 bytes, ceil((64i + 32) / 32) + 12 = 2i + 13 cycles;
  // sum 100 * 23.125 + 2 * 4950 = 12212.5. (Walked once at the first
  // row, every row would be charged 23.125: 2312.5.)
  Machine m = coreMachine();
  Executable exe;
  ProgramBuilder dma(DMA);
  uint32_t at = dma.imm(0), bound = dma.imm(1000), k32 = dma.imm(32);
  uint32_t src = dma.imm(0), dst = dma.imm(0);
  size_t loop = dma.loopBegin(100);
  uint32_t value = dma.sreg(), scaled = dma.sreg(), bytes = dma.sreg();
  Inst &read = dma.emit(Opcode::ReadIndex);
  read.a = value, read.b = DDR, read.c = at, read.d = bound, read.sub = 4;
  Inst &mul = dma.emit(Opcode::Alu);
  mul.a = scaled, mul.b = value, mul.c = k32;
  mul.sub = static_cast<uint8_t>(AluOp::Mul);
  Inst &add = dma.emit(Opcode::Alu);
  add.a = bytes, add.b = scaled, add.c = k32;
  add.sub = static_cast<uint8_t>(AluOp::Add);
  Inst &move = dma.emit(Opcode::Dma);
  move.a = DDR, move.b = src, move.c = L1, move.d = dst, move.e = bytes;
  move.f = move.g = move.h = kNoReg;
  dma.loopEnd(loop);
  exe.programs = {dma.done()};
  KernelEstimate e = estimateResources(m, exe);
  EXPECT_DOUBLE_EQ(e.unitBusy[0], 12212.5);
}

TEST(EstimateTest, ComputeBoundStream) {
  Machine m = coreMachine();
  Executable exe;
  exe.fifos = {{"in", LU, VEC, 5, 4, 128}, {"out", VEC, SU, 6, 4, 128}};
  ProgramBuilder lu(LU);
  lu.load(0, L1, 0, 128 * 8);
  ProgramBuilder vec(VEC);
  uint32_t t = vec.vtype(ElemType::f16, {64});
  size_t loop = vec.loopBegin(8);
  uint32_t x = vec.recv(0, t);
  vec.send(1, vec.map(ScalarOp::Exp, t, x));
  vec.loopEnd(loop);
  ProgramBuilder su(SU);
  su.store(1, L1, 4096, 128 * 8);
  exe.programs = {lu.done(), vec.done(), su.done()};
  KernelEstimate e = estimateResources(m, exe);
  // Load and store: 1024 bytes at 64 B/cycle = 16 each, and the store
  // unit waits for its store to land, 1 more. The vector unit, per entry:
  // exp of 64 f16 at 16 a cycle = 4, the send of 128 bytes at 64 B/cycle
  // = 2; 8 entries = 48. No device memory: no latency added.
  EXPECT_DOUBLE_EQ(e.unitBusy[0], 16);
  EXPECT_DOUBLE_EQ(e.unitBusy[1], 48);
  EXPECT_DOUBLE_EQ(e.unitBusy[2], 17);
  EXPECT_DOUBLE_EQ(e.cycles, 48);
  EXPECT_EQ(e.bottleneck, "core0.vec");
  // The simulator adds the first entry's way in and the last one's way
  // out (the load's 2 cycles and the FIFO and port latencies).
  uint64_t simulated = simulatedCycles(m, exe);
  EXPECT_GE(simulated, 48u);
  EXPECT_LE(simulated, 48u + 10u);
}

TEST(EstimateTest, ComputeBoundWaitsForItsFirstBlocksAndItsLastStores) {
  // A row of two 1 KiB blocks: one engine loads both from DDR (16 B/cycle,
  // half its route's 32) and signals each; the load unit waits for both
  // before it feeds the vector unit; the store unit signals once it has
  // stored the output, and only then does the other engine store the
  // row's 2 KiB back.
  Machine m = coreMachine(/*ddrBandwidth=*/16);
  m.units[DMA].maxOutstanding = m.units[DMA2].maxOutstanding = 4;
  Executable exe;
  exe.fifos = {{"in", LU, VEC, 5, 4, 128}, {"out", VEC, SU, 6, 4, 128}};
  exe.syncs = {{"full0", DMA2, LU}, {"full1", DMA2, LU}, {"out", SU, DMA}};
  ProgramBuilder loader(DMA2);
  loader.dma(DDR, 0, L1, 0, 1024);
  loader.syncSend(0);
  loader.dma(DDR, 1024, L1, 1024, 1024);
  loader.syncSend(1);
  ProgramBuilder storer(DMA);
  storer.syncRecv(2);
  storer.dma(L1, 4096, DDR, 8192, 2048);
  std::vector<UnitProgram> stage = expStage({0, 1}, {2});
  exe.programs = {loader.done(), stage[0], stage[1], stage[2], storer.done()};
  KernelEstimate e = estimateResources(m, exe);
  // The vector unit: 100 x (exp 4 + send 2) = 600, more than DDR's
  // 4096 / 16 = 256. Before its first entry: the 2048 bytes loaded before
  // full1 at the engine's share of DDR (16 B/cycle, the only loader),
  // 128, and the route's latency 10 + 2: 140. After its last: the 2048
  // bytes stored after `out`, 128, and 2 + 10: 140. (One transfer's
  // latency each way, 12 + 12, was the estimate before: 624.)
  EXPECT_DOUBLE_EQ(e.unitBusy[2], 600);
  expectBoundBy(e, "core0.vec", 280, 880);
  // The simulator (894 cycles) adds the entries' ways through the load
  // unit, the FIFOs and the store unit, and the tokens' latencies.
  expectSimulatedAbove(m, exe, 880, 20);
}

TEST(EstimateTest, ComputeBoundWaitsForAnEngineSlowerThanItsBytes) {
  // A gather: the engine reads an index (4 / 32 + 10 = 10.125 cycles,
  // waited for) before each of eight 64-byte rows (2 cycles each, landing
  // 12 later), then signals the load unit, which feeds the vector unit
  // only after the token. The engine signals at 8 x 12.125 = 97, once its
  // last row, started at 95, has landed: 109 -- later than its 512 bytes
  // at the route's 32 B/cycle and the route latency, 16 + 12 = 28 (the
  // estimate before, 628 cycles).
  Machine m = coreMachine();
  m.units[DMA2].maxOutstanding = 4;
  Executable exe = fedByDma2();
  ProgramBuilder loader(DMA2);
  uint32_t at = loader.imm(0), bound = loader.imm(4);
  for (int i = 0; i < 8; ++i) {
    Inst &read = loader.emit(Opcode::ReadIndex);
    read.a = loader.sreg(), read.b = DDR, read.c = at, read.d = bound;
    read.sub = 4;
    loader.dma(DDR, 1024 + i * 64, L1, i * 64, 64);
  }
  loader.syncSend(0);
  std::vector<UnitProgram> stage = expStage({0}, {});
  exe.programs = {loader.done(), stage[0], stage[1], stage[2]};
  KernelEstimate e = estimateResources(m, exe);
  // The vector unit: 100 x (exp 4 + send 2) = 600; nothing is stored to
  // device memory after it.
  EXPECT_DOUBLE_EQ(e.unitBusy[0], 97);
  expectBoundBy(e, "core0.vec", 109, 709);
  // The simulator (720 cycles) adds the token's and the entries' ways, as
  // in ComputeBoundWaitsForItsFirstBlocksAndItsLastStores.
  expectSimulatedAbove(m, exe, 709, 20);
}

/// An engine, four transfers in flight, loads a block of `first` bytes
/// and signals 0, then a 4 KiB block V and signals 1. The load unit waits
/// for each and loads the first block into FIFO `firstFifo` (2: to the
/// store unit, 0: to the vector unit), then V into FIFO 0; the vector unit
/// maps its `entries` entries (exp 4 + send 2 each), which the store unit
/// stores.
static Executable twoBlocks(Machine &m, int64_t first, uint32_t firstFifo,
                            int64_t entries) {
  m.units[DMA2].maxOutstanding = 4;
  m.links.push_back({{NodeRef::Unit, LU}, {NodeRef::Unit, SU}, 64, 1, 4, {}});
  Executable exe;
  exe.fifos = {{"in", LU, VEC, 5, 4, 128},
               {"out", VEC, SU, 6, 4, 128},
               {"first", LU, SU, 10, 4, 128}};
  exe.syncs = {{"first", DMA2, LU}, {"v", DMA2, LU}};
  ProgramBuilder loader(DMA2), lu(LU), su(SU);
  loader.dma(DDR, 0, L1, 0, first);
  loader.syncSend(0);
  loader.dma(DDR, first, L1, first, 4096);
  loader.syncSend(1);
  lu.syncRecv(0);
  lu.load(firstFifo, L1, 0, first);
  lu.syncRecv(1);
  lu.load(0, L1, first, 4096);
  if (firstFifo == 2)
    su.store(2, L1, 8192, first);
  su.store(1, L1, 16384, 128 * entries);
  exe.programs = {loader.done(), lu.done(), mapEntries(entries, ScalarOp::Exp),
                  su.done()};
  return exe;
}

TEST(EstimateTest, ComputeBoundWaitsForWhatItsFirstEntryNeeds) {
  // A 1 KiB block K first, which the load unit feeds to the store unit
  // (no compute), then V's 32 entries to the vector unit (192 cycles),
  // whose first entry is V's: it starts once V has landed, not K.
  Machine m = coreMachine();
  Executable exe = twoBlocks(m, 1024, 2, 32);
  // The engine: ceil(1024 / 32) + ceil(4096 / 32) = 160, less than the
  // vector unit's 192. Before the vector unit's first entry: V, signalled
  // once it has landed, 160 + 10 + 2 = 172 (K alone, the wait before the
  // load unit's first load, lands at 32 + 12 = 44: 236 cycles before).
  // Nothing is stored to device memory after it. The simulator (375
  // cycles) adds the token's and the entries' ways, as in
  // ComputeBoundWaitsForItsFirstBlocksAndItsLastStores.
  expectEngineAndVector(m, exe, 160, 192, "core0.vec", 172, 364, 20);
}

TEST(EstimateTest, ComputeBoundWaitsForTheDataOfEachEntry) {
  // A 128-byte block Q first, which the load unit feeds to the vector unit
  // as one entry, then V's 32: the vector unit maps 33 (198 cycles). Its
  // first entry is Q's, but all its work after it waits for V (a paged
  // attention's softmax after a copy of Q).
  Machine m = coreMachine();
  Executable exe = twoBlocks(m, 128, 0, 33);
  // The engine: ceil(128 / 32) + ceil(4096 / 32) = 132. Q lands at 4 + 10
  // + 2 = 16, V at 4 + 128 + 12 = 144. The vector unit's first entry
  // waits for Q (16 cycles, then 198: 214 before), its second for V, with
  // 6 of its cycles done: 144 - 6 + 198 = 336. Nothing is stored to
  // device memory after it. The simulator (347 cycles) adds the tokens'
  // and the entries' ways.
  expectEngineAndVector(m, exe, 132, 198, "core0.vec", 138, 336, 20);
}

TEST(EstimateTest, ComputeBoundWaitsForTheDataOfEachToken) {
  // An engine slower than the compute for a phase paces it there, although
  // the compute binds the kernel (swiglu_ffn_64x1024x4096's gate products
  // on spyre_like, each hidden chunk's weights at DMA_IN's share of DDR).
  // Four 1 KiB blocks, each loaded by the engine (32 + 12 = 44 cycles: it
  // waits for each to land) and announced on one channel; the load unit
  // feeds each as 8 entries, which the vector unit adds (1) and sends (2),
  // 24 a block, then takes 60 exps of the last (240): 336 cycles.
  Machine m = coreMachine();
  Executable exe;
  exe.fifos = {{"in", LU, VEC, 5, 4, 128}, {"out", VEC, SU, 6, 4, 128}};
  exe.syncs = {{"full", DMA2, LU}};
  ProgramBuilder loader(DMA2), lu(LU), vec(VEC), su(SU);
  for (int64_t block = 0; block < 4; ++block) {
    loader.dma(DDR, 1024 * block, L1, 1024 * block, 1024);
    loader.syncSend(0);
    lu.syncRecv(0);
    lu.load(0, L1, 1024 * block, 1024);
  }
  uint32_t t = vec.vtype(ElemType::f16, {64});
  size_t loop = vec.loopBegin(32);
  uint32_t x = vec.recv(0, t);
  vec.send(1, vec.map(ScalarOp::AddF, t, x, x));
  vec.loopEnd(loop);
  for (int i = 0; i < 60; ++i)
    x = vec.map(ScalarOp::Exp, t, x);
  su.store(1, L1, 8192, 4096);
  exe.programs = {loader.done(), lu.done(), vec.done(), su.done()};
  // Block n's data lands at 44 (n + 1), when the vector unit has done 24 n
  // cycles: block 3 waits longest, 176 - 72 = 104 (the first token's
  // landing alone, 44, made 380). Nothing is stored to device memory
  // after it. Simulated 447: the token's and the entries' ways.
  expectEngineAndVector(m, exe, 176, 336, "core0.vec", 104, 440, 20);
}

TEST(EstimateTest, StoreUnitBoundStoresEachRowOfAMaskedTile) {
  // A masked tile's rows: an engine loads 1 KiB from DDR and signals the
  // load unit, which feeds 8 entries to the vector unit (an addition, 1
  // cycle, and the send, 2); the store unit stores each 128-byte row on
  // its own (ktdf-to-dfir now stores a buffer's rows in one), then
  // signals the other engine, which stores the 1 KiB back to DDR. The
  // store route's latency is 6 here.
  Machine m = coreMachine();
  m.links[7].latency = 6;
  Executable exe = fedByDma2();
  exe.syncs.push_back({"stored", SU, DMA});
  ProgramBuilder loader(DMA2), storer(DMA);
  loader.dma(DDR, 0, L1, 0, 1024);
  loader.syncSend(0);
  storer.syncRecv(1);
  storer.dma(L1, 4096, DDR, 8192, 1024);
  auto [lu, su] = feedAndRows(1024, 8);
  exe.programs = {loader.done(), lu,
                  mapEntries(8, ScalarOp::AddF, /*binary=*/true), su,
                  storer.done()};
  KernelEstimate e = estimateResources(m, exe);
  // The store unit waits for each row to land, as the simulator's does:
  // 8 x (ceil(128 / 64) + 6) = 64, more than the vector unit's 8 x 3 = 24
  // (the estimate charged it 16 before, and the vector unit bound: 112
  // cycles). It works between the vector unit's first entry and the last
  // store, as the vector unit would: before, the 1 KiB the engine loads
  // at the route's 32 B/cycle and its latency 10 + 2, 44; after, the
  // 1 KiB stored after `stored`, 32 + 2 + 10 = 44.
  EXPECT_DOUBLE_EQ(e.unitBusy[3], 64);
  EXPECT_DOUBLE_EQ(e.unitBusy[2], 24);
  expectBoundBy(e, "core0.su", 88, 152);
  // The simulator (166 cycles) adds the tokens' and the first entry's
  // ways.
  expectSimulatedAbove(m, exe, 152, 20);
}

TEST(EstimateTest, EngineWaitsForASlotForEachTransferPastItsMaximum) {
  // Eight 64-byte loads DDR -> L1 back to back on an engine that keeps two
  // in flight: each leaves in ceil(64 / 32) = 2 cycles and lands 12 later,
  // 14 after it starts. By hand: #0 at 0-2 (lands 14), #1 2-4 (16); #2
  // waits for #0, 14-16 (28); #3 16-18 (30; #1 landed at 16); #4 waits for
  // #2, 28-30 (42); #5 30-32 (44); #6 42-44 (56); #7 44-46 (58). Busy 46
  // (16 leaving, 30 waiting for a slot), plus the last landing's 12: 58.
  // (Without the slots the estimate was 16 + 12 = 28, paged attention's
  // 256-byte page rows on sample_device -40 %.)
  Machine m = coreMachine();
  m.units[DMA2].maxOutstanding = 2;
  Executable exe;
  ProgramBuilder dma(DMA2);
  for (int i = 0; i < 8; ++i)
    dma.dma(DDR, i * 64, L1, i * 64, 64);
  exe.programs = {dma.done()};
  KernelEstimate e = estimateResources(m, exe);
  EXPECT_DOUBLE_EQ(e.unitBusy[0], 46);
  EXPECT_DOUBLE_EQ(e.latency, 12);
  EXPECT_DOUBLE_EQ(e.cycles, 58);
  EXPECT_EQ(simulatedCycles(m, exe), 58u);
}

TEST(EstimateTest, TransfersInFlightLandWhileTheEngineWaitsForAToken) {
  // The same engine issues four loads, waits for a token, then four more.
  // The walk does not know how long it waits and takes every transfer in
  // flight to land meanwhile: the first four as above, 0-18 with one
  // 10-cycle wait (#2 for #0); after the token #4 and #5 leave at once,
  // 18-22, #6 waits for #4 (lands 32), 32-34, #7 34-36: busy 36 (46 if
  // #2 and #3, landing at 28 and 30, still held the slots).
  Machine m = coreMachine();
  m.units[DMA2].maxOutstanding = 2;
  Executable exe;
  exe.syncs = {{"go", DMA, DMA2}};
  ProgramBuilder sender(DMA);
  sender.syncSend(0);
  ProgramBuilder dma(DMA2);
  for (int i = 0; i < 8; ++i) {
    if (i == 4)
      dma.syncRecv(0);
    dma.dma(DDR, i * 64, L1, i * 64, 64);
  }
  exe.programs = {sender.done(), dma.done()};
  KernelEstimate e = estimateResources(m, exe);
  EXPECT_DOUBLE_EQ(e.unitBusy[1], 36);
}

TEST(EstimateTest, EngineBoundWaitsForTheComputeOfItsLastBlock) {
  // An engine loads four 4 KiB blocks and signals each; the load unit
  // waits for each before it feeds the block's 32 entries to the vector
  // unit, which adds each to itself (1 cycle) and sends it on (2).
  Machine m = coreMachine();
  m.units[DMA2].maxOutstanding = 4;
  Executable exe = fedByDma2();
  ProgramBuilder loader(DMA2), lu(LU);
  for (int i = 0; i < 4; ++i) {
    loader.dma(DDR, i * 4096, L1, i * 4096, 4096);
    loader.syncSend(0);
    lu.syncRecv(0);
    lu.load(0, L1, i * 4096, 4096);
  }
  ProgramBuilder su(SU);
  su.store(1, L1, 16384, 16384);
  exe.programs = {loader.done(), lu.done(),
                  mapEntries(128, ScalarOp::AddF, /*binary=*/true), su.done()};
  KernelEstimate e = estimateResources(m, exe);
  // The engine: 4 x ceil(4096 / 32) = 512, more than the vector unit's
  // 128 x 3 = 384. After it, the first load's landing (10 + 2) and the
  // compute of the last block, the quarter of what the load unit feeds
  // after its last wait: 384 / 4 = 96 (before: 512 + 12 = 524).
  EXPECT_DOUBLE_EQ(e.unitBusy[0], 512);
  EXPECT_DOUBLE_EQ(e.unitBusy[2], 384);
  expectBoundBy(e, "core0.dma2", 12 + 96, 620);
  // The simulator (631 cycles) adds the token's and the entries' ways, as
  // in ComputeBoundWaitsForItsFirstBlocksAndItsLastStores.
  expectSimulatedAbove(m, exe, 620, 20);
}

TEST(EstimateTest, LoadEngineBoundWaitsForTheLastExecutionsStores) {
  // dma2 loads a 4 KiB block and signals the load unit, which feeds its 32
  // entries to the vector unit (1 + 2 cycles each); the store unit stores
  // them and signals dma, which stores them back in sixteen 32-byte DMAs
  // (the rows of a column-major tile), two in flight: each leaves in 1
  // cycle and lands 2 + 10 later, so a pair every 13 cycles, the last two
  // at 91-93, landed at 105.
  Machine m = coreMachine();
  m.units[DMA2].maxOutstanding = 4;
  m.units[DMA].maxOutstanding = 2;
  Executable exe = fedByDma2();
  exe.syncs.push_back({"out", SU, DMA});
  ProgramBuilder loader(DMA2), storer(DMA);
  loader.dma(DDR, 0, L1, 0, 4096);
  loader.syncSend(0);
  storer.syncRecv(1);
  for (int i = 0; i < 16; ++i)
    storer.dma(L1, 4096 + i * 32, DDR, 8192 + i * 64, 32);
  auto [lu, su] = feedAndRows(4096, 1);
  exe.programs = {loader.done(), lu,
                  mapEntries(32, ScalarOp::AddF, /*binary=*/true), su,
                  storer.done()};
  KernelEstimate e = estimateResources(m, exe);
  // dma2 binds: ceil(4096 / 32) = 128, more than the vector unit's 96 and
  // dma's 93. After it, its load's landing (12), the compute of the block
  // (96) and dma's 105 cycles from the token to its last landing (before:
  // one store's latency, 12: 248 in all).
  EXPECT_DOUBLE_EQ(e.unitBusy[0], 128);
  EXPECT_DOUBLE_EQ(e.unitBusy[2], 96);
  EXPECT_DOUBLE_EQ(e.unitBusy[4], 93);
  expectBoundBy(e, "core0.dma2", 12 + 96 + 105, 341);
  // The simulator (355) adds the tokens' and the entries' ways.
  expectSimulatedAbove(m, exe, 341, 15);
}

TEST(EstimateTest, DeviceMemoryBound) {
  Machine m = coreMachine(/*ddrBandwidth=*/16);
  m.units[DMA2].maxOutstanding = 4;
  Executable exe;
  ProgramBuilder dma(DMA2);
  for (int i = 0; i < 4; ++i)
    dma.dma(DDR, i * 1024, L1, i * 1024, 1024);
  exe.programs = {dma.done()};
  KernelEstimate e = estimateResources(m, exe);
  // The engine's 32 B/cycle route is faster than DDR, which moves 4096
  // bytes at 16 B/cycle: the engine moves them at DDR's rate (4 x 1024 /
  // 16 = 256 cycles), as DDR does, plus the first load's route latency
  // (10 + 2).
  EXPECT_DOUBLE_EQ(e.unitBusy[0], 256);
  EXPECT_DOUBLE_EQ(e.memoryBusy[DDR], 256);
  EXPECT_DOUBLE_EQ(e.latency, 12);
  EXPECT_DOUBLE_EQ(e.cycles, 268);
  EXPECT_EQ(e.bottleneck, "core0.dma2");
  uint64_t simulated = simulatedCycles(m, exe);
  EXPECT_NEAR(static_cast<double>(simulated), 268, 268 * 0.05);
}

TEST(EstimateTest, DeviceToDeviceDmaLandsOnce) {
  Machine m = coreMachine();
  m.units[DMA].maxOutstanding = 4;
  Executable exe;
  ProgramBuilder dma(DMA);
  dma.dma(DDR, 0, DDR, 4096, 1024);
  exe.programs = {dma.done()};
  KernelEstimate e = estimateResources(m, exe);
  // One DMA from DDR to DDR through the engine (PassThroughDma.cpp): 1024
  // bytes at 32 B/cycle, then its one landing, DDR -> engine (10) and
  // engine -> DDR (10): counted as the load's latency and the store's, not
  // the whole route's for each (72 cycles).
  EXPECT_DOUBLE_EQ(e.unitBusy[0], 32);
  EXPECT_DOUBLE_EQ(e.latency, 20);
  EXPECT_DOUBLE_EQ(e.cycles, 52);
  EXPECT_EQ(simulatedCycles(m, exe), 52u);
}

} // namespace

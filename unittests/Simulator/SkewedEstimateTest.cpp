//===- SkewedEstimateTest.cpp - The estimate of skewed engines -----------===//
//
// This file checks machine::estimateKernel on an engine that loads and
// stores, issuing the next executions' loads before this one's stores
// (ktdf-to-dfir's skewed loops), against hand values and the simulator.
//
//===----------------------------------------------------------------------===//

#include "EstimateTestUtil.h"

#include "ktflow/Machine/Estimate.h"

using namespace ktflow::machine;
using namespace ktflow::sim;
using namespace ktflow::machine::test;

namespace {

/// `dma`'s scalar a `op` b, in a new register.
uint32_t alu(ProgramBuilder &dma, AluOp op, uint32_t a, uint32_t b) {
  uint32_t r = dma.sreg();
  Inst &in = dma.emit(Opcode::Alu);
  in.a = r, in.b = a, in.c = b, in.sub = static_cast<uint8_t>(op);
  return r;
}

/// The guarded loads of the block ahead of execution `execution` (a
/// register): `load` in a loop of min(last - i, 1) trips (none once i >
/// last - 1).
void emitLoadAheadOf(ProgramBuilder &dma, uint32_t execution, int64_t last,
                     llvm::function_ref<void()> load) {
  uint32_t lastReg = dma.imm(last), one = dma.imm(1), zero = dma.imm(0);
  uint32_t left = dma.sreg(), trips = dma.sreg();
  Inst &sub = dma.emit(Opcode::Alu);
  sub.a = left, sub.b = lastReg, sub.c = execution;
  sub.sub = static_cast<uint8_t>(AluOp::Sub);
  Inst &min = dma.emit(Opcode::Alu);
  min.a = trips, min.b = left, min.c = one;
  min.sub = static_cast<uint8_t>(AluOp::MinS);
  Inst &next = dma.emit(Opcode::LoopBegin);
  size_t nextLoop = dma.p.insts.size() - 1;
  next.a = dma.sreg(), next.b = zero, next.c = trips, next.d = one;
  load();
  dma.syncSend(0);
  dma.loopEnd(nextLoop);
}

/// In `dma`'s skewed loop `loop`, the guarded loads of the block ahead of
/// its trip (emitLoadAheadOf).
void emitLoadAhead(ProgramBuilder &dma, size_t loop, int64_t last,
                   llvm::function_ref<void()> load) {
  emitLoadAheadOf(dma, dma.p.insts[loop].a, last, load);
}

/// The skewed engine `dma`'s eight blocks' (of `bytes`, 1 KiB) consumers:
/// the load unit feeds each block to the vector unit once the engine
/// signals it, the vector unit maps each 128 B entry by `op` (exp: 4 +
/// send 2, 48 cycles a 1 KiB block) and the store unit signals each stored
/// block back.
void addSkewedBlocks(Executable &exe, ProgramBuilder &dma, int blocks = 8,
                     ScalarOp op = ScalarOp::Exp, int64_t bytes = 1024) {
  exe.fifos = {{"in", LU, VEC, 5, 4, 128}, {"out", VEC, SU, 6, 4, 128}};
  exe.syncs = {{"full", DMA, LU}, {"done", SU, DMA}};
  ProgramBuilder lu(LU), su(SU), vec(VEC);
  size_t luLoop = lu.loopBegin(blocks), suLoop = su.loopBegin(blocks);
  lu.syncRecv(0);
  lu.load(0, L1, 0, bytes);
  lu.loopEnd(luLoop);
  su.store(1, L1, 4096, bytes);
  su.syncSend(1);
  su.loopEnd(suLoop);
  uint32_t t = vec.vtype(ElemType::f16, {64});
  size_t vecLoop = vec.loopBegin(bytes / 128 * blocks);
  vec.send(1, vec.map(op, t, vec.recv(0, t)));
  vec.loopEnd(vecLoop);
  exe.programs = {dma.done(), lu.done(), vec.done(), su.done()};
}

/// SkewedEngineRunsHalfAChainAnExecution's engine and its consumers, in
/// `exe`, on `m`: it loads block 0, then each trip of a skewed loop loads
/// block i + 1 (none after the last), waits for block i's compute and
/// stores it; the whole in a skewed loop of one trip where `inOuterLoop`.
void skewedEightBlocks(Machine &m, Executable &exe, bool inOuterLoop,
                       bool chainedFirst = false) {
  m.units[DMA].maxOutstanding = 4;
  ProgramBuilder dma(DMA);
  if (chainedFirst) {
    dma.dma(DDR, 0, L1, 0, 1024);
    dma.syncSend(0);
    dma.syncRecv(1);
    dma.dma(L1, 4096, DDR, 8192, 1024);
  }
  size_t outer = 0;
  if (inOuterLoop) {
    outer = dma.loopBegin(1);
    dma.p.insts[outer].sub = kLoopSkewed;
  }
  dma.dma(DDR, 0, L1, 0, 1024);
  dma.syncSend(0);
  size_t loop = dma.loopBegin(8);
  dma.p.insts[loop].sub = kLoopSkewed;
  emitLoadAhead(dma, loop, 7, [&] { dma.dma(DDR, 0, L1, 0, 1024); });
  dma.syncRecv(1);
  dma.dma(L1, 4096, DDR, 8192, 1024);
  dma.loopEnd(loop);
  if (inOuterLoop)
    dma.loopEnd(outer);
  addSkewedBlocks(exe, dma, chainedFirst ? 9 : 8);
}

TEST(EstimateTest, SkewedEngineRunsHalfAChainAnExecution) {
  // One engine loads and stores eight 1 KiB blocks, skewed: it loads block
  // 0, then each trip loads block i + 1 (none after the last), waits for
  // block i's compute and stores it. The vector unit takes 8 entries of
  // block i (exp 4 + send 2 each: 48 cycles) once it has landed.
  Machine m = coreMachine();
  Executable exe;
  skewedEightBlocks(m, exe, /*inOuterLoop=*/false);
  KernelEstimate e = estimateResources(m, exe);
  // The engine: 8 loads and 8 stores of ceil(1024 / 32) = 32 cycles, 512
  // busy; the vector unit 8 x 48 = 384. Block i + 1's loads leave before
  // block i's stores, so from one load to the load two blocks later the
  // engine runs one chain: the load 32, its landing 10 + 2, the token 3,
  // the first entry into the vector unit and the last out to L1 (the L1
  // routes 1 + 1, the FIFOs 1 + 1, one cycle each: 6), the compute 48, the
  // token back 3, the store 32: 136, half of it a block. Over the eight:
  // the 7 loads in the loop 224, the 8 stores 256, 8 x (12 + 6 + 6) = 192
  // and the compute 384: 1056; the first block without a partner adds an
  // eighth, 9 / 8 x 1056 / 2 = 594, and the last store lands 12 later: 606.
  // (The busiest unit and two latencies, 512 + 24 = 536, before; the
  // simulator takes 628.)
  EXPECT_DOUBLE_EQ(e.unitBusy[0], 512);
  EXPECT_DOUBLE_EQ(e.unitBusy[2], 384);
  EXPECT_EQ(e.bottleneck, "core0.dma + compute chain");
  EXPECT_DOUBLE_EQ(e.cycles, 606);
  uint64_t simulated = simulatedCycles(m, exe);
  EXPECT_NEAR(static_cast<double>(simulated), 606, 606 * 0.05);
}

TEST(EstimateTest, SkewedLoopInASkewedLoopRunsTheInnerExecutions) {
  // SkewedEngineRunsHalfAChainAnExecution's engine inside a skewed loop of
  // its own (one trip here): an outer loop that holds a skewed loop loads
  // its next trip's operands ahead of the inner executions (rope238's
  // cos/sin rows span-copied in the position loop of rope_163840x128 on
  // mesh_device), and its trips are not executions: the chains are the
  // inner loop's, 606 as there (simulated 628). Before, the outer loop's
  // one trip was one execution whose chain held every load, store and
  // compute: 932 (rope_163840x128 +46.9 %).
  Machine m = coreMachine();
  Executable exe;
  skewedEightBlocks(m, exe, /*inOuterLoop=*/true);
  KernelEstimate e = estimateResources(m, exe);
  EXPECT_EQ(e.bottleneck, "core0.dma + compute chain");
  EXPECT_DOUBLE_EQ(e.cycles, 606);
  uint64_t simulated = simulatedCycles(m, exe);
  EXPECT_NEAR(static_cast<double>(simulated), 606, 606 * 0.05);
}

TEST(EstimateTest, SkewedPointLoopRunsItsRowsAsExecutions) {
  // SkewedEngineRunsHalfAChainAnExecution's eight blocks as a lane's two
  // points of four rows each, one stream (SkewedPointLoops.cpp): the
  // engine loads block 0, then the point loop (skewed one ahead) runs
  // each point's row loop (plain), whose trip for execution e = 4 j + r
  // loads block e + 1 (none after the last), waits for block e's compute
  // and stores it. The executions are the rows, not the points: the chains
  // are the eight blocks', 606 as there (simulated 628). Before, the two
  // points were two executions, each chain holding four blocks' loads,
  // stores and compute but one landing: (2 + 1) / 2 of (7 x 32 + 8 x 32 +
  // 2 x 24 + 384) / 2 + 12 = 696 (dynamic_mask N = 1000 on mesh_device,
  // 2 points of 4 rows a tile: 949 against 804 simulated).
  Machine m = coreMachine();
  m.units[DMA].maxOutstanding = 4;
  Executable exe;
  ProgramBuilder dma(DMA);
  dma.dma(DDR, 0, L1, 0, 1024);
  dma.syncSend(0);
  size_t points = dma.loopBegin(2);
  dma.p.insts[points].sub = kLoopSkewed;
  uint32_t four = dma.imm(4);
  uint32_t first = alu(dma, AluOp::Mul, dma.p.insts[points].a, four);
  size_t rows = dma.loopBegin(4);
  uint32_t execution = alu(dma, AluOp::Add, first, dma.p.insts[rows].a);
  emitLoadAheadOf(dma, execution, 7, [&] { dma.dma(DDR, 0, L1, 0, 1024); });
  dma.syncRecv(1);
  dma.dma(L1, 4096, DDR, 8192, 1024);
  dma.loopEnd(rows);
  dma.loopEnd(points);
  addSkewedBlocks(exe, dma);
  KernelEstimate e = estimateResources(m, exe);
  EXPECT_EQ(e.bottleneck, "core0.dma + compute chain");
  EXPECT_DOUBLE_EQ(e.cycles, 606);
  uint64_t simulated = simulatedCycles(m, exe);
  EXPECT_NEAR(static_cast<double>(simulated), 606, 606 * 0.05);
}

TEST(EstimateTest, ChainedExecutionThenSkewedLoop) {
  // SkewedEngineRunsHalfAChainAnExecution's engine after one execution of
  // its own, unskewed: it loads a block, waits for its compute and stores
  // it, then runs the skewed loop (computed_views on mesh_device: two
  // shards chained, then a row loop three ahead).
  Machine m = coreMachine();
  Executable exe;
  skewedEightBlocks(m, exe, /*inOuterLoop=*/false, /*chainedFirst=*/true);
  KernelEstimate e = estimateResources(m, exe);
  // The chained execution: the load 32, its landing 10 + 2, the tokens
  // 3 + 3, the first entry fed 2, its compute 48 (a ninth of the vector
  // unit's 432, the executions taken alike) and the store 32: 132. Then
  // the skewed loop with the other eight ninths of the compute, 384, as
  // when it runs alone: 594; the last store lands 12 later: 738. Before,
  // each skewed trip that loaded a block ahead was a chained execution of
  // its own, its loads' landing and tokens added in full: 8 executions,
  // 1,116 (+45.7 %). The simulator takes 766.
  EXPECT_EQ(e.bottleneck, "core0.dma + compute");
  EXPECT_DOUBLE_EQ(e.cycles, 738);
  uint64_t simulated = simulatedCycles(m, exe);
  EXPECT_NEAR(static_cast<double>(simulated), 738, 738 * 0.05);
}

TEST(EstimateTest, SkewedEngineThatBindsHidesItsFirstLanding) {
  // Four 1 KiB blocks three ahead (loop_begin's sub 3), 80
  // cycles each way to DDR, each block's compute a negation (8 entries,
  // 1 + send 2: 24 cycles): the engine loads blocks 0-2, then the loop's
  // first trip loads block 3, and each trip waits for block i's compute
  // and stores it.
  Machine m = coreMachine();
  m.links[0].latency = m.links[3].latency = 80;
  m.units[DMA].maxOutstanding = 4;
  Executable exe;
  ProgramBuilder dma(DMA);
  for (int block = 0; block < 3; ++block) {
    dma.dma(DDR, block * 1024, L1, block * 1024, 1024);
    dma.syncSend(0);
  }
  uint32_t three = dma.imm(3), kib = dma.imm(1024);
  size_t loop = dma.loopBegin(4);
  dma.p.insts[loop].sub = 3;
  uint32_t iv = dma.p.insts[loop].a;
  uint32_t ahead = alu(dma, AluOp::Mul, alu(dma, AluOp::Add, iv, three), kib);
  uint32_t out =
      alu(dma, AluOp::Add, alu(dma, AluOp::Mul, iv, kib), dma.imm(8192));
  emitLoadAhead(dma, loop, 1, [&] {
    dma.dma(DDR, 0, L1, 0, 1024);
    dma.p.insts.back().b = ahead, dma.p.insts.back().d = ahead;
  });
  dma.syncRecv(1);
  dma.dma(L1, 4096, DDR, 8192, 1024);
  dma.p.insts.back().d = out;
  dma.loopEnd(loop);
  addSkewedBlocks(exe, dma, 4, ScalarOp::NegF);
  KernelEstimate e = estimateResources(m, exe);
  // The engine binds: 4 loads and 4 stores of ceil(1024 / 32) = 32
  // cycles, 256. Block 0 lands at 32 + 82 = 114 and its token leaves
  // then; the engine waits for block 0's compute only after block 3's
  // load, at 128, by when the 114 + 3 + 3 a token there and back take
  // have passed: its loads ahead hide the first landing, none of it
  // before the stores. The last store lands 82 later and the compute of
  // the last block (a quarter of 96) comes before it: 256 + 82 + 24 = 362.
  // Before, the first load's latency was added as well: 444 (+22.7 %).
  // The simulator takes 362.
  EXPECT_EQ(e.bottleneck, "core0.dma");
  EXPECT_DOUBLE_EQ(e.cycles, 362);
  EXPECT_EQ(simulatedCycles(m, exe), 362u);
}

TEST(EstimateTest, SkewedLoopThatLoadsEveryExecutionFirstWaitsOneLanding) {
  // Four 256 B blocks three ahead, 80 cycles each way to DDR, each block's
  // compute an exp of two entries (4 + send 2 each: 12 cycles): the
  // engine loads blocks 0-2, then the loop's first trip loads block 3, and
  // each trip waits for block i's compute and stores it
  // (ptr_advance_rows on mesh_device: four 256 B rows a tile, 3 ahead).
  Machine m = coreMachine();
  m.links[0].latency = m.links[3].latency = 80;
  m.units[DMA].maxOutstanding = 4;
  Executable exe;
  ProgramBuilder dma(DMA);
  for (int block = 0; block < 3; ++block) {
    dma.dma(DDR, block * 256, L1, block * 256, 256);
    dma.syncSend(0);
  }
  uint32_t three = dma.imm(3), size = dma.imm(256);
  size_t loop = dma.loopBegin(4);
  dma.p.insts[loop].sub = 3;
  uint32_t iv = dma.p.insts[loop].a;
  uint32_t ahead = alu(dma, AluOp::Mul, alu(dma, AluOp::Add, iv, three), size);
  uint32_t out =
      alu(dma, AluOp::Add, alu(dma, AluOp::Mul, iv, size), dma.imm(8192));
  emitLoadAhead(dma, loop, 1, [&] {
    dma.dma(DDR, 0, L1, 0, 256);
    dma.p.insts.back().b = ahead, dma.p.insts.back().d = ahead;
  });
  dma.syncRecv(1);
  dma.dma(L1, 4096, DDR, 8192, 256);
  dma.p.insts.back().d = out;
  dma.loopEnd(loop);
  addSkewedBlocks(exe, dma, 4, ScalarOp::Exp, 256);
  KernelEstimate e = estimateResources(m, exe);
  // Every load leaves before the first store: the engine waits for one
  // landing, then stores each block after its compute. The loop's load
  // ahead 8 cycles (256 / 32), the landing 82, the tokens 3 + 3, the
  // entries' way 6, then the compute, 4 x 12 = 48, which the stores, 4 x 8
  // = 32, follow, and the last store's landing 82: 8 + 94 + 48 + 82 = 232.
  // Before, (4 + 3) / 4 chains of a quarter of the work and a landing
  // each: 1.75 x ((8 + 32 + 48) / 4 + 94) + 82 = 285 (+17.8 %;
  // ptr_advance_rows 274 against 219 simulated, +25 %). The simulator
  // takes 242.
  EXPECT_EQ(e.bottleneck, "core0.dma + compute chain");
  EXPECT_DOUBLE_EQ(e.cycles, 232);
  uint64_t simulated = simulatedCycles(m, exe);
  EXPECT_NEAR(static_cast<double>(simulated), 232, 232 * 0.05);
}

TEST(EstimateTest, SkewedEngineTwoAheadRunsAThirdOfAChainAnExecution) {
  // SkewedEngineRunsHalfAChainAnExecution's blocks two ahead (three copies;
  // loop_begin's sub 2), 80 cycles each way to DDR: the engine loads blocks
  // 0 and 1, then each trip loads block i + 2 (none after the sixth),
  // waits for block i's compute and stores it.
  Machine m = coreMachine();
  m.links[0].latency = m.links[3].latency = 80;
  m.units[DMA].maxOutstanding = 4;
  Executable exe;
  ProgramBuilder dma(DMA);
  for (int block = 0; block < 2; ++block) {
    dma.dma(DDR, block * 1024, L1, block * 1024, 1024);
    dma.syncSend(0);
  }
  uint32_t two = dma.imm(2), three = dma.imm(3), kib = dma.imm(1024);
  size_t loop = dma.loopBegin(8);
  dma.p.insts[loop].sub = 2;
  // Distinct addresses: transfers in flight to the same bytes wait for
  // each other. Block i + 2 goes to L1 copy (i + 2) mod 3 and block i to
  // DDR 8192 + 1024 i.
  uint32_t iv = dma.p.insts[loop].a;
  uint32_t copy =
      alu(dma, AluOp::Mul,
          alu(dma, AluOp::RemU, alu(dma, AluOp::Add, iv, two), three), kib);
  uint32_t ahead = alu(dma, AluOp::Mul, alu(dma, AluOp::Add, iv, two), kib);
  uint32_t out =
      alu(dma, AluOp::Add, alu(dma, AluOp::Mul, iv, kib), dma.imm(8192));
  emitLoadAhead(dma, loop, 6, [&] {
    dma.dma(DDR, 0, L1, 0, 1024);
    dma.p.insts.back().b = ahead, dma.p.insts.back().d = copy;
  });
  dma.syncRecv(1);
  dma.dma(L1, 4096, DDR, 8192, 1024);
  dma.p.insts.back().d = out;
  dma.loopEnd(loop);
  addSkewedBlocks(exe, dma);
  KernelEstimate e = estimateResources(m, exe);
  // Block i + 2's loads leave before block i's stores, so from one load to
  // the load three blocks later the engine runs one chain: the load 32,
  // its landing 80 + 2, the tokens 3 + 3, the entries' way 6, the compute
  // 48, the store 32: 206, a third of it a block. Over the eight: the 6
  // loads in the loop 192, the 8 stores 256, 8 x (82 + 6 + 6) = 752 and
  // the compute 384: 1584, 198 a block; the first two blocks without a
  // partner add two thirds of one, (8 + 2) / 3 x 198 = 660, and the last
  // store lands 82 later: 742. (One ahead it was 9 / 8 x 1584 / 2 + 82 =
  // 973; the simulator takes 770.)
  EXPECT_EQ(e.bottleneck, "core0.dma + compute chain");
  EXPECT_DOUBLE_EQ(e.cycles, 742);
  uint64_t simulated = simulatedCycles(m, exe);
  EXPECT_NEAR(static_cast<double>(simulated), 742, 742 * 0.05);
}

} // namespace

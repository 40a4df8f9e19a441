//===- HandOverEstimateTest.cpp - Hand-overs in the estimate, by hand -----===//
//
// This file checks what the whole-kernel estimate charges a compute unit
// for the hand-overs through the scratchpad its load unit waits for: their
// latency, then the feed of the entries its next work needs that the load
// unit loads only after the hand-over, less the work it does meanwhile on
// input loaded before the hand-over (HandOverStalls.h), computed by hand
// on the test machine (TestMachine.h) and compared with the simulator.
//
//===----------------------------------------------------------------------===//

#include "EstimateTestUtil.h"

using namespace ktflow::machine;
using namespace ktflow::machine::test;

namespace {

/// A carried value over 8 trips through the scratchpad, around the vector
/// unit's program `vec`, which each trip receives `operandBytes` (none if
/// 0) and the carried entry and sends the next one to the store unit; the
/// store unit stores it and signals the load unit, which loads the carried
/// entry back after that hand-over, and the next trip's operand after it
/// (`operandAfter`) or before it.
Executable carriedThrough(UnitProgram vec, int64_t operandBytes,
                          bool operandAfter) {
  Executable exe;
  exe.fifos = {{"in", LU, VEC, 5, 4, 1024}, {"out", VEC, SU, 6, 4, 128}};
  exe.syncs = {{"stored", SU, LU}};
  ProgramBuilder lu(LU);
  auto loadOperand = [&] {
    if (operandBytes > 0)
      lu.load(0, L1, 0, operandBytes);
  };
  loadOperand();
  lu.load(0, L1, 2048, 128);
  size_t luLoop = lu.loopBegin(7);
  if (!operandAfter)
    loadOperand();
  lu.syncRecv(0);
  if (operandAfter)
    loadOperand();
  lu.load(0, L1, 2048, 128);
  lu.loopEnd(luLoop);
  ProgramBuilder su(SU);
  size_t suLoop = su.loopBegin(7);
  su.store(1, L1, 2048, 128);
  su.syncSend(0);
  su.loopEnd(suLoop);
  su.store(1, L1, 2048, 128);
  exe.programs = {lu.done(), std::move(vec), su.done()};
  return exe;
}

/// carriedThrough with a vector unit that receives the operand and the
/// carried entry and computes the next one (`exps` exps of the entry, 4
/// cycles each).
Executable carried(int64_t operandBytes, bool operandAfter, int exps) {
  ProgramBuilder vec(VEC);
  uint32_t t = vec.vtype(ElemType::f16, {64});
  size_t loop = vec.loopBegin(8);
  if (operandBytes > 0)
    vec.recv(0, vec.vtype(ElemType::f16, {uint32_t(operandBytes / 2)}));
  uint32_t entry = vec.recv(0, t);
  for (int i = 0; i < exps; ++i)
    entry = vec.map(ScalarOp::Exp, t, entry);
  vec.send(1, entry);
  vec.loopEnd(loop);
  return carriedThrough(vec.done(), operandBytes, operandAfter);
}

/// carriedThrough with the next 128-byte operand fed ahead (loaded before
/// the hand-over) and a vector unit that, each trip, receives the operand
/// and takes `exps` exps of it (4 cycles each) before it receives the
/// carried entry, then adds the two (1 cycle) and sends the sum (2).
Executable fedAhead(int exps) {
  ProgramBuilder vec(VEC);
  uint32_t t = vec.vtype(ElemType::f16, {64});
  size_t loop = vec.loopBegin(8);
  uint32_t operand = vec.recv(0, t);
  for (int i = 0; i < exps; ++i)
    operand = vec.map(ScalarOp::Exp, t, operand);
  uint32_t carried = vec.recv(0, t);
  vec.send(1, vec.map(ScalarOp::AddF, t, operand, carried));
  vec.loopEnd(loop);
  return carriedThrough(vec.done(), 128, /*operandAfter=*/false);
}

/// Expects the vector unit busy `busy` cycles and, with its hand-overs,
/// binding at `cycles`; the simulated cycles at least those and at most
/// `slack` more.
void expectHandOversBind(const Executable &exe, double busy, double cycles,
                         uint64_t slack) {
  Machine m = coreMachine();
  KernelEstimate e = estimateResources(m, exe);
  EXPECT_DOUBLE_EQ(e.unitBusy[1], busy);
  EXPECT_EQ(e.bottleneck, "core0.vec + hand-overs");
  EXPECT_DOUBLE_EQ(e.cycles, cycles);
  expectSimulatedAbove(m, exe, static_cast<uint64_t>(cycles), slack);
}

TEST(HandOverEstimateTest, HandOverThroughTheScratchpad) {
  // A carried block between two passes. The vector unit: 8 x (exp 4 +
  // send 2) = 48. It then waits, empty, for 7 hand-overs of: the FIFO to
  // the store unit 1, the stored entry 1 and the store's port 1, the token
  // 3, the loaded entry 1 and the load's port 1, the FIFO back 1: 9
  // cycles, 63 in all (without them the estimate was 48); and for the
  // entry loaded after each, through the FIFO at 64 B/cycle: 2 cycles, 14
  // in all (111 before). The simulator also stores each entry at 64
  // B/cycle and adds the first entry's way in and the last one's way out,
  // as in EstimateTest.ComputeBoundStream.
  expectHandOversBind(carried(0, false, 1), 48, 48 + 63 + 14, 10);
}

TEST(HandOverEstimateTest, ComputeWaitsForTheOperandLoadedAfterTheHandOver) {
  // swiglu_ffn_64x1024x4096's gate products on spyre_like: the PT takes
  // its whole 128 KiB weight slice before each product, and the load unit
  // feeds it only after the SiLU of the previous chunk is stored. Here
  // each of the 7 hand-overs (9 cycles) is followed by a 1 KiB operand and
  // the carried entry through the FIFO at 64 B/cycle, 16 + 2: 48 + 63 +
  // 126 = 237 (111 before, -57 %; simulated 261, the first trip's feed and
  // the stores as above).
  expectHandOversBind(carried(1024, true, 1), 48, 237, 30);
}

TEST(HandOverEstimateTest, OperandLoadedBeforeTheHandOverOverlapsTheWork) {
  // The matrix products of swiglu's down projection: the next block's
  // weights are in the FIFO before the carried accumulator's round trip.
  // Eight exps a trip keep the vector unit busier than the load unit (8 x
  // (16 + 2) = 144): 8 x (8 x 4 + 2) = 272, and 7 hand-overs x (9 + the
  // carried entry's 2): 349; the operand's 16 cycles overlap the previous
  // trip (335 before; simulated 373).
  expectHandOversBind(carried(1024, false, 8), 272, 349, 30);
}

TEST(HandOverEstimateTest, WorkFedAheadHidesPartOfTheHandOver) {
  // The feed-ahead loop of swiglu_ffn_64x1024x4096's gate products (and
  // rmsnorm's lane pipelining): the vector unit has the next operand when
  // it sends the carried entry, and its exp of it (4 cycles) runs during
  // the round trip. The vector unit: 8 x (4 + 1 + 2) = 56. Each of the 7
  // hand-overs (9 cycles) and the carried entry's feed (2) less the exp: 7,
  // 49 in all: 105, simulated 113 (the hand-overs and the feed in full,
  // 77, made 133).
  expectHandOversBind(fedAhead(1), 56, 105, 10);
}

TEST(HandOverEstimateTest, WorkFedAheadHidesTheWholeHandOver) {
  // Four exps (16 cycles) a trip outlast the round trip and the carried
  // entry's feed (11): the vector unit, 8 x (16 + 1 + 2) = 152, binds
  // alone: 152, simulated 160 with the first entry's way in and the last
  // one's way out (229 with the hand-overs charged in full).
  Machine m = coreMachine();
  Executable exe = fedAhead(4);
  KernelEstimate e = estimateResources(m, exe);
  EXPECT_DOUBLE_EQ(e.unitBusy[1], 152);
  EXPECT_EQ(e.bottleneck, "core0.vec");
  EXPECT_DOUBLE_EQ(e.cycles, 152);
  expectSimulatedAbove(m, exe, 152, 10);
}

} // namespace

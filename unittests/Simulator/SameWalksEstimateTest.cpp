//===- SameWalksEstimateTest.cpp - Lanes walked once, by hand -------------===//
//
// This file checks that the whole-kernel estimate copies the walk of a
// lane only where the lanes' walks read the same sizes (SameWalks.h): two
// DMA engines of one kind run a lane's program each, whose first grid
// point, an immediate, reaches the lower bound of its grid loop (as the
// lanes of a production kernel's grid do). Hand values on the test
// machine (TestMachine.h).
//
//===----------------------------------------------------------------------===//

#include "EstimateTestUtil.h"

using namespace ktflow::machine;
using namespace ktflow::machine::test;

namespace {

/// A lane's program: for p in [0, 2), for q from first + p to n step 32,
/// a 64-byte DMA from DDR to L1.
UnitProgram lane(uint32_t unit, int64_t first, int64_t n) {
  ProgramBuilder b(unit);
  size_t outer = b.loopBegin(2);
  uint32_t base = b.imm(first), lb = b.sreg();
  Inst &add = b.emit(Opcode::Alu);
  add.sub = static_cast<uint8_t>(AluOp::Add);
  add.a = lb, add.b = base, add.c = b.p.insts[outer].a;
  uint32_t ub = b.imm(n), step = b.imm(32), iv = b.sreg();
  Inst &loop = b.emit(Opcode::LoopBegin);
  loop.a = iv, loop.b = lb, loop.c = ub, loop.d = step;
  size_t inner = b.p.insts.size() - 1;
  b.dma(DDR, 0, L1, 0, 64);
  b.loopEnd(inner);
  b.loopEnd(outer);
  return b.done();
}

/// Each lane's busy cycles: a DMA of 64 bytes at 32 B/cycle (2 cycles),
/// then its landing, 10 + 2 cycles later (one transfer in flight): 14.
std::pair<double, double> laneBusy(int64_t first0, int64_t first1) {
  Machine m = coreMachine();
  m.units[DMA2].kind = m.units[DMA].kind;
  Executable exe;
  exe.programs = {lane(DMA, first0, 4096), lane(DMA2, first1, 4096)};
  KernelEstimate e = estimateKernel(m, exe);
  return {e.unitBusy[0], e.unitBusy[1]};
}

TEST(SameWalksEstimateTest, LanesOfEqualTripsReadTheSame) {
  // From 0 and 1, then 1 and 2: 128 trips each, 256 DMAs of 14 cycles.
  auto [first, second] = laneBusy(0, 1);
  EXPECT_DOUBLE_EQ(first, 3584);
  EXPECT_DOUBLE_EQ(second, 3584);
}

TEST(SameWalksEstimateTest, LanesOfOtherTripsAreEachWalked) {
  // From 31, 128 trips, then from 32, 127: 255 DMAs; the first lane's
  // walk, copied, would charge 256.
  auto [first, second] = laneBusy(0, 31);
  EXPECT_DOUBLE_EQ(first, 3584);
  EXPECT_DOUBLE_EQ(second, 3570);
}

/// Three lanes' busy cycles, each on a DMA engine of one kind (the test
/// machine's two and a third like them).
std::vector<double> threeLanesBusy(int64_t first0, int64_t first1,
                                   int64_t first2) {
  Machine m = coreMachine();
  m.units[DMA2].kind = m.units[DMA].kind;
  constexpr uint32_t DMA3 = 5;
  m.units.push_back(m.units[DMA]);
  m.units[DMA3].name = "core0.dma3";
  m.links.push_back(
      {{NodeRef::Memory, DDR}, {NodeRef::Unit, DMA3}, 32, 10, 0, {}});
  m.links.push_back(
      {{NodeRef::Unit, DMA3}, {NodeRef::Memory, L1}, 32, 2, 0, {}});
  Executable exe;
  exe.programs = {lane(DMA, first0, 4096), lane(DMA2, first1, 4096),
                  lane(DMA3, first2, 4096)};
  return estimateKernel(m, exe).unitBusy;
}

TEST(SameWalksEstimateTest, ReplayedReadsTellOtherTrips) {
  // The second lane is compared with the first stepped, the third with
  // what the first reads replayed: from 31, it runs 127 trips, not 128.
  EXPECT_EQ(threeLanesBusy(0, 1, 31), (std::vector<double>{3584, 3584, 3570}));
}

TEST(SameWalksEstimateTest, ReadsOfAComparisonThatFailsAreNotReplayed) {
  // The second lane's comparison stops at its first loop; the third's
  // steps the first lane again.
  EXPECT_EQ(threeLanesBusy(0, 31, 1), (std::vector<double>{3584, 3570, 3584}));
}

/// A program that copies 64 bytes from DDR to L1 and back, 32 times: L1
/// is first a transfer's destination, then the next one's source.
UnitProgram roundTrips(uint32_t unit) {
  ProgramBuilder b(unit);
  size_t loop = b.loopBegin(32);
  b.dma(DDR, 0, L1, 0, 64);
  b.dma(L1, 0, DDR, 0, 64);
  b.loopEnd(loop);
  return b.done();
}

TEST(SameWalksEstimateTest, EachDirectionOfAMemorysRoutesIsCompared) {
  // The second engine's route into L1 is the first's, its route out of L1
  // of ten times the latency. The renaming compares a memory's routes once
  // each way: L1, named first as a destination, is compared again where it
  // is a source.
  Machine m = coreMachine();
  m.units[DMA2].kind = m.units[DMA].kind;
  m.links.push_back(
      {{NodeRef::Memory, L1}, {NodeRef::Unit, DMA2}, 32, 20, 0, {}});
  m.links.push_back(
      {{NodeRef::Unit, DMA2}, {NodeRef::Memory, DDR}, 32, 10, 0, {}});
  Executable both, alone;
  both.programs = {roundTrips(DMA), roundTrips(DMA2)};
  alone.programs = {roundTrips(DMA2)};
  std::vector<double> busy = estimateKernel(m, both).unitBusy;
  double walked = estimateKernel(m, alone).unitBusy[0];
  // A copy of the first engine's walk would charge the first's.
  EXPECT_NE(busy[0], walked);
  EXPECT_DOUBLE_EQ(busy[1], walked);
}

} // namespace

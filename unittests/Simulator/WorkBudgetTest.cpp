//===- WorkBudgetTest.cpp - The simulator's work budget -------------------===//
//
// This file tests the lower bound on the instructions a program executes
// (exact for loops with known trip counts, zero iterations otherwise) and
// the two ways the simulator enforces its instruction budget: a program
// whose bound exceeds it is refused before it runs, and one that exceeds it
// only while running stops with an error. The bound on its own is tested
// in unittests/Machine/InstructionCountTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "../Machine/TestMachine.h"

#include "ktflow/Simulator/Simulator.h"

#include "gtest/gtest.h"

using namespace ktflow::machine;
using namespace ktflow::sim;
using namespace ktflow::machine::test;

namespace {

constexpr uint32_t DMA = 0;

/// s = s + 1, `n` times in a loop nested in an outer loop of `m`.
UnitProgram nestedLoops(int64_t m, int64_t n) {
  ProgramBuilder b(DMA);
  uint32_t one = b.imm(1);
  uint32_t acc = b.imm(0);
  size_t outer = b.loopBegin(m);
  size_t inner = b.loopBegin(n); // its bounds are set inside the outer loop
  Inst &add = b.emit(Opcode::Alu);
  add.sub = static_cast<uint8_t>(AluOp::Add);
  add.a = acc, add.b = acc, add.c = one;
  b.loopEnd(inner);
  b.loopEnd(outer);
  return b.done();
}

llvm::Expected<SimStats> simulateWith(const UnitProgram &program,
                                      uint64_t maxInstructions) {
  Machine m = makeTestMachine();
  Executable exe;
  exe.programs = {program};
  MemoryImage mem(m);
  SimOptions options;
  options.maxInstructions = maxInstructions;
  return simulate(m, exe, mem, options);
}

TEST(WorkBudgetTest, CountsLoopsWithKnownBoundsExactly) {
  UnitProgram p = nestedLoops(7, 5);
  InstructionBound bound = boundInstructions(p);
  // 2 set_imm; outer: 3 set_imm + loop_begin, then per iteration the inner
  // loop's 3 set_imm + loop_begin + 5 (alu + loop_end), and the outer
  // loop_end; halt.
  EXPECT_EQ(bound.instructions, 2u + 4u + 7u * (4u + 5u * 2u + 1u) + 1u);
  ASSERT_TRUE(bound.heaviestLoop.has_value());
  EXPECT_EQ(*bound.heaviestLoop, 5u);
  EXPECT_EQ(bound.heaviestLoopTrips, 7u);
  // The simulator executes exactly that many steps: the bound is a budget
  // it fits in, and one less is refused before running.
  auto fits = simulateWith(p, bound.instructions);
  EXPECT_TRUE(static_cast<bool>(fits)) << llvm::toString(fits.takeError());
  auto refused = simulateWith(p, bound.instructions - 1);
  ASSERT_FALSE(static_cast<bool>(refused));
  std::string msg = llvm::toString(refused.takeError());
  EXPECT_NE(msg.find("the programs would exceed the work budget of 111 "
                     "instructions: they execute at least 112 if they run to "
                     "completion, 112 of them in the program of core0.dma "
                     "(its loop at instruction 5 runs 7 times); raise it "
                     "with --max-instructions"),
            std::string::npos)
      << msg;
}

TEST(WorkBudgetTest, HugeLoopIsRefusedBeforeRunning) {
  // 2^62 x 2^62 iterations: the count saturates, nothing runs.
  UnitProgram p = nestedLoops(int64_t(1) << 62, int64_t(1) << 62);
  EXPECT_EQ(boundInstructions(p).instructions, UINT64_MAX);
  auto refused = simulateWith(p, SimOptions().maxInstructions);
  ASSERT_FALSE(static_cast<bool>(refused));
  EXPECT_NE(llvm::toString(refused.takeError())
                .find("runs 4611686018427387904 times"),
            std::string::npos);
}

TEST(WorkBudgetTest, LoopWhoseBodyWritesItsBoundIsCheckedWhileRunning) {
  // The body raises the upper bound by one each iteration, so the loop
  // never ends; the bound counts it as running zero times and the
  // simulator stops it at the budget.
  ProgramBuilder b(DMA);
  uint32_t one = b.imm(1);
  size_t loop = b.loopBegin(4);
  uint32_t ub = b.p.insts[loop].c;
  Inst &grow = b.emit(Opcode::Alu);
  grow.sub = static_cast<uint8_t>(AluOp::Add);
  grow.a = ub, grow.b = ub, grow.c = one;
  b.loopEnd(loop);
  UnitProgram p = b.done();
  // 4 set_imm, loop_begin, halt.
  EXPECT_EQ(boundInstructions(p).instructions, 6u);
  EXPECT_FALSE(boundInstructions(p).heaviestLoop.has_value());
  auto stopped = simulateWith(p, 1000);
  ASSERT_FALSE(static_cast<bool>(stopped));
  std::string msg = llvm::toString(stopped.takeError());
  EXPECT_NE(msg.find("the simulation exceeded the work budget of 1000 "
                     "instructions; raise it with --max-instructions"),
            std::string::npos)
      << msg;
}

} // namespace

//===- InstructionCountTest.cpp - Bounds on executed instructions ---------===//
//
// This file tests the lower bound on the instructions a unit program
// executes where it needs no simulation to check: loop bounds computed by
// alu instructions are known, and counting stops at a halt or a failing
// instruction that execution cannot pass. The simulator's use of the bound
// as a work budget is tested in unittests/Simulator/WorkBudgetTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "TestMachine.h"

#include "gtest/gtest.h"

using namespace ktflow::machine;
using namespace ktflow::machine::test;

namespace {

constexpr uint32_t DMA = 0;

TEST(InstructionCountTest, BoundsComputedByAluAreKnown) {
  // ub = 3 * 4 = 12, step = 5: iterations 0, 5, 10.
  ProgramBuilder b(DMA);
  uint32_t three = b.imm(3), four = b.imm(4);
  uint32_t ub = b.sreg();
  Inst &mul = b.emit(Opcode::Alu);
  mul.sub = static_cast<uint8_t>(AluOp::Mul);
  mul.a = ub, mul.b = three, mul.c = four;
  uint32_t lb = b.imm(0), step = b.imm(5), iv = b.sreg();
  Inst &begin = b.emit(Opcode::LoopBegin);
  begin.a = iv, begin.b = lb, begin.c = ub, begin.d = step;
  size_t at = b.p.insts.size() - 1;
  b.loopEnd(at);
  UnitProgram p = b.done();
  // 5 before the loop, loop_begin, 3 loop_ends, halt.
  EXPECT_EQ(boundInstructions(p).instructions, 5u + 1u + 3u + 1u);
  EXPECT_EQ(boundInstructions(p).heaviestLoopTrips, 3u);
}

TEST(InstructionCountTest, CountingStopsWhereExecutionMust) {
  // A loop of unknown trip count whose body halts: what follows it may
  // never run, so a huge loop after it does not count.
  ProgramBuilder b(DMA);
  uint32_t one = b.imm(1);
  size_t unknown = b.loopBegin(4);
  Inst &grow = b.emit(Opcode::Alu);
  uint32_t ub = b.p.insts[unknown].c;
  grow.sub = static_cast<uint8_t>(AluOp::Add);
  grow.a = ub, grow.b = ub, grow.c = one;
  b.emit(Opcode::Halt);
  b.loopEnd(unknown);
  size_t huge = b.loopBegin(int64_t(1) << 40);
  b.loopEnd(huge);
  UnitProgram p = b.done();
  EXPECT_EQ(boundInstructions(p).instructions, 5u);

  // Division by zero on known operands fails there.
  ProgramBuilder d(DMA);
  uint32_t zero = d.imm(0), seven = d.imm(7), quotient = d.sreg();
  Inst &div = d.emit(Opcode::Alu);
  div.sub = static_cast<uint8_t>(AluOp::DivS);
  div.a = quotient, div.b = seven, div.c = zero;
  size_t after = d.loopBegin(int64_t(1) << 40);
  d.loopEnd(after);
  // Two set_imm and the division.
  EXPECT_EQ(boundInstructions(d.done()).instructions, 3u);
}

} // namespace

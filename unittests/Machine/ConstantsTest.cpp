//===- ConstantsTest.cpp - The scalars of a program that hold one value ---===//
//
// This file checks Constants (SameWalks.h), which finds a register's value
// when first asked for and keeps each register's state and value in one
// slot per register: values found from any register first, a loop's
// register held inside its loop only, a failing alu a constant of unknown
// value, and registers defined twice or at or after the end not constants.
//
//===----------------------------------------------------------------------===//

#include "TestMachine.h"

#include "SameWalks.h"

#include "gtest/gtest.h"

using namespace ktflow::machine;
using namespace ktflow::machine::detail;
using namespace ktflow::machine::test;

namespace {

constexpr uint32_t kUnit = 0;

uint32_t alu(ProgramBuilder &b, AluOp op, uint32_t x, uint32_t y) {
  uint32_t r = b.sreg();
  Inst &in = b.emit(Opcode::Alu);
  in.sub = static_cast<uint8_t>(op);
  in.a = r, in.b = x, in.c = y;
  return r;
}

/// A loop from `lb` to `ub` by `step`, empty; returns its loop_begin.
size_t loop(ProgramBuilder &b, uint32_t lb, uint32_t ub, uint32_t step) {
  uint32_t iv = b.sreg();
  Inst &begin = b.emit(Opcode::LoopBegin);
  begin.a = iv, begin.b = lb, begin.c = ub, begin.d = step;
  size_t at = b.p.insts.size() - 1;
  b.loopEnd(at);
  return at;
}

/// Loops of 3 and 6 trips whose bounds are computed (6 / 2, then that
/// times 2, found after the first loop).
struct Computed {
  UnitProgram program;
  size_t three = 0, six = 0;
};

Computed computed() {
  ProgramBuilder b(kUnit);
  uint32_t zero = b.imm(0), one = b.imm(1), two = b.imm(2), six = b.imm(6);
  uint32_t three = alu(b, AluOp::DivS, six, two);
  Computed c;
  c.three = loop(b, zero, three, one);
  uint32_t twice = alu(b, AluOp::Mul, three, two);
  c.six = loop(b, zero, twice, one);
  b.emit(Opcode::Halt);
  c.program = b.p;
  return c;
}

TEST(ConstantsTest, ValuesFoundFromAnyRegisterFirst) {
  Computed c = computed();
  // The later loop first (its bound's sources found with it), then the
  // first; and the other way round on the same shape.
  Constants lateFirst(c.program);
  ASSERT_TRUE(lateFirst.counts(c.six));
  EXPECT_EQ(lateFirst.tripsAt(c.six), 6);
  ASSERT_TRUE(lateFirst.counts(c.three));
  EXPECT_EQ(lateFirst.tripsAt(c.three), 3);
  Constants earlyFirst(c.program, lateFirst.getShape());
  ASSERT_TRUE(earlyFirst.counts(c.three));
  EXPECT_EQ(earlyFirst.tripsAt(c.three), 3);
  ASSERT_TRUE(earlyFirst.counts(c.six));
  EXPECT_EQ(earlyFirst.tripsAt(c.six), 6);
}

TEST(ConstantsTest, DefinitionsAtOrAfterTheEndAreNotConstants) {
  Computed c = computed();
  // Up to the first loop: its bound is found, the second's is defined
  // after the end. On the shape found for the whole program, the same.
  Constants upToFirst(c.program, c.three + 1);
  EXPECT_TRUE(upToFirst.counts(c.three));
  EXPECT_FALSE(upToFirst.counts(c.six));
  Constants onShape(c.program, upToFirst.getShape(), c.three + 1);
  EXPECT_FALSE(onShape.counts(c.six));
  EXPECT_TRUE(onShape.counts(c.three));
}

TEST(ConstantsTest, LoopRegisterHeldInsideItsLoopOnly) {
  ProgramBuilder b(kUnit);
  uint32_t zero = b.imm(0), one = b.imm(1), five = b.imm(5), six = b.imm(6);
  // A loop of one trip from 5: its register is 5 inside it.
  uint32_t iv = b.sreg();
  Inst &outer = b.emit(Opcode::LoopBegin);
  outer.a = iv, outer.b = five, outer.c = six, outer.d = one;
  size_t outerAt = b.p.insts.size() - 1;
  size_t inside = loop(b, zero, iv, one);
  b.loopEnd(outerAt);
  // After it, the walk no longer knows it.
  size_t after = loop(b, zero, iv, one);
  b.emit(Opcode::Halt);
  Constants constants(b.p);
  ASSERT_TRUE(constants.counts(inside));
  EXPECT_EQ(constants.tripsAt(inside), 5);
  EXPECT_FALSE(constants.counts(after));
}

TEST(ConstantsTest, FailingAluIsAConstantOfUnknownValue) {
  ProgramBuilder b(kUnit);
  uint32_t zero = b.imm(0), one = b.imm(1);
  // 1 / 0 fails: the register holds one (unknown) value, so the loop
  // counts, and its trips are one, as the walk takes an unknown bound.
  uint32_t failed = alu(b, AluOp::DivS, one, zero);
  size_t at = loop(b, zero, failed, one);
  b.emit(Opcode::Halt);
  Constants constants(b.p);
  ASSERT_TRUE(constants.counts(at));
  EXPECT_EQ(constants.tripsAt(at), 1);
}

TEST(ConstantsTest, RegisterDefinedTwiceIsNotAConstant) {
  ProgramBuilder b(kUnit);
  uint32_t zero = b.imm(0), one = b.imm(1), bound = b.imm(4);
  // `bound` set again before the loop: a register of two definitions is
  // not taken for a constant (only the one of a single definition is),
  // nor is what is computed from it.
  Inst &again = b.emit(Opcode::SetImm);
  again.a = bound, again.imm = 7;
  size_t direct = loop(b, zero, bound, one);
  uint32_t doubled = alu(b, AluOp::Add, bound, bound);
  size_t computed = loop(b, zero, doubled, one);
  b.emit(Opcode::Halt);
  Constants constants(b.p);
  EXPECT_FALSE(constants.counts(direct));
  EXPECT_FALSE(constants.counts(computed));
}

} // namespace

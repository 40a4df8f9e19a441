//===- MapCostTest.cpp - A map's cycles, found once per instruction -------===//
//
// This file checks ProgramWalker::mapCostOf, which keeps each map
// instruction's cycles for the walk's later trips: the cycles belong to
// the instruction (its body, its type, the unit), so a body that two
// instructions share at different widths is charged each its own.
//
//===----------------------------------------------------------------------===//

#include "TestMachine.h"

#include "ProgramWalker.h"

#include "gtest/gtest.h"

using namespace ktflow::machine;
using namespace ktflow::machine::detail;
using namespace ktflow::machine::test;

namespace {

constexpr uint32_t VEC = 2;

/// The walked cycles of `program` on `m` (the test machine's vector unit:
/// f16 at 64 elements a cycle, exp at 16).
double walked(const UnitProgram &program,
              const Machine &m = makeTestMachine()) {
  Executable exe;
  exe.programs = {program};
  RouteCosts routes(m, exe);
  KernelEstimate out;
  out.memoryBusy.assign(m.memories.size(), 0);
  ProgramWalker walker(m, exe, exe.programs[0], out, routes);
  return walker.run();
}

TEST(MapCostTest, EachTripOfAMapCostsAsTheFirst) {
  // 8 trips of an add of 1024 f16 (16 cycles) and an exp of 256 (16).
  ProgramBuilder vec(VEC);
  uint32_t wide = vec.vtype(ElemType::f16, {1024});
  uint32_t narrow = vec.vtype(ElemType::f16, {256});
  size_t loop = vec.loopBegin(8);
  uint32_t v = vec.map(ScalarOp::AddF, wide, 0, 0);
  vec.map(ScalarOp::Exp, narrow, v);
  vec.loopEnd(loop);
  EXPECT_EQ(walked(vec.done()), 8 * (16 + 16));
}

TEST(MapCostTest, ABodySharedAtAnotherWidthIsNotReused) {
  // One add body, mapped over 64 f16 (1 cycle) then over 1024 (16) in
  // each of 8 trips: the second instruction's cycles are its own, not the
  // first's kept for the body.
  ProgramBuilder vec(VEC);
  uint32_t narrow = vec.vtype(ElemType::f16, {64});
  uint32_t wide = vec.vtype(ElemType::f16, {1024});
  size_t loop = vec.loopBegin(8);
  vec.map(ScalarOp::AddF, narrow, 0, 0);
  // (The same instruction but for its result and type: body b shared.)
  Inst again = vec.p.insts.back();
  again.a = vec.vreg();
  again.c = wide;
  vec.p.insts.push_back(again);
  vec.loopEnd(loop);
  EXPECT_EQ(walked(vec.done()), 8 * (1 + 16));
}

TEST(MapCostTest, AnotherUnitsRatesAreItsOwn) {
  // The same program walked on the vector unit and on a unit of half its
  // f16 rate: each walk's cycles from its own unit's rates.
  ProgramBuilder vec(VEC);
  uint32_t type = vec.vtype(ElemType::f16, {1024});
  size_t loop = vec.loopBegin(4);
  vec.map(ScalarOp::AddF, type, 0, 0);
  vec.loopEnd(loop);
  UnitProgram program = vec.done();
  EXPECT_EQ(walked(program), 4 * 16);
  Machine halved = makeTestMachine();
  halved.units[VEC].setThroughput(OpClass::Elementwise, ElemType::f16, 32);
  EXPECT_EQ(walked(program, halved), 4 * 32);
}

} // namespace

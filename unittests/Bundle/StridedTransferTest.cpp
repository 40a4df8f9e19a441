//===- StridedTransferTest.cpp - Bundle encoding of loads of rows ---------===//
//
// This file tests a load's and a store's rows in the bundle: their two more
// operands (the rows and their stride) encoded and decoded with the
// sub-operation that announces them, disassembled, and refused where
// hostile (an unknown form, registers out of range).
//
//===----------------------------------------------------------------------===//

#include "RoundTrip.h"
#include "TestBundle.h"

#include "llvm/ADT/STLExtras.h"

#include "gtest/gtest.h"

using namespace ktflow;
using namespace ktflow::bundle;
using namespace ktflow::bundle::test;
using namespace ktflow::machine;
using namespace ktflow::machine::test;

namespace {

/// The test bundle's load unit (the producer of FIFO "in"): a load of one
/// run and a load of 4 rows of 32 bytes 64 apart, from L1.
UnitProgram rowsProgram() {
  ProgramBuilder lu(1);
  uint32_t at = lu.imm(0), size = lu.imm(32), rows = lu.imm(4),
           stride = lu.imm(64);
  Inst &run = lu.emit(Opcode::Load);
  run.a = 0, run.b = 1, run.c = at, run.d = size;
  Inst &block = lu.emit(Opcode::Load);
  block = run;
  block.sub = kTransferRows;
  block.e = rows, block.f = stride;
  return lu.done();
}

Inst &rowsLoad(UnitProgram &p) {
  return *llvm::find_if(p.insts,
                        [](const Inst &i) { return i.sub == kTransferRows; });
}

TEST(StridedTransferBundleTest, EncodesDecodesAndDisassembles) {
  std::string text = roundTripProgram(makeBundle(), rowsProgram());
  EXPECT_NE(text.find("load @in <- core0.L1[s0], s1 bytes\n"),
            std::string::npos)
      << text;
  EXPECT_NE(
      text.find("load @in <- core0.L1[s0], s1 bytes x s2 rows stride s3\n"),
      std::string::npos)
      << text;
}

TEST(StridedTransferBundleTest, ValidationRefusesHostileFields) {
  Bundle b = makeBundle();
  Executable exe;
  exe.fifos = b.fifos;
  exe.programs = {rowsProgram()};
  EXPECT_EQ(exe.validate(b.machine), "");
  Inst &block = rowsLoad(exe.programs[0]);
  block.f = 99;
  EXPECT_NE(exe.validate(b.machine).find("register out of range"),
            std::string::npos);
  block.f = kNoReg;
  EXPECT_NE(exe.validate(b.machine).find("register out of range"),
            std::string::npos);
  block.f = 0, block.e = 99;
  EXPECT_NE(exe.validate(b.machine).find("register out of range"),
            std::string::npos);
  block.e = 0, block.sub = 2;
  EXPECT_NE(exe.validate(b.machine).find("unknown load or store form"),
            std::string::npos);
  block.op = Opcode::Store;
  EXPECT_NE(exe.validate(b.machine).find("unknown load or store form"),
            std::string::npos);
}

} // namespace

//===- DmaPlanesTest.cpp - Bundle encoding of DMAs of planes of rows ------===//
//
// This file tests a DMA's second level of strides in the bundle: its three
// more operands encoded and decoded with the sub-operation that announces
// them, disassembled, and refused where hostile (an unknown form, planes
// without rows, registers out of range, operands cut short).
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

/// A program with a DMA of rows and one of planes of rows, DDR -> L1.
UnitProgram planesProgram() {
  ProgramBuilder dma(0);
  uint32_t at = dma.imm(0), two = dma.imm(2), n = dma.imm(128),
           wide = dma.imm(256);
  Inst &rowsOnly = dma.emit(Opcode::Dma);
  rowsOnly.a = 0, rowsOnly.b = at, rowsOnly.c = 1, rowsOnly.d = at;
  rowsOnly.e = two, rowsOnly.f = n, rowsOnly.g = two, rowsOnly.h = wide;
  Inst &block = dma.emit(Opcode::Dma);
  block = rowsOnly;
  block.sub = kDmaPlanes;
  block.i = n, block.j = wide, block.k = two;
  return dma.done();
}

Inst &planesDma(UnitProgram &p) {
  return *llvm::find_if(p.insts, [](const Inst &i) { return hasPlanes(i); });
}

TEST(DmaPlanesBundleTest, EncodesDecodesAndDisassembles) {
  std::string text = roundTripProgram(makeBundle(), planesProgram());
  EXPECT_NE(text.find("dma s1 bytes x s2 rows from DDR[s0] to core0.L1[s0] "
                      "strides s1, s3\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("dma s1 bytes x s2 rows from DDR[s0] to core0.L1[s0] "
                      "strides s1, s3 x s2 planes strides s3, s1\n"),
            std::string::npos)
      << text;
}

TEST(DmaPlanesBundleTest, ValidationRefusesHostileFields) {
  Bundle b = makeBundle();
  Executable exe;
  exe.programs = {planesProgram()};
  EXPECT_EQ(exe.validate(b.machine), "");
  Inst &block = planesDma(exe.programs[0]);
  block.k = 99;
  EXPECT_NE(exe.validate(b.machine).find("register out of range"),
            std::string::npos);
  block.k = 0;
  block.f = kNoReg;
  EXPECT_NE(exe.validate(b.machine).find("planes of a dma without rows"),
            std::string::npos);
  block.sub = 2;
  EXPECT_NE(exe.validate(b.machine).find("unknown dma form"),
            std::string::npos);
}

TEST(DmaPlanesBundleTest, OperandsCutShortAreMalformed) {
  UnitProgram p = planesProgram();
  std::vector<uint8_t> code = encodeProgram(p);
  // The halt, then the last plane stride: the decoder runs out of bytes.
  code.resize(code.size() - 3);
  auto decoded = decodeProgram(code, 0);
  ASSERT_FALSE(static_cast<bool>(decoded));
  EXPECT_NE(llvm::toString(decoded.takeError()).find("malformed program"),
            std::string::npos);
  // A DMA of rows announced as planes reads the next opcode as its
  // operands: a program cut short, or with trailing bytes, never a crash.
  code = encodeProgram(p);
  for (size_t at = 0; at < code.size(); ++at) {
    std::vector<uint8_t> flipped = code;
    flipped[at] ^= 1;
    auto any = decodeProgram(flipped, 0);
    if (!any)
      llvm::consumeError(any.takeError());
  }
}

} // namespace

//===- BundleTest.cpp - Tests of the bundle encoder and decoder -----------===//
//
// This file tests that programs and bundles survive encoding and that
// damaged files (bad magic, wrong version, truncation, flipped bytes) are
// rejected with the right message, and that the byte reader refuses
// overlong LEB128 integers. Linking and running a bundle, hostile fields
// included, is tested with the runtime (unittests/Runtime).
//
//===----------------------------------------------------------------------===//

#include "ByteStream.h"
#include "RoundTrip.h"
#include "TestBundle.h"

#include "gtest/gtest.h"

using namespace ktflow;
using namespace ktflow::bundle;
using namespace ktflow::machine;
using namespace ktflow::machine::test;
using namespace ktflow::bundle::test;

namespace {

bool sameProgram(const UnitProgram &a, const UnitProgram &b) {
  if (a.unit != b.unit || a.numSRegs != b.numSRegs ||
      a.numVRegs != b.numVRegs || !(a.vtypes == b.vtypes) ||
      a.insts.size() != b.insts.size() || a.maps.size() != b.maps.size())
    return false;
  for (size_t i = 0; i < a.insts.size(); ++i)
    if (!sameInst(a.insts[i], b.insts[i]))
      return false;
  for (size_t i = 0; i < a.maps.size(); ++i)
    if (a.maps[i].inputs != b.maps[i].inputs ||
        a.maps[i].ops.size() != b.maps[i].ops.size() ||
        a.maps[i].resultSlot != b.maps[i].resultSlot)
      return false;
  return true;
}

std::string readError(const std::vector<uint8_t> &bytes) {
  auto b = readBundle(bytes);
  return b ? "" : llvm::toString(b.takeError());
}

TEST(BundleTest, ProgramRoundTrips) {
  ProgramBuilder vec(2);
  uint32_t t = vec.vtype(ElemType::f16, {4, 64});
  size_t loop = vec.loopBegin(-5);
  uint32_t x = vec.recv(0, t);
  vec.send(1, vec.map(ScalarOp::Sigmoid, t, x));
  vec.loopEnd(loop);
  Inst &splat = vec.emit(Opcode::Splat);
  splat.a = vec.vreg(), splat.c = t, splat.imm = -123456789012345;
  UnitProgram p = vec.done();
  std::vector<uint8_t> code = encodeProgram(p);
  auto decoded = decodeProgram(code, 2);
  ASSERT_TRUE(static_cast<bool>(decoded)) << llvm::toString(decoded.takeError());
  EXPECT_TRUE(sameProgram(p, *decoded));
  // Compact: a few bytes per instruction.
  EXPECT_LT(code.size(), p.insts.size() * 8 + 64);
}

TEST(BundleTest, BundleRoundTrips) {
  Bundle b = makeBundle();
  std::vector<uint8_t> bytes = writeBundle(b);
  auto read = readBundle(bytes);
  ASSERT_TRUE(static_cast<bool>(read)) << llvm::toString(read.takeError());
  EXPECT_EQ(read->kernel, "copy");
  EXPECT_EQ(read->deviceFingerprint, b.machine.fingerprint());
  EXPECT_EQ(read->machine.fingerprint(), b.machine.fingerprint());
  ASSERT_EQ(read->tensors.size(), 1u);
  EXPECT_EQ(read->tensors[0].dims[0].runtimeArg, 0u);
  EXPECT_EQ(read->runtimeArgs[0].upperbound, 2048);
  EXPECT_EQ(read->runtimeArgs[0].lowerbound, 1);
  EXPECT_EQ(read->relocations.size(), 2u);
}

TEST(BundleTest, MatrixShapeRoundTrips) {
  // The simulator times a matmul from the engine's block (MatrixTiming.h).
  Bundle b = makeBundle();
  b.machine.units[0].matrix = {16, 8, 4};
  b.deviceFingerprint = b.machine.fingerprint();
  auto read = readBundle(writeBundle(b));
  ASSERT_TRUE(static_cast<bool>(read)) << llvm::toString(read.takeError());
  EXPECT_EQ(read->machine.units[0].matrix.m, 16u);
  EXPECT_EQ(read->machine.units[0].matrix.n, 8u);
  EXPECT_EQ(read->machine.units[0].matrix.k, 4u);
  EXPECT_FALSE(read->machine.units[1].matrix.isEngine());
}

TEST(BundleTest, FloatArgumentTypeRoundTrips) {
  // A float scalar (a norm's epsilon): its type survives, and a type that is
  // not f16, bf16 or f32 is a corrupt bundle.
  Bundle b = makeBundle();
  RuntimeArg eps;
  eps.name = "arg4";
  eps.upperbound = eps.lowerbound = 0;
  eps.floatType = 1 + static_cast<uint8_t>(machine::ElemType::bf16);
  b.runtimeArgs.push_back(eps);
  auto read = readBundle(writeBundle(b));
  ASSERT_TRUE(static_cast<bool>(read)) << llvm::toString(read.takeError());
  ASSERT_EQ(read->runtimeArgs.size(), 2u);
  EXPECT_EQ(getFloatType(read->runtimeArgs[1]), machine::ElemType::bf16);
  EXPECT_EQ(getFloatType(read->runtimeArgs[0]), std::nullopt);
  b.runtimeArgs[1].floatType = 1 + static_cast<uint8_t>(machine::ElemType::i32);
  auto bad = readBundle(writeBundle(b));
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_EQ(llvm::toString(bad.takeError()),
            "corrupt bundle: runtime argument 'arg4' has a bad float type");
}

TEST(BundleTest, RelocationKindsRoundTrip) {
  // Kind 2 (an integer argument a splat reads as a float) survives; a kind
  // past it is a corrupt bundle.
  Bundle b = makeBundle();
  b.relocations[1].kind = SymbolKind::RuntimeArgAsFloat;
  auto read = readBundle(writeBundle(b));
  ASSERT_TRUE(static_cast<bool>(read)) << llvm::toString(read.takeError());
  EXPECT_EQ(read->relocations[0].kind, SymbolKind::TensorAddress);
  EXPECT_EQ(read->relocations[1].kind, SymbolKind::RuntimeArgAsFloat);
  b.relocations[1].kind = static_cast<SymbolKind>(3);
  auto bad = readBundle(writeBundle(b));
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_NE(llvm::toString(bad.takeError()).find("bad relocation kind"),
            std::string::npos);
}

TEST(BundleTest, ScalarArgumentBoundsRoundTrip) {
  // A plain i32 scalar: any value of the type, negative ones included.
  Bundle b = makeBundle();
  b.runtimeArgs.push_back({"k", 1, INT32_MAX, INT32_MIN});
  auto read = readBundle(writeBundle(b));
  ASSERT_TRUE(static_cast<bool>(read)) << llvm::toString(read.takeError());
  ASSERT_EQ(read->runtimeArgs.size(), 2u);
  EXPECT_EQ(read->runtimeArgs[1].name, "k");
  EXPECT_EQ(read->runtimeArgs[1].lowerbound, INT32_MIN);
  EXPECT_EQ(read->runtimeArgs[1].upperbound, INT32_MAX);
  // Bounds that admit no value are corrupt.
  b.runtimeArgs[1].lowerbound = 5;
  b.runtimeArgs[1].upperbound = 4;
  auto bad = readBundle(writeBundle(b));
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_EQ(llvm::toString(bad.takeError()),
            "corrupt bundle: runtime argument 'k' has a bad granularity or "
            "bounds");
}

TEST(BundleTest, DimensionScaleRoundTrips) {
  // Two halves of n rows of 64 at one pointer: a tensor of 128 n elements.
  Bundle b = makeBundle();
  b.tensors[0].dims[0].scale = 128;
  auto read = readBundle(writeBundle(b));
  ASSERT_TRUE(static_cast<bool>(read)) << llvm::toString(read.takeError());
  EXPECT_EQ(read->tensors[0].dims[0].scale, 128);
  // A dimension of a runtime argument times nothing positive is corrupt.
  b.tensors[0].dims[0].scale = 0;
  auto bad = readBundle(writeBundle(b));
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_EQ(llvm::toString(bad.takeError()),
            "corrupt bundle: tensor 'x' has a bad dimension");
}

TEST(BundleTest, ArgumentTableRoundTrips) {
  Bundle b = makeBundle();
  b.tensors[0].argument = 1;
  b.tensors[0].argName = "x";
  TensorArg literal = b.tensors[0];
  literal.name = "lit8192";
  literal.argument = kNoArg;
  literal.argName.clear();
  literal.address = 8192;
  b.tensors.push_back(literal);
  b.runtimeArgs[0].argument = 0;
  b.runtimeArgs[0].argName = "n_rows";
  auto read = readBundle(writeBundle(b));
  ASSERT_TRUE(static_cast<bool>(read)) << llvm::toString(read.takeError());
  ASSERT_EQ(read->tensors.size(), 2u);
  EXPECT_EQ(read->tensors[0].argument, 1u);
  EXPECT_EQ(read->tensors[0].argName, "x");
  EXPECT_FALSE(read->tensors[0].address.has_value());
  EXPECT_EQ(read->tensors[1].argument, kNoArg);
  EXPECT_EQ(read->tensors[1].argName, "");
  EXPECT_EQ(read->tensors[1].address, std::optional<uint64_t>(8192));
  EXPECT_EQ(read->runtimeArgs[0].argument, 0u);
  EXPECT_EQ(read->runtimeArgs[0].argName, "n_rows");
  // Address 0 is an address, not "none".
  b.tensors[1].address = 0;
  read = readBundle(writeBundle(b));
  ASSERT_TRUE(static_cast<bool>(read)) << llvm::toString(read.takeError());
  EXPECT_EQ(read->tensors[1].address, std::optional<uint64_t>(0));

  // A name needs a position; a tensor is at an argument or an address.
  Bundle named = makeBundle();
  named.tensors[0].argName = "x";
  EXPECT_EQ(
      readError(writeBundle(named))
          .find(
              "corrupt bundle: an argument name without an argument position"),
      0u);
  named = makeBundle();
  named.runtimeArgs[0].argName = "n";
  EXPECT_EQ(
      readError(writeBundle(named))
          .find(
              "corrupt bundle: an argument name without an argument position"),
      0u);
  Bundle both = makeBundle();
  both.tensors[0].argument = 0;
  both.tensors[0].address = 64;
  EXPECT_EQ(
      readError(writeBundle(both))
          .find("corrupt bundle: a tensor with both an argument position and a "
                "literal address"),
      0u);
}

TEST(BundleTest, FillEncodesDecodesAndDisassembles) {
  // A fill of one row and a strided fill of rows, through the DMA engine
  // into L1 (the test machine's memory 1).
  Bundle b = makeBundle();
  ProgramBuilder dma(0);
  uint32_t at = dma.imm(256), bytes = dma.imm(96), rows = dma.imm(3),
           stride = dma.imm(128);
  Inst &one = dma.emit(Opcode::Fill);
  one.a = 1, one.b = at, one.c = bytes;
  one.d = one.e = kNoReg;
  Inst &strided = dma.emit(Opcode::Fill);
  strided.a = 1, strided.b = at, strided.c = bytes, strided.d = rows,
  strided.e = stride;
  UnitProgram p = dma.done();
  std::string text = roundTripProgram(b, p);
  EXPECT_NE(text.find("fill s1 bytes to core0.L1[s0]\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("fill s1 bytes x s2 rows to core0.L1[s0] stride s3\n"),
            std::string::npos)
      << text;

  // The runtime's validation refuses a memory or a register out of range.
  Executable exe;
  exe.programs = {p};
  EXPECT_EQ(exe.validate(b.machine), "");
  Inst &fill = *llvm::find_if(exe.programs[0].insts, [](const Inst &i) {
    return i.op == Opcode::Fill && i.d != kNoReg;
  });
  fill.a = 7;
  EXPECT_NE(exe.validate(b.machine).find("memory index out of range"),
            std::string::npos);
  fill.a = 1;
  fill.e = 99;
  EXPECT_NE(exe.validate(b.machine).find("register out of range"),
            std::string::npos);
}

TEST(BundleTest, ReadIndexEncodesDecodesAndDisassembles) {
  // An index read from L1 (the test machine's memory 1) bounded by 64, the
  // address of a gather's run.
  Bundle b = makeBundle();
  ProgramBuilder dma(0);
  uint32_t at = dma.imm(256), bound = dma.imm(64), value = dma.sreg();
  Inst &read = dma.emit(Opcode::ReadIndex);
  read.a = value, read.b = 1, read.c = at, read.d = bound, read.sub = 4;
  UnitProgram p = dma.done();
  std::string text = roundTripProgram(b, p);
  EXPECT_NE(text.find("read_index s2 = i32 core0.L1[s0] below s1\n"),
            std::string::npos)
      << text;

  // Validation refuses a memory, a register or a width out of range.
  Executable exe;
  exe.programs = {p};
  EXPECT_EQ(exe.validate(b.machine), "");
  Inst &in = *llvm::find_if(exe.programs[0].insts, [](const Inst &i) {
    return i.op == Opcode::ReadIndex;
  });
  in.b = 7;
  EXPECT_NE(exe.validate(b.machine).find("memory index out of range"),
            std::string::npos);
  in.b = 1;
  in.d = 99;
  EXPECT_NE(exe.validate(b.machine).find("register out of range"),
            std::string::npos);
  in.d = bound;
  in.sub = 3;
  EXPECT_NE(exe.validate(b.machine).find("bad index width"), std::string::npos);
}

TEST(BundleTest, NaNSkippingFoldsEncodeDecodeAndDisassemble) {
  // arith.maxnumf/minnumf as a reduction and as a map micro-op (version
  // 16): their own codes, not max/min's, which propagate NaN.
  Bundle b = makeBundle();
  ProgramBuilder vec(2);
  uint32_t t = vec.vtype(ElemType::f16, {64});
  uint32_t one = vec.vtype(ElemType::f16, {1});
  uint32_t x = vec.vreg();
  Inst &splat = vec.emit(Opcode::Splat);
  splat.a = x, splat.c = t;
  for (ReduceKind kind : {ReduceKind::MaxNum, ReduceKind::MinNum}) {
    Inst &reduce = vec.emit(Opcode::Reduce);
    reduce.a = vec.vreg(), reduce.b = x, reduce.c = one;
    reduce.sub = static_cast<uint8_t>(kind);
  }
  vec.map(ScalarOp::MinNumF, t, vec.map(ScalarOp::MaxNumF, t, x, x), x);
  UnitProgram p = vec.done();
  std::string text = roundTripProgram(b, p);
  EXPECT_NE(text.find("reduce.maxnum"), std::string::npos) << text;
  EXPECT_NE(text.find("reduce.minnum"), std::string::npos) << text;
  EXPECT_NE(text.find("= maxnumf"), std::string::npos) << text;
  EXPECT_NE(text.find("= minnumf"), std::string::npos) << text;

  // A reduction or a micro-op past the last one is refused, not run.
  Executable exe;
  exe.programs = {p};
  EXPECT_EQ(exe.validate(b.machine), "");
  Inst &reduce = *llvm::find_if(exe.programs[0].insts, [](const Inst &i) {
    return i.op == Opcode::Reduce;
  });
  reduce.sub = kNumReduceKinds;
  EXPECT_NE(exe.validate(b.machine).find("unknown reduction"),
            std::string::npos);
  p.maps[0].ops[0].op = static_cast<ScalarOp>(kNumScalarOps);
  auto decoded = decodeProgram(encodeProgram(p), 2);
  ASSERT_FALSE(static_cast<bool>(decoded));
  EXPECT_NE(llvm::toString(decoded.takeError()).find("unknown micro-op"),
            std::string::npos);
}

TEST(BundleTest, AfterNaNFoldsEncodeTheirInitialAccumulator) {
  // The select form with the accumulator on the compare's left (version
  // 17): kinds 6 and 7, and one more register, the accumulator the fold
  // starts from; the other kinds keep three.
  Bundle b = makeBundle();
  ProgramBuilder vec(2);
  uint32_t t = vec.vtype(ElemType::f16, {64});
  uint32_t one = vec.vtype(ElemType::f16, {1});
  uint32_t x = vec.vreg(), acc = vec.vreg();
  Inst &splat = vec.emit(Opcode::Splat);
  splat.a = x, splat.c = t;
  Inst &init = vec.emit(Opcode::Splat);
  init.a = acc, init.c = one;
  for (ReduceKind kind :
       {ReduceKind::MaxAfterNaN, ReduceKind::MinAfterNaN, ReduceKind::Max}) {
    Inst &reduce = vec.emit(Opcode::Reduce);
    reduce.a = vec.vreg(), reduce.b = x, reduce.c = one;
    reduce.d = reduceHasInit(kind) ? acc : 0;
    reduce.sub = static_cast<uint8_t>(kind);
  }
  UnitProgram p = vec.done();
  EXPECT_EQ(static_cast<unsigned>(ReduceKind::MaxAfterNaN), 6u);
  EXPECT_EQ(static_cast<unsigned>(ReduceKind::MinAfterNaN), 7u);
  std::string text = roundTripProgram(b, p);
  EXPECT_NE(text.find("reduce.maxafternan v2 = v0 from v1 :"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("reduce.minafternan v3 = v0 from v1 :"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("reduce.max v4 = v0 :"), std::string::npos) << text;

  // The accumulator's register is validated as the others are.
  Executable exe;
  exe.programs = {p};
  EXPECT_EQ(exe.validate(b.machine), "");
  Inst &reduce = *llvm::find_if(exe.programs[0].insts, [](const Inst &i) {
    return i.op == Opcode::Reduce;
  });
  reduce.d = 99;
  EXPECT_NE(exe.validate(b.machine).find("register out of range"),
            std::string::npos);
}

TEST(BundleTest, ScratchpadTensorRoundTrips) {
  // What tile 3's scratchpad holds at literal address 256: its tile is
  // kept, and a tile without a literal address is a corrupt bundle.
  Bundle b = makeBundle();
  b.tensors[0].address = 256;
  b.tensors[0].tile = 3;
  auto read = readBundle(writeBundle(b));
  ASSERT_TRUE(static_cast<bool>(read)) << llvm::toString(read.takeError());
  EXPECT_EQ(read->tensors[0].tile, std::optional<uint64_t>(3));
  EXPECT_EQ(getKernelName(read->tensors[0]), "lx3@256");
  b.tensors[0].address.reset();
  EXPECT_EQ(readError(writeBundle(b))
                .find("corrupt bundle: a tensor of a "
                      "tile's scratchpad without a "
                      "literal address"),
            0u);
}

TEST(BundleTest, DamageIsReportedPrecisely) {
  std::vector<uint8_t> good = writeBundle(makeBundle());

  std::vector<uint8_t> bytes = good;
  bytes[0] = 'X';
  EXPECT_NE(readError(bytes).find("not a ktflow bundle"), std::string::npos);

  bytes = good;
  bytes[8] = 20;
  EXPECT_EQ(readError(bytes), "unsupported bundle version 20 (this ktflow "
                              "reads version 19; it was written by a newer "
                              "ktflow)");
  // A bundle of the previous format is refused, not misread.
  bytes[8] = 18;
  EXPECT_EQ(readError(bytes), "unsupported bundle version 18 (this ktflow "
                              "reads version 19; compile the kernel again)");

  bytes.assign(good.begin(), good.begin() + good.size() / 2);
  EXPECT_NE(readError(bytes).find("truncated bundle"), std::string::npos);
  bytes.assign(good.begin(), good.begin() + 20);
  EXPECT_NE(readError(bytes).find("truncated bundle"), std::string::npos);

  bytes = good;
  bytes[good.size() - 3] ^= 0x10;
  EXPECT_NE(readError(bytes).find("checksum mismatch"), std::string::npos);
}

TEST(BundleTest, OverlongLebIsMalformed) {
  using detail::ByteReader;
  // Ten bytes are the longest encoding of a 64-bit value.
  std::vector<uint8_t> minusOne(9, 0xff), zero(9, 0x80);
  minusOne.push_back(0x7f);
  zero.push_back(0x00);
  ByteReader tenS(minusOne), tenU(zero);
  EXPECT_EQ(tenS.sleb(), -1);
  EXPECT_EQ(tenU.uleb(), 0u);
  EXPECT_TRUE(tenS.ok() && tenU.ok());
  // One padding byte more: LLVM's decoders would shift by 70 bits (found by
  // ktflow-fuzz-simulator under UBSan in a machine memory's size).
  minusOne.insert(minusOne.begin(), 0xff);
  zero.insert(zero.begin(), 0x80);
  ByteReader longS(minusOne), longU(zero);
  EXPECT_EQ(longS.sleb(), 0);
  EXPECT_EQ(longU.uleb(), 0u);
  EXPECT_EQ(longS.getError(), "malformed integer (longer than 10 bytes) at "
                              "byte 0");
  EXPECT_EQ(longU.getError(), longS.getError());
  // A value that ends within the buffer's last ten bytes is decoded as
  // before; one running past the end is LLVM's error.
  std::vector<uint8_t> cut(5, 0x80);
  ByteReader truncated(cut);
  EXPECT_EQ(truncated.uleb(), 0u);
  EXPECT_NE(truncated.getError().find("malformed integer"), std::string::npos);
}

} // namespace

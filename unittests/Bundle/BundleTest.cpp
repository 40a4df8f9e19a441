//===- BundleTest.cpp - Tests of the bundle encoder and decoder -----------===//
//
// This file tests that programs and bundles survive encoding, that
// relocations are patched, and that damaged files (bad magic, wrong
// version, truncation, flipped bytes, hostile fields behind a valid
// checksum) are rejected with the right message and never crash.
//
//===----------------------------------------------------------------------===//

#include "../Simulator/TestMachine.h"

#include "ktflow/Bundle/Bundle.h"
#include "ktflow/Simulator/Simulator.h"

#include "llvm/Support/xxhash.h"
#include "gtest/gtest.h"

using namespace ktflow;
using namespace ktflow::bundle;
using namespace ktflow::sim;
using namespace ktflow::sim::test;

namespace {

bool sameProgram(const UnitProgram &a, const UnitProgram &b) {
  if (a.unit != b.unit || a.numSRegs != b.numSRegs ||
      a.numVRegs != b.numVRegs || !(a.vtypes == b.vtypes) ||
      a.insts.size() != b.insts.size() || a.maps.size() != b.maps.size())
    return false;
  for (size_t i = 0; i < a.insts.size(); ++i) {
    const Inst &x = a.insts[i], &y = b.insts[i];
    if (x.op != y.op || x.sub != y.sub || x.imm != y.imm || x.a != y.a ||
        x.b != y.b || x.c != y.c || x.d != y.d || x.e != y.e)
      return false;
  }
  for (size_t i = 0; i < a.maps.size(); ++i)
    if (a.maps[i].inputs != b.maps[i].inputs ||
        a.maps[i].ops.size() != b.maps[i].ops.size() ||
        a.maps[i].resultSlot != b.maps[i].resultSlot)
      return false;
  return true;
}

/// A bundle whose dma program copies tensor "x" (relocated address) to L1.
Bundle makeBundle() {
  Bundle b;
  b.kernel = "copy";
  b.machine = makeTestMachine();
  b.device = b.machine.name;
  b.deviceFingerprint = b.machine.fingerprint();
  b.tensors = {{"x", ElemType::f16, {{0, 0}}, 0, TensorRole::Input}};
  b.runtimeArgs = {{"n", 64, 2048}};
  b.fifos = {{"in", 1, 2, 5, 4, 128}};
  ProgramBuilder dma(0);
  uint32_t src = dma.imm(0); // relocated: address of x
  uint32_t dst = dma.imm(0);
  uint32_t n = dma.imm(0); // relocated: value of n
  uint32_t two = dma.imm(2);
  uint32_t bytes = dma.sreg();
  Inst &mul = dma.emit(Opcode::Alu);
  mul.sub = static_cast<uint8_t>(AluOp::Mul);
  mul.a = bytes, mul.b = n, mul.c = two;
  Inst &copy = dma.emit(Opcode::Dma);
  copy.a = 0, copy.b = src, copy.c = 1, copy.d = dst, copy.e = bytes;
  copy.f = copy.g = copy.h = kNoReg;
  UnitProgram p = dma.done();
  std::vector<uint32_t> offsets;
  b.programs.push_back({0, encodeProgram(p, &offsets)});
  b.relocations = {{0, offsets[0], SymbolKind::TensorAddress, 0},
                   {0, offsets[2], SymbolKind::RuntimeArg, 0}};
  return b;
}

std::string readError(const std::vector<uint8_t> &bytes) {
  auto b = readBundle(bytes);
  return b ? "" : llvm::toString(b.takeError());
}

void fixChecksum(std::vector<uint8_t> &bytes) {
  uint64_t sum = llvm::xxh3_64bits(
      llvm::ArrayRef<uint8_t>(bytes).drop_front(kHeaderSize));
  for (int i = 0; i < 8; ++i)
    bytes[24 + i] = static_cast<uint8_t>(sum >> (8 * i));
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

TEST(BundleTest, BundleRoundTripsAndLinks) {
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
  EXPECT_EQ(read->relocations.size(), 2u);

  auto exe = linkBundle(*read, [](SymbolKind kind, uint32_t) -> int64_t {
    return kind == SymbolKind::TensorAddress ? 4096 : 100;
  });
  ASSERT_TRUE(static_cast<bool>(exe)) << llvm::toString(exe.takeError());
  EXPECT_EQ(exe->programs[0].insts[0].imm, 4096);
  EXPECT_EQ(exe->programs[0].insts[2].imm, 100);

  MemoryImage mem(read->machine);
  mem.bytes(0, 4096, 200)[199] = 42;
  auto stats = simulate(read->machine, *exe, mem);
  ASSERT_TRUE(static_cast<bool>(stats)) << llvm::toString(stats.takeError());
  EXPECT_EQ(mem.bytes(1, 199, 1)[0], 42);
  // 200 bytes at 32 B/cycle + 12 cycles of latency.
  EXPECT_EQ(stats->cycles, 7u + 12u);
}

TEST(BundleTest, DamageIsReportedPrecisely) {
  std::vector<uint8_t> good = writeBundle(makeBundle());

  std::vector<uint8_t> bytes = good;
  bytes[0] = 'X';
  EXPECT_NE(readError(bytes).find("not a ktflow bundle"), std::string::npos);

  bytes = good;
  bytes[8] = 7;
  EXPECT_NE(readError(bytes).find("unsupported bundle version 7"),
            std::string::npos);

  bytes.assign(good.begin(), good.begin() + good.size() / 2);
  EXPECT_NE(readError(bytes).find("truncated bundle"), std::string::npos);
  bytes.assign(good.begin(), good.begin() + 20);
  EXPECT_NE(readError(bytes).find("truncated bundle"), std::string::npos);

  bytes = good;
  bytes[good.size() - 3] ^= 0x10;
  EXPECT_NE(readError(bytes).find("checksum mismatch"), std::string::npos);
}

TEST(BundleTest, HostileFieldsNeverCrash) {
  std::vector<uint8_t> good = writeBundle(makeBundle());
  // Flip every payload byte in turn behind a valid checksum: each result
  // must be rejected or load, link and run to completion or error.
  for (size_t i = kHeaderSize; i < good.size(); ++i) {
    for (uint8_t flip : {0x01, 0x80, 0xff}) {
      std::vector<uint8_t> bytes = good;
      bytes[i] ^= flip;
      fixChecksum(bytes);
      auto b = readBundle(bytes);
      if (!b) {
        llvm::consumeError(b.takeError());
        continue;
      }
      auto exe = linkBundle(*b, [](SymbolKind, uint32_t) { return 64; });
      if (!exe) {
        llvm::consumeError(exe.takeError());
        continue;
      }
      MemoryImage mem(b->machine);
      SimOptions options;
      options.maxInstructions = 100000;
      auto stats = simulate(b->machine, *exe, mem, options);
      if (!stats)
        llvm::consumeError(stats.takeError());
    }
  }
}

} // namespace

//===- LinkTest.cpp - Tests of the runtime's link step --------------------===//
//
// This file tests that linking a bundle patches its relocations with the
// symbols' values and yields an executable that runs, whose errors name
// the kernel source location of the instruction when the bundle has it, and
// that a bundle (with or without source locations) with any payload byte
// flipped behind a valid checksum is refused by the reader or the linker,
// or links and runs to completion or an error: it never crashes.
//
//===----------------------------------------------------------------------===//

#include "../Bundle/TestBundle.h"

#include "ktflow/Runtime/Link.h"
#include "ktflow/Simulator/Simulator.h"

#include "gtest/gtest.h"

using namespace ktflow;
using namespace ktflow::bundle;
using namespace ktflow::bundle::test;
using namespace ktflow::rt;
using namespace ktflow::sim;

namespace {

/// Flips every payload byte of `good` in turn behind a valid checksum: each
/// result must be rejected or load, link and run to completion or error.
void flipEveryPayloadByte(const std::vector<uint8_t> &good) {
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

TEST(LinkTest, PatchesRelocationsAndRuns) {
  Bundle b = makeBundle();
  auto read = readBundle(writeBundle(b));
  ASSERT_TRUE(static_cast<bool>(read)) << llvm::toString(read.takeError());
  auto exe = linkBundle(*read, [](SymbolKind kind, uint32_t) -> int64_t {
    return kind == SymbolKind::TensorAddress ? 4096 : 100;
  });
  ASSERT_TRUE(static_cast<bool>(exe)) << llvm::toString(exe.takeError());
  EXPECT_EQ(exe->programs[0].insts[0].imm, 4096);
  EXPECT_EQ(exe->programs[0].insts[2].imm, 100);

  MemoryImage mem(read->machine);
  mem.writePointer(0, 4096, 200)[199] = 42;
  auto stats = simulate(read->machine, *exe, mem);
  ASSERT_TRUE(static_cast<bool>(stats)) << llvm::toString(stats.takeError());
  EXPECT_EQ(mem.readPointer(1, 199, 1)[0], 42);
  // 200 bytes at 32 B/cycle + 12 cycles of latency.
  EXPECT_EQ(stats->cycles, 7u + 12u);
}

TEST(LinkTest, ErrorsNameTheSourceLocation) {
  auto read = readBundle(writeBundle(makeLocatedBundle()));
  ASSERT_TRUE(static_cast<bool>(read)) << llvm::toString(read.takeError());
  // n = 2^40: the DMA (instruction 5, line 15) runs past L1.
  auto exe = linkBundle(*read, [](SymbolKind kind, uint32_t) -> int64_t {
    return kind == SymbolKind::TensorAddress ? 4096 : int64_t(1) << 40;
  });
  ASSERT_TRUE(static_cast<bool>(exe)) << llvm::toString(exe.takeError());
  MemoryImage mem(read->machine);
  auto stats = simulate(read->machine, *exe, mem);
  ASSERT_FALSE(static_cast<bool>(stats));
  EXPECT_EQ(llvm::toString(stats.takeError()),
            "core0.dma (instruction 5, dma, cycle 2048, at k.mlir:15:3): dma "
            "writes bytes [65536, 65664) outside core0.L1 (65536 bytes "
            "capacity)");

  // A count of locations that is not the program's is refused.
  Bundle shorter = makeLocatedBundle();
  shorter.sources.programs[0].pop_back();
  auto bad = readBundle(writeBundle(shorter));
  ASSERT_TRUE(static_cast<bool>(bad)) << llvm::toString(bad.takeError());
  auto refused = linkBundle(*bad, [](SymbolKind, uint32_t) { return 64; });
  ASSERT_FALSE(static_cast<bool>(refused));
  EXPECT_EQ(llvm::toString(refused.takeError()),
            "corrupt bundle: program 0 has 7 instructions and 6 source "
            "locations");
}

TEST(LinkTest, HostileFieldsNeverCrash) {
  for (const Bundle &bundle : {makeBundle(), makeLocatedBundle()})
    flipEveryPayloadByte(writeBundle(bundle));
}

} // namespace

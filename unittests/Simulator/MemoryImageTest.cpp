//===- MemoryImageTest.cpp - Tests of the simulator's paged memory --------===//
//
// This file tests the page-backed memory image: pages backed on first write
// only, untouched bytes reading as zeros (what the interpreter's fresh
// memory holds), copies straddling page boundaries, the addressable limit,
// the ceiling on backed bytes, and DMAs whose chunks straddle pages on both
// sides.
//
//===----------------------------------------------------------------------===//

#include "../Machine/TestMachine.h"

#include "ktflow/Simulator/Simulator.h"

#include "gtest/gtest.h"

#include <numeric>

using namespace ktflow::machine;
using namespace ktflow::sim;
using namespace ktflow::machine::test;

namespace {

constexpr uint32_t DDR = 0, L1 = 1;
constexpr uint32_t DMA = 0;
constexpr uint64_t kPage = MemoryImage::kPageBytes;

/// A machine whose device memory is 1 TiB: far more than the test has.
Machine hugeMachine() {
  Machine m = makeTestMachine();
  m.memories[DDR].size = uint64_t(1) << 40;
  return m;
}

TEST(MemoryImageTest, UntouchedPagesReadZerosWithoutBacking) {
  Machine m = hugeMachine();
  MemoryImage mem(m);
  const uint8_t *p = mem.readPointer(DDR, (uint64_t(1) << 40) - 16, 16);
  ASSERT_NE(p, nullptr);
  for (int i = 0; i < 16; ++i)
    EXPECT_EQ(p[i], 0);
  std::vector<uint8_t> out(3 * kPage, 0xAB);
  ASSERT_EQ(mem.read(DDR, 12345 * kPage - 5, out.size(), out.data()),
            MemoryImage::Access::Ok);
  EXPECT_EQ(std::count(out.begin(), out.end(), 0), int64_t(out.size()));
  EXPECT_EQ(mem.getBackedBytes(), 0u);
}

TEST(MemoryImageTest, StraddlingWriteAndReadAcrossPages) {
  Machine m = hugeMachine();
  MemoryImage mem(m);
  // 10 bytes before a page boundary deep in the memory, 2 pages and 10
  // bytes after it: 4 pages backed, one of them whole.
  uint64_t addr = (uint64_t(1) << 35) - 10;
  std::vector<uint8_t> in(2 * kPage + 20);
  std::iota(in.begin(), in.end(), uint8_t(1));
  // No single page holds the range: the pointer forms refuse it.
  EXPECT_EQ(mem.writePointer(DDR, addr, in.size()), nullptr);
  EXPECT_EQ(mem.readPointer(DDR, addr, in.size()), nullptr);
  ASSERT_EQ(mem.write(DDR, addr, in.size(), in.data()),
            MemoryImage::Access::Ok);
  EXPECT_EQ(mem.getBackedBytes(), 4 * kPage);
  std::vector<uint8_t> out(in.size() + 2);
  ASSERT_EQ(mem.read(DDR, addr - 1, out.size(), out.data()),
            MemoryImage::Access::Ok);
  EXPECT_EQ(out.front(), 0);
  EXPECT_EQ(out.back(), 0);
  EXPECT_TRUE(std::equal(in.begin(), in.end(), out.begin() + 1));
  // The bytes on each side of the boundary, through the one-page form.
  EXPECT_EQ(mem.readPointer(DDR, addr + 9, 1)[0], in[9]);
  EXPECT_EQ(mem.readPointer(DDR, addr + 10, 1)[0], in[10]);
  // A write of zeros straddling the first boundary.
  ASSERT_EQ(mem.write(DDR, addr + 8, 4, nullptr), MemoryImage::Access::Ok);
  EXPECT_EQ(mem.readPointer(DDR, addr + 7, 1)[0], in[7]);
  EXPECT_EQ(mem.readPointer(DDR, addr + 8, 2)[1], 0);
  EXPECT_EQ(mem.readPointer(DDR, addr + 10, 2)[1], 0);
  EXPECT_EQ(mem.readPointer(DDR, addr + 12, 1)[0], in[12]);
}

TEST(MemoryImageTest, LimitsAndCeiling) {
  Machine m = hugeMachine();
  MemoryImage mem(m, /*maxBackedBytes=*/2 * kPage);
  EXPECT_EQ(mem.diagnose(L1, 64 << 10, 1), MemoryImage::Access::Outside);
  EXPECT_EQ(mem.readPointer(L1, (64 << 10) - 1, 2), nullptr);
  mem.setAddressableLimit(DDR, 1000);
  EXPECT_EQ(mem.diagnose(DDR, 999, 1), MemoryImage::Access::Ok);
  EXPECT_EQ(mem.write(DDR, 999, 2, nullptr), MemoryImage::Access::Outside);
  mem.setAddressableLimit(DDR, m.memories[DDR].size);
  // Three pages do not fit a ceiling of two: nothing is written.
  std::vector<uint8_t> ones(2 * kPage, 1);
  EXPECT_EQ(mem.write(DDR, kPage - 1, ones.size(), ones.data()),
            MemoryImage::Access::OutOfMemory);
  EXPECT_EQ(mem.getBackedBytes(), 0u);
  EXPECT_NE(mem.writePointer(DDR, 0, 8), nullptr);
  EXPECT_NE(mem.writePointer(DDR, 5 * kPage, 8), nullptr);
  EXPECT_EQ(mem.writePointer(DDR, 9 * kPage, 8), nullptr);
  EXPECT_EQ(mem.diagnose(DDR, 9 * kPage, 8), MemoryImage::Access::OutOfMemory);
  // Reading needs no backing.
  EXPECT_NE(mem.readPointer(DDR, 9 * kPage, 8), nullptr);
}

// A DMA from a range of device memory straddling a page boundary into L1,
// and back to another straddling range: the bytes arrive, and the timing
// is that of one 4096-byte DMA each (ceil(4096 / 32) + 12 cycles).
TEST(MemoryImageTest, DmaAcrossPageBoundaries) {
  Machine m = hugeMachine();
  Executable exe;
  ProgramBuilder dma(DMA);
  uint64_t src = 3 * kPage - 1000, dst = 7 * kPage - 7;
  dma.dma(DDR, src, L1, 0, 4096);
  dma.dma(L1, 0, DDR, dst, 4096);
  exe.programs = {dma.done()};
  MemoryImage mem(m);
  std::vector<uint8_t> in(4096);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = static_cast<uint8_t>(i * 13 + 5);
  ASSERT_EQ(mem.write(DDR, src, in.size(), in.data()), MemoryImage::Access::Ok);
  auto stats = simulate(m, exe, mem);
  ASSERT_TRUE(static_cast<bool>(stats)) << llvm::toString(stats.takeError());
  EXPECT_EQ(stats->cycles, 2 * (128u + 12u));
  std::vector<uint8_t> out(in.size());
  ASSERT_EQ(mem.read(DDR, dst, out.size(), out.data()),
            MemoryImage::Access::Ok);
  EXPECT_EQ(out, in);
  EXPECT_EQ(mem.readPointer(DDR, dst - 1, 1)[0], 0);
}

// A DMA past the memory's addressable limit fails, naming the access.
TEST(MemoryImageTest, DmaPastTheLimitIsAnError) {
  Machine m = hugeMachine();
  Executable exe;
  ProgramBuilder dma(DMA);
  dma.dma(DDR, 4000, L1, 0, 256);
  exe.programs = {dma.done()};
  MemoryImage mem(m);
  mem.setAddressableLimit(DDR, 4096);
  auto stats = simulate(m, exe, mem);
  ASSERT_FALSE(static_cast<bool>(stats));
  std::string message = llvm::toString(stats.takeError());
  EXPECT_NE(message.find("dma reads bytes [4000, 4128) outside DDR (4096 "
                         "bytes allocated)"),
            std::string::npos)
      << message;
}

} // namespace

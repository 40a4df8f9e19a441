//===- DmaPlanesTest.cpp - Tests of DMAs of planes of rows ----------------===//
//
// This file tests a DMA with two levels of strides (sub = kDmaPlanes): a
// transposed block moved in one transfer (its bytes where the 16 DMAs of
// one column each put them, its time one transfer's: bytes over bandwidth
// plus one route latency, in the simulator and the estimate), the order it
// keeps among a unit's transfers in flight, and a negative plane count
// refused.
//
//===----------------------------------------------------------------------===//

#include "EstimateTestUtil.h"

#include "ktflow/Machine/Values.h"

using namespace ktflow::machine;
using namespace ktflow::sim;
using namespace ktflow::machine::test;

namespace {

/// A 16x16 f16 block of DDR at 0 (key-major: key k's 16 dimensions at 32k)
/// transposed into L1 at `dst`: one DMA of 16 planes (the keys, 2 bytes
/// apart in L1) of 16 rows of one element (32 bytes apart in L1).
void transposedBlock(ProgramBuilder &dma, int64_t dst) {
  uint32_t src = dma.imm(0), to = dma.imm(dst), two = dma.imm(2),
           n = dma.imm(16), wide = dma.imm(32);
  Inst &i = dma.emit(Opcode::Dma);
  i.a = DDR, i.b = src, i.c = L1, i.d = to, i.e = two;
  i.f = n, i.g = two, i.h = wide;
  i.sub = kDmaPlanes;
  i.i = n, i.j = wide, i.k = two;
}

TEST(DmaPlanesTest, TransposesABlockInOneTransfer) {
  Machine m = coreMachine();
  Executable exe;
  ProgramBuilder dma(DMA);
  transposedBlock(dma, 0);
  exe.programs = {dma.done()};
  ASSERT_EQ(exe.validate(m), "");
  MemoryImage mem(m);
  for (int k = 0; k < 16; ++k)
    for (int d = 0; d < 16; ++d)
      storeElement(ElemType::f16, 16 * k + d,
                   mem.writePointer(DDR, 32 * k + 2 * d, 2));
  auto stats = simulate(m, exe, mem);
  ASSERT_TRUE(static_cast<bool>(stats)) << llvm::toString(stats.takeError());
  // 512 bytes at 32 B/cycle + (10 + 2) latency: one transfer.
  EXPECT_EQ(stats->cycles, 16u + 12u);
  EXPECT_EQ(stats->units[0].bytesMoved, 512u);
  for (int d = 0; d < 16; ++d)
    for (int k = 0; k < 16; ++k)
      ASSERT_EQ(
          loadElement(ElemType::f16, mem.readPointer(L1, 32 * d + 2 * k, 2)),
          16.0 * k + d)
          << d << "," << k;
  // The estimate charges the same: 16 + 12.
  KernelEstimate e = estimateResources(m, exe);
  EXPECT_DOUBLE_EQ(e.unitBusy[0], 28);
}

// A unit that keeps transfers in flight still waits for the block before
// reading a byte of it back, and does not for a byte past it.
TEST(DmaPlanesTest, ATransferInFlightOrdersReadsOfItsPlanes) {
  auto cycles = [](int64_t readAt) {
    Machine m = coreMachine();
    m.units[DMA].maxOutstanding = 4;
    Executable exe;
    ProgramBuilder dma(DMA);
    transposedBlock(dma, 0);
    dma.dma(L1, readAt, DDR, 4096, 2);
    exe.programs = {dma.done()};
    MemoryImage mem(m);
    auto stats = simulate(m, exe, mem);
    EXPECT_TRUE(static_cast<bool>(stats));
    return stats ? stats->cycles : 0;
  };
  // Element (15, 15), the block's last: after the block has landed.
  EXPECT_GE(cycles(510), 28u + 12u);
  // Past the block: issued once the block's bytes have left.
  EXPECT_LT(cycles(512), 28u + 12u);
}

TEST(DmaPlanesTest, NegativePlanesAreAnError) {
  Machine m = coreMachine();
  Executable exe;
  ProgramBuilder dma(DMA);
  uint32_t minus = dma.imm(-1);
  transposedBlock(dma, 0);
  dma.p.insts.back().i = minus;
  exe.programs = {dma.done()};
  ASSERT_EQ(exe.validate(m), "");
  MemoryImage mem(m);
  auto stats = simulate(m, exe, mem);
  ASSERT_FALSE(static_cast<bool>(stats));
  EXPECT_NE(llvm::toString(stats.takeError()).find("planes -1"),
            std::string::npos);
}

} // namespace

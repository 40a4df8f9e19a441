//===- DeviceShareTest.cpp - One device-memory share for walk and fill ----===//
//
// This file checks RouteCosts::deviceBandwidth, the share of a device
// memory each program's DMAs move at, on a machine where the count of the
// programs that use the memory used to differ between the walk (the first
// DMA of a program that may run) and the fill and drain (Landings: the
// programs whose walk reached a device DMA): both now read one count.
//
//===----------------------------------------------------------------------===//

#include "TestMachine.h"

#include "FillAndDrain.h"
#include "ProgramWalker.h"

#include "ktflow/Machine/Estimate.h"

#include "gtest/gtest.h"

using namespace ktflow::machine;
using namespace ktflow::machine::detail;
using namespace ktflow::machine::test;

namespace {

constexpr uint32_t DDR = 0, L1 = 1, DMA = 0, DMA2 = 4;

TEST(DeviceShareTest, WalkAndLandingsShareTheProgramsThatMayRun) {
  // DDR at 48 B/cycle; both engines' routes to and from it at 32 B/cycle
  // (DMA2 given a way back to DDR), latency 10 + 2.
  Machine m = makeTestMachine(/*ddrBandwidth=*/48);
  m.memories[L1].core = 0;
  auto mem = [](uint32_t i) { return NodeRef{NodeRef::Memory, i}; };
  auto unit = [](uint32_t i) { return NodeRef{NodeRef::Unit, i}; };
  m.links.push_back({mem(L1), unit(DMA2), 32, 2, 0, {}});
  m.links.push_back({unit(DMA2), mem(DDR), 32, 10, 0, {}});
  // DMA, an idle lane's engine: loads W, then stores in a grid loop of no
  // trip. DMA2: its first load in a loop of no trip, then a load and a
  // store of 256 bytes that run. The programs that load from DDR are DMA
  // and DMA2, the one that stores to it DMA2. (The walk counted DMA as a
  // storer and DMA2 as neither, by their first DMAs; Landings DMA2 as a
  // loader and storer and DMA as a loader.)
  ProgramBuilder dma(DMA), dma2(DMA2);
  dma.dma(DDR, 0, L1, 0, 256);
  size_t idle = dma.loopBegin(0);
  dma.dma(L1, 0, DDR, 4096, 256);
  dma.loopEnd(idle);
  size_t skipped = dma2.loopBegin(0);
  dma2.dma(DDR, 0, L1, 1024, 256);
  dma2.loopEnd(skipped);
  dma2.dma(DDR, 256, L1, 1024, 256);
  dma2.dma(L1, 1024, DDR, 8192, 256);
  Executable exe;
  exe.programs = {dma.done(), dma2.done()};

  RouteCosts routes(m, exe);
  // Loads: 48 / 2 = 24 under the route's 32; stores: 48 / 1, the route's
  // 32. A route unknown (0) moves at the share.
  EXPECT_DOUBLE_EQ(routes.deviceBandwidth(DDR, /*load=*/true, 32), 24);
  EXPECT_DOUBLE_EQ(routes.deviceBandwidth(DDR, /*load=*/false, 32), 32);
  EXPECT_DOUBLE_EQ(routes.deviceBandwidth(DDR, /*load=*/false, 0), 48);

  KernelEstimate out;
  out.memoryBusy.assign(m.memories.size(), 0);
  std::vector<ProgramWalker> walkers;
  for (const UnitProgram &program : exe.programs)
    walkers.emplace_back(m, exe, program, out, routes);
  // DMA2, one transfer in flight: its load ceil(256 / 24) = 11 + 12, its
  // store 256 / 32 = 8 + 12.
  walkers[0].run();
  EXPECT_DOUBLE_EQ(walkers[1].run(), 23 + 20);
  Landings landings(m, exe, walkers, routes);
  EXPECT_DOUBLE_EQ(landings.loadShare(walkers[0]), 24);
  EXPECT_DOUBLE_EQ(landings.loadShare(walkers[1]), 24);
  EXPECT_DOUBLE_EQ(landings.storeShare(walkers[1]), 32);
}

TEST(DeviceShareTest, WalksWithoutAShareKeptForTheSecondPass) {
  // DMA loads 256 bytes from DDR, DMA2 512: the engines move different
  // amounts, so the estimate walks again with their shares set
  // (shareDeviceMemories). DMA3 copies within L1 (no share): its first walk is
  // kept, and charges L1 once in the second pass, as a walk would.
  Machine m = makeTestMachine(/*ddrBandwidth=*/48);
  m.memories[L1].core = 0;
  m.memories[L1].bandwidth = 64;
  MachineUnit dma3;
  dma3.name = dma3.kind = "core0.dma3";
  dma3.roles = RoleDma;
  m.units.push_back(dma3);
  constexpr uint32_t DMA3 = 5;
  auto mem = [](uint32_t i) { return NodeRef{NodeRef::Memory, i}; };
  auto unit = [](uint32_t i) { return NodeRef{NodeRef::Unit, i}; };
  m.links.push_back({mem(L1), unit(DMA3), 32, 2, 0, {}});
  m.links.push_back({unit(DMA3), mem(L1), 32, 2, 0, {}});
  ProgramBuilder dma(DMA), dma2(DMA2), copy(DMA3);
  dma.dma(DDR, 0, L1, 0, 256);
  dma2.dma(DDR, 256, L1, 1024, 512);
  copy.dma(L1, 0, L1, 4096, 128);
  Executable exe;
  exe.programs = {dma.done(), dma2.done(), copy.done()};

  KernelEstimate e = estimateKernel(m, exe);
  ASSERT_EQ(e.unitBusy.size(), 3u);
  // DDR: 768 bytes at 48 B/cycle; L1: 256 + 512 bytes written, DMA3's 128
  // read and written, at 64 B/cycle.
  EXPECT_DOUBLE_EQ(e.memoryBusy[DDR], 16);
  EXPECT_DOUBLE_EQ(e.memoryBusy[L1], 16);
  // DMA3: ceil(128 / 32) = 4 cycles on its route, then 2 + 2 latency.
  EXPECT_DOUBLE_EQ(e.unitBusy[2], 8);
}

/// Two engines on a DDR of 32 B/cycle (equal share 16, under their routes'
/// 32), each reading an index from L1 (a 4 B/cycle route of latency 3: 4
/// cycles) twice, then loading the page: a DMA to L1 of each of
/// `pageDmas` bytes (latency 12, one in flight). Their estimate.
KernelEstimate twoEnginesReadingPages(llvm::ArrayRef<int64_t> pageDmas) {
  Machine m = makeTestMachine(/*ddrBandwidth=*/32);
  m.memories[L1].core = 0;
  m.links[2].bandwidth = 4;
  m.links[2].latency = 3;
  auto mem = [](uint32_t i) { return NodeRef{NodeRef::Memory, i}; };
  auto unit = [](uint32_t i) { return NodeRef{NodeRef::Unit, i}; };
  m.links.push_back({mem(L1), unit(DMA2), 4, 3, 0, {}});
  ProgramBuilder dma(DMA), dma2(DMA2);
  for (ProgramBuilder *engine : {&dma, &dma2})
    for (int page = 0; page < 2; ++page) {
      engine->readIndex(L1, 0, 4, 64);
      for (auto [i, bytes] : llvm::enumerate(pageDmas))
        engine->dma(DDR, i * 512, L1, 1024 * (i + 1), bytes);
    }
  Executable exe;
  exe.programs = {dma.done(), dma2.done()};
  return estimateKernel(m, exe);
}

TEST(DeviceShareTest, EnginesThatWaitForIndicesMoveFaster) {
  // Each page two DMAs of 95 bytes (a page's K and V rows). Two loads an
  // index read: the engines served first read their next index first, and
  // fall apart (ProgramWalker::loadedInStep).
  KernelEstimate e = twoEnginesReadingPages({95, 95});
  // At the equal share each engine walks 2 x (4 + 2 x (ceil(95 / 16) +
  // 12)) = 80 cycles, 380 / 16 = 23.75 of them moving: idle 56.25. Its
  // share for that (waterFilledShares' fixed point, 56.25 s^2 - 1040 s -
  // 12160 = 0) is 26.61 B/cycle, a duty of 14.3 / 70.5: 32 / (1 + 0.202).
  // Its first page moves in step with the other engine's, both having
  // read their first index at once, at 16: 4 + 18 + 18; then 4 + 2 x
  // (ceil(95 / 26.61) + 12) = 36, 4 less than at the equal share.
  ASSERT_EQ(e.unitBusy.size(), 2u);
  EXPECT_DOUBLE_EQ(e.unitBusy[0], 40 + 36);
  EXPECT_DOUBLE_EQ(e.unitBusy[1], 40 + 36);
}

TEST(DeviceShareTest, EnginesThatLoadOnceAnIndexReadStayInStep) {
  // Each page one DMA of 190 bytes: each engine's next index read waits
  // for the memory to serve both engines' DMAs, asked for at once, so they
  // read each index at once and idle at once, leaving the memory to
  // nobody: every page moves at the equal share, 2 x (4 + ceil(190 / 16) +
  // 12) = 56 (52 before, the second page at 24.09 B/cycle as though the
  // other engine's idle cycles fell between its DMAs).
  KernelEstimate e = twoEnginesReadingPages({190});
  ASSERT_EQ(e.unitBusy.size(), 2u);
  EXPECT_DOUBLE_EQ(e.unitBusy[0], 56);
  EXPECT_DOUBLE_EQ(e.unitBusy[1], 56);
}

} // namespace

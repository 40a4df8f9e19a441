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

} // namespace

//===- MergedLoadsTest.cpp - A lane's executions in one transfer ----------===//
//
// This file checks the walk of a load engine that two lanes share against
// hand-computed cycles: gelu_spyreop on sample_device (two lanes of a
// core, two executions each, 1 KiB tiles of X and G, 4 slots, 64
// B/cycle, 102 cycles of route; the feed's first row 8, 48 cycles of
// compute, the drain 6, one 1 KiB store per execution).
//
//===----------------------------------------------------------------------===//

#include "ktflow/Scheduler/MergedLoads.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace ktflow::sched;

namespace {

MergedLoadQuery geluOnSampleDevice() {
  MergedLoadQuery q;
  q.lanes = 2;
  q.executions = 2;
  q.merge = 2;
  q.copies = 4;
  q.loadBytes = {1024, 1024};
  q.storeBytes = {1024};
  q.load = {102, 64, 4};
  q.store = {102, 64, 4};
  q.firstRow = 8;
  q.compute = 48;
  q.drain = 6;
  return q;
}

TEST(MergedLoads, EachExecutionAlone) {
  // Transfers 5-8 wait for the first four to land: the eighth (the later
  // lane's second G) lands at 166 + 118 = 284; its compute ends at 340,
  // its store lands at 346 + 118.
  EXPECT_DOUBLE_EQ(estimateMergedLoadCycles(geluOnSampleDevice(),
                                            {false, false, false, false}),
                   464);
}

TEST(MergedLoads, EveryPairMerged) {
  // Four 2 KiB transfers land at 134, 166, 198, 230: the later lane
  // starts at 238 and stores its second execution at 340 + 118.
  EXPECT_DOUBLE_EQ(
      estimateMergedLoadCycles(geluOnSampleDevice(), {true, true, true, true}),
      458);
}

TEST(MergedLoads, TheLaterLanesGateAlone) {
  // The later lane's first G (1 KiB) lands at 214: it starts at 222 and
  // runs its second execution at 270, after that G landed (230).
  MergedLoadQuery q = geluOnSampleDevice();
  EXPECT_DOUBLE_EQ(estimateMergedLoadCycles(q, {true, true, true, false}), 442);
  EXPECT_LE(estimateMergedLoadCycles(q, chooseMergedLoads(q)), 442);
}

TEST(MergedLoads, NoneWhereTheStoresBind) {
  // elementwise-like: three stores an execution on the shared store
  // engine and a drain of 120 cycles; a merged group's first tile lands
  // later, so do all the stores behind it.
  MergedLoadQuery q = geluOnSampleDevice();
  q.storeBytes = {1024, 1024, 1024};
  q.compute = 24;
  q.drain = 120;
  EXPECT_EQ(chooseMergedLoads(q),
            (llvm::SmallVector<bool>{false, false, false, false}));
}

TEST(MergedLoads, GroupsMustFitTheCopies) {
  MergedLoadQuery q = geluOnSampleDevice();
  q.copies = 3;
  EXPECT_TRUE(
      std::isinf(estimateMergedLoadCycles(q, {true, false, false, false})));
}

} // namespace

//===- CostModelTest.cpp - The scheduler's cost model ---------------------===//
//
// This file checks the cost model's decisions against hand-computed
// estimates: chunk widths, buffering depths and coarsening factors.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Scheduling/CostModel.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace ktflow::sched;

namespace {

TEST(CostModel, RowCyclesTakeTheSlowerOfComputeAndTransfer) {
  ChunkQuery q;
  q.cols = 128;
  q.opRates = {32, 8}; // an f32 add and an f32 exp on a 32-lane unit
  q.fifoBytesPerElement = 2;
  q.fifoBandwidth = 128;
  // 64-element chunks: compute 2 + 8 = 10 cycles, transfer 1 cycle; x2.
  EXPECT_DOUBLE_EQ(estimateRowCycles(q, 64), 20);
  // 48 does not divide 128: 3 chunks of ceil(48/32) + ceil(48/8) = 8.
  EXPECT_DOUBLE_EQ(estimateRowCycles(q, 48), 24);
  EXPECT_TRUE(std::isinf(estimateRowCycles(q, 0)));
}

TEST(CostModel, ChunkIsTheCheapestMultipleOfTheStick) {
  ChunkQuery q;
  q.cols = 128;
  q.granule = 64;
  q.opRates = {64};
  q.fifoBytesPerElement = 2;
  q.fifoBandwidth = 128;
  // 64 and 128 both cost 2 cycles a row: the smaller wins.
  EXPECT_EQ(chooseChunk(q), 64);
  // With a 48-lane unit, 64-element chunks waste lanes: 2 x ceil(64/48) = 4
  // cycles against ceil(128/48) = 3 for one 128-element chunk.
  q.opRates = {48};
  EXPECT_EQ(chooseChunk(q), 128);
}

TEST(CostModel, ChunkFallsBackToDivisorsWithoutAStickMultiple) {
  ChunkQuery q;
  q.cols = 32;
  q.granule = 64; // rows shorter than a stick
  q.opRates = {64};
  // A 64-lane unit does any chunk up to 64 in one cycle: the whole row.
  EXPECT_EQ(chooseChunk(q), 32);
  q.opRates = {16};
  // Chunks of d cost (32/d) * ceil(d/16): 16 and 32 cost 2, smaller ones
  // more, so 16 wins the tie.
  EXPECT_EQ(chooseChunk(q), 16);
}

TEST(CostModel, DepthHidesLatencyWithinCapacity) {
  DepthQuery q;
  q.dmaLatency = 100;
  q.stageCycles = 50;
  q.bytesPerCopy = 1024;
  q.capacity = 1 << 20;
  // 1 + ceil(100 / 50) = 3 copies.
  EXPECT_EQ(chooseDepth(q), 3);
  q.stageCycles = 1;
  EXPECT_EQ(chooseDepth(q), 4); // capped
  q.stageCycles = 1000;
  EXPECT_EQ(chooseDepth(q), 2); // never below double buffering
  q.capacity = 1024;
  EXPECT_EQ(chooseDepth(q), 1); // one copy is all that fits
}

TEST(CostModel, CoarseningCarriesTwiceTheBytesInFlight) {
  CoarsenQuery q;
  q.candidates = {1, 2, 4, 8};
  q.bytesPerIteration = 1024;
  q.latency = 100;
  q.bandwidth = 64; // 6400 bytes in flight; target 12800
  EXPECT_EQ(chooseCoarsening(q), 8); // 8 KiB is the closest
  q.bytesPerIteration = 4096;
  EXPECT_EQ(chooseCoarsening(q), 4); // 16 KiB >= 12800
  q.bytesPerCopy = 4096;
  q.capacity = 16384; // two copies of 2 iterations fit, not of 4
  EXPECT_EQ(chooseCoarsening(q), 2);
  q.capacity = 1024;
  EXPECT_EQ(chooseCoarsening(q), 1);
}

} // namespace

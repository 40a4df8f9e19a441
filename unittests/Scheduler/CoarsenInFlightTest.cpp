//===- CoarsenInFlightTest.cpp - Coarsening with requests in flight -------===//
//
// This file checks the coarsening estimate's DMA terms against
// hand-computed cycles: the lanes that queue on a core's DMA engine, the
// route latency a stage pays once per round of requests in flight over
// an instance's executions, and the turnover of the buffers' copies.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Scheduler/CostModel.h"

#include "gtest/gtest.h"

using namespace ktflow::sched;

namespace {

TEST(CoarsenInFlight, LanesOfTheEngineTheGridRunsOn) {
  // spyre_like: one DMA engine each way for a core's 2 lanes, 32 cores.
  // The cores fill first: 32 instances use one lane of each core.
  EXPECT_EQ(lanesSharingEngine(2, 32, 32), 1);
  EXPECT_EQ(lanesSharingEngine(2, 33, 32), 2);
  EXPECT_EQ(lanesSharingEngine(2, 64, 32), 2);
  // sample_device (4 cores of 2 lanes): a [1, 1] grid, then 8 instances.
  EXPECT_EQ(lanesSharingEngine(2, 1, 4), 1);
  EXPECT_EQ(lanesSharingEngine(2, 8, 4), 2);
  // An engine per lane is never shared.
  EXPECT_EQ(lanesSharingEngine(1, 64, 32), 1);
}

/// if_select on spyre_like: a lane's loop of up to 3 rows of 64 f16, two
/// 128 B loads and one store a row, 152 cycles of DMA route at 128
/// B/cycle, 8 requests in flight, 3 compute cycles and 8 of hand-over a
/// row; 32 grid points, one lane of each core.
static CoarsenQuery ifSelectOnSpyre() {
  CoarsenQuery q;
  q.candidates = {1, 2, 3};
  q.iterations = 3;
  q.loadBytes = {128, 128};
  q.storeBytes = {128};
  q.latency = 152;
  q.bandwidth = 128;
  q.maxOutstanding = 8;
  q.computeCycles = 3;
  q.handoverCycles = 8;
  q.depthLatency = 156;
  return q;
}

TEST(CoarsenInFlight, LatencyOncePerRoundOfRequests) {
  CoarsenQuery q = ifSelectOnSpyre();
  // The three rows' six loads fit the 8 slots: the later rows pay their
  // 2 cycles of occupancy, no latency.
  EXPECT_DOUBLE_EQ(estimateDmaStage(q, q.loadBytes, 1, 3).steady, 2);
  // Five rows take two rounds: the second's latency over the later four,
  // 153 / 4.
  EXPECT_DOUBLE_EQ(estimateDmaStage(q, q.loadBytes, 1, 5).steady, 38.25);
  // Over many rows, each load's 1 + 152 cycles over the slots:
  // (2 + 2 x 152) / 8 = 38.25 as well (200 rounds over 800 rows).
  EXPECT_DOUBLE_EQ(estimateDmaStage(q, q.loadBytes, 1, 801).steady, 38.25);
  EXPECT_DOUBLE_EQ(estimateDmaStage(q, q.loadBytes, 1).steady, 38.25);
  // F = 1: 2 x 3 + (2 + 152) + 8 + 3 + (1 + 152) = 324; F = 3: (6 + 152)
  // + 8 + 9 + (3 + 152) = 330 (simulated: 346 and 361 cycles).
  EXPECT_DOUBLE_EQ(estimatePipelineCycles(q, 1), 324);
  EXPECT_DOUBLE_EQ(estimatePipelineCycles(q, 3), 330);
  EXPECT_EQ(chooseCoarsening(q), 1);
  // Counting the core's idle second lane on the engines doubles the
  // transfers: F = 1 pays a second round, max(4, 153 / 2) a row: 2 x
  // 76.5 + 156 + 8 + 3 + 154 = 474 against 338 at F = 2 (the query
  // before, each row paying a share of the latency too, merged all 3),
  // less the lanes' stagger: the later lane's first loads land one
  // lane's loads later, and the earlier lane's stores go meanwhile, a
  // lane's smaller stage (1 and 2 cycles of stores): 473 and 336.
  q.dmaSharing = 2;
  EXPECT_DOUBLE_EQ(estimatePipelineCycles(q, 1), 473);
  EXPECT_DOUBLE_EQ(estimatePipelineCycles(q, 2), 336);
  EXPECT_EQ(chooseCoarsening(q), 2);
}

/// rows_upto (test/EndToEnd/Inputs/unsigned_casts.mlir) on sample_device
/// at 64 rows: one 256 B load and store a row, 102 cycles of DMA route
/// at 64 B/cycle (107 with the feed's), 4 requests in flight, 4 compute
/// cycles and 10 of hand-over a row.
static CoarsenQuery rowsUptoOnSample() {
  CoarsenQuery q;
  for (int64_t f = 1; f <= 64; ++f)
    q.candidates.push_back(f);
  q.iterations = 64;
  q.loadBytes = {256};
  q.storeBytes = {256};
  q.latency = 102;
  q.bandwidth = 64;
  q.maxOutstanding = 4;
  q.computeCycles = 4;
  q.handoverCycles = 10;
  q.depthLatency = 107;
  q.bytesPerCopy = 512;
  q.capacity = 524288;
  return q;
}

TEST(CoarsenInFlight, CopiesTurnOverEveryDExecutions) {
  CoarsenQuery q = rowsUptoOnSample();
  // F = 2: 32 executions on 4 copies (1 + 107 / 8 copies, at most 4), each
  // held 8 + 102 + 10 = 120 cycles: every fourth later execution waits
  // that long (7 of 31), the other 3 follow by 8: 864 cycles, over the
  // slots' 7 rounds of 110 = 770. 864 + 110 + 10 + 8 + 110 = 1102
  // (simulated: 1149; 1008 without the copies).
  EXPECT_DOUBLE_EQ(estimateCopyTurnover(q, 2), 7 * 120 + 3 * 8);
  EXPECT_DOUBLE_EQ(estimatePipelineCycles(q, 2), 1102);
  // F = 4: 3 x 128 + 3 x 16 = 432; 432 + 262 = 694 (777).
  EXPECT_DOUBLE_EQ(estimateCopyTurnover(q, 4), 432);
  EXPECT_DOUBLE_EQ(estimatePipelineCycles(q, 4), 694);
  // F = 8: 144 + 3 x 32 = 240 over 7 x 32: 240 + 310 = 550 (665, the
  // fastest simulated).
  EXPECT_DOUBLE_EQ(estimateCopyTurnover(q, 8), 240);
  EXPECT_DOUBLE_EQ(estimatePipelineCycles(q, 8), 550);
  EXPECT_EQ(chooseCoarsening(q), 8);
  // A single execution turns no copy over.
  EXPECT_DOUBLE_EQ(estimateCopyTurnover(q, 64), 0);
}

TEST(CoarsenInFlight, CopiesTurnOverOnSpyre) {
  // The same rows on spyre_like: 152 cycles of route at 128 B/cycle (156
  // with the feed's), 8 in flight, 8 of hand-over. F = 8: 8 executions,
  // the fifth waits 16 + 152 + 8 = 176 for the first's copy, the other 3
  // follow by 32: 272 + 376 = 648 (simulated 718); F = 11: 182 + 44 +
  // 400 = 626 (687); F = 13: 5 executions, the fifth's wait (186) under 4
  // x 52: 208 + 416 = 624 (686); F = 16: 3 x 64 + 440 = 632 (700).
  CoarsenQuery q = rowsUptoOnSample();
  q.latency = 152;
  q.bandwidth = 128;
  q.maxOutstanding = 8;
  q.handoverCycles = 8;
  q.depthLatency = 156;
  q.capacity = 1048576;
  EXPECT_DOUBLE_EQ(estimatePipelineCycles(q, 8), 648);
  EXPECT_DOUBLE_EQ(estimatePipelineCycles(q, 11), 626);
  EXPECT_DOUBLE_EQ(estimatePipelineCycles(q, 13), 624);
  EXPECT_DOUBLE_EQ(estimatePipelineCycles(q, 16), 632);
  EXPECT_EQ(chooseCoarsening(q), 13);
}

} // namespace

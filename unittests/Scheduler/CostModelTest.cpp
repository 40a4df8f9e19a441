//===- CostModelTest.cpp - The scheduler's cost model ---------------------===//
//
// This file checks the cost model's decisions against hand-computed
// estimates: chunk widths, buffering depths and coarsening factors.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Scheduler/CostModel.h"

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
  // more. Below a stick the wider wins the tie: one partial stick a row.
  EXPECT_EQ(chooseChunk(q), 32);
  // A row only copied (no compute) ties every width: the whole row, not
  // one element at a time.
  q.opRates = {};
  q.fifoBytesPerElement = 2;
  q.fifoBandwidth = 128;
  EXPECT_EQ(chooseChunk(q), 32);
}

TEST(CostModel, RowReductionFoldsWidenTheChunk) {
  // A row softmax of 1024 f16 on mesh_device's VPU: the max and the sum
  // reduce (32 per cycle), the exp and the division take 8 per cycle, the
  // subtraction 32; 2 bytes per element in and out over 64 B/cycle FIFOs.
  ChunkQuery q;
  q.cols = 1024;
  q.granule = 32;
  q.opRates = {32, 32, 8, 32, 8};
  q.fifoBytesPerElement = 2;
  q.drainBytesPerElement = 2;
  q.fifoBandwidth = 64;
  // Without folds every width costs 1024 * (1/32 + 1/32 + 1/8 + 1/32 +
  // 1/8) = 352 cycles a row: the narrowest wins.
  EXPECT_DOUBLE_EQ(estimateRowCycles(q, 32), 352);
  EXPECT_EQ(chooseChunk(q), 32);
  // Two row reductions fold once per chunk each, and the row's first chunk
  // arrives and its last drains outside the overlap (chunk * 2 / 64 each):
  // 32: 32 * (11 + 2) + 1 + 1 = 418; 64: 16 * 24 + 2 + 2 = 388;
  // 128: 8 * 46 + 4 + 4 = 376; 256: 4 * 90 + 8 + 8 = 376; 512: 2 * 178 +
  // 16 + 16 = 388. 128 wins the tie with 256.
  q.rowReductions = 2;
  EXPECT_DOUBLE_EQ(estimateRowCycles(q, 32), 418);
  EXPECT_DOUBLE_EQ(estimateRowCycles(q, 64), 388);
  EXPECT_DOUBLE_EQ(estimateRowCycles(q, 128), 376);
  EXPECT_DOUBLE_EQ(estimateRowCycles(q, 256), 376);
  EXPECT_DOUBLE_EQ(estimateRowCycles(q, 512), 388);
  EXPECT_EQ(chooseChunk(q), 128);
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

/// Two lanes of a sample_device core on its load and store engines: 4
/// transfers in flight, 102 cycles of route at 64 B/cycle, 64 B/cycle of the
/// DDR's 256 for the four cores, 10 cycles of hand-over.
static CoarsenQuery twoLanesOnSampleDevice() {
  CoarsenQuery q;
  q.latency = 102;
  q.bandwidth = 64;
  q.memoryShare = 64;
  q.dmaSharing = 2;
  q.maxOutstanding = 4;
  q.handoverCycles = 10;
  return q;
}

/// The shipped layernorm on sample_device (ktdf-coarsen's query): four
/// points a lane of 512 bytes in and out, two lanes a core, 112 compute
/// cycles a point, W and B (256 bytes each) the same at every point.
TEST(CostModel, InvariantLoadsCountOnce) {
  CoarsenQuery q = twoLanesOnSampleDevice();
  q.candidates = {2, 4};
  q.iterations = 4;
  q.loadBytes = {512};
  q.storeBytes = {512};
  q.onceBytes = {256, 256};
  q.computeCycles = 112;
  // W and B go with the first execution's loads: 6 transfers, two rounds.
  DmaStageCycles first = estimateDmaStage(q, q.loadBytes, 1, 4, q.onceBytes);
  EXPECT_DOUBLE_EQ(first.done, 16 + 16 + 2 * 102);
  EXPECT_DOUBLE_EQ(first.occupancy, 16);
  // Once per lane, whatever F: one point an execution (613 simulated
  // cycles, 627 at F = 2).
  EXPECT_EQ(chooseCoarsening(q), 1);
  // Counted F times in every execution they merged the points in twos.
  q.loadBytes = {512, 256, 256};
  q.onceBytes.clear();
  EXPECT_EQ(chooseCoarsening(q), 2);
}

TEST(CostModel, CoarseningWeighsLatencyAgainstOverlap) {
  CoarsenQuery q;
  q.candidates = {1, 2, 4, 8};
  q.iterations = 8;
  q.loadBytes = {1024};
  q.storeBytes = {1024};
  q.latency = 100;
  q.bandwidth = 64;
  q.computeCycles = 10;
  // F = 1: 8 x 116 + (116 + 10) = 1054; F = 4: 2 x 164 + (164 + 40) = 532;
  // F = 8: 228 + (228 + 80) = 536, so merging everything loses the overlap.
  EXPECT_DOUBLE_EQ(estimatePipelineCycles(q, 1), 1054);
  EXPECT_DOUBLE_EQ(estimatePipelineCycles(q, 4), 532);
  EXPECT_DOUBLE_EQ(estimatePipelineCycles(q, 8), 536);
  EXPECT_EQ(chooseCoarsening(q), 4);
  // Two lanes queueing on the same DMA engines double the transfer time,
  // but for the fill's stagger: the earlier lane's first stores (16
  // cycles) go while the later lane computes.
  q.dmaSharing = 2;
  EXPECT_DOUBLE_EQ(estimatePipelineCycles(q, 1), 8 * 232 + 242 - 16);
  q.dmaSharing = 1;
  // Compute-bound: 200 cycles per iteration hide the latency; no merging.
  q.computeCycles = 200;
  EXPECT_EQ(chooseCoarsening(q), 1);
  // Two copies of 2 KiB per iteration in 8 KiB: F = 2 at most.
  q.computeCycles = 10;
  q.bytesPerCopy = 2048;
  q.capacity = 8192;
  EXPECT_EQ(chooseCoarsening(q), 2);
}

TEST(CostModel, DmaStageWithRequestsInFlight) {
  CoarsenQuery q;
  q.latency = 100;
  q.bandwidth = 64;
  q.dmaSharing = 2;
  // Two 1 KiB loads per lane, two lanes: 4 transfers of 16 cycles each.
  llvm::SmallVector<int64_t> loads = {1024, 1024};
  // One in flight: each waits for its latency, 4 x (16 + 100) = 464.
  DmaStageCycles one = estimateDmaStage(q, loads, 1);
  EXPECT_DOUBLE_EQ(one.done, 464);
  EXPECT_DOUBLE_EQ(one.issued, 464);
  EXPECT_DOUBLE_EQ(one.steady, 464);
  // Four in flight: the unit issues them back to back (64 cycles) and the
  // last lands one latency later (164); in the steady state each of the
  // four slots holds a transfer for 116 cycles, 464 / 4 = 116 > 64 (a
  // second execution's four wait for the first's slots as well).
  q.maxOutstanding = 4;
  DmaStageCycles four = estimateDmaStage(q, loads, 1);
  EXPECT_DOUBLE_EQ(four.done, 164);
  EXPECT_DOUBLE_EQ(four.issued, 64);
  EXPECT_DOUBLE_EQ(four.steady, 116);
  EXPECT_DOUBLE_EQ(estimateDmaStage(q, loads, 1, 2).steady, 116);
  // Three in flight: the fourth waits for the first, two latencies.
  q.maxOutstanding = 3;
  EXPECT_DOUBLE_EQ(estimateDmaStage(q, loads, 1).done, 264);
  // Merging F = 4 iterations: 64 cycles per transfer, 256 in all.
  q.maxOutstanding = 4;
  EXPECT_DOUBLE_EQ(estimateDmaStage(q, loads, 4).done, 4 * 64 + 100);
  EXPECT_DOUBLE_EQ(estimateDmaStage(q, {}, 4).done, 0);
}

TEST(CostModel, FillAndDrainAtTheMemorysShare) {
  // mesh_device's shipped RoPE: per grid point four 256 B loads and two
  // 256 B stores on one skewed engine (82 cycles, 64 B/cycle, 4 in
  // flight), 96 compute cycles, two points a lane.
  CoarsenQuery q;
  q.candidates = {1, 2};
  q.iterations = 2;
  q.loadBytes = {256, 256, 256, 256};
  q.storeBytes = {256, 256};
  q.latency = 82;
  q.bandwidth = 64;
  q.maxOutstanding = 4;
  q.computeCycles = 96;
  q.sharedDma = q.skewed = true;
  // At the route's 64 B/cycle: F = 1: max(96, (24 + 6 x 82) / 4 = 129) +
  // (16 + 82) + 96 + (8 + 82) = 413; F = 2: (32 + 82) + 192 + (16 + 82) =
  // 404, so the two points merge (463 simulated cycles against 416).
  EXPECT_DOUBLE_EQ(estimatePipelineCycles(q, 1), 413);
  EXPECT_DOUBLE_EQ(estimatePipelineCycles(q, 2), 404);
  EXPECT_EQ(chooseCoarsening(q), 2);
  // The 16 engines start together on 512 B/cycle of HBM, 32 each: the
  // fill and the drain take twice the transfer time, the steady state
  // (the same bytes for every F) is left alone. F = 1: 129 + (32 + 82) +
  // 96 + (16 + 82) = 437; F = 2: (64 + 82) + 192 + (32 + 82) = 452.
  q.memoryShare = 32;
  EXPECT_DOUBLE_EQ(estimateDmaStage(q, q.loadBytes, 2).done, 64 + 82);
  // Steady: max(32, (32 + 4 x 82) / 4), as without the share.
  EXPECT_DOUBLE_EQ(estimateDmaStage(q, q.loadBytes, 2).steady, 90);
  EXPECT_DOUBLE_EQ(estimatePipelineCycles(q, 1), 437);
  EXPECT_DOUBLE_EQ(estimatePipelineCycles(q, 2), 452);
  EXPECT_EQ(chooseCoarsening(q), 1);
  // A share above the route's bandwidth changes nothing.
  q.memoryShare = 128;
  EXPECT_EQ(chooseCoarsening(q), 2);
}

/// A trip of halves_add_dyn on sample_device as ktdf-split-row-tiles asks
/// (8 lanes busy, two a core): `rows` rows of two 64-column f16 tiles in
/// and one out, 2 x rows compute cycles (64 lanes; the two part
/// pipelines).
static CoarsenQuery halvesTrip(int64_t rows, int64_t trips) {
  CoarsenQuery q = twoLanesOnSampleDevice();
  q.iterations = trips;
  q.loadBytes = {rows * 128, rows * 128};
  q.storeBytes = {rows * 128};
  q.depthLatency = 107;
  q.computeCycles = 2.0 * rows;
  q.bytesPerCopy = rows * 384;
  return q;
}

TEST(CostModel, EveryExecutionHoldsTheDeviceMemory) {
  // 16 trips of a 16-row slice: the engines' slots would turn a trip over
  // in max(128, 32 + 102) = 134 cycles, but the two lanes' 12 KiB a trip
  // hold the core's 64 B/cycle of DDR 192: 16 x 192, then the last trip's
  // hand-over, compute and store latency, 10 + 32 + 102 = 3216 (3,227
  // simulated, n = 1000 in slices; 2,416 counted by the slots alone).
  EXPECT_DOUBLE_EQ(estimatePipelineCycles(halvesTrip(16, 16), 1), 3216);
  // 4 trips of whole 64-row blocks: 4 x 768 + 10 + 128 + 102 = 3312
  // (3,301 simulated; 2,518 by the slots), so the slices win, as
  // simulated; by the slots they lost.
  EXPECT_DOUBLE_EQ(estimatePipelineCycles(halvesTrip(64, 4), 1), 3312);
  // One trip: its loads' latency is not under other transfers, the fill
  // binds: loads 128 + 102, hand-over 10, compute 32, store 64 + 102, less
  // half the first lane's store under the second's compute (406; 405
  // simulated at n = 38).
  EXPECT_DOUBLE_EQ(estimatePipelineCycles(halvesTrip(16, 1), 1), 406);
}

/// softmax on mesh_device: two executions of a 2x128 f16 tile per
/// instance (512 bytes each way), one DMA engine that loads and stores
/// (82 cycles HBM -> SPM at 64 B/cycle), 384 compute cycles per tile,
/// 3 + 3 cycles of feed and drain latency.
static CoarsenQuery softmaxOnMesh() {
  CoarsenQuery q;
  q.candidates = {1, 2};
  q.iterations = 2;
  q.loadBytes = {512};
  q.storeBytes = {512};
  q.latency = 82;
  q.bandwidth = 64;
  q.computeCycles = 384;
  q.handoverCycles = 6;
  return q;
}

TEST(CostModel, OneEngineForLoadsAndStoresSerialisesExecutions) {
  CoarsenQuery q = softmaxOnMesh();
  // Separate engines would overlap the two executions:
  // F = 1: 1 x max(90, 384, 90) + (90 + 6 + 384 + 90) = 954;
  // F = 2: 98 + 6 + 768 + 98 = 970, so F = 1.
  EXPECT_DOUBLE_EQ(estimatePipelineCycles(q, 1), 954);
  EXPECT_DOUBLE_EQ(estimatePipelineCycles(q, 2), 970);
  EXPECT_EQ(chooseCoarsening(q), 1);
  // One engine: the second load waits behind the first store, which waits
  // for the first compute; F = 1: 2 x (90 + 6 + 384 + 90) = 1140 against
  // 970 for F = 2 (the simulator: 1157 and 999).
  q.sharedDma = true;
  EXPECT_DOUBLE_EQ(estimatePipelineCycles(q, 1), 1140);
  EXPECT_DOUBLE_EQ(estimatePipelineCycles(q, 2), 970);
  EXPECT_EQ(chooseCoarsening(q), 2);
  // With 4 requests in flight the engine moves on once the store is
  // issued (8 cycles), and the last store's latency comes once:
  // F = 1: 2 x (90 + 6 + 384 + 8) + 82 = 1058; F = 2: 98 + 6 + 768 + 16 +
  // 82 = 970.
  q.maxOutstanding = 4;
  EXPECT_DOUBLE_EQ(estimatePipelineCycles(q, 1), 1058);
  EXPECT_DOUBLE_EQ(estimatePipelineCycles(q, 2), 970);
  EXPECT_EQ(chooseCoarsening(q), 2);
}

TEST(CostModel, SkewedEngineOverlapsExecutions) {
  // The same softmax, its engine skewed (ktdf-to-dfir issues the second
  // execution's load before the first one's store): the executions overlap
  // as with separate engines, the engine's steady state the load and the
  // store together: 8 + 8 = 16 cycles of transfer, 2 transfers of 82
  // cycles' latency over 4 in flight, max(16, (16 + 2 x 82) / 4) = 45,
  // under the compute's 384. F = 1: 384 + (90 + 6 + 384 + 90) = 954
  // against 970 for F = 2 (the shipped softmax.mlir on mesh_device: 765
  // cycles skewed at F = 1, 797 at F = 2).
  CoarsenQuery q = softmaxOnMesh();
  q.maxOutstanding = 4;
  q.sharedDma = true;
  q.skewed = true;
  EXPECT_DOUBLE_EQ(estimatePipelineCycles(q, 1), 954);
  EXPECT_DOUBLE_EQ(estimatePipelineCycles(q, 2), 970);
  EXPECT_EQ(chooseCoarsening(q), 1);
  // Where the engine is slower than the compute (10 cycles), its 45 is
  // the steady state: F = 1: 45 + (90 + 6 + 10 + 90) = 241; F = 2: 98 +
  // 6 + 20 + 98 = 222, so F = 2.
  q.computeCycles = 10;
  EXPECT_DOUBLE_EQ(estimatePipelineCycles(q, 1), 241);
  EXPECT_DOUBLE_EQ(estimatePipelineCycles(q, 2), 222);
  EXPECT_EQ(chooseCoarsening(q), 2);
}

/// One 4x256 f16 tile (512 B rows) per execution on mesh_device: 80 cycles
/// of route latency, 32 B/cycle (an engine's share of the HBM), 4
/// transfers in flight, 45 compute cycles a row (row_reduce).
static RowBlockQuery rowReduceTile() {
  RowBlockQuery q;
  q.rows = 4;
  q.rowBytes = {512};
  q.latency = 80;
  q.bandwidth = 32;
  q.maxOutstanding = 4;
  q.computePerRow = 45;
  return q;
}

TEST(CostModel, RowBlocksLetComputeStartOnTheFirstBlock) {
  RowBlockQuery q = rowReduceTile();
  // Whole: 2048 B land at 64 + 80 = 144, then 4 rows of compute.
  EXPECT_DOUBLE_EQ(estimateRowBlockCycles(q, 1), 144 + 180);
  // Two blocks of 1 KiB land at 112 and 144: 112 + 90, then 90 more.
  EXPECT_DOUBLE_EQ(estimateRowBlockCycles(q, 2), 112 + 180);
  // Four of 512 B land at 96, 112, 128, 144; the compute (45 a row) is
  // behind from the second: 96 + 4 x 45.
  EXPECT_DOUBLE_EQ(estimateRowBlockCycles(q, 4), 96 + 180);
  EXPECT_EQ(chooseRowBlocks(q), 4);
  // Blocks must divide the rows.
  EXPECT_TRUE(std::isinf(estimateRowBlockCycles(q, 3)));
}

TEST(CostModel, RowBlocksStopWhereTransfersWaitForSlots) {
  // col_reduce: a 64x16 f16 tile (32 B rows), 3 cycles a row. Eight blocks
  // of 8 rows (256 B): the first four land at 88, 96, 104, 112, the next
  // four wait for their slots and land 88 later, each before the compute
  // (24 cycles a block) reaches it: 88 + 8 x 24. Sixteen smaller blocks
  // wait for slots four times, and the compute for them.
  RowBlockQuery q = rowReduceTile();
  q.rows = 64;
  q.rowBytes = {32};
  q.computePerRow = 3;
  EXPECT_DOUBLE_EQ(estimateRowBlockCycles(q, 1), 64 + 80 + 192);
  EXPECT_DOUBLE_EQ(estimateRowBlockCycles(q, 8), 88 + 8 * 24);
  EXPECT_GT(estimateRowBlockCycles(q, 16), estimateRowBlockCycles(q, 8));
  EXPECT_EQ(chooseRowBlocks(q), 8);
}

TEST(CostModel, RowBlocksInterleaveTheTilesLoadedTogether) {
  // elementwise: two 8x64 f16 tiles, 14 cycles a row. Two blocks: the
  // first halves of both land at 96 and 112, the second at 128 and 144.
  RowBlockQuery q = rowReduceTile();
  q.rows = 8;
  q.rowBytes = {128, 128};
  q.computePerRow = 14;
  EXPECT_DOUBLE_EQ(estimateRowBlockCycles(q, 1), 144 + 112);
  EXPECT_DOUBLE_EQ(estimateRowBlockCycles(q, 2), 112 + 112);
  EXPECT_EQ(chooseRowBlocks(q), 2);
}

TEST(CostModel, RowBlocksFollowTheLoadsTheFeedTakesWhole) {
  // broadcast_add: a 128 B vector loaded whole first lands at 84; the
  // tile's four 512 B blocks follow at 100, 116, 132 and, once a slot is
  // free, 180; the compute is behind from the first block: 100 + 4 x 45.
  RowBlockQuery q = rowReduceTile();
  q.wholeBytes = {128};
  EXPECT_DOUBLE_EQ(estimateRowBlockCycles(q, 4), 100 + 180);
  EXPECT_DOUBLE_EQ(estimateRowBlockCycles(q, 1), 4 + 64 + 80 + 180);
  EXPECT_EQ(chooseRowBlocks(q), 4);
}

TEST(CostModel, RowBlocksOfManyExecutionsMustNotSlowTheEngine) {
  // 64 executions of a DMA-bound pipeline (1 cycle a row): after the
  // first, every block pays the latency again, spread over the 4 slots.
  RowBlockQuery q = rowReduceTile();
  q.computePerRow = 1;
  q.executions = 64;
  // Whole tiles: the engine's 64 cycles of occupancy per execution. Four
  // blocks: their latency, (64 + 4 x 80) / 4 = 96, which the 3 cycles they
  // save in the first execution do not buy back. Two: (64 + 2 x 80) / 4 =
  // 56, hidden behind the occupancy, and 2 cycles saved.
  EXPECT_DOUBLE_EQ(estimateRowBlockCycles(q, 1), 148 + 63 * 64);
  EXPECT_DOUBLE_EQ(estimateRowBlockCycles(q, 4), 145 + 63 * 96);
  EXPECT_DOUBLE_EQ(estimateRowBlockCycles(q, 2), 146 + 63 * 64);
  EXPECT_EQ(chooseRowBlocks(q), 2);
}

/// A 1 KiB tile loaded whole lands at 32 + 80 = 112; 4 rows at 10 cycles
/// end at 122, 132, 142, 152; the engine stores a 4x256 B tile.
static RowBlockQuery storeAfterWholeLoad() {
  RowBlockQuery q = rowReduceTile();
  q.rowBytes = {};
  q.wholeBytes = {1024};
  q.storeRowBytes = {256};
  q.computePerRow = 10;
  return q;
}

TEST(CostModel, StoreRowBlocksFollowTheComputeRowByRow) {
  RowBlockQuery q = storeAfterWholeLoad();
  // Whole: issued at 152, lands 32 + 80 later.
  EXPECT_DOUBLE_EQ(estimateRowBlockCycles(q, 1, 1), 152 + 32 + 80);
  // Two of 512 B after rows 1 and 3: 132 + 16 + 80, 152 + 16 + 80.
  EXPECT_DOUBLE_EQ(estimateRowBlockCycles(q, 1, 2), 152 + 16 + 80);
  // Four of 256 B, the last after row 3 (its slot free since 112).
  EXPECT_DOUBLE_EQ(estimateRowBlockCycles(q, 1, 4), 152 + 8 + 80);
  EXPECT_EQ(chooseStoreRowBlocks(q, 1), 4);
  EXPECT_TRUE(std::isinf(estimateRowBlockCycles(q, 1, 3)));
}

TEST(CostModel, StoreRowBlocksTieToWholeTiles) {
  // Two executions: the second adds the engine's loads, max(32, (32 + 80)
  // / 4) = 32, and stores: whole 32, two blocks max(32, (32 + 2 x 80) / 4)
  // = 48, four (32 + 4 x 80) / 4 = 88. Two blocks save the 16 cycles they
  // cost: a tie, so whole tiles.
  RowBlockQuery q = storeAfterWholeLoad();
  q.executions = 2;
  EXPECT_DOUBLE_EQ(estimateRowBlockCycles(q, 1, 1), 264 + 32 + 32);
  EXPECT_DOUBLE_EQ(estimateRowBlockCycles(q, 1, 2), 248 + 32 + 48);
  EXPECT_DOUBLE_EQ(estimateRowBlockCycles(q, 1, 4), 240 + 32 + 88);
  EXPECT_EQ(chooseStoreRowBlocks(q, 1), 1);
}

} // namespace

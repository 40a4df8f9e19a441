//===- CostModel.h - Tile sizes and buffering depths ------------*- C++ -*-===//
//
// This file declares the scheduler's cost model, kept apart from the passes
// that ask it (as circt keeps its scheduling problems apart from its
// dialects) so it can be tested on its own. Every figure it takes comes
// from the device model: SIMD and transfer granularities, compute rates per
// operation class, datapath bandwidths and latencies, scratchpad capacity.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_SCHEDULER_COSTMODEL_H
#define KTFLOW_SCHEDULER_COSTMODEL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <limits>

namespace ktflow::sched {

/// The streaming of one row of a tile through a compute unit.
struct ChunkQuery {
  /// Elements in a row.
  int64_t cols = 1;
  /// Elements in one hardware transfer unit (a stick): chunks are
  /// multiples of it when the row allows.
  int64_t granule = 1;
  /// Elements per cycle of every operation applied to each element of a
  /// chunk (one entry per operation).
  llvm::SmallVector<double> opRates;
  /// Bytes per element moved through the unit's FIFOs (all slots).
  double fifoBytesPerElement = 0;
  /// Bytes per element the unit writes out per chunk (its streamed
  /// outputs), drained after the row's last chunk.
  double drainBytesPerElement = 0;
  /// Bytes per cycle of the FIFO datapaths.
  double fifoBandwidth = 1;
  /// Row reductions: each folds its chunk's partial result into the row's
  /// accumulator, a one-element operation of one cycle per chunk whatever
  /// the chunk's width.
  int64_t rowReductions = 0;
};

/// Estimated cycles to stream one row in chunks of `chunk` elements: per
/// chunk, the compute (each operation takes ceil(chunk / rate) cycles, each
/// row reduction's fold one more) and the FIFO transfer overlap, so a chunk
/// costs the larger of the two. With row reductions, whose folds favour
/// wide chunks, the row also pays what bounds them: its first chunk arrives
/// before the compute unit starts and its last chunk's outputs drain after
/// it ends, transfers the chunks do not overlap. Without row reductions
/// that term only breaks ties the narrow chunk already wins, or turns
/// ceil() savings of a wider one into losses (the shipped allreduce: 14 to
/// 31 cycles slower, measured), so it is not charged.
double estimateRowCycles(const ChunkQuery &query, int64_t chunk);

/// The chunk size with the least estimated cycles among the multiples of
/// the granule that divide the row (every divisor when none does); ties go
/// to the smaller chunk, which needs less FIFO space, except in a row
/// narrower than the granule, where each chunk is a partial stick (a
/// scratchpad access and a FIFO entry of its own) and ties go to the
/// wider.
int64_t chooseChunk(const ChunkQuery &query);

/// The steady state of a pipeline that reads a few buffers per iteration.
struct DepthQuery {
  /// Cycles from issuing a DMA to its first byte landing (the route's
  /// latency).
  double dmaLatency = 0;
  /// Cycles the slowest stage is busy per iteration.
  double stageCycles = 1;
  /// Bytes of one copy of every private buffer of the pipeline.
  int64_t bytesPerCopy = 0;
  /// Bytes of scratchpad available to the pipeline.
  int64_t capacity = 0;
  /// More copies than this buy nothing on any device we know.
  int64_t maxDepth = 4;
};

/// Copies of each buffer: enough that a DMA issued `depth - 1` iterations
/// ahead hides the route latency behind the slowest stage, at least 2 (so
/// loads overlap compute), at most what the scratchpad holds (at least 1).
int64_t chooseDepth(const DepthQuery &query);

/// The lanes of a core whose transfers queue on one DMA engine: of the
/// `lanesPerEngine` it serves, those the grid's `instances` run on.
/// ktdf-distribute puts instance k on core k mod `cores`, lane k div
/// `cores`, so the cores fill first: 32 instances on spyre_like's 32
/// cores of 2 lanes use one lane of each, 64 both.
int64_t lanesSharingEngine(int64_t lanesPerEngine, int64_t instances,
                           int64_t cores);

/// Merging F iterations of a loop into one larger transfer each.
struct CoarsenQuery {
  /// Factors to weigh, ascending: those that keep the iteration space and
  /// its instances whole, or any up to the most iterations when the last
  /// merged iteration may be partial.
  llvm::SmallVector<int64_t> candidates;
  /// Iterations one instance runs before merging.
  int64_t iterations = 1;
  /// Bytes each DMA load and each DMA store moves per (original) iteration.
  llvm::SmallVector<int64_t> loadBytes, storeBytes;
  /// Bytes of each load whose tile does not move with the driver (a
  /// layernorm's W and B under its grid of rows): loaded once per
  /// instance, with the first execution's loads, whatever F
  /// (ktdf-hoist-invariant-transfers, or one execution that loads it).
  llvm::SmallVector<int64_t> onceBytes;
  /// Latency (cycles) and bandwidth (bytes/cycle) of the DMA hops.
  double latency = 0;
  double bandwidth = 1;
  /// An engine's share of the device memory's bandwidth when every lane's
  /// engine moves data at once, as all do for the first loads and the last
  /// stores (infinite: the route's bandwidth alone). It slows the fill and
  /// the drain, not the steady state, whose bytes every F moves alike.
  double memoryShare = std::numeric_limits<double>::infinity();
  /// Lanes whose transfers queue on the same DMA units.
  int64_t dmaSharing = 1;
  /// Transfers a DMA unit keeps in flight (1: it waits for each to land).
  int64_t maxOutstanding = 1;
  /// The route latency ktdf-buffer sizes the buffers' copies by (the whole
  /// inbound route's, `DepthQuery::dmaLatency`).
  double depthLatency = 0;
  /// One unit issues both the loads and the stores. Its program runs the
  /// stages of an execution in order, so the loads of the next execution
  /// wait behind this execution's stores, which wait for its compute: the
  /// executions do not overlap.
  bool sharedDma = false;
  /// The shared unit issues the next execution's loads before this one's
  /// stores (ktdf-to-dfir skews a loop, or a lane's grid points, whose body
  /// is one pipeline: SkewedLoops.cpp): an execution's loads and stores
  /// still queue on the one unit, but overlap its neighbours' compute.
  bool skewed = false;
  /// Cycles the compute unit spends per (original) iteration.
  double computeCycles = 0;
  /// Cycles per execution between the DMA stages and the compute unit that
  /// do not shrink with the data: the latency of the feed route (buffer to
  /// the compute unit) and of the drain route (back to a buffer).
  double handoverCycles = 0;
  /// Bytes of one copy of the pipeline's buffers per iteration, the copies
  /// buffering will keep, and the scratchpad a lane has.
  int64_t bytesPerCopy = 0;
  int64_t copies = 2;
  int64_t capacity = INT64_MAX;
};

/// A DMA stage's transfers of one execution, issued back to back by one
/// unit (the lanes sharing it included).
struct DmaStageCycles {
  /// The unit's bytes over the route's bandwidth.
  double occupancy = 0;
  /// From the first issue until the last byte has landed, every engine
  /// moving data at once (at the memory's share).
  double done = 0;
  /// Until the unit may issue its next transfer (`done` when it waits for
  /// each transfer to land).
  double issued = 0;
  /// Per execution after the first of `executions`: the unit's occupancy,
  /// or the rounds of requests in flight (each holding its slots for a
  /// transfer's bytes and latency) beyond the first execution's, spread
  /// over the later executions, whichever is larger: the occupancy alone
  /// while every execution's transfers are in flight together, each
  /// transfer's latency over the slots over many executions (`executions`
  /// 0).
  double steady = 0;
};
/// `once`: transfers issued with the first execution's (the invariant
/// loads), in its `done` and `issued`, not in its `occupancy` or `steady`.
DmaStageCycles estimateDmaStage(const CoarsenQuery &query,
                                llvm::ArrayRef<int64_t> bytes, int64_t factor,
                                int64_t executions = 0,
                                llvm::ArrayRef<int64_t> once = {});

/// The cycles the executions after the first take when the buffers'
/// copies bound them: a copy is held from its transfer's issue until the
/// feed has it (or from the drain until its store has landed), the larger
/// DMA stage's occupancy, the route latency and the hand-over; with the D
/// copies ktdf-buffer will keep (chooseDepth at this factor), every D-th
/// later execution waits for the one D before for that long, the others
/// follow their predecessor by the larger DMA stage's occupancy or the
/// compute.
double estimateCopyTurnover(const CoarsenQuery &query, int64_t factor);

/// Estimated cycles of an instance's pipeline with F iterations merged into
/// n = iterations / F executions. With separate load and store units the
/// DMA loads, the compute and the DMA stores overlap across executions: n - 1
/// times the slowest steady state, or the copies' turnover if longer, plus
/// one execution passing through all of them (fill and drain). With one unit
/// doing both, executions run one after another: each pays its loads' landing,
/// the hand-over, the compute and the issue of its stores; the last store's
/// landing comes once. A skewed shared unit overlaps like separate units, its
/// steady state the loads and stores of an execution together.
double estimatePipelineCycles(const CoarsenQuery &query, int64_t factor);

/// The candidate with the least estimated cycles among those whose buffers
/// fit the scratchpad (ties to the smaller); 1 when none fits.
int64_t chooseCoarsening(const CoarsenQuery &query);

/// A DMA engine's route: latency (cycles), the bandwidth it gets
/// (bytes/cycle) and the transfers it keeps in flight.
struct EngineRoute {
  double latency = 0;
  double bandwidth = 1;
  int64_t slots = 1;
};

/// An engine issuing transfers in program order, back to back at its
/// bandwidth, each holding one of its slots until it lands.
struct EngineWalk {
  EngineRoute route;
  llvm::SmallVector<double> landings;
  double issue = 0;

  /// Issues `bytes`, not before `after`; returns when they land.
  double transfer(int64_t bytes, double after);
};

/// Handing the tiles a DMA stage loads together over to the feed in blocks
/// of rows, each with its own token, instead of whole.
struct RowBlockQuery {
  /// Rows of the tiles (all have the same) and the bytes of one row of
  /// each, in the order the stage loads them.
  int64_t rows = 1;
  llvm::SmallVector<int64_t> rowBytes;
  /// Bytes of the engine's other loads of the execution, issued first and
  /// handed over whole (the feed waits for them before its first row).
  llvm::SmallVector<int64_t> wholeBytes;
  /// Bytes of the stores the same engine issues per execution (none when
  /// another unit stores): in the steady state they follow its loads.
  llvm::SmallVector<int64_t> storeBytes;
  /// The engine's stores the drain may hand over in blocks of rows (the
  /// bytes of one row of each; their tiles have `rows` rows, not in
  /// `storeBytes`). When there are any, the estimate of the first
  /// execution runs to their last landing, else to the compute's end.
  llvm::SmallVector<int64_t> storeRowBytes;
  /// Route latency (cycles) of one transfer, the bandwidth (bytes/cycle)
  /// the engine gets (its share of the device memory when every engine
  /// loads at once) and the transfers it keeps in flight.
  double latency = 0;
  double bandwidth = 1;
  int64_t maxOutstanding = 1;
  /// Cycles the compute unit spends on one row of the tiles.
  double computePerRow = 0;
  /// Executions per lane of the pipeline and of its siblings on the same
  /// engine: all but the first overlap their loads with the previous one's
  /// compute, where more transfers only cost their latency.
  int64_t executions = 1;
};

/// Cycles from the first load (the whole transfers, then `blocks` blocks
/// per tile, interleaved across the tiles: block 0 of each, then block 1,
/// ...) to the compute unit's last row of the first execution, plus the
/// steady state of the others: the engine issues a transfer when one of
/// its slots is free (each is held until its transfer lands), the compute
/// unit starts a block once its rows of every tile have landed. With
/// `storeBlocks` blocks per store of `storeRowBytes`, the engine, after its
/// loads, stores block j of each once the compute unit has finished the
/// block's last row.
double estimateRowBlockCycles(const RowBlockQuery &query, int64_t blocks,
                              int64_t storeBlocks = 1);

/// The number of blocks (a divisor of the rows) with the least estimate;
/// ties go to fewer blocks, so 1 (whole tiles) unless blocks pay.
int64_t chooseRowBlocks(const RowBlockQuery &query);

/// The number of blocks per store of `storeRowBytes` (a divisor of the
/// rows) with the least estimate, the loads in `blocks` blocks; ties go to
/// fewer, so 1 (whole tiles) unless blocks pay.
int64_t chooseStoreRowBlocks(const RowBlockQuery &query, int64_t blocks);

} // namespace ktflow::sched

#endif // KTFLOW_SCHEDULER_COSTMODEL_H

//===- CostModel.cpp - Tile sizes and buffering depths --------------------===//
//
// This file implements the scheduler's cost model: chunk sizes for the
// streaming of rows through a compute unit, the buffering depth of a
// pipeline, and the estimate of a pipeline's cycles that coarsening
// minimises.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Scheduler/CostModel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>

using namespace ktflow::sched;

double ktflow::sched::estimateRowCycles(const ChunkQuery &query,
                                        int64_t chunk) {
  if (chunk <= 0)
    return INFINITY;
  double compute = static_cast<double>(query.rowReductions);
  for (double rate : query.opRates)
    compute += rate > 0 ? std::ceil(chunk / rate) : chunk;
  auto transferOf = [&](double bytesPerElement) {
    return query.fifoBandwidth > 0
               ? chunk * bytesPerElement / query.fifoBandwidth
               : 0;
  };
  double transfer = transferOf(query.fifoBytesPerElement);
  double chunks = std::ceil(static_cast<double>(query.cols) / chunk);
  double row = chunks * std::max(compute, transfer);
  if (query.rowReductions == 0)
    return row;
  return row + transfer + transferOf(query.drainBytesPerElement);
}

int64_t ktflow::sched::chooseChunk(const ChunkQuery &query) {
  int64_t cols = std::max<int64_t>(query.cols, 1);
  int64_t granule = std::max<int64_t>(query.granule, 1);
  llvm::SmallVector<int64_t> candidates;
  for (int64_t d = granule; d <= cols; d += granule)
    if (cols % d == 0)
      candidates.push_back(d);
  if (candidates.empty()) {
    for (int64_t d = 1; d <= cols; ++d)
      if (cols % d == 0)
        candidates.push_back(d);
    // A row narrower than a stick: every chunk is a partial stick, one
    // scratchpad access and one FIFO entry each, so ties go to the wider
    // chunk (a row only copied ties every width, and one element at a time
    // won).
    if (cols < granule)
      std::reverse(candidates.begin(), candidates.end());
  }
  int64_t best = candidates.front();
  double bestCost = estimateRowCycles(query, best);
  for (int64_t d : candidates) {
    double cost = estimateRowCycles(query, d);
    if (cost < bestCost) {
      best = d;
      bestCost = cost;
    }
  }
  return best;
}

int64_t ktflow::sched::chooseDepth(const DepthQuery &query) {
  double stage = std::max(query.stageCycles, 1.0);
  int64_t depth = 1 + static_cast<int64_t>(std::ceil(query.dmaLatency / stage));
  depth = std::clamp<int64_t>(depth, 2, std::max<int64_t>(query.maxDepth, 2));
  if (query.bytesPerCopy > 0)
    depth = std::min(depth, query.capacity / query.bytesPerCopy);
  return std::max<int64_t>(depth, 1);
}

int64_t ktflow::sched::lanesSharingEngine(int64_t lanesPerEngine,
                                          int64_t instances, int64_t cores) {
  int64_t used = llvm::divideCeil(std::max<int64_t>(instances, 1),
                                  std::max<int64_t>(cores, 1));
  return std::clamp<int64_t>(used, 1, std::max<int64_t>(lanesPerEngine, 1));
}

/// The rounds of `inFlight` requests that `executions` executions of
/// `perExecution` requests each take beyond the first execution's: none
/// while all of them are in flight together. `once` more requests go
/// with the first execution's (the invariant loads), holding slots the
/// later executions' requests then wait for.
static double laterRounds(double perExecution, double executions,
                          double inFlight, double once = 0) {
  return std::ceil((executions * perExecution + once) / inFlight) -
         std::ceil((perExecution + once) / inFlight);
}

DmaStageCycles ktflow::sched::estimateDmaStage(const CoarsenQuery &query,
                                               llvm::ArrayRef<int64_t> bytes,
                                               int64_t factor,
                                               int64_t executions,
                                               llvm::ArrayRef<int64_t> once) {
  DmaStageCycles c;
  if (bytes.empty() && once.empty())
    return c;
  double bw = std::max(query.bandwidth, 1e-9);
  double sharing = static_cast<double>(std::max<int64_t>(query.dmaSharing, 1));
  double occupancy = 0, onceOccupancy = 0;
  for (int64_t b : bytes)
    occupancy += static_cast<double>(factor) * b / bw;
  for (int64_t b : once)
    onceOccupancy += static_cast<double>(b) / bw;
  occupancy *= sharing;
  onceOccupancy *= sharing;
  c.occupancy = occupancy;
  double transfers = sharing * bytes.size();
  double inFlight =
      static_cast<double>(std::max<int64_t>(query.maxOutstanding, 1));
  // Every group of `inFlight` transfers waits for the latency once; the
  // invariant loads go with the first execution's.
  double first = occupancy + onceOccupancy;
  double rounds = std::ceil((transfers + sharing * once.size()) / inFlight);
  double shared = std::max(first, first * bw / query.memoryShare);
  c.done = shared + rounds * query.latency;
  c.issued = inFlight > 1 ? c.done - query.latency : c.done;
  if (bytes.empty())
    return c;
  // A round holds the slots for a transfer's bytes and its latency: per
  // later execution, the rounds beyond the first execution's over n - 1,
  // or over many executions (0) each transfer's share of a round.
  double roundsPerExecution = transfers / inFlight;
  if (executions == 1)
    roundsPerExecution = 0;
  else if (executions > 1)
    roundsPerExecution = laterRounds(transfers, static_cast<double>(executions),
                                     inFlight, sharing * once.size()) /
                         static_cast<double>(executions - 1);
  c.steady = std::max(occupancy, roundsPerExecution *
                                     (occupancy / transfers + query.latency));
  return c;
}

double ktflow::sched::estimateCopyTurnover(const CoarsenQuery &query,
                                           int64_t factor) {
  int64_t n = llvm::divideCeil(std::max<int64_t>(query.iterations, 1), factor);
  DmaStageCycles load = estimateDmaStage(query, query.loadBytes, factor);
  DmaStageCycles store = estimateDmaStage(query, query.storeBytes, factor);
  double bw = std::max(query.bandwidth, 1e-9);
  double loaded = 0;
  for (int64_t b : query.loadBytes)
    loaded += static_cast<double>(factor) * b / bw;
  DepthQuery depthQuery;
  depthQuery.dmaLatency = query.depthLatency;
  depthQuery.stageCycles = loaded;
  depthQuery.bytesPerCopy = factor * query.bytesPerCopy;
  depthQuery.capacity = query.capacity;
  int64_t copies = chooseDepth(depthQuery);
  // A copy is held from its transfer's issue until the feed has it (or
  // from the drain until its store has landed): the larger stage's
  // occupancy, the route latency and the hand-over.
  double held = std::max(load.occupancy, store.occupancy) + query.latency +
                query.handoverCycles;
  double step = std::max({load.occupancy, store.occupancy,
                          static_cast<double>(factor) * query.computeCycles});
  int64_t waits = (n - 1) / copies;
  return static_cast<double>(waits) * held +
         static_cast<double>(n - 1 - waits * copies) * step;
}

/// The cycles an execution's loads and stores (both through the device
/// memory) hold it at an engine's share, every engine moving data at once
/// (none without a share).
static double memorySteady(const CoarsenQuery &query, int64_t factor) {
  if (!std::isfinite(query.memoryShare) || query.memoryShare <= 0)
    return 0;
  double bytes = 0;
  for (int64_t b :
       llvm::concat<const int64_t>(query.loadBytes, query.storeBytes))
    bytes += static_cast<double>(b);
  double sharing = static_cast<double>(std::max<int64_t>(query.dmaSharing, 1));
  return static_cast<double>(factor) * bytes * sharing / query.memoryShare;
}

double ktflow::sched::estimatePipelineCycles(const CoarsenQuery &query,
                                             int64_t factor) {
  int64_t n = llvm::divideCeil(std::max<int64_t>(query.iterations, 1), factor);
  double compute = static_cast<double>(factor) * query.computeCycles;
  DmaStageCycles load =
      estimateDmaStage(query, query.loadBytes, factor, n, query.onceBytes);
  DmaStageCycles store = estimateDmaStage(query, query.storeBytes, factor, n);
  if (query.sharedDma && !query.skewed) {
    // The invariant loads delay the first execution alone.
    double later = estimateDmaStage(query, query.loadBytes, factor, n).done;
    return n * (later + query.handoverCycles + compute + store.issued) +
           (load.done - later) + (store.done - store.issued);
  }
  double fill = load.done + query.handoverCycles + compute + store.done;
  // With separate load and store engines, the lanes that share them get
  // their first loads one lane's transfers apart, and each lane's stores
  // go while the next one computes: the last lane waits for the others'
  // stores only where a lane's stores outlast its loads (the shipped
  // broadcast_add on sample_device, one execution of 4 points a lane:
  // 378 estimated, 350 simulated, 346 so).
  double lanes = static_cast<double>(std::max<int64_t>(query.dmaSharing, 1));
  if (!query.sharedDma && lanes > 1)
    fill -= (lanes - 1) * std::min(load.occupancy, store.occupancy) / lanes;
  if (query.sharedDma) {
    // The one engine's program waits for each execution's compute before
    // its stores, and the next loads behind them: no rounds of requests
    // from several executions, the latency of each transfer over the slots.
    llvm::SmallVector<int64_t> both(query.loadBytes);
    both.append(query.storeBytes.begin(), query.storeBytes.end());
    double slowest =
        std::max(compute, estimateDmaStage(query, both, factor, 0).steady);
    return static_cast<double>(n - 1) * slowest + fill;
  }
  double slowest = std::max({load.steady, compute, store.steady});
  double overlapped = std::max(static_cast<double>(n - 1) * slowest,
                               estimateCopyTurnover(query, factor)) +
                      fill;
  // Every execution's bytes go through the device memory at the engine's
  // share, the first execution's load latency under the others' transfers;
  // the last execution's hand-over, compute and store latency follow.
  double memory = memorySteady(query, factor);
  if (memory <= 0)
    return overlapped;
  CoarsenQuery invariant = query;
  invariant.loadBytes = query.onceBytes;
  invariant.storeBytes.clear();
  return std::max(overlapped,
                  static_cast<double>(n) * memory + memorySteady(invariant, 1) +
                      query.handoverCycles + compute + query.latency);
}

int64_t ktflow::sched::chooseCoarsening(const CoarsenQuery &query) {
  int64_t best = 1;
  double bestCycles = estimatePipelineCycles(query, 1);
  for (int64_t f : query.candidates) {
    bool fits = query.bytesPerCopy <= 0 ||
                f * query.bytesPerCopy * std::max<int64_t>(query.copies, 1) <=
                    query.capacity;
    if (!fits)
      break;
    double cycles = estimatePipelineCycles(query, f);
    if (cycles < bestCycles) {
      best = f;
      bestCycles = cycles;
    }
  }
  return best;
}

double ktflow::sched::EngineWalk::transfer(int64_t bytes, double after) {
  size_t slots = static_cast<size_t>(std::max<int64_t>(route.slots, 1));
  double occupancy =
      static_cast<double>(bytes) / std::max(route.bandwidth, 1e-9);
  issue = std::max(issue, after);
  if (landings.size() >= slots)
    issue = std::max(issue, landings[landings.size() - slots]);
  landings.push_back(issue + occupancy + route.latency);
  issue += occupancy;
  return landings.back();
}

double ktflow::sched::estimateRowBlockCycles(const RowBlockQuery &query,
                                             int64_t blocks,
                                             int64_t storeBlocks) {
  int64_t rows = std::max<int64_t>(query.rows, 1);
  if (blocks <= 0 || rows % blocks != 0 || storeBlocks <= 0 ||
      rows % storeBlocks != 0 ||
      (query.rowBytes.empty() && query.storeRowBytes.empty()))
    return INFINITY;
  double bw = std::max(query.bandwidth, 1e-9);
  size_t slots =
      static_cast<size_t>(std::max<int64_t>(query.maxOutstanding, 1));
  int64_t blockRows = rows / blocks;
  EngineWalk engine{{query.latency, query.bandwidth, query.maxOutstanding}};
  double ready = 0, computeEnd = 0;
  auto transfer = [&](int64_t bytes, double after) {
    return engine.transfer(bytes, after);
  };
  for (int64_t bytes : query.wholeBytes)
    ready = std::max(ready, transfer(bytes, 0));
  // When the compute unit finishes each row.
  llvm::SmallVector<double> rowDone;
  for (int64_t k = 0; k < blocks; ++k) {
    for (int64_t bytes : query.rowBytes)
      ready = std::max(ready, transfer(blockRows * bytes, 0));
    double start = std::max(computeEnd, ready);
    for (int64_t r = 1; r <= blockRows; ++r)
      rowDone.push_back(start + r * query.computePerRow);
    computeEnd = start + blockRows * query.computePerRow;
  }
  double firstEnd = computeEnd;
  if (!query.storeRowBytes.empty()) {
    int64_t storeRows = rows / storeBlocks;
    for (int64_t j = 0; j < storeBlocks; ++j)
      for (int64_t bytes : query.storeRowBytes)
        firstEnd =
            std::max(firstEnd, transfer(storeRows * bytes,
                                        rowDone[(j + 1) * storeRows - 1]));
  }
  // Later executions load while the previous one computes: per execution,
  // the compute or the engine's loads and stores, each class the larger of
  // its occupancy and its transfers' latency spread over the slots.
  auto engineCycles = [&](double bytes, double transfers) {
    return std::max(bytes / bw, (bytes / bw + transfers * query.latency) /
                                    static_cast<double>(slots));
  };
  double loaded = 0, stored = 0;
  for (int64_t bytes : query.rowBytes)
    loaded += static_cast<double>(rows * bytes);
  for (int64_t bytes : query.wholeBytes)
    loaded += static_cast<double>(bytes);
  for (int64_t bytes : query.storeBytes)
    stored += static_cast<double>(bytes);
  for (int64_t bytes : query.storeRowBytes)
    stored += static_cast<double>(rows * bytes);
  double loads =
      engineCycles(loaded, static_cast<double>(blocks * query.rowBytes.size() +
                                               query.wholeBytes.size()));
  size_t storeTransfers =
      query.storeBytes.size() + storeBlocks * query.storeRowBytes.size();
  double stores =
      storeTransfers == 0
          ? 0
          : engineCycles(stored, static_cast<double>(storeTransfers));
  double steady = std::max(rows * query.computePerRow, loads + stores);
  return firstEnd +
         static_cast<double>(std::max<int64_t>(query.executions, 1) - 1) *
             steady;
}

/// The count in [1, rows] with the least `estimate`; ties go to the smaller
/// count, so 1 (whole tiles) unless blocks pay.
template <typename Estimate>
static int64_t leastCyclesCount(int64_t rows, Estimate estimate) {
  int64_t best = 1;
  double bestCycles = estimate(1);
  for (int64_t count = 2; count <= rows; ++count) {
    double cycles = estimate(count);
    if (cycles < bestCycles) {
      best = count;
      bestCycles = cycles;
    }
  }
  return best;
}

int64_t ktflow::sched::chooseRowBlocks(const RowBlockQuery &query) {
  return leastCyclesCount(query.rows, [&](int64_t blocks) {
    return estimateRowBlockCycles(query, blocks);
  });
}

int64_t ktflow::sched::chooseStoreRowBlocks(const RowBlockQuery &query,
                                            int64_t blocks) {
  return leastCyclesCount(query.rows, [&](int64_t storeBlocks) {
    return estimateRowBlockCycles(query, blocks, storeBlocks);
  });
}

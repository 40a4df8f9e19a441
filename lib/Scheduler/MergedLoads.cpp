//===- MergedLoads.cpp - One transfer for a lane's executions -------------===//
//
// A load engine that a core's lanes share keeps a few transfers in flight,
// each holding its slot until it lands (gelu_spyreop on sample_device: 4
// slots, a 1 KiB tile 16 cycles at the engine's bandwidth and 102 of
// route). Eight 1 KiB tiles a core take two rounds of the slots; loading a
// lane's two executions of a tensor as one 2 KiB transfer takes one round,
// but the first execution's tile lands later. Which pays depends on what
// follows: the walk below runs the engine's program (execution by
// execution, lane after lane, as ktdf-to-dfir interleaves the lanes), each
// lane's compute once its tiles have landed, and the stores on their
// shared engine, and reports the last store's landing. gelu_spyreop merges
// three of its four (lane, tensor) loads (466 -> 444 cycles); elementwise,
// whose store engine binds, merges none (its first store would issue
// later: 675 -> 723 with all four merged).
//
//===----------------------------------------------------------------------===//

#include "ktflow/Scheduler/MergedLoads.h"

#include "llvm/ADT/bit.h"

#include <algorithm>
#include <cmath>

using namespace ktflow::sched;

double ktflow::sched::estimateMergedLoadCycles(const MergedLoadQuery &query,
                                               llvm::ArrayRef<bool> merged) {
  size_t tensors = query.loadBytes.size();
  int64_t lanes = query.lanes, executions = query.executions,
          merge = query.merge;
  if (lanes < 1 || executions < 1 || merge < 1 || executions % merge != 0 ||
      query.copies % merge != 0 || merged.size() != lanes * tensors)
    return INFINITY;
  EngineWalk loads{query.load}, stores{query.store};
  // Per lane: when its compute ends (its latest execution), when each
  // execution was fed (its buffers' copies free again), and per tensor
  // when the latest merged transfer lands.
  llvm::SmallVector<double> computeEnd(lanes, 0);
  llvm::SmallVector<llvm::SmallVector<double>> fed(
      lanes, llvm::SmallVector<double>(executions, 0));
  llvm::SmallVector<double> groupLanding(lanes * tensors, 0);
  double end = 0;
  for (int64_t e = 0; e < executions; ++e)
    for (int64_t lane = 0; lane < lanes; ++lane) {
      double landed = 0;
      for (size_t t = 0; t < tensors; ++t) {
        size_t pair = lane * tensors + t;
        int64_t carried = merged[pair] ? merge : 1;
        if (e % carried == 0) {
          // The copies the transfer fills are free once executions
          // `copies` earlier have been fed (earlier than e: merge <= copies).
          double after = 0;
          for (int64_t i = 0; i < carried; ++i)
            if (e + i >= query.copies)
              after = std::max(after, fed[lane][e + i - query.copies]);
          groupLanding[pair] =
              loads.transfer(carried * query.loadBytes[t], after);
        }
        landed = std::max(landed, groupLanding[pair]);
      }
      double start = std::max(computeEnd[lane], landed + query.firstRow);
      computeEnd[lane] = start + query.compute;
      fed[lane][e] = computeEnd[lane];
      double ready = computeEnd[lane] + query.drain;
      end = std::max(end, ready);
      for (int64_t bytes : query.storeBytes)
        end = std::max(end, stores.transfer(bytes, ready));
    }
  return end;
}

llvm::SmallVector<bool>
ktflow::sched::chooseMergedLoads(const MergedLoadQuery &query) {
  size_t pairs = query.lanes * query.loadBytes.size();
  llvm::SmallVector<bool> none(pairs, false), best = none;
  double bestCycles = estimateMergedLoadCycles(query, none);
  auto consider = [&](llvm::ArrayRef<bool> merged) {
    double cycles = estimateMergedLoadCycles(query, merged);
    if (cycles < bestCycles) {
      bestCycles = cycles;
      best.assign(merged.begin(), merged.end());
    }
  };
  if (pairs > 12) {
    consider(llvm::SmallVector<bool>(pairs, true));
    return best;
  }
  // By the number merged, so that ties keep the fewest.
  for (size_t count = 1; count <= pairs; ++count)
    for (uint64_t mask = 0; mask < (uint64_t(1) << pairs); ++mask) {
      if (static_cast<size_t>(llvm::popcount(mask)) != count)
        continue;
      llvm::SmallVector<bool> merged(pairs);
      for (size_t k = 0; k < pairs; ++k)
        merged[k] = (mask >> k) & 1;
      consider(merged);
    }
  return best;
}

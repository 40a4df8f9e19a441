//===- MergedLoads.h - One transfer for a lane's executions -----*- C++ -*-===//
//
// This file declares the cost model's walk of a load engine that several
// lanes share, where each (lane, tensor) may load the tiles of K
// consecutive executions as one transfer into K consecutive copies of its
// buffer (ktdf-row-blocks decides, ktdf-to-dfir lowers).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_SCHEDULER_MERGEDLOADS_H
#define KTFLOW_SCHEDULER_MERGEDLOADS_H

#include "ktflow/Scheduler/CostModel.h"

#include "llvm/ADT/ArrayRef.h"

namespace ktflow::sched {

/// A pipeline whose load stages run on one engine that `lanes` lanes of a
/// core share, served execution by execution, lane after lane (the
/// lowering's interleaving), each lane's compute on its own unit.
struct MergedLoadQuery {
  int64_t lanes = 1;
  /// Executions per lane, and how many consecutive ones a merged transfer
  /// carries (a divisor of `executions` and of the buffers' copies).
  int64_t executions = 1;
  int64_t merge = 1;
  /// Copies of each buffer: the load of execution e waits until execution
  /// e - copies has been fed.
  int64_t copies = 1;
  /// Bytes of one execution's tile per load stage, in the engine's order.
  llvm::SmallVector<int64_t> loadBytes;
  /// Bytes of one execution's stores, on a store engine the lanes share.
  llvm::SmallVector<int64_t> storeBytes;
  EngineRoute load, store;
  /// Cycles from an execution's tiles landed to its compute's start (the
  /// feed's first row), of its compute, and from its end to its stores.
  double firstRow = 0, compute = 0, drain = 0;
};

/// Cycles from the first load to the last store landing when the (lane,
/// tensor) pairs set in `merged` (lane-major: lane * loadBytes.size() +
/// tensor) load `merge` executions per transfer.
double estimateMergedLoadCycles(const MergedLoadQuery &query,
                                llvm::ArrayRef<bool> merged);

/// The (lane, tensor) pairs to merge: the set with the least estimate
/// (ties to fewer merges, so none unless merging pays); all pairs are
/// weighed together up to 12 of them, else all or none.
llvm::SmallVector<bool> chooseMergedLoads(const MergedLoadQuery &query);

} // namespace ktflow::sched

#endif // KTFLOW_SCHEDULER_MERGEDLOADS_H

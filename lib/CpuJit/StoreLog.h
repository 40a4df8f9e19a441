//===- StoreLog.h - Which elements concurrent tiles stored ------*- C++ -*-===//
//
// Tiles that run concurrently log, per task (a chunk of consecutive tiles),
// the ranges of elements their stores wrote (`ktflow_jit_stored`,
// TileFunction.h). Where ranges of two tasks intersect, which store landed
// last depended on the threads, and Run.cpp reruns every tile in the
// interpreter's order.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_CPUJIT_STORELOG_H
#define KTFLOW_LIB_CPUJIT_STORELOG_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace ktflow::jit {

/// Elements [lo, hi] of buffer `buffer` written by tiles of task `task`.
struct StoredRange {
  int64_t lo, hi;
  int64_t task;
  unsigned buffer;
};

/// Rows `lo + k * step` .. `hi + k * step` (k < rows, step > 0) of buffer
/// `buffer`, as a dense tile's store reports them.
struct StoredRows {
  int64_t lo, hi, rows, step;
  unsigned buffer;
};

/// What one task's stores wrote, ranges that touch merged.
struct StoreLog {
  int64_t task = 0;
  std::vector<StoredRange> ranges;
  /// Rows that do not touch each other, held back in case the next store's
  /// rows continue them (RoPE stores each row's two halves as two tiles).
  std::optional<StoredRows> pending;
  /// Too many ranges to keep: assume they overlap another task's.
  bool overflowed = false;
  /// The log is compacted when it reaches this many ranges.
  size_t compactAt = kFirstCompaction;
  static constexpr size_t kFirstCompaction = 4096;

  /// Sorts the ranges and merges those that touch. A task's rows of one
  /// tile, stored one range per row, become one range per block of rows.
  /// The ranges are a sorted prefix (the last compaction's) followed by
  /// the rows of the tiles run since, a few ascending runs (one per stored
  /// tile: RoPE's two half-row tiles interleave): merged run by run,
  /// linear in the ranges, where sorting them was 9 % of RoPE's process.
  void compact();
  /// Logs the rows (in any order of stores).
  void add(StoredRows rows);
  /// Logs elements [lo, hi] of `buffer`.
  void add(unsigned buffer, int64_t lo, int64_t hi);
  /// Logs the pending rows as ranges.
  void flushPending();
};

/// Makes `log` (or none) the log of the stores the calling thread's
/// compiled code reports (recordStoredRows, CompiledKernel.h).
void setCurrentStoreLog(StoreLog *log);

/// The first buffer in which ranges stored by two different tasks
/// intersect (any buffer if a log overflowed).
std::optional<unsigned> findOverlappingStores(llvm::ArrayRef<StoreLog> logs);

} // namespace ktflow::jit

#endif // KTFLOW_LIB_CPUJIT_STORELOG_H

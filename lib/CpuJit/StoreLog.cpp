//===- StoreLog.cpp - Which elements concurrent tiles stored --------------===//
//
// This file logs the ranges of elements the stores of concurrent tasks
// wrote and finds where two tasks' ranges intersect (StoreLog.h).
//
//===----------------------------------------------------------------------===//

#include "StoreLog.h"
#include "CompiledKernel.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <tuple>

using namespace llvm;
using namespace ktflow::jit;

namespace {
/// More ascending runs than this are sorted instead.
constexpr size_t kMaxMergedRuns = 64;
/// Kept per task; more ranges than this are not worth sorting.
constexpr size_t kMaxStoredRanges = size_t(1) << 20;

thread_local StoreLog *currentStoreLog = nullptr;

bool lessByStart(const StoredRange &a, const StoredRange &b) {
  return std::tie(a.buffer, a.lo) < std::tie(b.buffer, b.lo);
}
} // namespace

void StoreLog::compact() {
  flushPending();
  std::vector<size_t> runStarts = {0};
  for (size_t i = 1; i < ranges.size(); ++i)
    if (lessByStart(ranges[i], ranges[i - 1]))
      runStarts.push_back(i);
  if (runStarts.size() > kMaxMergedRuns) {
    llvm::sort(ranges, lessByStart);
  } else {
    runStarts.push_back(ranges.size());
    std::vector<StoredRange> scratch(ranges.size());
    while (runStarts.size() > 2) {
      // Adjacent pairs of runs merged into `scratch`, then swapped back.
      std::vector<size_t> merged;
      size_t r = 0;
      for (; r + 2 < runStarts.size(); r += 2) {
        std::merge(ranges.begin() + runStarts[r],
                   ranges.begin() + runStarts[r + 1],
                   ranges.begin() + runStarts[r + 1],
                   ranges.begin() + runStarts[r + 2],
                   scratch.begin() + runStarts[r], lessByStart);
        merged.push_back(runStarts[r]);
      }
      if (r + 1 < runStarts.size()) {
        std::copy(ranges.begin() + runStarts[r], ranges.end(),
                  scratch.begin() + runStarts[r]);
        merged.push_back(runStarts[r]);
      }
      merged.push_back(ranges.size());
      ranges.swap(scratch);
      runStarts = std::move(merged);
    }
  }
  size_t kept = 0;
  for (const StoredRange &r : ranges) {
    if (kept && ranges[kept - 1].buffer == r.buffer &&
        r.lo <= ranges[kept - 1].hi + 1) {
      ranges[kept - 1].hi = std::max(ranges[kept - 1].hi, r.hi);
      continue;
    }
    ranges[kept++] = r;
  }
  ranges.resize(kept);
  compactAt = std::max(kFirstCompaction, 2 * kept);
}

void ktflow::jit::setCurrentStoreLog(StoreLog *log) { currentStoreLog = log; }

void StoreLog::add(unsigned buffer, int64_t lo, int64_t hi) {
  if (overflowed)
    return;
  if (!ranges.empty()) {
    StoredRange &last = ranges.back();
    if (last.buffer == buffer && lo <= last.hi + 1 && hi + 1 >= last.lo) {
      last.lo = std::min(last.lo, lo);
      last.hi = std::max(last.hi, hi);
      return;
    }
  }
  if (ranges.size() >= compactAt)
    compact();
  if (ranges.size() >= kMaxStoredRanges) {
    overflowed = true;
    return;
  }
  ranges.push_back({lo, hi, task, buffer});
}

/// Whether the rows touch each other: they then cover one range.
static bool isContiguous(const StoredRows &rows) {
  return rows.rows == 1 || rows.step <= rows.hi - rows.lo + 1;
}

void StoreLog::add(StoredRows rows) {
  if (isContiguous(rows)) {
    add(rows.buffer, rows.lo, rows.hi + (rows.rows - 1) * rows.step);
    return;
  }
  // Rows beside the pending ones (same rows, each continuing the row of
  // the other on the left or right) widen them.
  if (pending && pending->buffer == rows.buffer && pending->rows == rows.rows &&
      pending->step == rows.step &&
      (rows.lo == pending->hi + 1 || rows.hi + 1 == pending->lo)) {
    pending->lo = std::min(pending->lo, rows.lo);
    pending->hi = std::max(pending->hi, rows.hi);
    if (isContiguous(*pending)) {
      StoredRows block = *pending;
      pending.reset();
      add(block);
    }
    return;
  }
  flushPending();
  pending = rows;
}

void StoreLog::flushPending() {
  if (!pending)
    return;
  StoredRows rows = *pending;
  pending.reset();
  for (int64_t k = 0; k < rows.rows; ++k)
    add(rows.buffer, rows.lo + k * rows.step, rows.hi + k * rows.step);
}

void ktflow::jit::recordStoredRows(int64_t buffer, int64_t lo, int64_t hi,
                                   int64_t rows, int64_t step) {
  StoreLog *log = currentStoreLog;
  if (!log || log->overflowed)
    return;
  // Rows in descending addresses cover what the same rows in ascending
  // ones do; a step of 0 is one row.
  if (step < 0) {
    lo += (rows - 1) * step;
    hi += (rows - 1) * step;
    step = -step;
  }
  if (step == 0)
    rows = 1;
  log->add(StoredRows{lo, hi, rows, step, unsigned(buffer)});
}

std::optional<unsigned>
ktflow::jit::findOverlappingStores(ArrayRef<StoreLog> logs) {
  std::vector<StoredRange> all;
  for (const StoreLog &log : logs) {
    if (log.overflowed)
      return log.ranges.empty() ? 0 : log.ranges.front().buffer;
    all.insert(all.end(), log.ranges.begin(), log.ranges.end());
  }
  llvm::sort(all, lessByStart);
  // The two highest ends so far that belong to different tasks.
  struct End {
    int64_t hi;
    int64_t task;
  };
  std::optional<End> first, second;
  for (size_t i = 0; i < all.size(); ++i) {
    const StoredRange &r = all[i];
    if (i && all[i - 1].buffer != r.buffer)
      first = second = std::nullopt;
    std::optional<End> other = first && first->task == r.task ? second : first;
    if (other && other->hi >= r.lo)
      return r.buffer;
    End end{r.hi, r.task};
    if (!first || end.hi > first->hi) {
      if (first && first->task != r.task)
        second = first;
      first = end;
    } else if (end.task != first->task && (!second || end.hi > second->hi)) {
      second = end;
    }
  }
  return std::nullopt;
}

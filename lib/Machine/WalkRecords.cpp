//===- WalkRecords.cpp - The walks' records, their storage kept -----------===//
//
// This file implements ProgramWalker::Records::make (ProgramWalker.h): the
// records of a walk, once the estimate that made them is done with them,
// are cleared and kept for the thread's next walks, their vectors' storage
// with them, instead of being freed. The next estimate (another candidate
// of --tune, or the same kernel again) appends its events where the last
// one's were, into memory already mapped: freed, the large vectors went
// back to the system and each estimate faulted every page in again (a
// third of layernorm_1151x8192's estimate on sample_device, whose walks
// record 650,000 events). What is recorded, and so every estimate, is
// unchanged.
//
//===----------------------------------------------------------------------===//

#include "ProgramWalker.h"

#include "llvm/ADT/STLExtras.h"

using namespace ktflow::machine::detail;

/// Whether `x` is a whole multiple of 2^-16 from 0 to below 2^36: sums of
/// such values below 2^36 are exact (52 bits), whatever their order.
static bool exactCharge(double x) {
  // (The bounds first: below 2^52 once scaled, an integer converts back.)
  if (!(x >= 0 && x < 0x1p36))
    return false;
  double scaled = x * 65536;
  return scaled == static_cast<double>(static_cast<int64_t>(scaled));
}

void ProgramWalker::Records::sumCharges() {
  sums.clear();
  sumsExact = true;
  // (Mostly the memory charged last again.)
  size_t last = 0;
  for (const std::pair<uint32_t, double> &charge : memoryCharges) {
    // (Inexact, the sums are not read: chargeTo charges one by one.)
    if (!exactCharge(charge.second)) {
      sumsExact = false;
      break;
    }
    if (last < sums.size() && sums[last].first == charge.first) {
      sums[last].second += charge.second;
      continue;
    }
    auto *sum = llvm::find_if(
        sums, [&](const auto &s) { return s.first == charge.first; });
    last = sum - sums.begin();
    if (sum == sums.end())
      sums.push_back(charge);
    else
      sum->second += charge.second;
  }
  sumsExact = sumsExact && llvm::all_of(sums, [](const auto &s) {
                return exactCharge(s.second);
              });
  summedCharges = memoryCharges.size();
}

void ProgramWalker::Records::chargeTo(
    llvm::MutableArrayRef<double> busyOf,
    llvm::function_ref<uint32_t(uint32_t)> to) {
  if (summedCharges != memoryCharges.size())
    sumCharges();
  // Each memory charged, its sum added to what it holds: exact too (two
  // memories of the walk may be one of the copy's).
  llvm::SmallVector<std::pair<uint32_t, double>, 4> added;
  bool exact = sumsExact;
  for (auto [m, sum] : sums) {
    if (!exact)
      break;
    uint32_t into = to(m);
    auto *same =
        llvm::find_if(added, [&](const auto &a) { return a.first == into; });
    if (same == added.end())
      same = &added.emplace_back(into, busyOf[into]);
    exact = exactCharge(same->second);
    same->second += sum;
    exact = exact && exactCharge(same->second);
  }
  if (exact) {
    for (auto [into, busy] : added)
      busyOf[into] = busy;
    return;
  }
  for (auto [m, busy] : memoryCharges)
    busyOf[to(m)] += busy;
}

std::deque<std::unique_ptr<ProgramWalker::Records>> &
ProgramWalker::Records::kept() {
  // In the order they were put back: the walks of the next estimate take
  // them in the same order (walks are made and dropped in program order),
  // so that the walk that recorded most mostly takes the storage that
  // held most again.
  thread_local std::deque<std::unique_ptr<Records>> records;
  return records;
}

void ProgramWalker::Records::putBack(Records *records) {
  std::deque<std::unique_ptr<Records>> &free = kept();
  if (free.size() >= kKept) {
    delete records;
    return;
  }
  records->chainEvents.clear();
  records->receives.clear();
  records->fifosReceived.clear();
  records->waitLog.clear();
  records->loadsInto.clear();
  records->memoryCharges.clear();
  records->sums.clear();
  records->summedCharges = SIZE_MAX;
  free.emplace_back(records);
}

std::shared_ptr<ProgramWalker::Records> ProgramWalker::Records::make() {
  std::deque<std::unique_ptr<Records>> &free = kept();
  if (free.empty())
    return std::shared_ptr<Records>(new Records, putBack);
  Records *records = free.front().release();
  free.pop_front();
  return std::shared_ptr<Records>(records, putBack);
}

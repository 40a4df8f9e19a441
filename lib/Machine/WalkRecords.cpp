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

using namespace ktflow::machine::detail;

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

//===- PagedMemory.cpp - Lazily backed memory of the interpreter ----------===//
//
// This file implements the page store and the memory ceiling of a run
// (see PagedMemory.h).
//
//===----------------------------------------------------------------------===//

#include "PagedMemory.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstring>
#include <unistd.h>

using namespace ktflow::interp;

bool MemoryBudget::reserve(int64_t bytes) {
  if (used + bytes > limit) {
    if (!failedBytes)
      failedBytes = used + bytes;
    return false;
  }
  used += bytes;
  peak = std::max(peak, used);
  return true;
}

std::string MemoryBudget::takeFailure() {
  std::string message = llvm::formatv(
      "out of memory: the run needs more than {0} bytes of memory for the "
      "tensors it touches, its ceiling (default half the machine's memory; "
      "raise it with --max-memory-bytes)",
      limit);
  failedBytes = 0;
  return message;
}

int64_t MemoryBudget::defaultLimit() {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || pageSize <= 0)
    return int64_t(8) << 30;
  return static_cast<int64_t>(pages) * pageSize / 2;
}

PagedBytes::~PagedBytes() { budget.release(numPages() * kPageBytes); }

void PagedBytes::touch(int64_t page) {
  auto it = pages.find(page);
  if (it != pages.end()) {
    lastPage = page;
    lastData = it->second.get();
    return;
  }
  if (!budget.reserve(kPageBytes)) {
    // Not cached in lastPage: every later access retries and fails again.
    if (!overflowPage)
      overflowPage = std::make_unique<uint8_t[]>(kPageBytes);
    lastPage = -1;
    lastData = overflowPage.get();
    return;
  }
  auto data = std::make_unique<uint8_t[]>(kPageBytes);
  if (filler)
    filler(page << kPageBits, data.get());
  else
    std::memset(data.get(), 0, kPageBytes);
  lastPage = page;
  lastData = data.get();
  pages[page] = std::move(data);
}

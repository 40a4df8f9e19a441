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
#include <vector>

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

namespace {
/// The most pages a thread's pool keeps (64 MiB).
constexpr size_t kMaxPooledPages = 1024;

/// Set when this thread's pool is destroyed (it is exiting): later pages
/// are freed. Trivially destructible, so valid until then.
thread_local bool pagePoolGone = false;

/// Pages the thread's runs gave back. Each of --check's interpreter runs
/// touches the same pages: the next run's are already faulted in, not
/// fresh memory the kernel zeroes first.
struct PagePool {
  std::vector<std::unique_ptr<uint8_t[]>> pages;
  ~PagePool() { pagePoolGone = true; }
};
thread_local PagePool pagePool;
} // namespace

/// A page whose bytes are not initialised: the caller writes every one.
static std::unique_ptr<uint8_t[]> takePage() {
  if (!pagePoolGone && !pagePool.pages.empty()) {
    std::unique_ptr<uint8_t[]> page = std::move(pagePool.pages.back());
    pagePool.pages.pop_back();
    return page;
  }
  return std::unique_ptr<uint8_t[]>(new uint8_t[PagedBytes::kPageBytes]);
}

PagedBytes::~PagedBytes() {
  budget.release(numPages() * kPageBytes);
  if (pagePoolGone)
    return;
  for (auto &entry : pages)
    if (pagePool.pages.size() < kMaxPooledPages)
      pagePool.pages.push_back(std::move(entry.second));
}

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
  std::unique_ptr<uint8_t[]> data = takePage();
  // A filler writes the whole page.
  if (filler)
    filler(page << kPageBits, data.get());
  else
    std::memset(data.get(), 0, kPageBytes);
  lastPage = page;
  lastData = data.get();
  pages[page] = std::move(data);
}

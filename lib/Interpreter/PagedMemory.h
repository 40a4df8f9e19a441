//===- PagedMemory.h - Lazily backed memory of the interpreter --*- C++ -*-===//
//
// This file declares the byte store behind the interpreter's memory regions.
// A region may declare far more memory than a kernel touches (a paged KV
// pool of 655 M elements of which one gather reads 8 M), so storage is
// allocated a page at a time, when an element of the page is first read or
// written, and every page counts against one ceiling per run
// (`--max-memory-bytes`). Reaching the ceiling is reported after the op
// that reached it, as a located error; until then the op writes into a
// scratch page, so it never allocates past the ceiling.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_INTERPRETER_PAGEDMEMORY_H
#define KTFLOW_LIB_INTERPRETER_PAGEDMEMORY_H

#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace ktflow::interp {

/// The bytes the memories of one run may hold, and how many they do.
class MemoryBudget {
public:
  explicit MemoryBudget(int64_t limitBytes) : limit(limitBytes) {}

  /// Takes `bytes` from the budget; false (and remembers it) when they do
  /// not fit.
  bool reserve(int64_t bytes);
  void release(int64_t bytes) { used -= bytes; }

  /// Whether a reservation failed since the last `takeFailure`.
  bool failed() const { return failedBytes != 0; }
  /// The error message of the failed reservation, and clears it.
  std::string takeFailure();

  int64_t getLimit() const { return limit; }
  int64_t getUsed() const { return used; }
  int64_t getPeak() const { return peak; }

  /// Half the machine's physical memory (the documented default ceiling).
  static int64_t defaultLimit();

private:
  int64_t limit;
  int64_t used = 0, peak = 0;
  int64_t failedBytes = 0;
};

/// Bytes at addresses [0, 2^62), backed by 64 KiB pages allocated on first
/// touch. A new page is filled by the filler (zeros without one).
class PagedBytes {
public:
  static constexpr unsigned kPageBits = 16;
  static constexpr int64_t kPageBytes = int64_t(1) << kPageBits;
  /// Fills the page that holds bytes [first, first + kPageBytes): every
  /// byte (a page may come from an earlier run, see PagedMemory.cpp).
  using Filler = std::function<void(int64_t first, uint8_t *page)>;

  explicit PagedBytes(MemoryBudget &budget, Filler filler = nullptr)
      : budget(budget), filler(std::move(filler)) {}
  ~PagedBytes();
  PagedBytes(const PagedBytes &) = delete;
  PagedBytes &operator=(const PagedBytes &) = delete;

  /// The byte at `address` (elements are naturally aligned, so an element
  /// never straddles two pages).
  uint8_t *at(int64_t address) {
    int64_t page = address >> kPageBits;
    if (page != lastPage)
      touch(page);
    return lastData + (address & (kPageBytes - 1));
  }

  /// Whether the page holding `address` has been allocated.
  bool isBacked(int64_t address) const {
    return pages.count(address >> kPageBits) != 0;
  }
  int64_t numPages() const { return static_cast<int64_t>(pages.size()); }

private:
  void touch(int64_t page);

  MemoryBudget &budget;
  Filler filler;
  llvm::DenseMap<int64_t, std::unique_ptr<uint8_t[]>> pages;
  /// Where accesses go once the budget is exhausted.
  std::unique_ptr<uint8_t[]> overflowPage;
  int64_t lastPage = -1;
  uint8_t *lastData = nullptr;
};

} // namespace ktflow::interp

#endif // KTFLOW_LIB_INTERPRETER_PAGEDMEMORY_H

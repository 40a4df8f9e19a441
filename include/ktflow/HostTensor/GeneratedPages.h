//===- GeneratedPages.h - Native tensors generated page by page -*- C++ -*-===//
//
// This file declares native tensors whose elements are generated the first
// time a page of them is touched, as the interpreter backs its memory: a
// view may declare gigabytes of generated values of which a kernel reads a
// few tiles. The tensor's address range is reserved without memory; the
// first access to one of its 64 KiB pages, from any thread (compiled code
// included), faults, and a SIGSEGV handler generates the page's elements
// and maps them before the access resumes.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_HOSTTENSOR_GENERATEDPAGES_H
#define KTFLOW_HOSTTENSOR_GENERATEDPAGES_H

#include "ktflow/HostTensor/NativeTensor.h"

#include <atomic>
#include <functional>

namespace ktflow::host {

/// The pages generated at once: the interpreter's page size.
constexpr int64_t kGeneratedPageBytes = int64_t(1) << 16;

/// The bytes of memory a run's tensors may take, shared by them: the
/// interpreter's memory ceiling, charged a page at a time as pages of
/// generated values are touched (and by the caller for other memory).
class PageBudget {
public:
  explicit PageBudget(int64_t ceiling) : ceiling(ceiling) {}

  int64_t getCeiling() const { return ceiling; }
  /// Whether a page was touched past the ceiling. Its accesses then went to
  /// a scratch page instead (the run's values are wrong, and it must fail).
  bool isExceeded() const { return exceeded.load(); }
  /// Pages touched from now on are backed past the ceiling: reading the
  /// outputs back after a run is not limited, as in the interpreter.
  void lift() { lifted.store(true); }

  /// Charges `bytes`; false when they do not fit (and remembers it).
  bool charge(int64_t bytes);
  void release(int64_t bytes) { used.fetch_sub(bytes); }

private:
  int64_t ceiling;
  std::atomic<int64_t> used{0};
  std::atomic<bool> exceeded{false}, lifted{false};
};

/// Writes elements [first, first + count) to `out`, in native bits. It
/// runs in a signal handler, on whichever thread touched the page: it must
/// be pure arithmetic on its captures (no allocation, lock or I/O), as the
/// interpreter's generators of initial values are.
using PageGenerator =
    std::function<void(int64_t first, int64_t count, uint8_t *out)>;

/// A tensor whose elements `generate` gives, each 64 KiB page generated the
/// first time it is touched and charged to `budget` (if any). Fails when the
/// address range cannot be reserved.
llvm::Expected<NativeTensor>
makeGeneratedTensor(DType dtype, llvm::ArrayRef<int64_t> shape,
                    PageGenerator generate, std::shared_ptr<PageBudget> budget);

/// Whether `tensor` was made by makeGeneratedTensor (and is not empty).
bool isGeneratedPageByPage(const NativeTensor &tensor);

/// Generates every page of `tensor` not touched yet (nothing for other
/// tensors): a system call that reads the tensor (write(2) of a .npy
/// file) fails with EFAULT on an untouched page instead of faulting.
void generateUntouchedPages(const NativeTensor &tensor);

} // namespace ktflow::host

#endif // KTFLOW_HOSTTENSOR_GENERATEDPAGES_H

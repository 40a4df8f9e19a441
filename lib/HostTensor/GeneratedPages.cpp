//===- GeneratedPages.cpp - Native tensors generated page by page ---------===//
//
// A generated tensor is a memfd mapped twice: the tensor's own view,
// PROT_NONE until a page is generated, and a writable alias the generator
// fills. The first access to a page of the view faults; the SIGSEGV handler
// claims the page (one state byte per page, so that of several threads
// faulting on it one generates it and the others wait), fills it through the
// alias and only then makes it readable and writable in the view, so no
// thread ever sees a page half generated. Pages made accessible next to each
// other are one mapping of the file again (the kernel merges them), so the
// number of mappings grows with the separate runs of touched pages, not
// with the pages. A page past the budget maps a scratch page of the file
// instead, which every such page shares: the run goes on without more
// memory, and fails after it (PageBudget::isExceeded).
//
// The handler passes every fault outside generated tensors to the handler it
// replaced (the crash reporter's, the sanitizers', or the default action).
//
//===----------------------------------------------------------------------===//

#include "ktflow/HostTensor/GeneratedPages.h"

#include "llvm/Support/Errno.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <mutex>

#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

using namespace ktflow::host;

namespace {

constexpr int64_t kPageBytes = kGeneratedPageBytes;

/// The most generated tensors alive at once.
constexpr int kMaxRegions = 1024;

enum PageState : uint8_t { kUntouched = 0, kGenerating = 1, kMapped = 2 };

/// Ends the process from the signal handler, where nothing else can report.
[[noreturn]] void failInHandler(const char *what) {
  static const char prefix[] =
      "ktflow: error: cannot map a page of generated values: ";
  (void)!::write(2, prefix, sizeof(prefix) - 1);
  (void)!::write(2, what, std::strlen(what));
  (void)!::write(2, "\n", 1);
  ::_exit(1);
}

struct GeneratedRegion {
  uint8_t *view = nullptr;  ///< The tensor's elements.
  uint8_t *alias = nullptr; ///< The same file, writable, for generating.
  int64_t bytes = 0;        ///< The tensor's bytes.
  int64_t numPages = 0;     ///< Pages of the tensor; the scratch page follows.
  int64_t elementBytes = 1;
  int fd = -1;
  int slot = -1;
  std::atomic<uint8_t> *states = nullptr;
  std::atomic<int64_t> charged{0};
  PageGenerator generate;
  std::shared_ptr<PageBudget> budget;

  int64_t mappedBytes() const { return (numPages + 1) * kPageBytes; }
  int64_t statesBytes() const { return numPages; }

  /// Maps `page` with its values; on return every thread can access it.
  /// `unlimited`: past the budget too.
  void mapPage(int64_t page, bool unlimited) {
    std::atomic<uint8_t> &state = states[page];
    uint8_t expected = kUntouched;
    if (!state.compare_exchange_strong(expected, kGenerating)) {
      // Another thread generates it (or has): wait until it is mapped.
      while (state.load(std::memory_order_acquire) != kMapped)
        ::sched_yield();
      return;
    }
    uint8_t *at = view + page * kPageBytes;
    if (unlimited || budget->charge(kPageBytes)) {
      if (!unlimited)
        charged.fetch_add(kPageBytes);
      int64_t first = page * kPageBytes;
      int64_t end = std::min(bytes, first + kPageBytes);
      generate(first / elementBytes, (end - first) / elementBytes,
               alias + first);
      if (::mprotect(at, kPageBytes, PROT_READ | PROT_WRITE) != 0)
        failInHandler("mprotect failed (more memory mappings than "
                      "/proc/sys/vm/max_map_count allows?)");
    } else {
      // Not mmap(): sanitizers intercept it, and this may be a handler.
      long mapped =
          ::syscall(SYS_mmap, at, kPageBytes, PROT_READ | PROT_WRITE,
                    MAP_SHARED | MAP_FIXED, fd, numPages * kPageBytes);
      if (mapped == -1)
        failInHandler("mmap of the scratch page failed");
    }
    state.store(kMapped, std::memory_order_release);
  }
};

/// The address range of each live region, readable from the handler
/// without touching a region that may be freed meanwhile.
struct RegionSlot {
  std::atomic<uintptr_t> begin{0}, end{0};
  std::atomic<GeneratedRegion *> region{nullptr};
};
RegionSlot slots[kMaxRegions];
std::mutex slotsMutex;
struct sigaction replacedAction;

GeneratedRegion *findRegion(uintptr_t address) {
  for (RegionSlot &slot : slots) {
    uintptr_t begin = slot.begin.load(std::memory_order_acquire);
    if (begin && address >= begin &&
        address < slot.end.load(std::memory_order_acquire))
      return slot.region.load(std::memory_order_acquire);
  }
  return nullptr;
}

void onFault(int signal, siginfo_t *info, void *context) {
  int savedErrno = errno;
  auto address = reinterpret_cast<uintptr_t>(info->si_addr);
  if (GeneratedRegion *region = findRegion(address)) {
    region->mapPage((address - uintptr_t(region->view)) / kPageBytes,
                    /*unlimited=*/false);
    errno = savedErrno;
    return; // The access runs again, on the mapped page.
  }
  errno = savedErrno;
  if (replacedAction.sa_flags & SA_SIGINFO) {
    replacedAction.sa_sigaction(signal, info, context);
  } else if (replacedAction.sa_handler != SIG_DFL &&
             replacedAction.sa_handler != SIG_IGN) {
    replacedAction.sa_handler(signal);
  } else {
    // The access faults again, into the default action.
    ::signal(SIGSEGV, SIG_DFL);
  }
}

/// Installs onFault unless it is the handler already (something may have
/// replaced it since the last region).
void installHandler() {
  struct sigaction current = {};
  ::sigaction(SIGSEGV, nullptr, &current);
  if ((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == onFault)
    return;
  struct sigaction action = {};
  action.sa_sigaction = onFault;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGSEGV, &action, &replacedAction);
}

void destroyRegion(GeneratedRegion *region) {
  if (region->slot >= 0) {
    std::lock_guard<std::mutex> lock(slotsMutex);
    RegionSlot &slot = slots[region->slot];
    slot.begin.store(0);
    slot.end.store(0);
    slot.region.store(nullptr);
  }
  if (region->view)
    ::munmap(region->view, region->mappedBytes());
  if (region->alias)
    ::munmap(region->alias, region->mappedBytes());
  if (region->states)
    ::munmap(region->states, region->statesBytes());
  if (region->fd >= 0)
    ::close(region->fd);
  if (region->budget)
    region->budget->release(region->charged.load());
  delete region;
}

llvm::Error systemError(const char *what) {
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      std::string("cannot reserve the pages of generated values: ") + what +
          ": " + llvm::sys::StrError(errno));
}

} // namespace

bool PageBudget::charge(int64_t bytes) {
  if (used.fetch_add(bytes) + bytes <= ceiling || lifted.load())
    return true;
  used.fetch_sub(bytes);
  exceeded.store(true);
  return false;
}

llvm::Expected<NativeTensor>
ktflow::host::makeGeneratedTensor(DType dtype, llvm::ArrayRef<int64_t> shape,
                                  PageGenerator generate,
                                  std::shared_ptr<PageBudget> budget) {
  int64_t elementBytes = byteSize(dtype);
  int64_t n = productOf(shape);
  if (n == 0)
    return NativeTensor(dtype, shape, /*zeroed=*/true);
  // First use of any lazily initialised state of the generator (rounding
  // tables, lazily bound libm symbols) outside the signal handler.
  uint64_t first = 0;
  generate(0, 1, reinterpret_cast<uint8_t *>(&first));

  std::unique_ptr<GeneratedRegion, void (*)(GeneratedRegion *)> region(
      new GeneratedRegion, destroyRegion);
  region->bytes = n * elementBytes;
  region->numPages = (region->bytes + kPageBytes - 1) / kPageBytes;
  region->elementBytes = elementBytes;
  region->generate = std::move(generate);
  region->budget =
      budget ? std::move(budget) : std::make_shared<PageBudget>(INT64_MAX);
  region->fd = ::memfd_create("ktflow-generated", MFD_CLOEXEC);
  if (region->fd < 0)
    return systemError("memfd_create");
  if (::ftruncate(region->fd, region->mappedBytes()) != 0)
    return systemError("ftruncate");
  void *view = ::mmap(nullptr, region->mappedBytes(), PROT_NONE, MAP_SHARED,
                      region->fd, 0);
  if (view == MAP_FAILED)
    return systemError("mmap");
  region->view = static_cast<uint8_t *>(view);
  void *alias = ::mmap(nullptr, region->mappedBytes(), PROT_READ | PROT_WRITE,
                       MAP_SHARED, region->fd, 0);
  if (alias == MAP_FAILED)
    return systemError("mmap");
  region->alias = static_cast<uint8_t *>(alias);
  void *states = ::mmap(nullptr, region->statesBytes(), PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (states == MAP_FAILED)
    return systemError("mmap");
  region->states = static_cast<std::atomic<uint8_t> *>(states);

  {
    std::lock_guard<std::mutex> lock(slotsMutex);
    installHandler();
    for (int i = 0; i < kMaxRegions && region->slot < 0; ++i)
      if (!slots[i].region.load())
        region->slot = i;
    if (region->slot < 0)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "more than " + std::to_string(kMaxRegions) +
              " tensors of generated values at once");
    RegionSlot &slot = slots[region->slot];
    slot.region.store(region.get());
    slot.end.store(uintptr_t(region->view) + region->numPages * kPageBytes);
    slot.begin.store(uintptr_t(region->view));
  }
  uint8_t *elements = region->view;
  std::shared_ptr<void> storage(region.release(), [](void *p) {
    destroyRegion(static_cast<GeneratedRegion *>(p));
  });
  return NativeTensor(dtype, shape, elements, std::move(storage));
}

/// The region whose elements `tensor` holds, if any.
static GeneratedRegion *regionOf(const NativeTensor &tensor) {
  GeneratedRegion *region = findRegion(uintptr_t(tensor.data()));
  return region && region->view == tensor.data() ? region : nullptr;
}

bool ktflow::host::isGeneratedPageByPage(const NativeTensor &tensor) {
  return regionOf(tensor) != nullptr;
}

void ktflow::host::generateUntouchedPages(const NativeTensor &tensor) {
  GeneratedRegion *region = regionOf(tensor);
  if (!region)
    return;
  for (int64_t page = 0; page < region->numPages; ++page)
    if (region->states[page].load(std::memory_order_acquire) != kMapped)
      region->mapPage(page, /*unlimited=*/true);
}

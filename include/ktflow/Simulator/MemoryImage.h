//===- MemoryImage.h - The bytes of a simulated machine's memories -*- C++ -*-//
//
// This file declares the simulator's memory image: the contents of every
// memory instance of a machine. A device memory may be far larger than
// what a kernel touches (a paged KV pool of 655 M f16 elements, 1.3 GB, of
// which one gather reads 16 MB), so each memory is backed by 64 KiB pages,
// allocated when a byte of the page is first written, as the reference
// interpreter backs its memory; a page never written reads as zeros, what
// fresh memory holds in the interpreter. Every page counts against one
// ceiling per image (half the machine's physical memory by default).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_SIMULATOR_MEMORYIMAGE_H
#define KTFLOW_SIMULATOR_MEMORYIMAGE_H

#include "ktflow/Machine/Machine.h"

#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace ktflow::sim {

class MemoryImage {
public:
  static constexpr unsigned kPageBits = 16;
  static constexpr uint64_t kPageBytes = uint64_t(1) << kPageBits;

  /// The outcome of an access that could not be served.
  enum class Access {
    Ok,
    /// The range leaves the memory (or its addressable part).
    Outside,
    /// Backing the range would pass the ceiling of backed bytes.
    OutOfMemory,
  };

  explicit MemoryImage(const machine::Machine &machine,
                       uint64_t maxBackedBytes = defaultMaxBackedBytes());
  MemoryImage(const MemoryImage &) = delete;
  MemoryImage &operator=(const MemoryImage &) = delete;

  /// Half the machine's physical memory: the default ceiling.
  static uint64_t defaultMaxBackedBytes();

  /// Whether [addr, addr + size) lies in the addressable part of `mem`.
  bool contains(uint32_t mem, uint64_t addr, uint64_t size) const {
    return mem < memories.size() && addr <= memories[mem].limit &&
           size <= memories[mem].limit - addr;
  }

  /// The bytes [addr, addr + size) for reading, when they lie in one page:
  /// a pointer into the page, or into a page of zeros when it was never
  /// written and has no initial contents (nothing is allocated). Null when
  /// the range leaves the memory, straddles pages (read() copies those) or
  /// its initial contents would pass the ceiling.
  const uint8_t *readPointer(uint32_t mem, uint64_t addr, uint64_t size) {
    if (!contains(mem, addr, size) || !inOnePage(addr, size))
      return nullptr;
    Memory &m = memories[mem];
    uint64_t page = addr >> kPageBits;
    if (page != m.lastPage && !findPage(m, page)) {
      if (!hasInitialContents(m, page))
        return zeroPage.get() + (addr & (kPageBytes - 1));
      if (!allocatePage(m, page))
        return nullptr;
    }
    return m.lastData + (addr & (kPageBytes - 1));
  }

  /// The bytes [addr, addr + size) for writing, when they lie in one page,
  /// backing the page on first use. Null when the range leaves the memory,
  /// straddles pages (write() copies those) or would pass the ceiling.
  uint8_t *writePointer(uint32_t mem, uint64_t addr, uint64_t size) {
    if (!contains(mem, addr, size) || !inOnePage(addr, size))
      return nullptr;
    Memory &m = memories[mem];
    uint64_t page = addr >> kPageBits;
    if (page != m.lastPage && !findPage(m, page) && !allocatePage(m, page))
      return nullptr;
    return m.lastData + (addr & (kPageBytes - 1));
  }

  /// Copies [addr, addr + size) of `mem` to `out`, across pages.
  Access read(uint32_t mem, uint64_t addr, uint64_t size, uint8_t *out);
  /// Copies `data` (zeros when null) to [addr, addr + size) of `mem`,
  /// across pages; writes nothing unless every page it needs can be backed.
  Access write(uint32_t mem, uint64_t addr, uint64_t size, const uint8_t *data);
  /// What an access of [addr, addr + size) that readPointer/writePointer
  /// refused runs into: Outside, OutOfMemory, or Ok when it only straddles
  /// pages.
  Access diagnose(uint32_t mem, uint64_t addr, uint64_t size) const;

  /// Makes `count` bytes of a range's initial contents, from byte `offset`
  /// of the range on, into `out`.
  using Contents =
      std::function<void(uint64_t offset, uint64_t count, uint8_t *out)>;
  /// Gives [addr, addr + size) of `mem` the initial contents `contents`
  /// makes, page by page when a page is first read or written: an input
  /// tensor declared far larger than a kernel touches costs the pages it
  /// touches. Ranges may not overlap.
  void setInitialContents(uint32_t mem, uint64_t addr, uint64_t size,
                          Contents contents);

  /// Bounds the addresses of `mem` to [0, limit): the runtime sets a device
  /// memory's to the end of the last tensor placed in it, so that an access
  /// past every tensor is an error. By default a memory's size.
  void setAddressableLimit(uint32_t mem, uint64_t limit);
  uint64_t addressableLimit(uint32_t mem) const { return memories[mem].limit; }
  uint64_t getBackedBytes() const { return backedBytes; }
  uint64_t getMaxBackedBytes() const { return maxBackedBytes; }

private:
  struct Memory {
    uint64_t limit = 0;
    llvm::DenseMap<uint64_t, std::unique_ptr<uint8_t[]>> pages;
    /// The page the last access found: most accesses of a transfer fall in
    /// the page of the one before.
    uint64_t lastPage = ~uint64_t(0);
    uint8_t *lastData = nullptr;
    struct Initial {
      uint64_t lo, hi;
      Contents contents;
    };
    std::vector<Initial> initial;
  };

  static bool inOnePage(uint64_t addr, uint64_t size) {
    return (addr & (kPageBytes - 1)) + size <= kPageBytes;
  }
  /// Whether some initial contents of `m` overlap `page`.
  static bool hasInitialContents(const Memory &m, uint64_t page);
  /// Makes `page` the last page of `m` when it is backed.
  bool findPage(Memory &m, uint64_t page);
  /// Backs `page` with zeros and the initial contents that overlap it, and
  /// makes it the last page; false when it would pass the ceiling.
  bool allocatePage(Memory &m, uint64_t page);

  std::vector<Memory> memories;
  std::unique_ptr<uint8_t[]> zeroPage;
  uint64_t maxBackedBytes;
  uint64_t backedBytes = 0;
};

} // namespace ktflow::sim

#endif // KTFLOW_SIMULATOR_MEMORYIMAGE_H

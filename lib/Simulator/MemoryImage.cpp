//===- MemoryImage.cpp - The bytes of a simulated machine's memories ------===//
//
// This file implements the page-backed memory image (MemoryImage.h): page
// lookup, backing on first write, and copies across page boundaries.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Simulator/MemoryImage.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cstring>
#include <unistd.h>

using namespace ktflow::sim;

MemoryImage::MemoryImage(const machine::Machine &machine,
                         uint64_t maxBackedBytes)
    : memories(machine.memories.size()), zeroPage(new uint8_t[kPageBytes]()),
      maxBackedBytes(maxBackedBytes) {
  for (size_t i = 0; i < machine.memories.size(); ++i)
    memories[i].limit = machine.memories[i].size;
}

uint64_t MemoryImage::defaultMaxBackedBytes() {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || pageSize <= 0)
    return uint64_t(8) << 30;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize) / 2;
}

void MemoryImage::setAddressableLimit(uint32_t mem, uint64_t limit) {
  memories[mem].limit = limit;
}

void MemoryImage::setInitialContents(uint32_t mem, uint64_t addr, uint64_t size,
                                     Contents contents) {
  if (size)
    memories[mem].initial.push_back({addr, addr + size, std::move(contents)});
}

bool MemoryImage::hasInitialContents(const Memory &m, uint64_t page) {
  uint64_t lo = page << kPageBits, hi = lo + kPageBytes;
  return llvm::any_of(m.initial, [&](const Memory::Initial &r) {
    return r.lo < hi && lo < r.hi;
  });
}

bool MemoryImage::findPage(Memory &m, uint64_t page) {
  auto it = m.pages.find(page);
  if (it == m.pages.end())
    return false;
  m.lastPage = page;
  m.lastData = it->second.get();
  return true;
}

bool MemoryImage::allocatePage(Memory &m, uint64_t page) {
  if (backedBytes + kPageBytes > maxBackedBytes)
    return false;
  backedBytes += kPageBytes;
  std::unique_ptr<uint8_t[]> &data = m.pages[page];
  data.reset(new uint8_t[kPageBytes]());
  uint64_t lo = page << kPageBits, hi = lo + kPageBytes;
  for (const Memory::Initial &r : m.initial)
    if (r.lo < hi && lo < r.hi) {
      uint64_t from = std::max(lo, r.lo), to = std::min(hi, r.hi);
      r.contents(from - r.lo, to - from, data.get() + (from - lo));
    }
  m.lastPage = page;
  m.lastData = data.get();
  return true;
}

MemoryImage::Access MemoryImage::read(uint32_t mem, uint64_t addr,
                                      uint64_t size, uint8_t *out) {
  if (!contains(mem, addr, size))
    return Access::Outside;
  while (size) {
    uint64_t piece = std::min(size, kPageBytes - (addr & (kPageBytes - 1)));
    const uint8_t *from = readPointer(mem, addr, piece);
    if (!from)
      return Access::OutOfMemory;
    std::memcpy(out, from, piece);
    addr += piece;
    out += piece;
    size -= piece;
  }
  return Access::Ok;
}

MemoryImage::Access MemoryImage::write(uint32_t mem, uint64_t addr,
                                       uint64_t size, const uint8_t *data) {
  if (Access a = diagnose(mem, addr, size); a != Access::Ok)
    return a;
  while (size) {
    uint64_t piece = std::min(size, kPageBytes - (addr & (kPageBytes - 1)));
    uint8_t *to = writePointer(mem, addr, piece);
    if (data) {
      std::memmove(to, data, piece);
      data += piece;
    } else {
      std::memset(to, 0, piece);
    }
    addr += piece;
    size -= piece;
  }
  return Access::Ok;
}

MemoryImage::Access MemoryImage::diagnose(uint32_t mem, uint64_t addr,
                                          uint64_t size) const {
  if (!contains(mem, addr, size))
    return Access::Outside;
  if (size == 0)
    return Access::Ok;
  const Memory &m = memories[mem];
  uint64_t missing = 0;
  for (uint64_t page = addr >> kPageBits, last = (addr + size - 1) >> kPageBits;
       page <= last; ++page)
    missing += m.pages.count(page) ? 0 : kPageBytes;
  return backedBytes + missing > maxBackedBytes ? Access::OutOfMemory
                                                : Access::Ok;
}

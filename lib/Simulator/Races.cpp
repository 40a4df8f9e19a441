//===- Races.cpp - Accesses of different units not ordered by the program -===//
//
// This file implements the simulator's race detectors. Units run
// concurrently and nothing orders their accesses to a memory but the
// program's syncs and FIFOs, so when a unit writes bytes another unit reads
// or writes and the two are not ordered, what the memory holds (or what the
// reader sees) depends on timing: such a kernel would fail `--check` by
// chance, or pass by chance, silently; the detectors make it an error
// naming the bytes, both units and their instructions.
//
// Happens-before, with a vector clock per unit. A sync token and a FIFO
// entry carry their sender's clock and the receiver joins it, so an access
// happens before another when a chain of tokens and entries leads from the
// first unit (after the access) to the second (before it). A unit's epoch
// advances at its first access after a release in an earlier instruction:
// the chunks of one transfer share an epoch, which can miss a race on a
// later chunk but never reports a false one. A DMA's bytes are read and
// written at issue in the simulator and its signals wait for its landing,
// both after the access in program order, so program order is the
// ordering. A write that changes no byte is no access (a result every tile
// of an all-reduce stores).
//
// Always: the writes of device memory, whose races are stores of different
// grid points, or of loop iterations spread over cores, that overlap (the
// reference interpreter, which runs tiles in order, keeps the last one).
// The clocks and these few large writes cost a few percent. With
// `checkRaces`, every access of every memory (the scratchpads' many small
// accesses and the rows of strided DMAs cost 1.1-2.5x): also a DMA reading
// bytes another core's DMA writes (an exchange through memory, an in-place
// kernel) without a token between them.
//
//===----------------------------------------------------------------------===//

#include "Engine.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstring>

using namespace ktflow::sim;
using namespace ktflow::sim::detail;

/// The first byte of [from, hi) where the bytes about to be written (`data`
/// at `lo`, zeros when null) differ from those the memory holds (`old` at
/// `lo`), or `hi` when none does.
static uint64_t firstChange(const uint8_t *data, const uint8_t *old,
                            uint64_t lo, uint64_t from, uint64_t hi) {
  if (data &&
      std::memcmp(data + (from - lo), old + (from - lo), hi - from) == 0)
    return hi;
  for (uint64_t b = from; b < hi; ++b)
    if ((data ? data[b - lo] : 0) != old[b - lo])
      return b;
  return hi;
}

/// The first access of `ranges` that may overlap [lo, hi).
static AccessMap::iterator firstOverlap(AccessMap &ranges, uint64_t lo) {
  auto it = ranges.upper_bound(lo);
  if (it != ranges.begin() && std::prev(it)->second.hi > lo)
    --it;
  return it;
}

/// Makes `mine` the access of [lo, mine.hi) in `ranges`, keeping the parts of
/// earlier accesses it does not cover. The range just below grows instead
/// when the same instruction in the same epoch made it (the chunks of one
/// row), so that a transfer keeps about one range per row.
static void recordAccess(AccessMap &ranges, uint64_t lo, const Access &mine) {
  uint64_t hi = mine.hi;
  auto it = firstOverlap(ranges, lo);
  // A range from below keeps its part below (and above, when it covers
  // [lo, hi)); one starting inside that reaches past hi moves its start to
  // hi (the node kept: no allocation); those inside go.
  if (it != ranges.end() && it->first < lo) {
    Access &a = it->second;
    uint64_t end = a.hi;
    a.hi = lo;
    ++it;
    if (end > hi) {
      Access above = a;
      above.hi = end;
      it = ranges.emplace_hint(it, hi, above);
    }
  }
  while (it != ranges.end() && it->first < hi) {
    if (it->second.hi > hi) {
      auto node = ranges.extract(it++);
      node.key() = hi;
      it = ranges.insert(it, std::move(node));
      break;
    }
    it = ranges.erase(it);
  }
  if (it != ranges.begin()) {
    Access &prev = std::prev(it)->second;
    if (prev.hi == lo && prev.program == mine.program && prev.pc == mine.pc &&
        prev.epoch == mine.epoch) {
      prev.hi = hi;
      return;
    }
  }
  ranges.emplace_hint(it, lo, mine);
}

ClockRef Engine::releaseClock(UnitState &u) {
  if (!u.released) {
    auto copy = llvm::makeIntrusiveRefCnt<SparseClock>();
    copy->components.reserve(u.heardFrom.size());
    for (uint32_t unit : u.heardFrom)
      copy->components.emplace_back(unit, u.clock[unit]);
    u.released = std::move(copy);
  }
  u.releasedEpoch = true;
  u.releasedInst = u.instructions;
  return {u.released, u.index, u.clock[u.index]};
}

/// Raises `u`'s component of `unit` to `epochs`; whether it grew.
static bool raise(UnitState &u, uint32_t unit, uint32_t epochs) {
  uint32_t &mine = u.clock[unit];
  if (epochs <= mine)
    return false;
  if (mine == 0)
    u.heardFrom.push_back(unit);
  mine = epochs;
  return true;
}

void Engine::acquireClock(UnitState &u, const ClockRef &clock) {
  if (!clock)
    return;
  bool grew = false;
  if (clock.base != u.released && !llvm::is_contained(u.joined, clock.base)) {
    for (auto [unit, epochs] : clock.base->components)
      grew |= raise(u, unit, epochs);
    u.joined[u.nextJoined++ % u.joined.size()] = clock.base;
  }
  grew |= raise(u, clock.owner, clock.own);
  if (grew)
    u.released.reset();
}

ClockRef Engine::pushClock(UnitState &u, FifoState &f) {
  if (f.pushes >= f.desc->depth) {
    uint64_t freedBy = f.pushes - f.desc->depth;
    while (f.pops - f.popClocks.size() < freedBy)
      f.popClocks.pop_front();
    acquireClock(u, f.popClocks.front());
  }
  ++f.pushes;
  return releaseClock(u);
}

void Engine::popClock(UnitState &u, FifoState &f, const FifoEntry &entry) {
  acquireClock(u, entry.clock);
  f.popClocks.push_back(releaseClock(u));
  ++f.pops;
}

uint32_t Engine::accessEpoch(UnitState &u) {
  if (u.releasedEpoch && u.instructions != u.releasedInst) {
    ++u.clock[u.index];
    u.releasedEpoch = false;
  }
  return u.clock[u.index];
}

/// The reads `u` made of the memory `shadow` tracks, created on first use.
static UnitReads &readsOf(Shadow &shadow, uint32_t unit) {
  for (UnitReads &reads : shadow.reads)
    if (reads.unit == unit)
      return reads;
  UnitReads &reads = shadow.reads.emplace_back();
  reads.unit = unit;
  return reads;
}

/// The shadow of memory `mem`, created on first use.
static Shadow &shadowOf(std::vector<Shadow> &shadows, uint32_t mem,
                        size_t memories) {
  if (shadows.size() <= mem)
    shadows.resize(memories);
  return shadows[mem];
}

bool Engine::noteRead(UnitState &u, uint32_t mem, uint64_t lo, uint64_t size) {
  if (!options.checkRaces || size == 0)
    return true;
  Shadow &shadow = shadowOf(shadows, mem, machine.memories.size());
  uint64_t hi = lo + size;
  for (auto it = firstOverlap(shadow.writes, lo);
       it != shadow.writes.end() && it->first < hi; ++it) {
    const Access &w = it->second;
    if (ordered(u, w))
      continue;
    fail(u,
         llvm::formatv("read-write race: reads bytes [{0}, {1}) of {2} "
                       "that {3} (instruction {4}{5}) wrote at cycle {6}; "
                       "no sync token or FIFO entry orders the write before "
                       "the read, so what is read depends on timing",
                       std::max(lo, it->first), std::min(hi, w.hi),
                       machine.memories[mem].name, unitName(units[w.program]),
                       w.pc, sourceOf(w.program, w.pc), w.at / kTicksPerCycle)
             .str());
    return false;
  }
  UnitReads &reads = readsOf(shadow, u.index);
  reads.lo = std::min(reads.lo, lo);
  reads.hi = std::max(reads.hi, hi);
  recordAccess(reads.ranges, lo,
               Access{hi, u.index, u.pc, accessEpoch(u), u.now});
  return true;
}

bool Engine::noteWrite(UnitState &u, uint32_t mem, uint64_t lo, uint64_t size,
                       const uint8_t *data, const uint8_t *old) {
  if (size == 0 || (!options.checkRaces && machine.memories[mem].core >= 0))
    return true;
  uint64_t hi = lo + size;
  if (firstChange(data, old, lo, lo, hi) == hi)
    return true;
  Shadow &shadow = shadowOf(shadows, mem, machine.memories.size());
  // The first earlier access of another unit, not ordered before this
  // write, to a byte the write changes.
  auto conflict =
      [&](AccessMap &ranges) -> std::optional<std::pair<uint64_t, Access>> {
    for (auto it = firstOverlap(ranges, lo);
         it != ranges.end() && it->first < hi; ++it) {
      const Access &a = it->second;
      uint64_t from = std::max(lo, it->first), to = std::min(hi, a.hi);
      if (!ordered(u, a) && firstChange(data, old, lo, from, to) < to)
        return std::make_pair(from, a);
    }
    return std::nullopt;
  };
  auto found = conflict(shadow.writes);
  bool overRead = false;
  for (UnitReads &reads : shadow.reads) {
    if (found)
      break;
    if (reads.unit != u.index && reads.lo < hi && lo < reads.hi &&
        (found = conflict(reads.ranges)))
      overRead = true;
  }
  if (found) {
    const Access &a = found->second;
    fail(u, llvm::formatv("{0} race: writes bytes [{1}, {2}) of {3} that {4} "
                          "(instruction {5}{6}) {7} at cycle {8}; no sync "
                          "token or FIFO entry orders the two, so what {9} "
                          "depends on timing",
                          overRead ? "write-read" : "write-write", found->first,
                          std::min(hi, a.hi), machine.memories[mem].name,
                          unitName(units[a.program]), a.pc,
                          sourceOf(a.program, a.pc),
                          overRead ? "read" : "wrote", a.at / kTicksPerCycle,
                          overRead ? "the reader sees" : "the memory keeps")
                .str());
    return false;
  }
  recordAccess(shadow.writes, lo,
               Access{hi, u.index, u.pc, accessEpoch(u), u.now});
  return true;
}

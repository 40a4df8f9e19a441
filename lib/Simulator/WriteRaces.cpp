//===- WriteRaces.cpp - Stores of different units to the same bytes -------===//
//
// This file implements the simulator's write-write race detector. Units run
// concurrently and nothing orders their writes to device memory but the
// program's syncs and FIFOs, so when two units write the same bytes of a
// device memory with different values, what the memory holds at the end
// depends on timing: the stores of different grid points (or of loop
// iterations spread over cores) overlap, and the reference interpreter,
// which runs tiles in order, keeps the last one. Such a kernel would fail
// `--check` by chance, or pass by chance, silently; the detector makes it
// an error naming the bytes and both writers. Writes of the same values (a
// result every tile of an all-reduce stores) are not races, and neither are
// the writes of one unit, which its program orders.
//
//===----------------------------------------------------------------------===//

#include "Engine.h"

#include "llvm/Support/FormatVariadic.h"

using namespace ktflow::sim;
using namespace ktflow::sim::detail;

/// The first byte of [lo, hi) where the bytes about to be written (`data`
/// at `lo`, zeros when null) differ from those the memory holds (`old` at
/// `lo`), or `hi` when none does.
static uint64_t firstChange(const uint8_t *data, const uint8_t *old,
                            uint64_t lo, uint64_t from, uint64_t hi) {
  for (uint64_t b = from; b < hi; ++b)
    if ((data ? data[b - lo] : 0) != old[b - lo])
      return b;
  return hi;
}

bool Engine::noteWrite(UnitState &u, uint32_t mem, uint64_t lo, uint64_t size,
                       const uint8_t *data, const uint8_t *old) {
  if (machine.memories[mem].core >= 0 || size == 0)
    return true;
  if (written.size() <= mem)
    written.resize(machine.memories.size());
  std::map<uint64_t, Writer> &ranges = written[mem];
  uint64_t hi = lo + size;
  auto it = ranges.upper_bound(lo);
  if (it != ranges.begin() && std::prev(it)->second.hi > lo)
    --it;
  Writer mine{hi, u.index, u.pc, u.now};
  std::vector<std::pair<uint64_t, Writer>> kept;
  while (it != ranges.end() && it->first < hi) {
    const Writer &w = it->second;
    uint64_t from = std::max(lo, it->first), to = std::min(hi, w.hi);
    uint64_t changed =
        w.program == u.index ? to : firstChange(data, old, lo, from, to);
    if (changed < to) {
      const UnitState &other = units[w.program];
      fail(u, llvm::formatv(
                  "write-write race: writes bytes [{0}, {1}) of {2} that {3} "
                  "(instruction {4}) wrote at cycle {5}, with other values "
                  "(byte {6}: {7} then {8}); the two units are not ordered, so "
                  "what the memory keeps depends on timing (stores of "
                  "different grid points or loop iterations overlap)",
                  from, to, machine.memories[mem].name, unitName(other), w.pc,
                  w.at / kTicksPerCycle, changed, unsigned(old[changed - lo]),
                  unsigned(data ? data[changed - lo] : 0))
                  .str());
      return false;
    }
    // Keep the parts of the earlier write this one does not cover.
    if (it->first < lo)
      kept.push_back({it->first, Writer{lo, w.program, w.pc, w.at}});
    if (w.hi > hi)
      kept.push_back({hi, w});
    it = ranges.erase(it);
  }
  for (auto &[start, w] : kept)
    ranges.emplace(start, w);
  // Extend the range just below when the same instruction wrote it (the
  // chunks of one row), so that a launch keeps about one range per row.
  auto below = ranges.lower_bound(lo);
  if (below != ranges.begin()) {
    auto prev = std::prev(below);
    if (prev->second.hi == lo && prev->second.program == u.index &&
        prev->second.pc == u.pc) {
      prev->second.hi = hi;
      return true;
    }
  }
  ranges.emplace(lo, mine);
  return true;
}

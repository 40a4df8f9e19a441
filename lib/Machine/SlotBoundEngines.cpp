//===- SlotBoundEngines.cpp - Engines bound by their transfer slots -------===//
//
// This file implements slotBoundEngines (SlotBoundEngines.h). The walk of
// an engine takes its transfers in flight to land while it waits for a
// token, which holds where the token comes later than they land; where
// the compute sends its rows faster (row_stats on sample_device: each of
// a core's 32 one-element stores holds one of the MNISU's four slots for
// a 100-cycle route, 864 cycles for 96 of compute), the engine runs at
// the rate its slots free and the kernel ends with it.
//
//===----------------------------------------------------------------------===//

#include "SlotBoundEngines.h"

#include <algorithm>

using namespace ktflow::machine;
using ktflow::machine::detail::ProgramWalker;

/// When the first token an engine of `core` waits for comes at the
/// earliest (slotBoundEngines).
static double firstToken(const Machine &machine,
                         llvm::ArrayRef<ProgramWalker> walkers,
                         double firstLanding,
                         llvm::function_ref<double(uint32_t)> landed,
                         int32_t core) {
  double at = firstLanding;
  for (const ProgramWalker &feed : walkers)
    if (feed.fed() && machine.units[feed.unitIndex()].core == core)
      for (uint32_t sync : feed.waitedBeforeFirstLoad)
        at = std::max(at, landed(sync) + feed.entriesLatency() +
                              machine.syncLatency);
  return at;
}

void ktflow::machine::detail::slotBoundEngines(
    const Machine &machine, llvm::ArrayRef<ProgramWalker> walkers,
    double firstLanding, llvm::function_ref<double(uint32_t sync)> landed,
    KernelEstimate &estimate) {
  for (const ProgramWalker &walker : walkers) {
    const MachineUnit &unit = machine.units[walker.unitIndex()];
    if (!(unit.roles & RoleDma) || unit.maxOutstanding <= 1 ||
        walker.slotBoundSpan <= 0)
      continue;
    double head = firstToken(machine, walkers, firstLanding, landed, unit.core);
    if (head + walker.slotBoundSpan <= estimate.cycles)
      continue;
    estimate.busiest = walker.slotBoundSpan;
    estimate.latency = head;
    estimate.cycles = head + walker.slotBoundSpan;
    estimate.bottleneck = unit.name + " slots";
  }
}

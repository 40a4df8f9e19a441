//===- HandOverStalls.cpp - What a compute unit waits for at hand-overs ---===//
//
// This file implements handOverStalls (HandOverStalls.h) from the compute
// unit's receives and its load unit's loads and waits, as the walk
// recorded them (ProgramWalker.h).
//
//===----------------------------------------------------------------------===//

#include "HandOverStalls.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

using namespace ktflow::machine;
using namespace ktflow::machine::detail;

/// HandOverStall::feed of compute unit `compute` fed by load unit `feed`.
static double feedAfterHandOvers(const Executable &exe,
                                 const ProgramWalker &feed,
                                 const ProgramWalker &compute) {
  // The latest hand-over among the load unit's first k waits (-1: none).
  std::vector<long> lastHandOver(feed.waits() + 1, -1);
  for (size_t k = 0; k < feed.waits(); ++k)
    lastHandOver[k + 1] = feed.handsOver(feed.waitedFor(k))
                              ? static_cast<long>(k)
                              : lastHandOver[k];
  double cycles = 0;
  long charged = -1;
  // The FIFO of the receives before and the feed's loads into it.
  std::optional<uint32_t> fifo;
  const ProgramWalker::FifoLoads *loads = nullptr;
  llvm::ArrayRef<ProgramWalker::Receive> receives = compute.receives();
  for (size_t begin = 0, end; begin < receives.size(); begin = end) {
    // The entries received with no work between them: what the work after
    // them needs.
    for (end = begin + 1; end < receives.size() &&
                          receives[end].before == receives[begin].before;
         ++end)
      ;
    llvm::SmallVector<std::pair<const ProgramWalker::Receive *, long>> loaded;
    long handOver = -1;
    for (size_t i = begin; i < end; ++i) {
      const ProgramWalker::Receive &receive = receives[i];
      if (uint32_t from = compute.fifoId(receive.fifo); from != fifo) {
        fifo = from;
        loads = exe.fifos[from].producer == feed.unitIndex()
                    ? feed.loadsOf(from)
                    : nullptr;
      }
      const ProgramWalker::FifoLoad *load =
          loads ? loads->at(receive.offset) : nullptr;
      if (!load)
        continue;
      loaded.push_back({&receive, lastHandOver[load->waits]});
      handOver = std::max(handOver, loaded.back().second);
    }
    if (handOver <= charged)
      continue;
    charged = handOver;
    for (auto [receive, after] : loaded)
      if (after == handOver)
        cycles +=
            receive->times *
            feed.fifoCycles(compute.fifoId(receive->fifo), receive->bytes);
  }
  return cycles;
}

std::vector<HandOverStall>
detail::handOverStalls(const Executable &exe,
                       llvm::ArrayRef<ProgramWalker> walkers) {
  llvm::DenseMap<uint32_t, const ProgramWalker *> walkerOf;
  for (const ProgramWalker &walker : walkers)
    walkerOf[walker.unitIndex()] = &walker;
  std::vector<HandOverStall> stalls;
  for (const ProgramWalker &walker : walkers)
    if (std::optional<uint32_t> compute = walker.fed();
        compute && walker.handOvers > 0) {
      const ProgramWalker *fed = walkerOf.lookup(*compute);
      stalls.push_back({*compute, walker.handOvers * walker.handOverLatency(),
                        fed ? feedAfterHandOvers(exe, walker, *fed) : 0});
    }
  return stalls;
}

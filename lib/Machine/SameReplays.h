//===- SameReplays.h - Groups of units that replay the same -----*- C++ -*-===//
//
// This file declares ReplayPairing, what the token-chain replay
// (TokenChains.cpp) compares to take a group of units' replay from another
// group's: the two groups' walks take the same events at the same times,
// and the FIFOs and channels those events name pair one to one.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_MACHINE_SAMEREPLAYS_H
#define KTFLOW_LIB_MACHINE_SAMEREPLAYS_H

#include "ProgramWalker.h"

#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <vector>

namespace ktflow::machine::detail {

/// The FIFOs and channels of one group of units paired one to one with
/// another group's, walk by walk (pair), for one comparison (reset).
class ReplayPairing {
public:
  explicit ReplayPairing(const Executable &exe) : exe(exe) {}

  /// Whether `x` and `y`, walks that are not copies of one walk, take the
  /// same events (but for the FIFOs and channels they name, which pair
  /// pairs) at the same times and end at the same time.
  static bool sameEvents(const ProgramWalker &x, const ProgramWalker &y);

  /// Unpairs everything paired: a new comparison.
  void reset();
  /// Pairs the FIFOs and channels the events of `x` and `y` name in turn
  /// (`x` in the first group), as the replay reads them: whether they pair
  /// one to one with those paired before.
  bool pair(const ProgramWalker &x, const ProgramWalker &y);

  /// The FIFOs (`syncs` false) or channels of the first group paired, and
  /// each one's pair.
  llvm::ArrayRef<uint32_t> paired(bool syncs) const {
    return (syncs ? syncPairs : fifoPairs).paired;
  }
  uint32_t pairOf(bool syncs, uint32_t id) const {
    return (syncs ? syncPairs : fifoPairs).to[id];
  }

private:
  /// Ids paired one to one (indexed by id: the hash map's binds these
  /// replaced were most of a comparison).
  struct Pairs {
    static constexpr uint32_t kNone = UINT32_MAX;
    std::vector<uint32_t> to, from;
    /// The ids paired, unpaired again by reset.
    std::vector<uint32_t> paired;

    bool bind(uint32_t x, uint32_t y);
    void reset(size_t ids);
  };
  /// The FIFOs and channels (as walked: ChainEvent::id) a walk's events
  /// name, each once.
  struct Named {
    std::vector<uint32_t> fifos, syncs;
  };
  const Named &namedBy(llvm::ArrayRef<ProgramWalker::ChainEvent> events);

  bool pairEvents(const ProgramWalker &x, const ProgramWalker &y);
  bool pairCopies(const ProgramWalker &x, const ProgramWalker &y);
  bool pairInstructions(const ProgramWalker &x, const ProgramWalker &y);

  const Executable &exe;
  Pairs fifoPairs, syncPairs;
  /// By a walk's events (their data()), what they name.
  llvm::DenseMap<const ProgramWalker::ChainEvent *, Named> named;
};

} // namespace ktflow::machine::detail

#endif // KTFLOW_LIB_MACHINE_SAMEREPLAYS_H

//===- FillAndDrain.h - The estimate's fill and drain -----------*- C++ -*-===//
//
// This file declares what the whole-kernel estimate (Estimate.cpp) adds
// around the busiest resource: when the data the engines load from device
// memory has landed, at each engine's share of it (Landings), before the
// compute can start, and the last execution's stores and compute after it.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_MACHINE_FILLANDDRAIN_H
#define KTFLOW_LIB_MACHINE_FILLANDDRAIN_H

#include "ProgramWalker.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <utility>
#include <vector>

namespace ktflow::machine::detail {
/// Each engine's share of the device memory it loads from and stores to,
/// when the data the engines' tokens announce has landed, and how long a
/// compute unit waits for the data of the entries it receives.
class Landings {
public:
  Landings(const Machine &machine, const Executable &exe,
           llvm::ArrayRef<ProgramWalker> walkers, const RouteCosts &routes);

  /// `engine`'s share of the device memory it first loads from or stores
  /// to when every program that does so moves data at once, at most its
  /// route's: the share its walk moved those DMAs at
  /// (RouteCosts::deviceBandwidth).
  double loadShare(const ProgramWalker &engine) const;
  double storeShare(const ProgramWalker &engine) const;
  /// The cycles `engine` takes to load its first `bytes` from its device
  /// memory, and to store its last `bytes`: at its share, or, where the
  /// engines move different amounts, as the memory serves them
  /// (RouteCosts::moveTime; WaterFill.h).
  double loadTime(const ProgramWalker &engine, double bytes) const;
  double lastStoreTime(const ProgramWalker &engine, double bytes) const;

  const ProgramWalker *walkerOf(uint32_t unit) const {
    return walkerOfUnit.lookup(unit);
  }

  /// When the data a channel's first token announces has landed, if an
  /// engine that loads device memory sends it (0 otherwise): the bytes it
  /// loaded before at its share of the memory (every engine that reads it
  /// at once) and their route latency, or, for an engine slower than its
  /// share (index reads, waits for a slot), its own cycles before it.
  double landed(uint32_t sync) const;

  /// How long compute unit `unit` waits at least: it does no work past an
  /// entry before the data its load unit waited for before loading it has
  /// landed (a paged attention's softmax, after a first entry that only
  /// copies Q, waits for the V pages), so the latest landing less the
  /// unit's cycles before the entry; and the channel of that landing. With
  /// `eachToken`, each wait's own token's landing (an engine slower than
  /// the compute for a phase paces it there), else the channel's first
  /// (what one execution of an engine's chain waits for).
  std::pair<double, std::optional<uint32_t>> waitOf(uint32_t unit,
                                                    bool eachToken = false);
  /// waitOf with each wait's own token, the unit's cycles before each
  /// entry taken `pace` times (a slower unit of its stream holds it back).
  double pacedWaitOf(uint32_t unit, double pace);

  /// The cycles of the last execution's device-memory stores: for each
  /// token a store unit sends once it has stored the last execution's
  /// output, what the receiving engine stores after its last wait for it,
  /// at its share of the memory, and their route latency; or, where longer
  /// and a store unit sends the token (not a load unit handing a buffer
  /// back, after which the engine may load what the compute has yet to
  /// use), the engine's own cycles from its last wait for the token until
  /// its transfers have landed (its waits for a slot included: a
  /// column-major tile's 64 strided DMAs, eight in flight, one route
  /// latency each eight). With `core`, only that core's engines.
  double lastStores(std::optional<int32_t> core = std::nullopt);

private:
  /// When the data the `nth` of the `tokens` tokens a channel carries
  /// announces has landed: as `landed`, with the bytes the engine loaded
  /// before that token, where it sends as many (the walks pair up).
  double landed(uint32_t sync, size_t nth, size_t tokens);

  /// A compute unit's receives of the entries its feed loaded after its
  /// `wait` + 1 first waits, from the FIFO `fifo` (its place among
  /// ProgramWalker::fifosReceived): the least of the unit's cycles before
  /// them.
  struct WaitGroup {
    uint32_t fifo;
    size_t wait;
    double before;
  };
  /// The groups of `compute`'s receives: found once
  /// for the compute units whose walks share their records (SameWalks.h)
  /// and whose FIFOs their feeds' records name alike, as a production
  /// kernel's lanes do (each lane's pass over its receives was a sixth of
  /// layernorm_1151x8192's estimate on spyre_like, 64 compute units of
  /// 9,500 receives). What waitOf then reads per compute unit is its
  /// feeds' landings, one per group.
  llvm::ArrayRef<WaitGroup> waitGroups(const ProgramWalker &compute);

  /// For each k, the latest landing among `feed`'s first k + 1 waits and
  /// its channel (with `eachToken`, as waitOf).
  llvm::ArrayRef<std::pair<double, uint32_t>>
  latestOf(const ProgramWalker &feed, bool eachToken);

  const Machine &machine;
  const Executable &exe;
  const RouteCosts &routes;
  llvm::DenseMap<uint32_t, const ProgramWalker *> walkerOfUnit;
  /// (Each cache twice, by `eachToken`.)
  llvm::DenseMap<const ProgramWalker *,
                 std::vector<std::pair<double, uint32_t>>>
      latestByFeed[2];
  /// Each engine's tokens on each channel: the device-memory bytes it
  /// loaded before each and its own time there.
  llvm::DenseMap<
      uint32_t,
      llvm::DenseMap<uint32_t, std::vector<std::pair<double, double>>>>
      tokensOf;
  /// waitOf's answers: the estimate asks for each unit of a stream.
  llvm::DenseMap<uint32_t, std::pair<double, std::optional<uint32_t>>>
      waitByUnit[2];
  /// waitGroups' groups, per compute unit's records and what its FIFOs are
  /// named in their feeds' records.
  struct FoundGroups {
    const void *compute;
    std::vector<std::pair<const void *, uint32_t>> names;
    std::vector<WaitGroup> groups;
  };
  std::vector<FoundGroups> groupsFound;
  llvm::ArrayRef<ProgramWalker> walkers;
  /// lastStores' answers, per core and of all cores, found in one pass
  /// (the estimate asks for each stream of each core: on spyre_like,
  /// every program's tokens for each, an eighth of the softmax's).
  std::optional<std::pair<llvm::DenseMap<int32_t, double>, double>>
      lastStoresByCore;
};

/// The cycles before the binding compute unit `bound`'s work (the
/// device-memory loads the load units wait for before their first load,
/// and those its entries wait for: Landings) and after its last entry
/// (lastStores). With `core`, only that core's units count.
std::pair<double, double>
fillAndDrain(const Machine &machine, const Executable &exe,
             llvm::ArrayRef<ProgramWalker> walkers, Landings &landings,
             uint32_t bound, std::optional<int32_t> core = std::nullopt);

/// The cycles before the binding compute unit `bound`'s work where its
/// feeds' first entries are resident in the scratchpad (each feed's first
/// load waits for no token: an LX part the kernel only reads): no
/// device-memory load comes first, and the data its later entries wait
/// for lands while the stream works through the earlier ones at the pace
/// of its busiest unit, `pace` times the compute unit's cycles
/// (lx_resident_copy's store unit, which stores each resident row twice,
/// the copy's and the tile's own). None where a feed waits first.
std::optional<double> residentFill(const Executable &exe,
                                   llvm::ArrayRef<ProgramWalker> walkers,
                                   Landings &landings, uint32_t bound,
                                   double pace);

/// The compute after the last data an engine loads from device memory
/// has landed: for each load unit, its compute unit's busy cycles times the
/// share of what it feeds after its last wait for such an engine's token
/// (the last grid point's, the last block's).
double lastCompute(const Machine &machine, const Executable &exe,
                   llvm::ArrayRef<ProgramWalker> walkers,
                   llvm::ArrayRef<double> busyOfUnit);
} // namespace ktflow::machine::detail

#endif // KTFLOW_LIB_MACHINE_FILLANDDRAIN_H

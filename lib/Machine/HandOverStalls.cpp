//===- HandOverStalls.cpp - What a compute unit waits for at hand-overs ---===//
//
// This file implements handOverStalls (HandOverStalls.h) from the compute
// unit's receives and sends, its load unit's loads and waits and the store
// unit's stores and tokens, as the walk recorded them (ProgramWalker.h).
//
//===----------------------------------------------------------------------===//

#include "HandOverStalls.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/bit.h"

#include <algorithm>
#include <deque>

using namespace ktflow::machine;
using namespace ktflow::machine::detail;

namespace {
/// A compute unit's sends to a store unit: the bytes sent after each and
/// its time once sent. Found once for the compute units whose walks share
/// their records (SameWalks.h) and send to the store unit through the
/// FIFOs their records name alike: each lane's pass over its compute
/// unit's events was most of what was left of layernorm_1151x8192's
/// hand-over stalls once their groups of receives were shared.
class SharedSends {
public:
  explicit SharedSends(const Executable &exe) : exe(exe) {}

  const std::vector<std::pair<double, double>> &of(const ProgramWalker &compute,
                                                   uint32_t store) {
    auto [fifos, fresh] = fifosPushed.try_emplace(compute.recordsId());
    if (fresh)
      for (const ProgramWalker::ChainEvent &e : compute.chainEvents())
        if (e.kind == ProgramWalker::ChainEvent::Push &&
            !llvm::is_contained(fifos->second, e.id))
          fifos->second.push_back(e.id);
    // What the pass reads through the compute unit's names: whether each
    // FIFO it pushes to (as its records name them) goes to `store`.
    llvm::SmallVector<bool, 4> toStore;
    for (uint32_t walked : fifos->second)
      toStore.push_back(exe.fifos[compute.fifoId(walked)].consumer == store);
    for (const Found &f : found)
      if (f.compute == compute.recordsId() && f.toStore == toStore)
        return f.sends;
    Found &f = found.emplace_back();
    f.compute = compute.recordsId();
    f.toStore = std::move(toStore);
    double bytes = 0;
    for (const ProgramWalker::ChainEvent &e : compute.chainEvents()) {
      if (e.kind != ProgramWalker::ChainEvent::Push ||
          exe.fifos[compute.chainId(e)].consumer != store)
        continue;
      bytes += e.bytes;
      f.sends.push_back({bytes, e.at + e.cost + e.rounding});
    }
    return f.sends;
  }

private:
  struct Found {
    const void *compute;
    llvm::SmallVector<bool, 4> toStore;
    std::vector<std::pair<double, double>> sends;
  };
  const Executable &exe;
  /// Per compute unit's records, the FIFOs of its pushes.
  llvm::DenseMap<const void *, llvm::SmallVector<uint32_t, 4>> fifosPushed;
  /// (A deque: the sends found stay where they are as more are found.)
  std::deque<Found> found;
};

/// When a compute unit had sent what a store unit stored before each of
/// its tokens: the hand-over the k-th token makes returns that output,
/// and the compute unit's work between that send and its first entry
/// loaded after the hand-over (the input fed ahead of it) overlaps the
/// round trip.
class SentBeforeTokens {
public:
  SentBeforeTokens(const Executable &exe, const ProgramWalker &compute,
                   SharedSends &shared)
      : exe(exe), compute(compute), shared(shared) {}

  /// The compute unit's own time when it had sent what `store` stored
  /// before its `nth` token on `sync`; none where that is none of its
  /// output or the walks do not pair up.
  std::optional<double> at(const ProgramWalker &store, uint32_t sync,
                           size_t nth) {
    const std::vector<double> &popped = poppedBeforeTokens(store, sync);
    if (nth >= popped.size() || popped[nth] <= 0)
      return std::nullopt;
    const std::vector<std::pair<double, double>> &sent =
        sentTo(store.unitIndex());
    // The first send that completes those bytes.
    auto send = llvm::lower_bound(sent, popped[nth] - 1e-6,
                                  [](const std::pair<double, double> &s,
                                     double b) { return s.first < b; });
    if (send == sent.end())
      return std::nullopt;
    return send->second;
  }

  /// How many tokens `store` sends on `sync` (the walks pair up where the
  /// load unit waits as many times).
  size_t tokens(const ProgramWalker &store, uint32_t sync) {
    return poppedBeforeTokens(store, sync).size();
  }

private:
  /// The bytes of the compute unit's output `store` had taken before each
  /// of its tokens on `sync`.
  const std::vector<double> &poppedBeforeTokens(const ProgramWalker &store,
                                                uint32_t sync) {
    auto [found, fresh] = popped.try_emplace(store.unitIndex());
    if (fresh) {
      double bytes = 0;
      for (const ProgramWalker::ChainEvent &e : store.chainEvents()) {
        uint32_t id = store.chainId(e);
        if (e.kind == ProgramWalker::ChainEvent::Pop &&
            exe.fifos[id].producer == compute.unitIndex())
          bytes += e.bytes;
        else if (e.kind == ProgramWalker::ChainEvent::Signal)
          found->second[id].push_back(bytes);
      }
    }
    return found->second[sync];
  }

  /// The compute unit's sends to `store` (SharedSends).
  const std::vector<std::pair<double, double>> &sentTo(uint32_t store) {
    auto [found, fresh] = sent.try_emplace(store);
    if (fresh)
      found->second = &shared.of(compute, store);
    return *found->second;
  }

  const Executable &exe;
  const ProgramWalker &compute;
  SharedSends &shared;
  llvm::DenseMap<uint32_t, llvm::DenseMap<uint32_t, std::vector<double>>>
      popped;
  llvm::DenseMap<uint32_t, const std::vector<std::pair<double, double>> *> sent;
};
} // namespace

namespace {
/// A group of a compute unit's receives (entries received with no work
/// between them) charged a hand-over: the latest hand-over its entries
/// were loaded after, the unit's time before the group, how many times
/// the group is received, and the feed of its entries loaded after that
/// hand-over, each at its FIFO's bandwidth.
struct ChargedGroup {
  long handOver;
  double before, times, feedCycles;
};

/// The groups of `compute`'s receives that `feed`'s hand-overs are charged
/// to, in order: each hand-over once, to the first group after it.
/// `lastHandOver[k]` is the latest hand-over among the feed's first k
/// waits (-1: none).
std::vector<ChargedGroup> chargedGroups(const Executable &exe,
                                        const ProgramWalker &feed,
                                        const ProgramWalker &compute,
                                        llvm::ArrayRef<long> lastHandOver) {
  std::vector<ChargedGroup> charged;
  long last = -1;
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
    if (handOver <= last)
      continue;
    last = handOver;
    double feedCycles = 0;
    for (auto [receive, after] : loaded)
      if (after == handOver)
        feedCycles +=
            feed.fifoCycles(compute.fifoId(receive->fifo), receive->bytes);
    charged.push_back(
        {handOver, receives[begin].before, receives[begin].times, feedCycles});
  }
  return charged;
}

/// chargedGroups of each pair of a load unit and the compute unit it
/// feeds, found once for the pairs whose walks read the same records
/// through the same names: a production kernel's lanes are copies of a
/// few walks, which share their records (SameWalks.h), and each lane's
/// pass over its compute unit's receives was a sixth to a quarter of
/// layernorm_1151x8192's estimate (64 compute units of 9,500 receives on
/// spyre_like).
class SharedGroups {
public:
  explicit SharedGroups(const Executable &exe) : exe(exe) {}

  const std::vector<ChargedGroup> &of(const ProgramWalker &feed,
                                      const ProgramWalker &compute,
                                      llvm::ArrayRef<long> lastHandOver) {
    std::vector<uint64_t> names = namesRead(feed, compute);
    for (const Found &f : found)
      if (f.compute == compute.recordsId() && f.feed == feed.recordsId() &&
          f.names == names && llvm::equal(f.lastHandOver, lastHandOver))
        return f.groups;
    return found
        .emplace_back(
            Found{compute.recordsId(), feed.recordsId(), std::move(names),
                  std::vector<long>(lastHandOver.begin(), lastHandOver.end()),
                  chargedGroups(exe, feed, compute, lastHandOver)})
        .groups;
  }

private:
  /// What chargedGroups reads through the two walks' names, besides their
  /// records and `lastHandOver`: for each FIFO of the compute unit's
  /// receives (as its records name them, the first received first),
  /// the feed's FIFO as the feed's records name it where the feed loads
  /// it (UINT32_MAX otherwise) and the bandwidth of its link.
  std::vector<uint64_t> namesRead(const ProgramWalker &feed,
                                  const ProgramWalker &compute) {
    std::vector<uint64_t> names;
    for (uint32_t walked : compute.fifosReceived()) {
      uint32_t fifo = compute.fifoId(walked);
      bool loaded = exe.fifos[fifo].producer == feed.unitIndex();
      names.push_back(loaded ? feed.walkedFifo(fifo) : UINT32_MAX);
      names.push_back(
          loaded ? llvm::bit_cast<uint64_t>(feed.fifoBandwidth(fifo)) : 0);
    }
    return names;
  }

  struct Found {
    const void *compute, *feed;
    std::vector<uint64_t> names;
    std::vector<long> lastHandOver;
    std::vector<ChargedGroup> groups;
  };
  const Executable &exe;
  std::vector<Found> found;
};
} // namespace

/// The stall of compute unit `compute` fed by load unit `feed` across its
/// hand-overs. `walkerOf` finds the store units' walks; `shared` the
/// groups of receives charged, `sends` the compute unit's sends.
static HandOverStall stallAfterHandOvers(
    const Executable &exe, const ProgramWalker &feed,
    const ProgramWalker &compute,
    const llvm::DenseMap<uint32_t, const ProgramWalker *> &walkerOf,
    SharedGroups &shared, SharedSends &sends) {
  double latency = feed.handOverLatency();
  HandOverStall stall{compute.unitIndex(), feed.handOvers * latency, 0};
  // The latest hand-over among the load unit's first k waits (-1: none),
  // and each hand-over's place among the waits on its channel.
  std::vector<long> lastHandOver(feed.waits() + 1, -1);
  std::vector<size_t> nth(feed.waits());
  llvm::DenseMap<uint32_t, size_t> waitsOn;
  for (size_t k = 0; k < feed.waits(); ++k) {
    uint32_t sync = feed.waitedFor(k);
    lastHandOver[k + 1] = lastHandOver[k];
    if (feed.handsOver(sync)) {
      lastHandOver[k + 1] = static_cast<long>(k);
      nth[k] = waitsOn[sync]++;
    }
  }
  SentBeforeTokens sent(exe, compute, sends);
  // The channel of the hand-over asked last (the same mostly), its store
  // unit's walk and whether its tokens pair up with the waits.
  std::optional<uint32_t> lastSync;
  const ProgramWalker *store = nullptr;
  bool paired = false;
  // The compute unit's work fed ahead of hand-over k: from its send of
  // what the hand-over returns to `before`, its time at the first entry
  // loaded after it (none where the walks do not pair up).
  auto queued = [&](long k, double before) -> double {
    uint32_t sync = feed.waitedFor(k);
    if (sync != lastSync) {
      lastSync = sync;
      store = walkerOf.lookup(exe.syncs[sync].sender);
      paired = store && sent.tokens(*store, sync) == waitsOn[sync];
    }
    if (!paired)
      return 0;
    std::optional<double> sentAt = sent.at(*store, sync, nth[k]);
    return sentAt ? std::max(0.0, before - *sentAt) : 0;
  };
  for (const ChargedGroup &group : shared.of(feed, compute, lastHandOver)) {
    // The work fed ahead takes the hand-over's latency first, then the
    // feed, once per time the group is received.
    double ahead = queued(group.handOver, group.before);
    double hidden = std::min(latency, ahead);
    stall.latency -= group.times * hidden;
    stall.feed +=
        group.times * std::max(0.0, group.feedCycles - (ahead - hidden));
  }
  return stall;
}

std::vector<HandOverStall>
detail::handOverStalls(const Executable &exe,
                       llvm::ArrayRef<ProgramWalker> walkers) {
  llvm::DenseMap<uint32_t, const ProgramWalker *> walkerOf;
  for (const ProgramWalker &walker : walkers)
    walkerOf[walker.unitIndex()] = &walker;
  std::vector<HandOverStall> stalls;
  SharedGroups shared(exe);
  SharedSends sends(exe);
  for (const ProgramWalker &walker : walkers)
    if (std::optional<uint32_t> compute = walker.fed();
        compute && walker.handOvers > 0) {
      if (const ProgramWalker *fed = walkerOf.lookup(*compute))
        stalls.push_back(
            stallAfterHandOvers(exe, walker, *fed, walkerOf, shared, sends));
      else
        stalls.push_back(
            {*compute, walker.handOvers * walker.handOverLatency(), 0});
    }
  return stalls;
}

//===- HandOverStalls.cpp - What a compute unit waits for at hand-overs ---===//
//
// This file implements handOverStalls (HandOverStalls.h) from the compute
// unit's receives and sends, its load unit's loads and waits and the store
// unit's stores and tokens, as the walk recorded them (ProgramWalker.h).
//
//===----------------------------------------------------------------------===//

#include "HandOverStalls.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>

using namespace ktflow::machine;
using namespace ktflow::machine::detail;

namespace {
/// When a compute unit had sent what a store unit stored before each of
/// its tokens: the hand-over the k-th token makes returns that output,
/// and the compute unit's work between that send and its first entry
/// loaded after the hand-over (the input fed ahead of it) overlaps the
/// round trip.
class SentBeforeTokens {
public:
  SentBeforeTokens(const Executable &exe, const ProgramWalker &compute)
      : exe(exe), compute(compute) {}

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

  /// The compute unit's sends to `store`: the bytes sent after each and
  /// its time once sent.
  const std::vector<std::pair<double, double>> &sentTo(uint32_t store) {
    auto [found, fresh] = sent.try_emplace(store);
    if (fresh) {
      double bytes = 0;
      for (const ProgramWalker::ChainEvent &e : compute.chainEvents()) {
        if (e.kind != ProgramWalker::ChainEvent::Push ||
            exe.fifos[compute.chainId(e)].consumer != store)
          continue;
        bytes += e.bytes;
        found->second.push_back({bytes, e.at + e.cost + e.rounding});
      }
    }
    return found->second;
  }

  const Executable &exe;
  const ProgramWalker &compute;
  llvm::DenseMap<uint32_t, llvm::DenseMap<uint32_t, std::vector<double>>>
      popped;
  llvm::DenseMap<uint32_t, std::vector<std::pair<double, double>>> sent;
};
} // namespace

/// The stall of compute unit `compute` fed by load unit `feed` across its
/// hand-overs. `walkerOf` finds the store units' walks.
static HandOverStall stallAfterHandOvers(
    const Executable &exe, const ProgramWalker &feed,
    const ProgramWalker &compute,
    const llvm::DenseMap<uint32_t, const ProgramWalker *> &walkerOf) {
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
  SentBeforeTokens sent(exe, compute);
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
    // The entries loaded after the hand-over, each at its FIFO's
    // bandwidth, once per time the group is received.
    double feedCycles = 0, times = receives[begin].times;
    for (auto [receive, after] : loaded)
      if (after == handOver)
        feedCycles +=
            feed.fifoCycles(compute.fifoId(receive->fifo), receive->bytes);
    // The work fed ahead takes the hand-over's latency first, then the
    // feed.
    double ahead = queued(handOver, receives[begin].before);
    double hidden = std::min(latency, ahead);
    stall.latency -= times * hidden;
    stall.feed += times * std::max(0.0, feedCycles - (ahead - hidden));
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
  for (const ProgramWalker &walker : walkers)
    if (std::optional<uint32_t> compute = walker.fed();
        compute && walker.handOvers > 0) {
      if (const ProgramWalker *fed = walkerOf.lookup(*compute))
        stalls.push_back(stallAfterHandOvers(exe, walker, *fed, walkerOf));
      else
        stalls.push_back(
            {*compute, walker.handOvers * walker.handOverLatency(), 0});
    }
  return stalls;
}

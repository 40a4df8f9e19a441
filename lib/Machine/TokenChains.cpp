//===- TokenChains.cpp - The kernel's path through its tokens -------------===//
//
// This file implements tokenChains (TokenChains.h): each unit's chain
// events are taken in program order, the unit advancing by its own cycles
// between them, until it waits for a token or an entry not sent yet; it
// resumes once its sender has sent it. Each event is taken once, so the
// replay costs what the walk did.
//
//===----------------------------------------------------------------------===//

#include "TokenChains.h"

#include "SameReplays.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <vector>

using namespace ktflow::machine;
using namespace ktflow::machine::detail;

namespace {
using Event = ProgramWalker::ChainEvent;

/// Bytes pushed into a FIFO, [begin, end), and when: byte x is there once
/// its share of the push's occupancy and the route's latency have passed.
struct Pushed {
  double begin, end, start, cost, latency;

  double availableAt(double offset) const {
    double share = end > begin ? (offset - begin) / (end - begin) : 1;
    return start + std::ceil(cost * share - 1e-9) + latency;
  }
};

/// Drops the first `count` elements of `v` once they are most of it: what
/// the replay has taken for good, so that a FIFO or channel holds only what
/// is in flight rather than every entry of the kernel.
template <typename T> static size_t dropTaken(std::vector<T> &v, size_t count) {
  if (count < 64 || 2 * count < v.size())
    return 0;
  v.erase(v.begin(), v.begin() + count);
  return count;
}

struct FifoChain {
  /// The pushes not yet popped whole (those before are dropped), and how
  /// many of them are.
  std::vector<Pushed> pushed;
  size_t taken = 0;
  double pushedBytes = 0, poppedBytes = 0;
  std::optional<size_t> waiter;

  /// A new FIFO's chain with `old`'s storage for its pushes.
  static FifoChain reused(FifoChain old) {
    FifoChain fresh;
    fresh.pushed = std::move(old.pushed);
    fresh.pushed.clear();
    return fresh;
  }

  /// The push the last availableAt found (or the pushes' end) and its
  /// offset: pops ask for offsets in order, so the search starts there.
  size_t searchFrom = 0;
  double searchedOffset = 0;

  /// When the FIFO's bytes up to `offset` are there, if pushed yet.
  std::optional<double> availableAt(double offset) {
    if (offset < searchedOffset)
      searchFrom = 0;
    double at = offset - 1e-9;
    auto before = [](const Pushed &p, double at) { return p.end < at; };
    // Mostly the push searched last or the next one.
    auto push = pushed.begin() + searchFrom;
    if (push != pushed.end() && before(*push, at))
      ++push;
    if (push != pushed.end() && before(*push, at))
      push = std::lower_bound(push, pushed.end(), at, before);
    searchFrom = push - pushed.begin();
    searchedOffset = offset;
    if (push == pushed.end())
      return std::nullopt;
    return push->availableAt(offset);
  }

  /// Takes `bytes` more: no later offset (at least poppedBytes) is in the
  /// pushes that end before it (the first `taken`).
  void pop(double bytes) {
    poppedBytes += bytes;
    while (taken < pushed.size() && pushed[taken].end < poppedBytes - 1e-9)
      ++taken;
    if (size_t dropped = dropTaken(pushed, taken)) {
      searchFrom = searchFrom > dropped ? searchFrom - dropped : 0;
      taken = 0;
    }
  }
};

struct SyncChain {
  /// The tokens sent and not received yet.
  std::vector<double> arrivals;
  size_t received = 0;
  std::optional<size_t> waiter;
  /// A token's cycles from its sender to its receiver.
  double cycles = 0;

  /// A new channel's chain with `old`'s storage for its tokens.
  static SyncChain reused(SyncChain old) {
    SyncChain fresh;
    fresh.arrivals = std::move(old.arrivals);
    fresh.arrivals.clear();
    return fresh;
  }

  bool empty() const { return received == arrivals.size(); }
  double receive() {
    double arrival = arrivals[received++];
    received -= dropTaken(arrivals, received);
    return arrival;
  }
};

/// Where a unit's replay is: its next event, its time there and its own
/// time (the walk's clock) at the last event taken.
struct UnitChain {
  const ProgramWalker *walker;
  size_t next = 0;
  double time = 0, clock = 0;
  /// When its transfers in flight land, and the last of them.
  llvm::SmallVector<double, 8> inFlight;
  double landed = 0;
};

class Replay {
public:
  Replay(const Machine &machine, const Executable &exe,
         llvm::ArrayRef<ProgramWalker> walkers)
      : machine(machine), exe(exe), fifos(takeKept(kept().fifos)),
        syncs(takeKept(kept().syncs)), pairing(exe) {
    fifos.resize(exe.fifos.size());
    syncs.resize(exe.syncs.size());
    for (const ProgramWalker &walker : walkers)
      units.push_back({&walker, 0, 0, 0, {}, 0});
    for (auto [sync, desc] : llvm::zip_equal(syncs, exe.syncs))
      sync.cycles = machine.syncCycles(desc.sender, desc.receiver);
  }
  ~Replay() {
    kept().fifos = std::move(fifos);
    kept().syncs = std::move(syncs);
  }

  std::optional<TokenChain> run() {
    std::vector<size_t> same = sameReplays();
    std::vector<size_t> ready;
    for (size_t u = 0; u < units.size(); ++u)
      if (same[u] == u)
        ready.push_back(u);
    while (!ready.empty()) {
      size_t u = ready.back();
      ready.pop_back();
      advance(u, ready);
    }
    std::optional<TokenChain> chain;
    for (auto [u, self] : llvm::enumerate(units)) {
      const UnitChain &unit = units[same[u]];
      if (unit.next < unit.walker->chainEvents().size())
        return std::nullopt;
      double end = std::max(unit.time + unit.walker->finishedAt - unit.clock,
                            unit.landed);
      if (!chain || end > chain->cycles)
        chain = TokenChain{end, self.walker->unitIndex()};
    }
    for (const SyncChain &sync : syncs)
      if (!sync.empty())
        return std::nullopt;
    for (const FifoChain &fifo : fifos)
      if (std::abs(fifo.pushedBytes - fifo.poppedBytes) > 1e-6)
        return std::nullopt;
    return chain;
  }

private:
  /// The FIFOs and channels of the thread's last replay, their pushes' and
  /// tokens' storage kept for the next (the estimates of --tune's
  /// candidates, or of one kernel again): a production kernel's producers
  /// push every entry before its consumer pops one, and growing those
  /// vectors again, their pages faulted in, was a sixth of
  /// swiglu_ffn_64x1024x4096's estimate on mesh_device.
  struct Kept {
    std::vector<FifoChain> fifos;
    std::vector<SyncChain> syncs;
  };
  static Kept &kept() {
    thread_local Kept storage;
    return storage;
  }
  /// `chains` emptied as new, each keeping its vector's storage.
  template <typename Chain>
  static std::vector<Chain> takeKept(std::vector<Chain> &chains) {
    std::vector<Chain> taken = std::move(chains);
    for (Chain &chain : taken)
      chain = Chain::reused(std::move(chain));
    return taken;
  }

  /// For each unit, the unit whose replay is its own: the units that pass
  /// tokens and entries only among one another (a core's) replay as
  /// another such group does where each of their walks is a copy of the
  /// other group's unit's in turn (SameWalks.h: the same events), their
  /// FIFOs and channels named one to one, of equal entries and token
  /// cycles, and their units keep as many transfers in flight. The replay
  /// of a group is a function of its events alone (a unit's time at an
  /// event, of the events before it), so it is not replayed again: each
  /// lane of a production kernel replayed its copied events (a quarter of
  /// layernorm_1151x8192's estimate on spyre_like and mesh_device). A
  /// group whose walks are not all copies of one group's (walks too short
  /// to copy, walked on each core) replays as an earlier group whose
  /// events are the same, compared (replaysAs): swiglu_ffn_64x1024x4096's
  /// four cores on spyre_like each walked their eight DMA engines, so each
  /// core was replayed, a fifth of the estimate.
  std::vector<size_t> sameReplays() {
    std::vector<uint32_t> group(machine.units.size());
    std::iota(group.begin(), group.end(), 0);
    auto find = [&](uint32_t u) {
      while (group[u] != u)
        u = group[u] = group[group[u]];
      return u;
    };
    for (const FifoDesc &fifo : exe.fifos)
      group[find(fifo.producer)] = find(fifo.consumer);
    for (const SyncDesc &sync : exe.syncs)
      group[find(sync.sender)] = find(sync.receiver);
    llvm::MapVector<uint32_t, std::vector<size_t>> groups;
    for (auto [u, unit] : llvm::enumerate(units))
      groups[find(unit.walker->unitIndex())].push_back(u);
    std::vector<size_t> same(units.size());
    std::iota(same.begin(), same.end(), 0);
    // The groups replayed, by their walks' events, and in order.
    std::map<std::vector<const void *>, const std::vector<size_t> *> replayed;
    std::vector<const std::vector<size_t> *> replayedInOrder;
    for (auto &[root, members] : groups) {
      std::vector<const void *> events;
      for (size_t u : members)
        events.push_back(units[u].walker->chainEvents().data());
      if (llvm::is_contained(events, nullptr))
        continue;
      auto [first, fresh] = replayed.try_emplace(events, &members);
      const std::vector<size_t> *as = nullptr;
      if (!fresh && replaysAs(members, *first->second))
        as = first->second;
      // Events that are not the same walk's are compared: the last groups
      // replayed tried, most recent first.
      unsigned tried = 0;
      for (auto group = replayedInOrder.rbegin();
           fresh && !as && group != replayedInOrder.rend() &&
           tried < kMostTried;
           ++group) {
        if ((*group)->size() != members.size())
          continue;
        ++tried;
        if (replaysAs(members, **group))
          as = *group;
      }
      if (!as)
        replayedInOrder.push_back(&members);
      else if (fresh) // (Later groups of these walks replay as `as` too.)
        first->second = as;
      if (as)
        for (auto [u, to] : llvm::zip_equal(members, *as))
          same[u] = to;
    }
    return same;
  }

  /// Groups compared by their events, at most, for each group replayed.
  static constexpr unsigned kMostTried = 4;

  /// Whether the group of units `members` replays as `group` (sameReplays):
  /// each unit's events those of its unit in `group` (the same walk's, or
  /// compared), and the FIFOs and channels they name paired one to one,
  /// of equal entries and token cycles.
  bool replaysAs(llvm::ArrayRef<size_t> members, llvm::ArrayRef<size_t> group) {
    for (auto [u, as] : llvm::zip_equal(members, group)) {
      const ProgramWalker &x = *units[u].walker, &y = *units[as].walker;
      if (machine.units[x.unitIndex()].maxOutstanding !=
              machine.units[y.unitIndex()].maxOutstanding ||
          x.unitProgram().insts.size() != y.unitProgram().insts.size() ||
          (x.chainEvents().data() != y.chainEvents().data() &&
           !ReplayPairing::sameEvents(x, y)))
        return false;
    }
    pairing.reset();
    for (auto [u, as] : llvm::zip_equal(members, group))
      if (!pairing.pair(*units[u].walker, *units[as].walker))
        return false;
    for (uint32_t x : pairing.paired(/*syncs=*/false))
      if (exe.fifos[x].entryBytes !=
          exe.fifos[pairing.pairOf(false, x)].entryBytes)
        return false;
    for (uint32_t x : pairing.paired(/*syncs=*/true))
      if (syncs[x].cycles != syncs[pairing.pairOf(true, x)].cycles)
        return false;
    return true;
  }

  /// Takes unit `u`'s events until it waits for one not sent yet (it is
  /// then its channel's or FIFO's waiter); units a token or entry it sends
  /// wakes go to `ready`.
  void advance(size_t u, std::vector<size_t> &ready) {
    UnitChain &unit = units[u];
    llvm::ArrayRef<Event> events = unit.walker->chainEvents();
    auto wake = [&](std::optional<size_t> &waiter) {
      if (waiter)
        ready.push_back(*waiter);
      waiter.reset();
    };
    for (; unit.next < events.size(); ++unit.next) {
      const Event &e = events[unit.next];
      uint32_t id = unit.walker->chainId(e);
      double at = unit.time + e.at - unit.clock;
      switch (e.kind) {
      case Event::Signal: {
        SyncChain &sync = syncs[id];
        // The token leaves once the transfers in flight have landed.
        sync.arrivals.push_back(std::max(at, unit.landed) + sync.cycles);
        wake(sync.waiter);
        break;
      }
      case Event::Wait: {
        SyncChain &sync = syncs[id];
        if (sync.empty()) {
          sync.waiter = u;
          return;
        }
        at = std::max(at, sync.receive());
        break;
      }
      case Event::Transfer: {
        // It waits for a slot as its transfers land here, not as the walk
        // had them land (all of them during each wait for a token).
        double wait =
            waitInQueue(unit.inFlight, at, e.after,
                        machine.units[unit.walker->unitIndex()].maxOutstanding);
        unit.landed = std::max(unit.landed, at + wait + e.after);
        at += wait - e.cost;
        break;
      }
      case Event::Push: {
        FifoChain &fifo = fifos[id];
        fifo.pushed.push_back({fifo.pushedBytes, fifo.pushedBytes + e.bytes, at,
                               e.cost, e.after});
        fifo.pushedBytes += e.bytes;
        wake(fifo.waiter);
        break;
      }
      case Event::Pop: {
        FifoChain &fifo = fifos[id];
        double first = std::min<double>(e.bytes, exe.fifos[id].entryBytes);
        std::optional<double> firstThere =
            fifo.availableAt(fifo.poppedBytes + first);
        std::optional<double> lastThere =
            fifo.availableAt(fifo.poppedBytes + e.bytes);
        if (!firstThere || !lastThere) {
          fifo.waiter = u;
          return;
        }
        fifo.pop(e.bytes);
        // The unit moves on once its last entry is there and taken; the
        // walk's clock after the event counts the pop's own cycles.
        double end =
            std::max(std::max(at, *firstThere) + e.cost, *lastThere + e.after);
        at = end - e.cost;
        break;
      }
      }
      unit.time = at - e.rounding;
      unit.clock = e.at;
    }
  }

  const Machine &machine;
  const Executable &exe;
  std::vector<UnitChain> units;
  std::vector<FifoChain> fifos;
  std::vector<SyncChain> syncs;
  ReplayPairing pairing;
};
} // namespace

std::optional<TokenChain>
detail::tokenChains(const Machine &machine, const Executable &exe,
                    llvm::ArrayRef<ProgramWalker> walkers) {
  return Replay(machine, exe, walkers).run();
}

//===- Estimate.cpp - A kernel's cycles from its programs, analytically ---===//
//
// This file implements the whole-kernel estimate (Estimate.h): one walk of
// each unit program with the scalar registers it can evaluate, charging
// each instruction its uncontended cost as the simulator's timing model
// states it, and the bytes each memory moves (ProgramWalker.h); then the
// kernel's cycles from the busiest resource, its fill and drain
// (FillAndDrain.h), or the longest chain of tokens passed from unit to
// unit where that is longer (TokenChains.h).
//
//===----------------------------------------------------------------------===//

#include "ktflow/Machine/Estimate.h"

#include "FillAndDrain.h"
#include "HandOverStalls.h"
#include "ProgramWalker.h"
#include "SameWalks.h"
#include "SlotBoundEngines.h"
#include "TokenChains.h"
#include "WaterFill.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cmath>
#include <optional>

using namespace ktflow::machine;
using ktflow::machine::detail::computes;
using ktflow::machine::detail::HandOverStall;
using ktflow::machine::detail::Landings;
using ktflow::machine::detail::ProgramWalker;

/// The compute unit whose stream unit `u` runs, if any: the compute unit
/// itself, or a load or store unit (not a DMA engine) that feeds it or
/// stores what it sends. Such a unit, like the compute unit, works between
/// the first entry's data landing and the last execution's stores.
static std::optional<uint32_t> streamOf(const Machine &machine,
                                        const Executable &exe, uint32_t u) {
  const MachineUnit &unit = machine.units[u];
  if (computes(unit))
    return u;
  if (!(unit.roles & (RoleLoad | RoleStore)) || (unit.roles & RoleDma))
    return std::nullopt;
  for (const FifoDesc &fifo : exe.fifos) {
    if (fifo.producer == u && computes(machine.units[fifo.consumer]))
      return fifo.consumer;
    if (fifo.consumer == u && computes(machine.units[fifo.producer]))
      return fifo.producer;
  }
  return std::nullopt;
}

/// The stream (streamOf) of the unit the resource named `bottleneck` is: a
/// unit, or a compute unit with its hand-overs.
static std::optional<uint32_t> streamBinds(const Machine &machine,
                                           const Executable &exe,
                                           llvm::StringRef bottleneck) {
  bool handOvers = bottleneck.consume_back(" + hand-overs");
  std::optional<uint32_t> u = machine.findUnit(bottleneck);
  if (!u || (handOvers && !computes(machine.units[*u])))
    return std::nullopt;
  return streamOf(machine, exe, *u);
}

/// The cycles of a skewed engine's executions (one engine that loads and
/// stores, issuing the loads of the execution D ahead before this one's
/// stores, which wait for its compute): execution i + D's loads leave
/// before execution i's stores, so from one load to the load D + 1
/// executions later the engine runs one chain -- the loads at its share of
/// device memory, their landing, the tokens to and from the compute, the
/// compute, the stores at its share -- and each execution takes 1 / (D + 1)
/// of a chain. Each loop's first D have no partner (D / (D + 1) of a
/// chain more; ProgramWalker::skewedChainCount) and the last stores land.
/// A loop that loads every execution before its first store waits for
/// one landing, then its stores follow its compute, the longer of the two
/// (ProgramWalker::skewedAheadExecutions): ptr_advance_rows on
/// mesh_device, four 256 B rows three ahead, the chain 8 + 101 + 32 + 82.
static double skewedChain(const Machine &machine, const Landings &landings,
                          const ProgramWalker &engine, double compute,
                          double entries) {
  double loadShare = landings.loadShare(engine);
  double storeShare = landings.storeShare(engine);
  double n = engine.skewedTrips;
  if (loadShare <= 0 || storeShare <= 0 || n <= 0)
    return 0;
  double loads = engine.skewedLoaded / loadShare;
  double stores = engine.skewedStored / storeShare;
  double landing = engine.loadLatency + 2 * machine.syncLatency + entries;
  return engine.skewedChainCount / n * (loads + stores + compute) +
         engine.skewedAheadExecutions / n *
             (loads + std::max(stores, compute)) +
         engine.skewedLandings * landing + engine.storeLatency;
}

/// The latency of an execution's entries through `engine`'s core: the
/// longest of its load units' (ProgramWalker::entriesLatency).
static double entriesOn(const Machine &machine,
                        llvm::ArrayRef<ProgramWalker> walkers,
                        const ProgramWalker &engine) {
  int32_t core = machine.units[engine.unitIndex()].core;
  double entries = 0;
  for (const ProgramWalker &feed : walkers)
    if (feed.fed() && machine.units[feed.unitIndex()].core == core)
      entries = std::max(entries, feed.entriesLatency());
  return entries;
}

/// The busiest compute unit of `core`, if it has one.
static std::optional<uint32_t>
busiestComputeOf(const Machine &machine, llvm::ArrayRef<double> busyOfUnit,
                 int32_t core) {
  std::optional<uint32_t> busiest;
  for (auto [u, unit] : llvm::enumerate(machine.units))
    if (computes(unit) && unit.core == core &&
        (!busiest || busyOfUnit[u] > busyOfUnit[*busiest]))
      busiest = u;
  return busiest;
}

/// Takes each skewed engine's chains (skewedChain, with its core's busiest
/// compute unit and the latency of an execution's entries through it)
/// where they are longer than `estimate`.
static void skewedChains(const Machine &machine,
                         llvm::ArrayRef<ProgramWalker> walkers,
                         llvm::ArrayRef<double> busyOfUnit,
                         const Landings &landings, KernelEstimate &estimate) {
  for (const ProgramWalker &walker : walkers) {
    if (walker.skewedGroups <= 0 || walker.storeGroups > 0 ||
        !walker.loadDevice || !walker.storeDevice)
      continue;
    const MachineUnit &engine = machine.units[walker.unitIndex()];
    double compute = 0;
    if (std::optional<uint32_t> u =
            busiestComputeOf(machine, busyOfUnit, engine.core))
      compute = busyOfUnit[*u];
    double chain = skewedChain(machine, landings, walker, compute,
                               entriesOn(machine, walkers, walker));
    if (chain > estimate.cycles) {
      estimate.cycles = chain;
      estimate.busiest = chain - walker.storeLatency;
      estimate.latency = walker.storeLatency;
      estimate.bottleneck = engine.name + " + compute chain";
    }
  }
}

/// The cycles of `engine`'s chained executions' stores that the compute
/// does not hide: where an execution's output is stored in blocks, each
/// after its own token from the store unit, the stores of a block go while
/// the compute works on the next ones (at `computeBusy` over the tokens
/// each), so only the stores after the last token, and those the compute
/// of the later blocks is too short to hide, follow it
/// (test/EndToEnd/Inputs/lx_resident_scaled.mlir on mesh_device: 18 blocks,
/// 384 cycles of stores, 16 after the last block's token).
static double exposedChainedStores(const ProgramWalker &engine,
                                   double computeBusy) {
  double tokens = engine.chainedExecutions + engine.chainedStoreWaits;
  double tail = std::min(engine.chainedStoreTail(), engine.chainedStoreCycles);
  double hidden = engine.chainedStoreWaits * computeBusy / tokens;
  return tail + std::max(0.0, engine.chainedStoreCycles - tail - hidden);
}

/// The cycles of an engine that loads and stores whose next loads wait, in
/// program order, for a store unit's token (the output of the execution's
/// compute stored): each such execution is one chain the compute unit
/// waits through, empty -- the data of its entries landed (`head`, the
/// longest it waits for it, Landings::waitOf: the loads at the engine's
/// share of device memory and their route latency, at most one
/// execution's: executionHead), the token to the load unit,
/// the entries its first work needs fed (`compute`'s feedBeforeWork, among
/// the feeds after the hand-overs), its work, the token back and the
/// engine's stores before its next loads that its work does not hide
/// (exposedChainedStores). The engine's
/// other transfers (loads after a load unit hands a buffer back, which it does
/// once it has fed it, before the compute) overlap the compute, however many
/// copies the buffer has.
static double chainedExecutions(const Machine &machine,
                                const ProgramWalker &engine, double computeBusy,
                                llvm::ArrayRef<HandOverStall> handOverStalls,
                                uint32_t computeUnit, double head,
                                const ProgramWalker *compute) {
  double latency = 0, feeds = 0;
  for (const HandOverStall &stall : handOverStalls)
    if (stall.compute == computeUnit) {
      latency += stall.latency;
      feeds += stall.feed;
    }
  double feed = compute ? compute->feedBeforeWork : 0;
  return computeBusy + latency + exposedChainedStores(engine, computeBusy) +
         std::max(feeds, engine.chainedExecutions * feed) +
         engine.chainedExecutions * (head + 2 * machine.syncLatency);
}

/// The longest one of `engine`'s chained executions waits for its loads
/// to land: their bytes (its device-memory bytes over its executions) at
/// its share and their route latency, or the first execution's landing
/// where longer (its waits for a slot, its index reads). Landings::waitOf
/// counts the latest token's landing from the kernel's start, so the
/// executions before it, whose loads and stores the chain charges
/// already, are in it.
static double executionHead(const Landings &landings,
                            const ProgramWalker &engine) {
  if (!engine.loadDevice || engine.chainedExecutions <= 0)
    return INFINITY;
  double head = landings.loadTime(engine, engine.deviceLoaded /
                                              engine.chainedExecutions) +
                engine.loadLatency;
  for (const ProgramWalker::ChainEvent &event : engine.chainEvents())
    if (event.kind == ProgramWalker::ChainEvent::Signal)
      return std::max(head, landings.landed(engine.chainId(event)));
  return head;
}

/// Sets `estimate`'s busiest resource to `name` when `busy` exceeds it.
static void consider(KernelEstimate &estimate, double busy,
                     const std::string &name) {
  if (busy > estimate.busiest) {
    estimate.busiest = busy;
    estimate.bottleneck = name;
  }
}

namespace {
/// The walks of an estimate's first pass, kept for its second (the shares
/// of device memory set, wholeKernel): a walk whose DMAs have no share set
/// walks as it did, and so does a copy of it. The second pass walked every
/// program again and searched again for the walks to copy, which it found
/// where the first had (what SameWalks compares has no share in it): a
/// third of layernorm_1151x8192's estimate, whose engines move one or two
/// lanes' rows.
struct FirstPass {
  std::vector<ProgramWalker> walkers;
  std::vector<double> unitBusy;
  /// Per program, the walk it copies and its names, if it copies one.
  std::vector<std::optional<std::pair<size_t, detail::Renaming>>> copies;
};
} // namespace

/// estimateKernel, with the chains of tokens if `followTokens`; with the
/// shares of device memory `shared` set where given, and then the walks of
/// the `first` pass, which had none set.
static KernelEstimate wholeKernel(const Machine &machine, const Executable &exe,
                                  bool followTokens,
                                  detail::RouteCosts *shared = nullptr,
                                  FirstPass *first = nullptr) {
  KernelEstimate estimate;
  estimate.memoryBusy.assign(machine.memories.size(), 0);
  double load = 0, store = 0, compute = 0;
  // The engines that load and store (not skewed).
  llvm::SmallVector<size_t> sharedEngines;
  uint32_t busiestCompute = 0;
  bool waits = false;
  std::vector<double> busyOfUnit(machine.units.size(), 0);
  std::vector<ProgramWalker> walkers;
  walkers.reserve(exe.programs.size());
  std::optional<detail::RouteCosts> own;
  detail::RouteCosts &routes = shared ? *shared : own.emplace(machine, exe);
  detail::SameWalks sameWalks(machine, exe, routes);
  FirstPass walked;
  // Per program of the second pass, whether its walk is the first pass's.
  std::vector<bool> kept;
  for (auto [p, program] : llvm::enumerate(exe.programs)) {
    const MachineUnit &unit = machine.units[program.unit];
    // A lane's program walks as one walked before, renamed, or is walked.
    double busy;
    if (first) {
      const auto &copy = first->copies[p];
      kept.push_back(copy ? bool(kept[copy->first])
                          : !routes.hasShare(program.unit));
      if (kept.back()) {
        walkers.push_back(std::move(first->walkers[p]));
        walkers.back().chargeAgain(estimate, copy ? &copy->second : nullptr);
        busy = first->unitBusy[p];
      } else if (copy) {
        walkers.emplace_back(walkers[copy->first], program, copy->second);
        busy = estimate.unitBusy[copy->first];
      } else {
        busy =
            walkers.emplace_back(machine, exe, program, estimate, routes).run();
      }
    } else if (auto same = sameWalks.find(program)) {
      const auto &[source, names] =
          *walked.copies.emplace_back(std::move(same));
      walkers.emplace_back(walkers[source], program, names);
      busy = estimate.unitBusy[source];
    } else {
      walked.copies.emplace_back();
      busy =
          walkers.emplace_back(machine, exe, program, estimate, routes).run();
      sameWalks.add(program, walkers.back(), walkers.size() - 1);
    }
    ProgramWalker &walker = walkers.back();
    estimate.unitBusy.push_back(busy);
    busyOfUnit[program.unit] = busy;
    load = std::max(load, walker.loadLatency);
    store = std::max({store, walker.storeLatency, walker.copyTail});
    if (computes(unit) && busy > compute) {
      compute = busy;
      busiestCompute = program.unit;
    }
    // A skewed engine's transfers overlap the compute, by all but
    // 1 / (D + 1) of an execution's chain (skewedChains).
    bool skewed = walker.skewedGroups > 0 && walker.storeGroups == 0;
    if (walker.loads && walker.stores && !skewed)
      sharedEngines.push_back(walkers.size() - 1);
    if (busy > estimate.busiest) {
      // A DMA engine that waits for each transfer holds their latency.
      waits = (unit.roles & RoleDma) && unit.maxOutstanding <= 1;
      consider(estimate, busy, unit.name);
    }
  }
  // Where the engines move different amounts of device memory, or idle
  // between their transfers, the walks again, each engine at its share as
  // the others finish or idle.
  if (!shared && detail::shareDeviceMemories(machine, walkers,
                                             estimate.unitBusy, routes)) {
    walked.walkers = std::move(walkers);
    walked.unitBusy = std::move(estimate.unitBusy);
    return wholeKernel(machine, exe, followTokens, &routes, &walked);
  }
  // A compute unit waits, empty, for each hand-over its feed waits for,
  // then for the entries its next work needs loaded after it.
  std::vector<HandOverStall> handOverStalls =
      detail::handOverStalls(exe, walkers);
  for (const HandOverStall &stall : handOverStalls)
    if (busyOfUnit[stall.compute] + stall.latency + stall.feed >
        estimate.busiest) {
      waits = false;
      consider(estimate, busyOfUnit[stall.compute] + stall.latency + stall.feed,
               machine.units[stall.compute].name + " + hand-overs");
    }
  // A device memory whose engines move in step also idles while they all
  // wait for their index reads (idleInStep).
  for (auto [m, busy] : llvm::enumerate(estimate.memoryBusy)) {
    double idle = busy > 0 && machine.memories[m].core < 0
                      ? detail::idleInStep(machine, walkers, m)
                      : 0;
    if (busy + idle > estimate.busiest) {
      waits = false;
      consider(estimate, busy + idle, machine.memories[m].name);
    }
  }
  // One engine that loads and stores runs an execution's loads, then
  // (after the compute) its stores, then the next execution's loads.
  // Where it waits for the compute's output before its next loads, each
  // such execution is one chain (chainedExecutions); otherwise its
  // transfers, the landing of the loads of each execution it waits for
  // and the compute are taken not to overlap.
  // Each engine's chain is with its own core's busiest compute unit (the
  // tiles of a kernel whose phases split the rows unevenly wait for their
  // own loads), which waits, empty, for the data of its entries: where
  // the engine announces the latest of it, the engine's waits for a slot
  // before that token are in each execution's chain (the pages of a paged
  // attention that all land before its softmax starts).
  Landings landings(machine, exe, walkers, routes);
  // Whether an engine's chain binds, and whether that engine runs chained
  // executions and waits for each transfer to land (its stores' too).
  bool serial = false, storesLanded = false;
  for (size_t e : sharedEngines) {
    const ProgramWalker &engine = walkers[e];
    uint32_t computeUnit =
        busiestComputeOf(machine, busyOfUnit,
                         machine.units[engine.unitIndex()].core)
            .value_or(busiestCompute);
    // Each execution's loads are charged their occupancy and one landing:
    // the waits for a slot overlap the landing and the compute (except
    // those before the compute's data).
    double shared = estimate.unitBusy[e] - engine.slotWaits +
                    engine.storeGroups * engine.loadLatency;
    auto [wait, sync] = landings.waitOf(computeUnit);
    if (wait > 0 && sync && exe.syncs[*sync].sender == engine.unitIndex())
      shared += std::min(engine.slotWaits,
                         engine.storeGroups *
                             engine.firstSignals.lookup(*sync).slotWaits);
    double chain = shared + busyOfUnit[computeUnit];
    if (engine.chainedExecutions > 0) {
      // Where it also runs skewed loops, their executions follow the
      // chained ones in program order, overlapped as a skewed engine's
      // are (skewedChain), with their share of the compute (the
      // executions taken alike).
      double skewedShare = engine.skewedGroups > 0
                               ? engine.skewedTrips / (engine.skewedTrips +
                                                       engine.chainedExecutions)
                               : 0;
      double computeBusy = busyOfUnit[computeUnit];
      chain = chainedExecutions(
          machine, engine, (1 - skewedShare) * computeBusy, handOverStalls,
          computeUnit, std::min(wait, executionHead(landings, engine)),
          landings.walkerOf(computeUnit));
      double skewed = skewedShare > 0
                          ? skewedChain(machine, landings, engine,
                                        skewedShare * computeBusy,
                                        entriesOn(machine, walkers, engine))
                          : 0;
      if (skewed > 0)
        chain += skewed - engine.storeLatency;
    }
    if (chain > estimate.busiest) {
      waits = false;
      serial = true;
      storesLanded = engine.chainedExecutions > 0 &&
                     machine.units[engine.unitIndex()].maxOutstanding <= 1;
      consider(estimate, chain,
               machine.units[engine.unitIndex()].name + " + compute");
    }
  }
  // The first load's and the last store's latency are not overlapped (the
  // serial sum holds the loads' already; the chains hold the stores' too
  // where the engine waits for each to land).
  estimate.latency = waits || storesLanded ? 0 : serial ? store : load + store;
  // Where an engine binds, the compute of the last data it loads follows
  // it, and, where it only loads, the last execution's stores (their
  // occupancy and slot waits too, not only the last one's latency).
  auto engineBinds = llvm::find_if(walkers, [&](const ProgramWalker &walker) {
    const MachineUnit &unit = machine.units[walker.unitIndex()];
    return (unit.roles & RoleDma) && unit.name == estimate.bottleneck;
  });
  if (engineBinds != walkers.end()) {
    // A skewed engine loads the executions ahead before it waits for the
    // first one's compute: of the first landing, only what outlasts those
    // loads (and the tokens to the compute and back) comes first.
    const ProgramWalker &engine = *engineBinds;
    if (!waits && !serial && engine.skewedGroups > 0 &&
        engine.storeGroups == 0 && engine.firstStoreWaitAt &&
        engine.firstFeedLeaves)
      estimate.latency =
          std::max(0.0, *engine.firstFeedLeaves + 2 * machine.syncLatency -
                            *engine.firstStoreWaitAt) +
          store;
    if (!waits && !serial && !engineBinds->stores)
      estimate.latency = load + std::max(store, landings.lastStores());
    estimate.latency += detail::lastCompute(machine, exe, walkers, busyOfUnit);
  }
  // A compute unit (or a unit of its stream) that binds starts when its
  // first entry's data has landed and ends before the last execution's
  // stores leave.
  // Where its feeds start on data resident in the scratchpad, no load
  // comes first and the stream works at its unit's pace meanwhile
  // (residentFill).
  auto fillOf = [&](uint32_t stream, double head, double busy) {
    double pace = std::max(1.0, busy / std::max(busyOfUnit[stream], 1.0));
    if (std::optional<double> resident =
            detail::residentFill(exe, walkers, landings, stream, pace))
      return *resident;
    return std::max(load, head);
  };
  std::optional<uint32_t> bound =
      streamBinds(machine, exe, estimate.bottleneck);
  if (!waits && !serial && bound) {
    auto [head, tail] =
        detail::fillAndDrain(machine, exe, walkers, landings, *bound);
    estimate.latency =
        fillOf(*bound, head, estimate.busiest) + std::max(store, tail);
  }
  estimate.cycles = estimate.busiest + estimate.latency;
  // So does every unit of a stream where something else binds (an engine's
  // chain that leaves a store unit's work for the last execution's stores
  // to follow), between its own core's loads and stores.
  // (A stream's units share its fill and drain: each found once.)
  llvm::DenseMap<std::pair<uint32_t, int32_t>, std::pair<double, double>>
      drains;
  for (auto [u, unit] : llvm::enumerate(machine.units)) {
    std::optional<uint32_t> stream = streamOf(machine, exe, u);
    if (!stream || busyOfUnit[u] <= 0 || unit.name == estimate.bottleneck)
      continue;
    auto [drain, fresh] = drains.try_emplace({*stream, unit.core});
    if (fresh)
      drain->second = detail::fillAndDrain(machine, exe, walkers, landings,
                                           *stream, unit.core);
    auto [head, tail] = drain->second;
    double latency =
        fillOf(*stream, head, busyOfUnit[u]) + std::max(store, tail);
    if (busyOfUnit[u] + latency > estimate.cycles) {
      estimate.busiest = busyOfUnit[u];
      estimate.latency = latency;
      estimate.cycles = busyOfUnit[u] + latency;
      estimate.bottleneck = unit.name;
    }
  }
  skewedChains(machine, walkers, busyOfUnit, landings, estimate);
  detail::slotBoundEngines(
      machine, walkers, load,
      [&](uint32_t sync) { return landings.landed(sync); }, estimate);
  if (!followTokens)
    return estimate;
  // Units that wait for one another's tokens in turn (a ring reduction's
  // steps) take the longest such chain at least.
  if (std::optional<detail::TokenChain> chain =
          detail::tokenChains(machine, exe, walkers);
      chain && chain->cycles > estimate.cycles) {
    estimate.busiest = estimate.cycles = chain->cycles;
    estimate.latency = 0;
    estimate.bottleneck = machine.units[chain->unit].name + " token chain";
  }
  return estimate;
}

KernelEstimate ktflow::machine::estimateKernel(const Machine &machine,
                                               const Executable &exe) {
  return wholeKernel(machine, exe, /*followTokens=*/true);
}

KernelEstimate ktflow::machine::estimateResources(const Machine &machine,
                                                  const Executable &exe) {
  return wholeKernel(machine, exe, /*followTokens=*/false);
}

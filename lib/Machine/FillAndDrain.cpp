//===- FillAndDrain.cpp - The estimate's fill and drain -------------------===//
//
// This file implements Landings, fillAndDrain and lastCompute
// (FillAndDrain.h) from what the walk of each unit program recorded
// (ProgramWalker.h).
//
//===----------------------------------------------------------------------===//

#include "FillAndDrain.h"

#include "llvm/ADT/DenseSet.h"

#include <algorithm>
#include <cmath>

using namespace ktflow::machine;
using namespace ktflow::machine::detail;

Landings::Landings(const Machine &machine, const Executable &exe,
                   llvm::ArrayRef<ProgramWalker> walkers,
                   const RouteCosts &routes)
    : machine(machine), exe(exe), routes(routes), walkers(walkers) {
  for (const ProgramWalker &walker : walkers)
    walkerOfUnit[walker.unitIndex()] = &walker;
}

double Landings::loadShare(const ProgramWalker &engine) const {
  return routes.deviceBandwidth(*engine.loadDevice, /*load=*/true,
                                engine.loadRoute, engine.unitIndex());
}

double Landings::storeShare(const ProgramWalker &engine) const {
  return routes.deviceBandwidth(*engine.storeDevice, /*load=*/false,
                                engine.storeRoute, engine.unitIndex());
}

double Landings::loadTime(const ProgramWalker &engine, double bytes) const {
  return routes.moveTime(engine.unitIndex(), *engine.loadDevice, /*load=*/true,
                         0, bytes, loadShare(engine));
}

double Landings::lastStoreTime(const ProgramWalker &engine,
                               double bytes) const {
  double total = std::max(engine.deviceStored, bytes);
  return routes.moveTime(engine.unitIndex(), *engine.storeDevice,
                         /*load=*/false, total - bytes, total,
                         storeShare(engine));
}

double Landings::landed(uint32_t sync) const {
  const ProgramWalker *sender = walkerOf(exe.syncs[sync].sender);
  if (!sender || !sender->loadDevice)
    return 0;
  auto first = sender->firstSignals.find(sync);
  if (first == sender->firstSignals.end())
    return 0;
  double at = 0;
  double share = loadShare(*sender);
  if (share > 0)
    at = loadTime(*sender, first->second.loaded) + sender->loadLatency;
  return std::max(at, first->second.at);
}

std::pair<double, std::optional<uint32_t>> Landings::waitOf(uint32_t unit,
                                                            bool eachToken) {
  auto &known = waitByUnit[eachToken];
  if (auto found = known.find(unit); found != known.end())
    return found->second;
  const ProgramWalker *compute = walkerOf(unit);
  if (!compute)
    return known[unit] = {0, std::nullopt};
  // The latest landing of each group's wait, less its least time before:
  // the group's longest wait. (A unit's receives are recorded at its
  // clock, which only advances: the first of them to wait longest is the
  // first of the first group to, whose channel is the answer.)
  llvm::ArrayRef<uint32_t> fifos = compute->fifosReceived();
  llvm::SmallVector<llvm::ArrayRef<std::pair<double, uint32_t>>, 4> latest(
      fifos.size());
  double wait = 0;
  std::optional<uint32_t> last;
  for (const WaitGroup &group : waitGroups(*compute)) {
    if (latest[group.fifo].empty()) {
      uint32_t fifo = compute->fifoId(fifos[group.fifo]);
      latest[group.fifo] =
          latestOf(*walkerOf(exe.fifos[fifo].producer), eachToken);
    }
    auto [at, sync] = latest[group.fifo][group.wait];
    if (at - group.before > wait) {
      wait = at - group.before;
      last = sync;
    }
  }
  return known[unit] = {wait, last};
}

double Landings::pacedWaitOf(uint32_t unit, double pace) {
  const ProgramWalker *compute = walkerOf(unit);
  if (!compute)
    return 0;
  llvm::ArrayRef<uint32_t> fifos = compute->fifosReceived();
  double wait = 0;
  for (const WaitGroup &group : waitGroups(*compute)) {
    uint32_t fifo = compute->fifoId(fifos[group.fifo]);
    auto latest =
        latestOf(*walkerOf(exe.fifos[fifo].producer), /*eachToken=*/true);
    wait = std::max(wait, latest[group.wait].first - group.before * pace);
  }
  return wait;
}

llvm::ArrayRef<Landings::WaitGroup>
Landings::waitGroups(const ProgramWalker &compute) {
  llvm::ArrayRef<uint32_t> fifos = compute.fifosReceived();
  // What the groups read through the compute unit's names: per FIFO, the
  // records of the walk that loads it and its name there.
  std::vector<std::pair<const void *, uint32_t>> names;
  for (uint32_t walked : fifos) {
    uint32_t fifo = compute.fifoId(walked);
    const ProgramWalker *feed = walkerOf(exe.fifos[fifo].producer);
    names.push_back(
        feed ? std::make_pair(feed->recordsId(), feed->walkedFifo(fifo))
             : std::make_pair(nullptr, UINT32_MAX));
  }
  for (const FoundGroups &found : groupsFound)
    if (found.compute == compute.recordsId() && found.names == names)
      return found.groups;
  FoundGroups &found = groupsFound.emplace_back();
  found.compute = compute.recordsId();
  found.names = std::move(names);
  llvm::DenseMap<std::pair<uint32_t, size_t>, size_t> groupOf;
  std::optional<uint32_t> walked;
  uint32_t place = 0;
  const ProgramWalker::FifoLoads *loads = nullptr;
  for (const ProgramWalker::Receive &receive : compute.receives()) {
    if (receive.fifo != walked) {
      walked = receive.fifo;
      place = llvm::find(fifos, receive.fifo) - fifos.begin();
      uint32_t fifo = compute.fifoId(receive.fifo);
      const ProgramWalker *feed = walkerOf(exe.fifos[fifo].producer);
      loads = feed ? feed->loadsOf(fifo) : nullptr;
    }
    const ProgramWalker::FifoLoad *load =
        loads ? loads->at(receive.offset) : nullptr;
    if (!load || load->waits == 0)
      continue;
    auto [group, fresh] =
        groupOf.try_emplace({place, load->waits - 1}, found.groups.size());
    if (fresh)
      found.groups.push_back({place, load->waits - 1, receive.before});
    else
      found.groups[group->second].before =
          std::min(found.groups[group->second].before, receive.before);
  }
  return found.groups;
}

double Landings::landed(uint32_t sync, size_t nth, size_t tokens) {
  if (nth == 0)
    return landed(sync);
  const ProgramWalker *sender = walkerOf(exe.syncs[sync].sender);
  if (!sender || !sender->loadDevice)
    return 0;
  auto [found, fresh] = tokensOf.try_emplace(sender->unitIndex());
  if (fresh)
    for (const ProgramWalker::ChainEvent &e : sender->chainEvents())
      if (e.kind == ProgramWalker::ChainEvent::Signal)
        found->second[sender->chainId(e)].push_back({e.bytes, e.at});
  auto sent = found->second.find(sync);
  if (sent == found->second.end() || sent->second.size() != tokens)
    return landed(sync);
  auto [bytes, at] = sent->second[nth];
  double share = loadShare(*sender);
  return std::max(
      share > 0 ? loadTime(*sender, bytes) + sender->loadLatency : 0, at);
}

llvm::ArrayRef<std::pair<double, uint32_t>>
Landings::latestOf(const ProgramWalker &feed, bool eachToken) {
  auto [found, fresh] = latestByFeed[eachToken].try_emplace(&feed);
  std::vector<std::pair<double, uint32_t>> &latest = found->second;
  if (!fresh)
    return latest;
  // Each wait's place among the waits on its channel, and their number.
  llvm::DenseMap<uint32_t, size_t> waits, waited;
  if (eachToken)
    for (size_t i = 0; i < feed.waits(); ++i)
      ++waits[feed.waitedFor(i)];
  for (size_t i = 0; i < feed.waits(); ++i) {
    uint32_t sync = feed.waitedFor(i);
    std::pair<double, uint32_t> here{
        eachToken ? landed(sync, waited[sync]++, waits[sync]) : landed(sync),
        sync};
    latest.push_back(i && latest[i - 1].first >= here.first ? latest[i - 1]
                                                            : here);
  }
  return latest;
}

double Landings::lastStores(std::optional<int32_t> core) {
  if (!lastStoresByCore) {
    auto &[byCore, all] = lastStoresByCore.emplace();
    all = 0;
    for (const ProgramWalker &walker : walkers)
      for (uint32_t sync : walker.signalledAfterLastStore) {
        const ProgramWalker *engine = walkerOf(exe.syncs[sync].receiver);
        if (!engine || !engine->storeDevice)
          continue;
        double &last = byCore[machine.units[engine->unitIndex()].core];
        auto wait = engine->lastWaits.find(sync);
        if (wait != engine->lastWaits.end()) {
          double share = storeShare(*engine);
          if (share > 0)
            last =
                std::max(last, lastStoreTime(*engine, engine->storedBytes -
                                                          wait->second.stored) +
                                   engine->storeLatency);
          if (walker.stored)
            last = std::max(last, engine->finishedAt - wait->second.clock);
        }
        all = std::max(all, last);
      }
  }
  auto &[byCore, all] = *lastStoresByCore;
  return core ? byCore.lookup(*core) : all;
}

std::pair<double, double>
detail::fillAndDrain(const Machine &machine, const Executable &exe,
                     llvm::ArrayRef<ProgramWalker> walkers, Landings &landings,
                     uint32_t bound, std::optional<int32_t> core) {
  double head = landings.waitOf(bound, /*eachToken=*/true).first;
  for (const ProgramWalker &walker : walkers)
    if (walker.fed() &&
        (!core || machine.units[walker.unitIndex()].core == *core))
      for (uint32_t sync : walker.waitedBeforeFirstLoad)
        head = std::max(head, landings.landed(sync));
  return {head, landings.lastStores(core)};
}

std::optional<double>
detail::residentFill(const Executable &exe,
                     llvm::ArrayRef<ProgramWalker> walkers, Landings &landings,
                     uint32_t bound, double pace) {
  bool feeds = false;
  for (const ProgramWalker &walker : walkers) {
    if (walker.fed() != bound)
      continue;
    if (!walker.waitedBeforeFirstLoad.empty())
      return std::nullopt;
    feeds = true;
  }
  if (!feeds)
    return std::nullopt;
  return landings.pacedWaitOf(bound, pace);
}

double detail::lastCompute(const Machine &machine, const Executable &exe,
                           llvm::ArrayRef<ProgramWalker> walkers,
                           llvm::ArrayRef<double> busyOfUnit) {
  llvm::DenseSet<uint32_t> loaders;
  for (const ProgramWalker &walker : walkers)
    if (walker.loadDevice)
      loaders.insert(walker.unitIndex());
  double last = 0;
  for (const ProgramWalker &walker : walkers) {
    std::optional<uint32_t> compute = walker.fed();
    if (!compute || walker.fedBytes <= 0)
      continue;
    std::optional<double> after;
    for (const auto &[sync, wait] : walker.lastWaits)
      if (loaders.contains(exe.syncs[sync].sender))
        after = std::min(after.value_or(INFINITY), walker.fedBytes - wait.fed);
    if (after)
      last = std::max(last, *after / walker.fedBytes * busyOfUnit[*compute]);
  }
  return last;
}

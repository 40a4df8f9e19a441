//===- Routes.cpp - Where transfers go and when they may use a path -------===//
//
// This file resolves, once per simulation, the route of every transfer
// instruction: the links (and memories with a bandwidth of their own) a
// DMA, load or store crosses, their total latency and the chunk size it
// advances by. A remote DMA reads its source through the unit's datapaths
// and then crosses the core interconnect, one link per hop (each direction
// between two neighbours is its own link, `link_bandwidth` bytes per cycle,
// `hop_latency` cycles), into the other core's scratchpad. Instructions between
// the same unit and memories share one route. It also reserves a route's
// resources for a chunk: each resource is busy for its own bytes/bandwidth,
// within the window of the slowest.
//
//===----------------------------------------------------------------------===//

#include "Engine.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cmath>

using namespace ktflow::machine;
using namespace ktflow::sim;
using namespace ktflow::sim::detail;

/// The memories a Dma, RemoteDma, Load, Store, Fill or ReadIndex
/// instruction moves between and its kind (0 DMA, 1 load, 2 store or fill:
/// unit -> memory, 3 remote DMA, 4 index read: memory -> unit), as the
/// route cache keys them; false for other instructions.
static bool transferEnds(const Inst &in, uint32_t &memA, uint32_t &memB,
                         int &kind) {
  if (in.op == Opcode::Dma || in.op == Opcode::RemoteDma) {
    memA = in.a, memB = in.c, kind = in.op == Opcode::Dma ? 0 : 3;
  } else if (in.op == Opcode::Load) {
    memA = in.b, memB = in.a, kind = 1;
  } else if (in.op == Opcode::Store) {
    memA = in.b, memB = 0, kind = 2;
  } else if (in.op == Opcode::Fill) {
    memA = in.a, memB = 0, kind = 2;
  } else if (in.op == Opcode::ReadIndex) {
    memA = in.b, memB = 0, kind = 4;
  } else {
    return false;
  }
  return true;
}

void Engine::addInterconnectPath(Route &route, uint32_t from, uint32_t to) {
  const MachineInterconnect &ic = machine.interconnect;
  std::vector<uint32_t> cores = ic.path(from, to);
  for (size_t i = 1; i < cores.size(); ++i) {
    auto [it, added] = interconnectLinks.try_emplace(
        {cores[i - 1], cores[i]}, static_cast<uint32_t>(resources.size()));
    if (added) {
      Resource link;
      link.ticksPerByte = kTicksPerCycle / ic.linkBandwidth;
      resources.push_back(link);
    }
    route.resources.push_back(it->second);
    route.interconnectHops.push_back(it->second);
    route.latency += cyclesToTicks(ic.hopLatency);
  }
}

llvm::Expected<Route> Engine::buildRoute(const UnitProgram &prog,
                                         const Inst &in, uint32_t memA,
                                         uint32_t memB, int kind) {
  NodeRef unit{NodeRef::Unit, prog.unit};
  auto memNode = [](uint32_t m) { return NodeRef{NodeRef::Memory, m}; };
  Route route;
  uint32_t maxGranule = 0;
  auto addPath = [&](NodeRef from, NodeRef to) -> llvm::Error {
    auto path = machine.route(from, to);
    if (!path)
      return llvm::createStringError("%s: no datapath route from %s to %s",
                                     machine.units[prog.unit].name.c_str(),
                                     machine.nodeName(from).c_str(),
                                     machine.nodeName(to).c_str());
    for (uint32_t link : *path) {
      route.resources.push_back(link);
      route.latency += cyclesToTicks(machine.links[link].latency);
      for (uint32_t g : machine.links[link].granularities)
        maxGranule = std::max(maxGranule, g);
    }
    return llvm::Error::success();
  };
  auto addMemory = [&](uint32_t m) {
    if (machine.memories[m].bandwidth > 0)
      route.resources.push_back(machine.links.size() + m);
  };
  if (kind == 3) {
    // Validated programs name memories and units of the machine; whether
    // they are in two cores joined by an interconnect is checked here, as
    // the emitter does.
    const MachineUnit &self = machine.units[prog.unit];
    int32_t to = machine.memories[memB].core;
    if (machine.interconnect.topology == MachineInterconnect::None ||
        !(machine.interconnect.linkBandwidth > 0))
      return llvm::createStringError(
          "%s: remote dma: the device has no interconnect between cores",
          self.name.c_str());
    if (self.core < 0 || to < 0 || to == self.core)
      return llvm::createStringError(
          "%s: remote dma to %s: needs a scratchpad of another core than "
          "the unit's",
          self.name.c_str(), machine.memories[memB].name.c_str());
    addMemory(memA);
    if (llvm::Error e = addPath(memNode(memA), unit))
      return std::move(e);
    addInterconnectPath(route, self.core, to);
    addMemory(memB);
  } else if (kind == 0) {
    addMemory(memA);
    if (llvm::Error e = addPath(memNode(memA), unit))
      return std::move(e);
    if (llvm::Error e = addPath(unit, memNode(memB)))
      return std::move(e);
    addMemory(memB);
  } else if (kind == 1) {
    addMemory(memA);
    if (llvm::Error e = addPath(memNode(memA), unit))
      return std::move(e);
    // The entry then crosses the FIFO's own datapath to the consumer.
    const FifoDesc &fifo = exe.fifos[in.a];
    route.resources.push_back(fifo.link);
    route.latency += cyclesToTicks(machine.links[fifo.link].latency);
  } else if (kind == 4) {
    addMemory(memA);
    if (llvm::Error e = addPath(memNode(memA), unit))
      return std::move(e);
  } else {
    if (llvm::Error e = addPath(unit, memNode(memA)))
      return std::move(e);
    addMemory(memA);
  }
  route.chunkBytes =
      std::clamp<uint32_t>(maxGranule ? maxGranule : 128, 16, 65536);
  return route;
}

llvm::Error Engine::resolveRoutes(const UnitProgram &prog) {
  uint32_t programIndex = &prog - exe.programs.data();
  for (uint32_t pc = 0; pc < prog.insts.size(); ++pc) {
    const Inst &in = prog.insts[pc];
    uint32_t memA, memB;
    int kind;
    if (!transferEnds(in, memA, memB, kind))
      continue;
    auto key = std::make_tuple(prog.unit, memA, memB, kind);
    auto found = routeCache.find(key);
    if (found != routeCache.end()) {
      instRoute[{programIndex, pc}] = found->second;
      continue;
    }
    llvm::Expected<Route> route = buildRoute(prog, in, memA, memB, kind);
    if (!route)
      return route.takeError();
    route->uses = distinctUses(route->resources);
    routes.push_back(std::move(*route));
    routeCache[key] = routes.size() - 1;
    instRoute[{programIndex, pc}] = routes.size() - 1;
  }
  return llvm::Error::success();
}

const Route *Engine::routeFor(uint32_t program, uint32_t pc) const {
  auto it = instRoute.find({program, pc});
  return it == instRoute.end() ? nullptr : &routes[it->second];
}

void Resource::prune(Tick until) {
  if (head == busy.size())
    return;
  while (head < busy.size() && busy[head].second <= until)
    floor = busy[head++].second;
  // Drop the intervals behind `head` once they are most of the vector.
  if (head > 16 && 2 * head > busy.size()) {
    busy.erase(busy.begin(), busy.begin() + head);
    head = 0;
  }
}

Tick Resource::earliestFree(Tick from, Tick length) const {
  Tick at = std::max(from, floor);
  if (head == busy.size() || busy.back().second <= at)
    return at;
  auto it = std::upper_bound(
      busy.begin() + head, busy.end(), at,
      [](Tick t, const std::pair<Tick, Tick> &b) { return t < b.second; });
  for (; it != busy.end() && it->first < at + length; ++it)
    at = std::max(at, it->second);
  return at;
}

void Resource::add(Tick start, Tick length) {
  Tick end = start + length;
  // Most reservations extend or follow the last.
  if (head == busy.size() || busy.back().second < start) {
    busy.emplace_back(start, end);
    return;
  }
  if (busy.back().second == start) {
    busy.back().second = end;
    return;
  }
  auto first = busy.begin() + head;
  auto next = std::lower_bound(
      first, busy.end(), start,
      [](const std::pair<Tick, Tick> &b, Tick t) { return b.first < t; });
  bool joinsPrev = next != first && std::prev(next)->second == start;
  bool joinsNext = next != busy.end() && next->first == end;
  if (joinsPrev && joinsNext) {
    std::prev(next)->second = next->second;
    busy.erase(next);
  } else if (joinsPrev) {
    std::prev(next)->second = end;
  } else if (joinsNext) {
    next->first = start;
  } else {
    busy.insert(next, {start, end});
  }
}

std::vector<RouteUse>
ktflow::sim::detail::distinctUses(llvm::ArrayRef<uint32_t> resources) {
  std::vector<RouteUse> uses;
  for (uint32_t index : resources) {
    auto it = llvm::find_if(
        uses, [&](const RouteUse &use) { return use.resource == index; });
    if (it == uses.end())
      uses.push_back({index, 1});
    else
      ++it->crossings;
  }
  return uses;
}

std::pair<Tick, Tick>
Engine::reserve(UnitState &u, llvm::ArrayRef<RouteUse> uses, uint64_t bytes) {
  // A chunk holds its route for the bottleneck time `occupancy`; a faster
  // resource is busy for only part of that window and may serve it anywhere
  // in it. The chunk starts at the earliest time from `u.now` at which every
  // resource has a free window of its own time inside [start, start +
  // occupancy): shared memories thus serve several units per cycle up to
  // their bandwidth, as a fluid model would, and a chunk held back by one
  // resource leaves the others free until it starts. Each resource's window
  // is a lower bound on the start (no earlier start lets it end sooner), so
  // raising the start to the latest of them until all fit finds the
  // earliest. A resource the route crosses twice (a copy within one memory)
  // serves both crossings in one window of their summed time (the route's
  // uses, deduplicated when it was built).
  llvm::SmallVector<std::pair<Resource *, Tick>, 16> need;
  Tick occupancy = 0;
  for (RouteUse use : uses) {
    Resource &r = resources[use.resource];
    Tick t = static_cast<Tick>(
        std::ceil(static_cast<double>(bytes) * r.ticksPerByte - 1e-6));
    occupancy = std::max(occupancy, t);
    if (!t)
      continue;
    r.prune(eventTime);
    need.push_back({&r, t * use.crossings});
  }
  Tick window = occupancy;
  for (const auto &n : need)
    window = std::max(window, n.second);
  // Round the resources until each of the last n fits from `start` (the
  // one that raised it fits from the new start).
  size_t n = need.size();
  llvm::SmallVector<Tick, 16> slots(n);
  Tick start = u.now;
  for (size_t i = 0, fitting = 0; fitting < n; i = i + 1 == n ? 0 : i + 1) {
    auto [r, t] = need[i];
    slots[i] = r->earliestFree(start, t);
    if (slots[i] + t > start + window) {
      start = slots[i] + t - window;
      fitting = 1;
    } else {
      ++fitting;
    }
  }
  for (size_t i = 0; i < n; ++i)
    need[i].first->add(slots[i], need[i].second);
  u.stall += start - u.now;
  return {start, occupancy};
}

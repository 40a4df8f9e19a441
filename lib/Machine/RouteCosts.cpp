//===- RouteCosts.cpp - The routes and device memories the walks share ----===//
//
// This file implements RouteCosts and deviceMemoriesMoved (RouteCosts.h).
//
//===----------------------------------------------------------------------===//

#include "RouteCosts.h"
#include "SameWalks.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>

using namespace ktflow::machine;
using namespace ktflow::machine::detail;

DeviceMemories detail::deviceMemoriesMoved(const Machine &machine,
                                           const UnitProgram &program) {
  const std::vector<Inst> &insts = program.insts;
  auto isDma = [](const Inst &in) {
    return in.op == Opcode::Dma || in.op == Opcode::RemoteDma;
  };
  auto device = [&](uint32_t memory) {
    return machine.memories[memory].core < 0;
  };
  // The constants are evaluated once, up to the loops around the first
  // DMA of each memory and direction (evaluated up to each DMA asked
  // about, an engine's first store deep in its grid loop, the estimate
  // took 3 % longer), and again up to the last DMA if one of those is in
  // a loop of no trip.
  DeviceMemories first, moved;
  size_t end = 0, last = 0;
  llvm::SmallVector<size_t, 8> open;
  for (auto [pc, in] : llvm::enumerate(insts)) {
    if (in.op == Opcode::LoopBegin)
      open.push_back(pc);
    else if (in.op == Opcode::LoopEnd && !open.empty())
      open.pop_back();
    if (!isDma(in))
      continue;
    bool from = device(in.a) && first.from.insert(in.a).second;
    bool to = device(in.c) && first.to.insert(in.c).second;
    if ((from || to) && !open.empty())
      end = std::max(end, open.back() + 1);
    last = pc + 1;
  }
  std::optional<Constants> constants;
  bool skippedAny = false;
  for (size_t pc = 0; pc < last; ++pc) {
    const Inst &in = insts[pc];
    if (!isDma(in))
      continue;
    bool from = device(in.a) && !moved.from.contains(in.a);
    bool to = device(in.c) && !moved.to.contains(in.c);
    if (!from && !to)
      continue;
    // Past a skipped DMA, the others asked about are not the first ones.
    if (!constants || (skippedAny && end < last))
      constants.emplace(program, end = skippedAny ? last : end);
    // The outermost loop around `pc` that gives it no trip, skipped (the
    // loops around it begin before `end`).
    std::optional<size_t> skipped;
    for (size_t at = 0; at < std::min(pc, end) && !skipped; ++at)
      if (insts[at].op == Opcode::LoopBegin && pc < insts[at].e &&
          constants->counts(at) && constants->tripsAt(at) <= 0)
        skipped = insts[at].e;
    if (skipped) {
      pc = *skipped;
      skippedAny = true;
      continue;
    }
    if (from)
      moved.from.insert(in.a);
    if (to)
      moved.to.insert(in.c);
  }
  return moved;
}

RouteCosts::RouteCosts(const Machine &machine, const Executable &exe)
    : machine(machine) {
  for (const UnitProgram &program : exe.programs) {
    // An idle lane's engines have their DMAs in a grid loop of no trip.
    auto [from, to] = deviceMemoriesMoved(machine, program);
    for (uint32_t memory : from)
      ++loaders[memory];
    for (uint32_t memory : to)
      ++storers[memory];
  }
}

double RouteCosts::deviceBandwidth(uint32_t memory, bool load, double route,
                                   std::optional<uint32_t> unit,
                                   double movedBefore) const {
  if (unit)
    if (auto set = shares.find(shareKey(*unit, memory, load));
        set != shares.end()) {
      double share = movedBefore < set->second.inStepBytes
                         ? set->second.inStepShare
                         : set->second.share;
      return route > 0 ? std::min(route, share) : share;
    }
  double bandwidth = machine.memories[memory].bandwidth;
  unsigned users = (load ? loaders : storers).lookup(memory);
  if (bandwidth <= 0 || users == 0)
    return route;
  return route > 0 ? std::min(route, bandwidth / users) : bandwidth / users;
}

double RouteCosts::moveTime(uint32_t unit, uint32_t memory, bool load,
                            double from, double to, double share) const {
  auto set = shares.find(shareKey(unit, memory, load));
  if (set == shares.end())
    return share > 0 ? (to - from) / share : 0;
  const MoveSchedule &schedule = set->second.schedule;
  return schedule.timeOf(to) - schedule.timeOf(from);
}

RouteCost RouteCosts::search(NodeRef from, NodeRef to) {
  auto [known, inserted] = costs.try_emplace({key(from), key(to)});
  if (!inserted)
    return known->second;
  RouteCost cost;
  if (linksOut.empty())
    linksOut = machine.linksOutOfNodes();
  if (std::optional<std::vector<uint32_t>> route =
          machine.route(from, to, &linksOut)) {
    cost.bandwidth = INFINITY;
    for (uint32_t l : *route) {
      cost.bandwidth = std::min(cost.bandwidth, machine.links[l].bandwidth);
      cost.latency += machine.links[l].latency;
    }
  }
  known->second = cost;
  return cost;
}

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
  auto device = [&](uint32_t memory) {
    return machine.memories[memory].core < 0;
  };
  // The constants are evaluated once, up to the loops around the first
  // DMA of each memory and direction (evaluated up to each DMA asked
  // about, an engine's first store deep in its grid loop, the estimate
  // took 3 % longer), and again up to the last DMA if one of those is in
  // a loop of no trip.
  //
  // One pass over the program lists its DMAs and loops; the rest reads
  // those lists (a second pass over the program for the DMAs, and one
  // from its start for the loops around each DMA asked about, were 2 %
  // of swiglu_ffn_64x1024x4096's estimate on spyre_like: 320 programs of
  // up to 5,000 instructions, a fifth with a DMA).
  DeviceMemories first, moved;
  size_t end = 0;
  llvm::SmallVector<size_t, 8> open;
  llvm::SmallVector<size_t, 16> dmas, loops;
  auto bit = [](Opcode op) { return 1u << static_cast<unsigned>(op); };
  static_assert(kNumOpcodes <= 32, "an opcode is a bit of a word");
  const uint32_t asked = bit(Opcode::LoopBegin) | bit(Opcode::LoopEnd) |
                         bit(Opcode::Dma) | bit(Opcode::RemoteDma);
  for (size_t pc = 0, size = insts.size(); pc < size; ++pc) {
    Opcode op = insts[pc].op;
    if (static_cast<unsigned>(op) >= kNumOpcodes || !(bit(op) & asked))
      continue;
    if (op == Opcode::LoopBegin) {
      open.push_back(pc);
      loops.push_back(pc);
      continue;
    }
    if (op == Opcode::LoopEnd) {
      if (!open.empty())
        open.pop_back();
      continue;
    }
    const Inst &in = insts[pc]; // A DMA.
    bool from = device(in.a) && first.from.insert(in.a).second;
    bool to = device(in.c) && first.to.insert(in.c).second;
    if ((from || to) && !open.empty())
      end = std::max(end, open.back() + 1);
    dmas.push_back(pc);
  }
  size_t last = dmas.empty() ? 0 : dmas.back() + 1;
  std::optional<Constants> constants;
  bool skippedAny = false;
  for (size_t k = 0; k < dmas.size(); ++k) {
    size_t pc = dmas[k];
    const Inst &in = insts[pc];
    bool from = device(in.a) && !moved.from.contains(in.a);
    bool to = device(in.c) && !moved.to.contains(in.c);
    if (!from && !to)
      continue;
    // Past a skipped DMA, the others asked about are not the first ones.
    // (Again up to the last DMA, on the shape found for the first.)
    if (!constants || (skippedAny && end < last)) {
      std::shared_ptr<const ConstantsShape> shape =
          constants ? constants->getShape()
                    : std::make_shared<const ConstantsShape>(program);
      constants.emplace(program, std::move(shape),
                        end = skippedAny ? last : end);
    }
    // The outermost loop around `pc` that gives it no trip, skipped (the
    // loops around it begin before `end`).
    std::optional<size_t> skipped;
    for (size_t at : loops) {
      if (at >= std::min(pc, end) || skipped)
        break;
      if (pc < insts[at].e && constants->counts(at) &&
          constants->tripsAt(at) <= 0)
        skipped = insts[at].e;
    }
    if (skipped) {
      // On past the loop's DMAs.
      while (k + 1 < dmas.size() && dmas[k + 1] <= *skipped)
        ++k;
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

//===- RouteCosts.h - The routes and memories the walks share ---*- C++ -*-===//
//
// This file declares what the walks of one estimate (ProgramWalker.h) ask
// of the machine as a whole: each route's cost, searched once, and each
// device memory's bandwidth shared by the programs that move data from or
// to it.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_MACHINE_ROUTECOSTS_H
#define KTFLOW_LIB_MACHINE_ROUTECOSTS_H

#include "WaterFill.h"

#include "ktflow/Machine/Estimate.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <array>
#include <cmath>
#include <optional>
#include <vector>

namespace ktflow::machine::detail {
/// The least bandwidth and summed latency of a route.
struct RouteCost {
  double bandwidth = 0;
  double latency = 0;
};

/// The cost of each route the walks of one estimate take, each searched
/// (Machine::route, a breadth-first search over the links out of each
/// node, listed once) once: every transfer of every walked iteration asks
/// again, and a tiny kernel's lanes ask for a thousand routes.
class RouteCosts {
public:
  RouteCosts(const Machine &machine, const Executable &exe);
  RouteCost operator()(NodeRef from, NodeRef to) {
    uint64_t x = key(from), y = key(to);
    Recent &slot =
        recent[(from.index * 37 + to.index * 2 + from.kind) % kRecent];
    if (slot.from != x || slot.to != y)
      slot = {x, y, search(from, to)};
    return slot.cost;
  }
  /// The bandwidth of a DMA between device memory `memory` and a core, at
  /// most its route's `route` (where known, above 0): the memory's
  /// bandwidth shared by the programs with a DMA from it (`load`) or to it
  /// that may run. A kernel's lanes run the same programs and move their
  /// data at once, each at its share: spyre_like's 32 DMA_IN engines get
  /// 32 of DDR's 1024 B/cycle, a quarter of their 128 B/cycle route. The
  /// walk's DMAs and the fill and drain (Landings) both move at it.
  /// Where the engines move different amounts or idle
  /// (shareDeviceMemories), `unit`'s share as they finish or idle, not the
  /// equal one, for a DMA that starts after the unit moved `movedBefore`.
  double deviceBandwidth(uint32_t memory, bool load, double route,
                         std::optional<uint32_t> unit = std::nullopt,
                         double movedBefore = INFINITY) const;
  /// The programs with a DMA from (`load`) or to device memory `memory`
  /// that may run.
  unsigned users(uint32_t memory, bool load) const {
    return (load ? loaders : storers).lookup(memory);
  }
  /// Gives `unit`'s DMAs from (`load`) or to `memory` the share `share`
  /// (WaterFill.h) instead of the memory's bandwidth over its users, but
  /// `inStepShare` for those that start before it moved `inStepBytes`.
  void setShare(uint32_t unit, uint32_t memory, bool load, double share,
                MoveSchedule schedule, double inStepBytes = 0,
                double inStepShare = 0) {
    shares[shareKey(unit, memory, load)] = {share, std::move(schedule),
                                            inStepBytes, inStepShare};
    sharedUnits.insert(unit);
  }
  /// Whether `unit` has a share set (setShare) for some memory: else its
  /// DMAs move as they did before any was set.
  bool hasShare(uint32_t unit) const { return sharedUnits.contains(unit); }
  /// The cycles `unit` takes to move its bytes `from` to `to` (in the
  /// order it moves them) from (`load`) or to `memory`: by its schedule
  /// where set (setShare), else at `share`.
  double moveTime(uint32_t unit, uint32_t memory, bool load, double from,
                  double to, double share) const;

private:
  static uint64_t key(NodeRef node) {
    return uint64_t(node.kind) << 32 | node.index;
  }
  /// The route's cost, found first where it is not.
  RouteCost search(NodeRef from, NodeRef to);
  const Machine &machine;
  llvm::DenseMap<std::pair<uint64_t, uint64_t>, RouteCost> costs;
  /// The routes asked for last, by a hash of their ends: each load, store
  /// and DMA of a walk asks for its route, and the hash map's lookup was
  /// 3 % of layernorm_1151x8192's estimate on sample_device.
  struct Recent {
    uint64_t from = UINT64_MAX, to = UINT64_MAX;
    RouteCost cost;
  };
  static constexpr size_t kRecent = 64;
  std::array<Recent, kRecent> recent;
  std::vector<std::vector<uint32_t>> linksOut;
  /// Per device memory, the programs with a DMA from it and to it that
  /// may run.
  llvm::DenseMap<uint32_t, unsigned> loaders, storers;
  static uint64_t shareKey(uint32_t unit, uint32_t memory, bool load) {
    return uint64_t(unit) << 32 | uint64_t(memory) << 1 | load;
  }
  /// The shares set (setShare), each with when its engine moves its bytes.
  struct SetShare {
    double share;
    MoveSchedule schedule;
    double inStepBytes, inStepShare;
  };
  llvm::DenseMap<uint64_t, SetShare> shares;
  llvm::DenseSet<uint32_t> sharedUnits;
};

/// The device memories a program moves data from and to.
struct DeviceMemories {
  llvm::SmallDenseSet<uint32_t, 2> from, to;
};

/// Those `program` moves data from and to by a DMA that may run: inside no
/// loop whose bounds are constants that give it no trip (the grid loop of
/// a lane the grid leaves idle).
DeviceMemories deviceMemoriesMoved(const Machine &machine,
                                   const UnitProgram &program);
} // namespace ktflow::machine::detail

#endif // KTFLOW_LIB_MACHINE_ROUTECOSTS_H

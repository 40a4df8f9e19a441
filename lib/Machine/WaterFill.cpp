//===- WaterFill.cpp - Device-memory shares as engines finish -------------===//
//
// This file implements waterFilledShares (WaterFill.h): from one engine
// finishing to the next, each engine still moving gets an equal part of
// the memory (at most its cap, the rest going to the others); and
// idleInStep, the memory's idle cycles where its engines gather in step.
//
//===----------------------------------------------------------------------===//

#include "WaterFill.h"

#include "ProgramWalker.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cmath>

using namespace ktflow::machine::detail;

/// The bandwidth each engine of `moving` gets of `bandwidth` while it
/// moves: equal parts, the engines with the lowest caps first, none above
/// its cap.
static void rates(double bandwidth, llvm::ArrayRef<double> caps,
                  llvm::SmallVectorImpl<size_t> &moving,
                  std::vector<double> &rate) {
  auto cap = [&](size_t e) { return caps[e] > 0 ? caps[e] : INFINITY; };
  llvm::sort(moving, [&](size_t a, size_t b) { return cap(a) < cap(b); });
  double left = bandwidth;
  for (auto [k, e] : llvm::enumerate(moving)) {
    rate[e] = std::min(cap(e), left / double(moving.size() - k));
    left -= rate[e];
  }
}

/// rates, each engine moving `duty` of the time: one moving shares the
/// bandwidth with as many others as move at once, 1 + their duties, and
/// one above its cap moves at it, leaving the others all but its cap
/// times its duty. (Equal duties of 1 give rates'.)
static void ratesAtDuties(double bandwidth, llvm::ArrayRef<double> caps,
                          llvm::ArrayRef<double> duty,
                          llvm::ArrayRef<size_t> moving,
                          std::vector<double> &rate) {
  llvm::SmallVector<size_t> uncapped(moving.begin(), moving.end());
  double left = bandwidth;
  for (bool capped = true; capped;) {
    double duties = 0;
    for (size_t e : uncapped)
      duties += duty[e];
    for (size_t e : uncapped)
      rate[e] = left / (1 + std::max(duties - duty[e], 0.0));
    capped = false;
    llvm::erase_if(uncapped, [&](size_t e) {
      if (caps[e] <= 0 || rate[e] < caps[e])
        return false;
      rate[e] = caps[e];
      left -= caps[e] * duty[e];
      capped = true;
      return true;
    });
  }
}

double MoveSchedule::timeOf(double bytes) const {
  // The segment from the last point with fewer bytes (or as many, the
  // latest: an engine starts moving at its last point with none).
  for (size_t i = 1; i < points.size(); ++i) {
    auto [t0, b0] = points[i - 1];
    auto [t1, b1] = points[i];
    if (bytes < b1 || i + 1 == points.size())
      return b1 > b0 ? t0 + (bytes - b0) * (t1 - t0) / (b1 - b0) : t1;
  }
  return points.empty() ? 0 : points.back().first;
}

/// waterFilledShares with each engine moving `duty` of the time.
static std::vector<double>
sharesAtDuties(double bandwidth, llvm::ArrayRef<double> bytes,
               llvm::ArrayRef<double> caps, llvm::ArrayRef<double> starts,
               llvm::ArrayRef<double> duty,
               std::vector<MoveSchedule> *schedules) {
  size_t n = bytes.size();
  auto start = [&](size_t e) { return starts.empty() ? 0.0 : starts[e]; };
  std::vector<double> share(n, 0), rate(n, 0), left(bytes.begin(), bytes.end());
  llvm::SmallVector<size_t> moving, waiting;
  for (size_t e = 0; e < n; ++e)
    moving.push_back(e);
  // An engine with no bytes takes its part of all of them moving.
  auto ratesNow = [&] {
    if (duty.empty())
      rates(bandwidth, caps, moving, rate);
    else
      ratesAtDuties(bandwidth, caps, duty, moving, rate);
  };
  ratesNow();
  for (size_t e = 0; e < n; ++e)
    share[e] = rate[e];
  moving.clear();
  for (size_t e = 0; e < n; ++e)
    if (bytes[e] > 0)
      waiting.push_back(e);
  if (schedules) {
    schedules->assign(n, {});
    for (MoveSchedule &schedule : *schedules)
      schedule.points.push_back({0, 0});
  }
  double now = 0;
  while (!moving.empty() || !waiting.empty()) {
    // The engines that start now join those moving.
    double next = INFINITY;
    llvm::erase_if(waiting, [&](size_t e) {
      if (start(e) > now) {
        next = std::min(next, start(e));
        return false;
      }
      moving.push_back(e);
      if (schedules && now > 0)
        (*schedules)[e].points.push_back({now, 0});
      return true;
    });
    if (moving.empty()) {
      now = next;
      continue;
    }
    ratesNow();
    double step = next - now;
    for (size_t e : moving)
      step = std::min(step, left[e] / rate[e]);
    now += step;
    for (size_t e : moving) {
      left[e] -= rate[e] * step;
      if (schedules)
        (*schedules)[e].points.push_back(
            {now, bytes[e] - std::max(left[e], 0.0)});
    }
    // The engines whose bytes are (within rounding) moved finish now.
    llvm::erase_if(moving, [&](size_t e) {
      if (left[e] > 1e-9 * bytes[e])
        return false;
      share[e] = bytes[e] / (now - start(e));
      return true;
    });
  }
  return share;
}

std::vector<double> ktflow::machine::detail::waterFilledShares(
    double bandwidth, llvm::ArrayRef<double> bytes, llvm::ArrayRef<double> caps,
    llvm::ArrayRef<double> starts, std::vector<MoveSchedule> *schedules,
    llvm::ArrayRef<double> idle) {
  if (llvm::all_of(idle, [](double cycles) { return cycles <= 0; }))
    return sharesAtDuties(bandwidth, bytes, caps, starts, {}, schedules);
  // The shares and the duties they give rise together from every engine
  // moving all the time (a faster share leaves an engine idle more of the
  // time, which speeds the others): to the least fixed point.
  size_t n = bytes.size();
  std::vector<double> duty(n, 1), share;
  for (int round = 0; round < kDutyRounds; ++round) {
    share = sharesAtDuties(bandwidth, bytes, caps, starts, duty, nullptr);
    double change = 0;
    for (size_t e = 0; e < n; ++e) {
      double moving = share[e] > 0 ? bytes[e] / share[e] : 0;
      double next = moving > 0 ? moving / (moving + idle[e]) : 1;
      change = std::max(change, std::fabs(duty[e] - next));
      duty[e] = next;
    }
    if (change < 1e-12)
      break;
  }
  return sharesAtDuties(bandwidth, bytes, caps, starts, duty, schedules);
}

/// `schedule` with its first `inStep` bytes moved at `share` and the rest
/// as it moved them after its first `inStep`.
static MoveSchedule startInStep(const MoveSchedule &schedule, double inStep,
                                double share) {
  if (inStep <= 0 || share <= 0)
    return schedule;
  MoveSchedule stepped;
  double at = inStep / share, from = schedule.timeOf(inStep);
  stepped.points = {{0, 0}, {at, inStep}};
  for (auto [time, bytes] : schedule.points)
    if (bytes > inStep)
      stepped.points.push_back({at + time - from, bytes});
  return stepped;
}

/// Whether an engine's share for its idle cycles may be above its `equal`
/// share by more than kIdleGain: it shares the memory with 1 + the
/// others' duties, each at least its duty at its cap.
static bool mayGainByIdling(double bandwidth, llvm::ArrayRef<double> bytes,
                            llvm::ArrayRef<double> caps,
                            llvm::ArrayRef<double> idle,
                            llvm::ArrayRef<double> equal) {
  double duties = 0;
  llvm::SmallVector<double> least;
  for (auto [moved, cap, cycles] : llvm::zip(bytes, caps, idle)) {
    double moving = cap > 0 ? moved / cap : 0;
    least.push_back(moving > 0 ? moving / (moving + cycles) : 0);
    duties += least.back();
  }
  for (auto [cap, duty, share] : llvm::zip(caps, least, equal)) {
    double most = bandwidth / (1 + std::max(duties - duty, 0.0));
    if (cap > 0)
      most = std::min(most, cap);
    if (most > share * (1 + kIdleGain))
      return true;
  }
  return false;
}

bool ktflow::machine::detail::shareDeviceMemories(
    const Machine &machine, llvm::ArrayRef<ProgramWalker> walkers,
    llvm::ArrayRef<double> busy, RouteCosts &routes) {
  // The memory's bandwidth over its users, as the walks moved at.
  auto equalShare = [&](uint32_t memory, bool load, double route) {
    return routes.deviceBandwidth(memory, load, route);
  };
  bool set = false;
  for (auto [m, memory] : llvm::enumerate(machine.memories)) {
    if (memory.core >= 0 || memory.bandwidth <= 0)
      continue;
    // When each core's loads finish: its stores start no earlier.
    llvm::DenseMap<int32_t, double> loaded;
    for (bool load : {true, false}) {
      llvm::SmallVector<uint32_t> units;
      llvm::SmallVector<double> bytes, caps, starts, idle, inStep, equal;
      for (auto [walker, cycles] : llvm::zip(walkers, busy)) {
        std::optional<uint32_t> device =
            load ? walker.loadDevice : walker.storeDevice;
        double moved = load ? walker.deviceLoaded : walker.deviceStored;
        if (device != m || moved <= 0)
          continue;
        units.push_back(walker.unitIndex());
        bytes.push_back(moved);
        caps.push_back(load ? walker.loadRoute : walker.storeRoute);
        equal.push_back(equalShare(m, load, caps.back()));
        starts.push_back(
            load ? 0 : loaded.lookup(machine.units[units.back()].core));
        // Its cycles moving neither way, at the equal share.
        double moving = 0;
        if (walker.deviceLoaded > 0)
          moving += walker.deviceLoaded /
                    equalShare(*walker.loadDevice, true, walker.loadRoute);
        if (walker.deviceStored > 0)
          moving += walker.deviceStored /
                    equalShare(*walker.storeDevice, false, walker.storeRoute);
        // (None where every byte it loads moves in step: its idle cycles
        // are the other engines' too.)
        bool allInStep = walker.deviceLoaded > 0 &&
                         walker.loadedInStep >= walker.deviceLoaded;
        idle.push_back(allInStep ? 0 : std::max(cycles - moving, 0.0));
        inStep.push_back(load ? walker.loadedInStep : 0);
      }
      // Only where the engines the memory is shared by are those that
      // moved bytes.
      if (units.empty() || units.size() != routes.users(m, load))
        break;
      // Where the engines move the same amounts and none can get much
      // more than the equal share for its idle cycles, the equal share
      // stays. (Each engine's duty is at least its duty at its cap: a
      // bound found without water-filling, the common case.)
      auto [least, most] = std::minmax_element(bytes.begin(), bytes.end());
      bool same = *most <= *least * (1 + 1e-9);
      if (same && !mayGainByIdling(memory.bandwidth, bytes, caps, idle, equal))
        break;
      std::vector<MoveSchedule> schedules;
      std::vector<double> shares = waterFilledShares(
          memory.bandwidth, bytes, caps, starts, &schedules, idle);
      auto gains = [](auto pair) {
        auto [share, was] = pair;
        return share > was * (1 + kIdleGain);
      };
      if (same && llvm::none_of(llvm::zip(shares, equal), gains))
        break;
      for (auto [u, share, schedule, was, step] :
           llvm::zip(units, shares, schedules, equal, inStep)) {
        MoveSchedule stepped = startInStep(schedule, step, was);
        if (load) {
          double &at = loaded[machine.units[u].core];
          at = std::max(at, stepped.points.back().first);
        }
        routes.setShare(u, m, load, share, std::move(stepped), step, was);
      }
      set = true;
    }
  }
  return set;
}

double
ktflow::machine::detail::idleInStep(const Machine &machine,
                                    llvm::ArrayRef<ProgramWalker> walkers,
                                    uint32_t memory) {
  const ProgramWalker *first = nullptr;
  // The engines of each core that move the memory, and whether one of them
  // hands its loads over.
  llvm::DenseMap<int32_t, std::pair<unsigned, bool>> onCore;
  auto equal = [](double a, double b) {
    return std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b));
  };
  for (const ProgramWalker &walker : walkers) {
    bool loads = walker.loadDevice == memory && walker.deviceLoaded > 0;
    bool stores = walker.storeDevice == memory && walker.deviceStored > 0;
    if (!loads && !stores)
      continue;
    auto &[engines, handsOver] = onCore[machine.units[walker.unitIndex()].core];
    ++engines;
    if (!loads)
      continue;
    handsOver |= walker.handOversToEngines > 0;
    if (!first) {
      first = &walker;
      continue;
    }
    if (!equal(walker.deviceLoaded, first->deviceLoaded) ||
        !equal(walker.indexReadCycles, first->indexReadCycles) ||
        !equal(walker.handOversToEngines, first->handOversToEngines) ||
        !equal(walker.loadLatency, first->loadLatency))
      return 0;
  }
  if (!first || first->indexReadCycles <= 0)
    return 0;
  for (auto &[core, engines] : onCore)
    if (engines.first > 1 && !engines.second)
      return 0;
  if (first->handOversToEngines <= 0)
    return first->indexReadCycles;
  return std::min(first->indexReadCycles,
                  first->handOversToEngines *
                      (first->loadLatency + machine.syncLatency));
}

//===- WaterFill.cpp - Device-memory shares as engines finish -------------===//
//
// This file implements waterFilledShares (WaterFill.h): from one engine
// finishing to the next, each engine still moving gets an equal part of
// the memory (at most its cap, the rest going to the others).
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

/// The bandwidth each engine of `moving` gets of `bandwidth`: equal parts,
/// the engines with the lowest caps first, none above its cap.
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

std::vector<double> ktflow::machine::detail::waterFilledShares(
    double bandwidth, llvm::ArrayRef<double> bytes, llvm::ArrayRef<double> caps,
    llvm::ArrayRef<double> starts, std::vector<MoveSchedule> *schedules) {
  size_t n = bytes.size();
  auto start = [&](size_t e) { return starts.empty() ? 0.0 : starts[e]; };
  std::vector<double> share(n, 0), rate(n, 0), left(bytes.begin(), bytes.end());
  llvm::SmallVector<size_t> moving, waiting;
  for (size_t e = 0; e < n; ++e)
    moving.push_back(e);
  // An engine with no bytes takes its part of all of them moving.
  rates(bandwidth, caps, moving, rate);
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
    rates(bandwidth, caps, moving, rate);
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

bool ktflow::machine::detail::shareByBytes(
    const Machine &machine, llvm::ArrayRef<ProgramWalker> walkers,
    RouteCosts &routes) {
  bool set = false;
  for (auto [m, memory] : llvm::enumerate(machine.memories)) {
    if (memory.core >= 0 || memory.bandwidth <= 0)
      continue;
    // When each core's loads finish: its stores start no earlier.
    llvm::DenseMap<int32_t, double> loaded;
    for (bool load : {true, false}) {
      llvm::SmallVector<uint32_t> units;
      llvm::SmallVector<double> bytes, caps, starts;
      for (const ProgramWalker &walker : walkers) {
        std::optional<uint32_t> device =
            load ? walker.loadDevice : walker.storeDevice;
        double moved = load ? walker.deviceLoaded : walker.deviceStored;
        if (device != m || moved <= 0)
          continue;
        units.push_back(walker.unitIndex());
        bytes.push_back(moved);
        caps.push_back(load ? walker.loadRoute : walker.storeRoute);
        starts.push_back(
            load ? 0 : loaded.lookup(machine.units[units.back()].core));
      }
      // Only where the engines the memory is shared by are those that
      // moved bytes, and not all the same amount.
      if (units.empty() || units.size() != routes.users(m, load))
        break;
      auto [least, most] = std::minmax_element(bytes.begin(), bytes.end());
      if (*most <= *least * (1 + 1e-9))
        break;
      std::vector<MoveSchedule> schedules;
      std::vector<double> shares =
          waterFilledShares(memory.bandwidth, bytes, caps, starts, &schedules);
      for (auto [u, share, schedule] : llvm::zip(units, shares, schedules)) {
        if (load) {
          double &at = loaded[machine.units[u].core];
          at = std::max(at, schedule.points.back().first);
        }
        routes.setShare(u, m, load, share, std::move(schedule));
      }
      set = true;
    }
  }
  return set;
}

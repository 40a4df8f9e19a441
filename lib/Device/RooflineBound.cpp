//===- RooflineBound.cpp - A kernel's lower bound on a device -------------===//
//
// This file computes the three bounds of a kernel's demand on a device
// (compute per unit class, device-memory traffic, the latency of one tile's
// round trip), picks the largest, and prints them for `ktflow run`.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Device/RooflineBound.h"

#include "ktflow/Device/RoutingGraph.h"

#include "llvm/Support/Format.h"

#include <limits>

using namespace llvm;
using namespace ktflow::device;
using mlir::ktdf_arch::OpClass;

void KernelDemand::addOperations(OpClass opClass, mlir::Type type,
                                 double count) {
  auto it = llvm::find_if(operations, [&](const Operations &entry) {
    return entry.opClass == opClass && entry.type == type;
  });
  if (it == operations.end())
    it = operations.insert(operations.end(), Operations{opClass, type});
  it->count += count;
}

void KernelDemand::addGap(StringRef what) {
  if (!llvm::is_contained(gaps, what))
    gaps.push_back(what.str());
}

double KernelDemand::getTotalOperations() const {
  double total = 0;
  for (const Operations &entry : operations)
    total += entry.count;
  return total;
}

StringRef ktflow::device::stringifyBoundKind(BoundKind kind) {
  switch (kind) {
  case BoundKind::Compute:
    return "compute";
  case BoundKind::Memory:
    return "memory";
  case BoundKind::Latency:
    return "latency";
  }
  return "unknown";
}

/// The peak at which `unitClass` computes `ops`: a 16-bit float operation
/// a vector unit has no lanes for is computed in f32 where it has f32
/// lanes (ktdf-legalize-unit-types: bf16 arithmetic on every shipped device),
/// so it counts at the f32 rate; the rounding back is the compiler's.
static double computedPeak(const UnitClass &unitClass,
                           const KernelDemand::Operations &ops) {
  double peak = unitClass.getPeak(ops.opClass, ops.type);
  if (peak > 0 || ops.opClass == OpClass::Matrix || !ops.type ||
      !(ops.type.isF16() || ops.type.isBF16()))
    return peak;
  return unitClass.getPeak(ops.opClass,
                           mlir::Float32Type::get(ops.type.getContext()));
}

/// The compute bound, and the unit classes that compute any of the
/// kernel's operations (`busy[i]` for class i).
static ComputeBound boundCompute(const Roofline &roofline,
                                 const KernelDemand &demand,
                                 SmallVectorImpl<bool> &busy) {
  ArrayRef<UnitClass> classes = roofline.getUnitClasses();
  ComputeBound bound;
  SmallVector<double> exclusive(classes.size(), 0);
  busy.assign(classes.size(), false);
  double shared = 0;
  std::string sharedBy;
  for (const KernelDemand::Operations &ops : demand.operations) {
    SmallVector<unsigned> able;
    double peak = 0;
    for (auto [i, unitClass] : llvm::enumerate(classes))
      if (double p = computedPeak(unitClass, ops); p > 0) {
        able.push_back(i);
        peak += p;
      }
    if (able.empty()) {
      bound.uncomputable += ops.count;
      continue;
    }
    bound.operations += ops.count;
    for (unsigned i : able)
      busy[i] = true;
    if (able.size() == 1) {
      exclusive[able.front()] += ops.count / peak;
      continue;
    }
    // Several classes can take these operations: however they share them,
    // all of them together need count / (their summed peak) cycles.
    if (ops.count / peak > shared) {
      shared = ops.count / peak;
      sharedBy.clear();
      for (unsigned i : able)
        sharedBy += (sharedBy.empty() ? "" : "+") + classes[i].kind;
    }
  }
  for (auto [i, unitClass] : llvm::enumerate(classes)) {
    if (exclusive[i] == 0)
      continue;
    bound.perClass.push_back({unitClass.kind, exclusive[i]});
    if (exclusive[i] > bound.cycles) {
      bound.cycles = exclusive[i];
      bound.bottleneck = unitClass.kind;
    }
  }
  if (shared > bound.cycles) {
    bound.cycles = shared;
    bound.bottleneck = sharedBy;
  }
  return bound;
}

/// Copies of `route` that can move data side by side: the fewest copies of
/// a node on it other than the device memory at its end.
static int64_t routeCopies(const DeviceModel &model, const Route &route,
                           NodeId deviceMemory) {
  int64_t copies = std::numeric_limits<int64_t>::max();
  for (NodeId node : route.nodes)
    if (node != deviceMemory)
      copies = std::min(copies, model.getNode(node).instances);
  return copies == std::numeric_limits<int64_t>::max() ? 1 : copies;
}

/// The shortest round trip of the smallest tile from `deviceMemory` through
/// one of `turns` and back. A grid of fewer points than copies of the
/// route may spread a tile's transfer over the copies no point needs (a
/// one-tile gather moves its rows through every core), at most as fast as
/// the device memory reads (writes).
static LatencyBound boundLatency(const DeviceModel &model,
                                 const Roofline &roofline, NodeId deviceMemory,
                                 ArrayRef<NodeId> turns, double chain,
                                 const KernelDemand &demand) {
  LatencyBound best;
  if (!demand.smallestLoad && !demand.smallestStore)
    return best;
  RoutingGraph routing(model);
  const MemoryPeak *peak = roofline.getMemoryPeak(deviceMemory);
  auto rate = [&](const Route &route, double memoryPeak, int64_t &split) {
    split = std::max<int64_t>(1, routeCopies(model, route, deviceMemory) /
                                     static_cast<int64_t>(std::min<uint64_t>(
                                         demand.gridPoints, INT64_MAX)));
    double bandwidth = route.bandwidth * split;
    return split > 1 && memoryPeak > 0 ? std::min(bandwidth, memoryPeak)
                                       : bandwidth;
  };
  best.cycles = std::numeric_limits<double>::infinity();
  for (NodeId turn : turns) {
    LatencyBound trip;
    trip.via = model.getNode(turn).name;
    trip.compute = chain;
    if (demand.smallestLoad) {
      std::optional<Route> in = routing.findRoute(deviceMemory, turn);
      if (!in || in->bandwidth <= 0)
        continue;
      trip.loadLatency = in->latency;
      trip.loadTransfer =
          *demand.smallestLoad /
          rate(*in, peak ? peak->readBytesPerCycle : 0, trip.split);
    }
    if (demand.smallestStore) {
      std::optional<Route> out = routing.findRoute(turn, deviceMemory);
      if (!out || out->bandwidth <= 0)
        continue;
      trip.storeLatency = out->latency;
      int64_t split = 1;
      trip.storeTransfer =
          *demand.smallestStore /
          rate(*out, peak ? peak->writeBytesPerCycle : 0, split);
      trip.split = std::max(trip.split, split);
    }
    trip.cycles = trip.loadLatency + trip.loadTransfer + trip.compute +
                  trip.storeLatency + trip.storeTransfer;
    if (trip.cycles < best.cycles)
      best = trip;
  }
  // No route: the device cannot run the kernel; bound nothing.
  if (best.cycles == std::numeric_limits<double>::infinity())
    best = LatencyBound();
  return best;
}

RooflineBound ktflow::device::computeRooflineBound(const DeviceModel &model,
                                                   const Roofline &roofline,
                                                   NodeId deviceMemory,
                                                   const KernelDemand &demand) {
  RooflineBound bound;
  bound.gaps = demand.gaps;
  SmallVector<bool> busy;
  bound.compute = boundCompute(roofline, demand, busy);

  bound.memory.bytes = demand.bytesRead + demand.bytesWritten;
  if (const MemoryPeak *peak = roofline.getMemoryPeak(deviceMemory))
    bound.memory.bytesPerCycle = peak->totalBytesPerCycle;
  if (bound.memory.bytesPerCycle > 0)
    bound.memory.cycles = bound.memory.bytes / bound.memory.bytesPerCycle;

  // The round trip turns at a unit of a class that computes the kernel's
  // operations; a kernel that computes nothing need only reach a memory.
  SmallVector<NodeId> turns;
  for (auto [i, unitClass] : llvm::enumerate(roofline.getUnitClasses()))
    if (busy[i])
      llvm::append_range(turns, unitClass.units);
  bool computes = !turns.empty();
  if (!computes)
    for (NodeId memory : model.getMemories())
      if (memory != deviceMemory)
        turns.push_back(memory);
  bound.latency = boundLatency(model, roofline, deviceMemory, turns,
                               computes ? demand.chain : 0, demand);

  bound.cycles = bound.compute.cycles;
  bound.binding = BoundKind::Compute;
  if (bound.memory.cycles > bound.cycles) {
    bound.cycles = bound.memory.cycles;
    bound.binding = BoundKind::Memory;
  }
  if (bound.latency.cycles > bound.cycles) {
    bound.cycles = bound.latency.cycles;
    bound.binding = BoundKind::Latency;
  }
  return bound;
}

void ktflow::device::printRooflineBound(raw_ostream &os,
                                        const RooflineBound &bound) {
  os << "roofline: " << format("%.0f", bound.cycles) << " cycles ("
     << stringifyBoundKind(bound.binding) << " bound)\n";
  const ComputeBound &compute = bound.compute;
  os << "  compute: " << format("%.0f", compute.cycles) << " cycles";
  if (!compute.bottleneck.empty())
    os << " on " << compute.bottleneck;
  os << " (" << format("%.0f", compute.operations) << " operations";
  for (const auto &[kind, cycles] : compute.perClass)
    if (kind != compute.bottleneck)
      os << "; " << kind << " " << format("%.0f", cycles) << " cycles";
  if (compute.uncomputable > 0)
    os << "; " << format("%.0f", compute.uncomputable)
       << " no unit computes at their element type, left out";
  os << ")\n";
  const MemoryBound &memory = bound.memory;
  os << "  memory: " << format("%.0f", memory.cycles) << " cycles ("
     << memory.bytes << " bytes of device memory at "
     << format("%g", memory.bytesPerCycle) << " B/cycle)\n";
  const LatencyBound &latency = bound.latency;
  os << "  latency: " << format("%.0f", latency.cycles) << " cycles";
  if (!latency.via.empty())
    os << " (load " << latency.loadLatency << " + "
       << format("%g", latency.loadTransfer) << ", compute "
       << format("%g", latency.compute) << ", store " << latency.storeLatency
       << " + " << format("%g", latency.storeTransfer) << ", via "
       << latency.via
       << (latency.split > 1
               ? (", a tile over " + Twine(latency.split) + " routes").str()
               : "")
       << ")";
  os << "\n";
  if (!bound.gaps.empty()) {
    os << "  not counted:";
    for (auto [i, gap] : llvm::enumerate(bound.gaps))
      os << (i ? "; " : " ") << gap;
    os << "\n";
  }
}

json::Object ktflow::device::toJSON(const RooflineBound &bound) {
  json::Array perClass;
  for (const auto &[kind, cycles] : bound.compute.perClass)
    perClass.push_back(json::Object{{"class", kind}, {"cycles", cycles}});
  json::Array gaps;
  for (const std::string &gap : bound.gaps)
    gaps.push_back(gap);
  const LatencyBound &latency = bound.latency;
  // No compute unit binds a kernel without operations: null, not a name.
  json::Value bottleneck = nullptr;
  if (!bound.compute.bottleneck.empty())
    bottleneck = bound.compute.bottleneck;
  return json::Object{
      {"cycles", bound.cycles},
      {"binding", stringifyBoundKind(bound.binding)},
      {"compute", json::Object{{"cycles", bound.compute.cycles},
                               {"bottleneck", std::move(bottleneck)},
                               {"operations", bound.compute.operations},
                               {"uncomputable", bound.compute.uncomputable},
                               {"classes", std::move(perClass)}}},
      {"memory",
       json::Object{{"cycles", bound.memory.cycles},
                    {"bytes", static_cast<int64_t>(bound.memory.bytes)},
                    {"bytes_per_cycle", bound.memory.bytesPerCycle}}},
      {"latency", json::Object{{"cycles", latency.cycles},
                               {"load_latency", latency.loadLatency},
                               {"load_transfer", latency.loadTransfer},
                               {"compute", latency.compute},
                               {"store_latency", latency.storeLatency},
                               {"store_transfer", latency.storeTransfer},
                               {"split", latency.split},
                               {"via", latency.via}}},
      {"gaps", std::move(gaps)}};
}

//===- Roofline.cpp - Peak rates of a device ------------------------------===//
//
// This file computes the peak memory, compute and interconnect figures of a
// device model. Every figure is a sum over the copies the description
// states: a datapath inside a 32-instance core group counts 32 times at the
// device memory it touches.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Device/Roofline.h"

#include "ktflow/Device/MemoryTree.h"

#include <limits>

using namespace mlir::ktdf_arch;
using namespace ktflow::device;

/// Hops and bisection bandwidth of `endpoints` cores on `spec`.
static InterconnectPeak analyzeInterconnect(const InterconnectSpec &spec,
                                            int64_t endpoints) {
  InterconnectPeak peak;
  peak.spec = spec;
  peak.endpoints = endpoints;
  switch (spec.topology) {
  case Topology::Ring:
    // A cut into halves crosses two links; a one-way ring carries data
    // across only one of them in a given direction.
    peak.diameterHops = spec.bidirectional ? endpoints / 2 : endpoints - 1;
    peak.bisectionBytesPerCycle =
        (spec.bidirectional ? 2 : 1) * spec.linkBandwidth;
    break;
  case Topology::Mesh: {
    int64_t x = spec.dims[0], y = spec.dims[1];
    peak.diameterHops = (x - 1) + (y - 1);
    peak.bisectionBytesPerCycle = std::min(x, y) * spec.linkBandwidth;
    break;
  }
  case Topology::Crossbar:
    peak.diameterHops = 1;
    peak.bisectionBytesPerCycle = (endpoints / 2) * spec.linkBandwidth;
    break;
  }
  return peak;
}

Roofline::Roofline(const DeviceModel &model) {
  for (NodeId id : model.getMemories()) {
    const Node &memory = model.getNode(id);
    MemoryPeak peak;
    peak.memory = id;
    // Datapaths in more replicated scopes than the memory's count once per
    // copy that reaches one instance of the memory.
    auto perInstance = [&](DatapathId dp) {
      const Datapath &datapath = model.getDatapath(dp);
      return datapath.spec.bandwidth *
             (static_cast<double>(datapath.instances) / memory.instances);
    };
    for (DatapathId dp : model.getOutgoing(id))
      peak.readBytesPerCycle += perInstance(dp);
    for (DatapathId dp : model.getIncoming(id))
      peak.writeBytesPerCycle += perInstance(dp);
    peak.totalBytesPerCycle = peak.readBytesPerCycle + peak.writeBytesPerCycle;
    peak.statedBandwidth = memory.memory->bandwidth;
    if (peak.statedBandwidth) {
      peak.readBytesPerCycle =
          std::min(peak.readBytesPerCycle, *peak.statedBandwidth);
      peak.writeBytesPerCycle =
          std::min(peak.writeBytesPerCycle, *peak.statedBandwidth);
      peak.totalBytesPerCycle =
          std::min(peak.totalBytesPerCycle, *peak.statedBandwidth);
    }
    memoryPeaks.push_back(peak);
  }

  // Device memory: what the roots of the memory tree exchange, and one
  // core's share of it.
  MemoryTree tree(model);
  double coreDatapaths = 0;
  for (NodeId root : tree.getRoots()) {
    deviceBytes += getMemoryPeak(root)->totalBytesPerCycle;
    for (auto edges : {model.getOutgoing(root), model.getIncoming(root)})
      for (DatapathId dp : edges)
        coreDatapaths += model.getDatapath(dp).spec.bandwidth *
                         model.getDatapathInstancesPerCore(dp);
  }
  coreBytes = deviceBytes / model.getNumCores();
  if (coreDatapaths > 0)
    coreBytes = std::min(coreBytes, coreDatapaths);

  // For a type a matrix engine multiplies the matrix peak is the
  // engines': the multiply-accumulate rate a vector unit gets by default
  // (FeatureSpec) is for products no engine runs, which the scheduler gives
  // the vector units (f32 products on spyre_like and mesh_device, every
  // product on a device without an engine).
  llvm::SmallVector<mlir::Type> engineTypes;
  for (const Node &node : model.getNodes())
    if (node.isCompute() && node.unit->matrix)
      for (const ThroughputEntry &entry : node.unit->throughput)
        if (entry.opClass == OpClass::Matrix)
          engineTypes.push_back(entry.dtype);
  auto counts = [&](const Node &node, const ThroughputEntry &entry) {
    return !(entry.opClass == OpClass::Matrix && entry.isDefault &&
             !node.unit->matrix &&
             llvm::is_contained(engineTypes, entry.dtype));
  };

  // Grouped by class; within a class, dtypes in the order they first appear.
  for (OpClass opClass : {OpClass::Elementwise, OpClass::Transcendental,
                          OpClass::Reduction, OpClass::Matrix}) {
    for (const Node &node : model.getNodes()) {
      if (!node.isCompute())
        continue;
      for (const ThroughputEntry &entry : node.unit->throughput) {
        if (entry.opClass != opClass || !counts(node, entry))
          continue;
        auto it = llvm::find_if(computePeaks, [&](const ComputePeak &peak) {
          return peak.opClass == opClass && peak.dtype == entry.dtype;
        });
        if (it == computePeaks.end())
          it = computePeaks.insert(computePeaks.end(),
                                   ComputePeak{opClass, entry.dtype});
        it->perDevice += entry.perCycle * node.instances;
        it->perCore += entry.perCycle * model.getInstancesPerCore(node.id);
      }
    }
  }

  // A unit joins the class of the first unit with its kind and table.
  auto sameTable = [](llvm::ArrayRef<ThroughputEntry> a,
                      llvm::ArrayRef<ThroughputEntry> b) {
    return a.size() == b.size() &&
           llvm::all_of(a, [&](const ThroughputEntry &entry) {
             return llvm::any_of(b, [&](const ThroughputEntry &other) {
               return other.opClass == entry.opClass &&
                      other.dtype == entry.dtype &&
                      other.perCycle == entry.perCycle;
             });
           });
  };
  for (const Node &node : model.getNodes()) {
    if (!node.isCompute())
      continue;
    llvm::SmallVector<ThroughputEntry> table;
    for (const ThroughputEntry &entry : node.unit->throughput)
      if (counts(node, entry))
        table.push_back(entry);
    auto it = llvm::find_if(unitClasses, [&](const UnitClass &unitClass) {
      return unitClass.kind == node.unit->kind &&
             sameTable(unitClass.throughput, table);
    });
    if (it == unitClasses.end()) {
      it = unitClasses.insert(unitClasses.end(), UnitClass());
      it->kind = node.unit->kind;
      it->throughput.assign(table.begin(), table.end());
    }
    it->units.push_back(node.id);
    it->instances += node.instances;
  }

  for (const Scope &scope : model.getScopes())
    if (scope.interconnect)
      interconnects.push_back(
          {scope.id, analyzeInterconnect(*scope.interconnect,
                                         scope.instances)});
}

const MemoryPeak *Roofline::getMemoryPeak(NodeId memory) const {
  auto it = llvm::find_if(memoryPeaks, [&](const MemoryPeak &peak) {
    return peak.memory == memory;
  });
  return it == memoryPeaks.end() ? nullptr : &*it;
}

const ComputePeak *Roofline::getComputePeak(OpClass opClass,
                                            mlir::Type dtype) const {
  auto it = llvm::find_if(computePeaks, [&](const ComputePeak &peak) {
    return peak.opClass == opClass && peak.dtype == dtype;
  });
  return it == computePeaks.end() ? nullptr : &*it;
}

double UnitClass::getPeak(OpClass opClass, mlir::Type dtype) const {
  for (const ThroughputEntry &entry : throughput)
    if (entry.opClass == opClass && entry.dtype == dtype)
      return entry.perCycle * instances;
  return 0;
}

std::optional<double> Roofline::getRidgePoint(OpClass opClass,
                                              mlir::Type dtype) const {
  const ComputePeak *peak = getComputePeak(opClass, dtype);
  if (!peak || peak->perCore == 0 || coreBytes == 0)
    return std::nullopt;
  return peak->perCore / coreBytes;
}

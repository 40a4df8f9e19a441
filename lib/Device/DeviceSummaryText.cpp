//===- DeviceSummaryText.cpp - arch-info's text report --------------------===//
//
// This file prints a device summary as `ktflow arch-info` does: a header line
// with the clock and cores, one line per interconnect, then sections for
// memories, units per core, datapaths, routes and roofline figures.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Device/DeviceSummary.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mlir::ktdf_arch;
using namespace ktflow::device;

/// "1 hop", "4 hops".
static std::string countOf(int64_t n, StringRef noun) {
  return std::to_string(n) + " " + noun.str() + (n == 1 ? "" : "s");
}

static void printDevice(const DeviceSummary &summary, raw_ostream &os) {
  const DeviceModel &model = summary.getModel();
  const Scope &core = model.getScope(model.getCoreScope());
  os << "device @" << model.getName() << ": clock "
     << formatFigure(model.getClockMHz()) << " MHz, " << model.getNumCores()
     << " core" << (model.getNumCores() == 1 ? "" : "s");
  if (!core.path.empty())
    os << " (group \"" << core.path << "\")";
  os << "\n";
  for (auto &[scope, peak] : summary.getRoofline().getInterconnects())
    os << "  interconnect of \"" << model.getScope(scope).path << "\" ("
       << peak.endpoints << "): " << describeInterconnect(peak) << "\n";
}

static void printMemories(const DeviceSummary &summary, raw_ostream &os) {
  const DeviceModel &model = summary.getModel();
  const MemoryTree &tree = summary.getMemoryTree();
  os << "\nmemories:\n";
  for (NodeId id : model.getMemories()) {
    const Node &node = model.getNode(id);
    const MemoryPeak *peak = summary.getRoofline().getMemoryPeak(id);
    os << "  " << left_justify(node.name, 24) << " level " << tree.getLevel(id)
       << "  " << node.memory->size << " B  x" << node.instances;
    if (int64_t perCore = model.getInstancesPerCore(id))
      os << " (" << perCore << " per core)";
    else
      os << " (shared)";
    if (std::optional<NodeId> parent = tree.getParent(id))
      os << "  from " << model.getNode(*parent).name;
    os << "\n      peak read " << formatFigure(peak->readBytesPerCycle)
       << ", write " << formatFigure(peak->writeBytesPerCycle) << ", total "
       << formatFigure(peak->totalBytesPerCycle) << " B/cycle";
    if (peak->statedBandwidth)
      os << " (stated " << formatFigure(*peak->statedBandwidth) << ")";
    os << "\n";
  }
}

static void printUnits(const DeviceModel &model, raw_ostream &os) {
  os << "\nunits per core:\n";
  for (NodeId id : model.getUnits()) {
    const Node &node = model.getNode(id);
    int64_t perCore = model.getInstancesPerCore(id);
    std::string roles = join(getRoleNames(node), "+");
    os << "  " << left_justify(node.name, 28) << " x"
       << (perCore ? perCore : node.instances) << (perCore ? "" : " shared")
       << "  " << left_justify(roles.empty() ? "-" : roles, 18) << " "
       << describeUnitFeatures(*node.unit) << "\n";
  }
}

static void printDatapaths(const DeviceModel &model, raw_ostream &os) {
  os << "\ndatapaths:\n";
  for (const Datapath &datapath : model.getDatapaths()) {
    os << "  " << model.getNode(datapath.src).name << " -> "
       << model.getNode(datapath.dst).name << "  x" << datapath.instances
       << "  " << formatFigure(datapath.spec.bandwidth) << " B/cycle, "
       << datapath.spec.latency << " cycle(s)";
    if (!datapath.spec.transferGranularity.empty()) {
      os << ", granularity";
      for (int64_t bytes : datapath.spec.transferGranularity)
        os << " " << bytes;
      os << " B";
    }
    if (datapath.spec.queue)
      os << ", fifo depth " << datapath.spec.queue->depth
         << (datapath.spec.queue->ordered ? " ordered" : "");
    os << "\n";
  }
}

static void printRoutes(const DeviceSummary &summary, raw_ostream &os) {
  const DeviceModel &model = summary.getModel();
  os << "\nroutes:\n";
  for (const SummaryRoute &shown : summary.getRoutes()) {
    os << "  " << model.getNode(shown.from).name << " => "
       << model.getNode(shown.to).name << ": ";
    if (!shown.route) {
      os << "no route through data movers\n";
      continue;
    }
    const Route &route = *shown.route;
    os << join(map_range(route.nodes,
                         [&](NodeId id) { return model.getNode(id).name; }),
               StringRef(" -> "))
       << "  (" << countOf(route.getNumHops(), "hop") << ", "
       << formatFigure(route.bandwidth) << " B/cycle, "
       << countOf(route.latency, "cycle");
    if (route.minFifoDepth)
      os << ", min fifo depth " << *route.minFifoDepth;
    os << ")\n";
  }
  for (NodeId id : summary.getIsolatedUnits())
    os << "  unit " << model.getNode(id).name
       << " has no route to or from any memory\n";
}

static void printRoofline(const Roofline &roofline, raw_ostream &os) {
  os << "\nroofline:\n  device memory: "
     << formatFigure(roofline.getDeviceMemoryBytesPerCycle()) << " B/cycle, "
     << formatFigure(roofline.getDeviceMemoryBytesPerCyclePerCore())
     << " B/cycle per core\n";
  for (const ComputePeak &peak : roofline.getComputePeaks()) {
    bool matrix = peak.opClass == OpClass::Matrix;
    os << "  " << stringifyOpClass(peak.opClass) << " "
       << formatType(peak.dtype) << ": " << formatFigure(peak.perCore)
       << (matrix ? " MAC" : " elements") << "/cycle per core, "
       << formatFigure(peak.perDevice) << " per device";
    if (std::optional<double> ridge =
            roofline.getRidgePoint(peak.opClass, peak.dtype))
      os << ", ridge " << formatFigure(*ridge) << " per device-memory byte";
    os << "\n";
  }
}

void ktflow::device::printDeviceSummary(const DeviceSummary &summary,
                                        raw_ostream &os) {
  printDevice(summary, os);
  printMemories(summary, os);
  printUnits(summary.getModel(), os);
  printDatapaths(summary.getModel(), os);
  printRoutes(summary, os);
  printRoofline(summary.getRoofline(), os);
}

//===- ArchInfoCommand.cpp - `ktflow arch-info` ---------------------------===//
//
// This file implements `ktflow arch-info FILE [--json]`: load an architecture
// description (or a kernel whose `ktdf_arch.target` names one), build its
// device model and print what the scheduler and simulator will see: cores
// and interconnect, memories, units per core with roles and features,
// datapaths, routes between memory levels and to every compute unit, and
// roofline figures.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "ktflow/Device/DeviceModel.h"
#include "ktflow/Device/MemoryTree.h"
#include "ktflow/Device/Roofline.h"
#include "ktflow/Device/RoutingGraph.h"
#include "ktflow/Device/Target.h"
#include "ktflow/Registration/Registration.h"
#include "ktflow/Support/CrashRecovery.h"
#include "ktflow/Support/ModuleLoader.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"

using namespace llvm;
using namespace mlir::ktdf_arch;
using namespace ktflow::device;

cl::SubCommand ktflow::driver::archInfoCommand(
    "arch-info", "Summarise an architecture description: units, memories, "
                 "datapaths, routes and roofline figures");

static cl::opt<std::string> archInput(cl::Positional, cl::Required,
                                      cl::desc("<device.mlir>"),
                                      cl::sub(ktflow::driver::archInfoCommand));
static cl::opt<bool> archJson("json", cl::desc("Print JSON instead of text"),
                              cl::sub(ktflow::driver::archInfoCommand));
static cl::opt<std::string>
    archDevice("device",
               cl::desc("The device to describe when the file has several"),
               cl::value_desc("name"),
               cl::sub(ktflow::driver::archInfoCommand));

namespace {

/// One route the report shows, with what it connects.
struct ShownRoute {
  NodeId from, to;
  std::optional<Route> route;
};

/// Everything printed, computed once for both output formats.
struct Report {
  const DeviceModel &model;
  MemoryTree tree;
  RoutingGraph routing;
  Roofline roofline;
  SmallVector<ShownRoute> routes;
  SmallVector<NodeId> isolated;

  explicit Report(const DeviceModel &model)
      : model(model), tree(model), routing(model), roofline(model) {
    // Both ways along every edge of the memory tree, then from and to the
    // device memory for every compute unit.
    for (NodeId memory : model.getMemories())
      if (std::optional<NodeId> parent = tree.getParent(memory)) {
        addRoute(*parent, memory);
        addRoute(memory, *parent);
      }
    for (NodeId unit : model.getUnits()) {
      if (!model.getNode(unit).isCompute())
        continue;
      for (NodeId root : tree.getRoots()) {
        addRoute(root, unit);
        addRoute(unit, root);
      }
    }
    isolated = routing.getIsolatedUnits();
  }

  void addRoute(NodeId from, NodeId to) {
    routes.push_back({from, to, routing.findRoute(from, to)});
  }
};

} // namespace

static std::string typeName(mlir::Type type) {
  std::string name;
  raw_string_ostream os(name);
  type.print(os);
  return name;
}

/// `128`, `0.5`, `1.5e+06`: short and exact enough for figures.
static std::string num(double value) {
  return formatv("{0}", json::Value(value)).str();
}

/// "1 hop", "4 hops".
static std::string countOf(int64_t n, StringRef noun) {
  return std::to_string(n) + " " + noun.str() + (n == 1 ? "" : "s");
}

static SmallVector<std::string> roleNames(const Node &node) {
  SmallVector<std::string> names;
  for (UnitRole role : getAllUnitRoles())
    if (node.hasRole(role))
      names.push_back(stringifyUnitRole(role).str());
  return names;
}

static std::string describeAccess(StringRef name,
                                  const MemoryAccessFeature &access) {
  std::string text = name.str();
  if (!access.wordSize.empty()) {
    text += "(word";
    for (auto &[kind, bytes] : access.wordSize)
      text += " " + kind + "=" + std::to_string(bytes) + "B";
    text += ")";
  }
  return text;
}

/// The features of a unit in one line, in the description's terms.
static std::string describeFeatures(const UnitSpec &unit) {
  SmallVector<std::string> parts;
  if (unit.compute)
    parts.push_back("compute");
  if (unit.simd) {
    std::string text = "simd";
    if (!unit.simd->lanes.empty()) {
      text += "(lanes";
      for (auto [type, lanes] : unit.simd->lanes)
        text += " " + typeName(type) + "=" + std::to_string(lanes);
      text += ")";
    }
    if (unit.simd->splat)
      text += " splat";
    if (unit.simd->zeroPad)
      text += " zero_pad";
    parts.push_back(text);
  }
  if (unit.matrix) {
    std::string text = formatv("matrix({0}x{1}x{2}", unit.matrix->m,
                               unit.matrix->n, unit.matrix->k);
    for (mlir::Type type : unit.matrix->dtypes)
      text += " " + typeName(type);
    parts.push_back(text + ")");
  }
  if (unit.load)
    parts.push_back(describeAccess("load", *unit.load));
  if (unit.store)
    parts.push_back(describeAccess("store", *unit.store));
  if (unit.queue)
    parts.push_back(formatv("queue(depth {0}{1})", unit.queue->depth,
                            unit.queue->ordered ? " ordered" : ""));
  if (unit.maxOutstanding > 1)
    parts.push_back(formatv("{0} in flight", unit.maxOutstanding));
  return parts.empty() ? "-" : join(parts, ", ");
}

static std::string describeInterconnect(const InterconnectPeak &peak) {
  const InterconnectSpec &spec = peak.spec;
  return formatv("{0}{1}, {2} B/cycle per link and direction, {3} cycle(s) "
                 "per hop, diameter {4} hops, bisection {5} B/cycle",
                 stringifyTopology(spec.topology),
                 spec.topology == Topology::Mesh
                     ? formatv(" {0}x{1}", spec.dims[0], spec.dims[1]).str()
                 : spec.topology == Topology::Ring && spec.bidirectional
                     ? std::string(" bidirectional")
                     : std::string(),
                 num(spec.linkBandwidth), spec.hopLatency, peak.diameterHops,
                 num(peak.bisectionBytesPerCycle));
}

//===----------------------------------------------------------------------===//
// Text
//===----------------------------------------------------------------------===//

static void printText(const Report &report, raw_ostream &os) {
  const DeviceModel &model = report.model;
  const Scope &core = model.getScope(model.getCoreScope());
  os << "device @" << model.getName() << ": clock " << num(model.getClockMHz())
     << " MHz, " << model.getNumCores() << " core"
     << (model.getNumCores() == 1 ? "" : "s");
  if (!core.path.empty())
    os << " (group \"" << core.path << "\")";
  os << "\n";
  for (auto &[scope, peak] : report.roofline.getInterconnects())
    os << "  interconnect of \"" << model.getScope(scope).path << "\" ("
       << peak.endpoints << "): " << describeInterconnect(peak) << "\n";

  os << "\nmemories:\n";
  for (NodeId id : model.getMemories()) {
    const Node &node = model.getNode(id);
    const MemoryPeak *peak = report.roofline.getMemoryPeak(id);
    os << "  " << left_justify(node.name, 24) << " level "
       << report.tree.getLevel(id) << "  " << node.memory->size << " B  x"
       << node.instances;
    if (int64_t perCore = model.getInstancesPerCore(id))
      os << " (" << perCore << " per core)";
    else
      os << " (shared)";
    if (std::optional<NodeId> parent = report.tree.getParent(id))
      os << "  from " << model.getNode(*parent).name;
    os << "\n      peak read " << num(peak->readBytesPerCycle) << ", write "
       << num(peak->writeBytesPerCycle) << ", total "
       << num(peak->totalBytesPerCycle) << " B/cycle";
    if (peak->statedBandwidth)
      os << " (stated " << num(*peak->statedBandwidth) << ")";
    os << "\n";
  }

  os << "\nunits per core:\n";
  for (NodeId id : model.getUnits()) {
    const Node &node = model.getNode(id);
    int64_t perCore = model.getInstancesPerCore(id);
    std::string roles = join(roleNames(node), "+");
    os << "  " << left_justify(node.name, 28) << " x"
       << (perCore ? perCore : node.instances) << (perCore ? "" : " shared")
       << "  " << left_justify(roles.empty() ? "-" : roles, 18) << " "
       << describeFeatures(*node.unit) << "\n";
  }

  os << "\ndatapaths:\n";
  for (const Datapath &datapath : model.getDatapaths()) {
    os << "  " << model.getNode(datapath.src).name << " -> "
       << model.getNode(datapath.dst).name << "  x" << datapath.instances
       << "  " << num(datapath.spec.bandwidth) << " B/cycle, "
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

  os << "\nroutes:\n";
  for (const ShownRoute &shown : report.routes) {
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
       << num(route.bandwidth) << " B/cycle, " << countOf(route.latency, "cycle");
    if (route.minFifoDepth)
      os << ", min fifo depth " << *route.minFifoDepth;
    os << ")\n";
  }
  for (NodeId id : report.isolated)
    os << "  unit " << model.getNode(id).name
       << " has no route to or from any memory\n";

  const Roofline &roofline = report.roofline;
  os << "\nroofline:\n  device memory: "
     << num(roofline.getDeviceMemoryBytesPerCycle()) << " B/cycle, "
     << num(roofline.getDeviceMemoryBytesPerCyclePerCore())
     << " B/cycle per core\n";
  for (const ComputePeak &peak : roofline.getComputePeaks()) {
    bool matrix = peak.opClass == OpClass::Matrix;
    os << "  " << stringifyOpClass(peak.opClass) << " " << typeName(peak.dtype)
       << ": " << num(peak.perCore) << (matrix ? " MAC" : " elements")
       << "/cycle per core, " << num(peak.perDevice) << " per device";
    if (std::optional<double> ridge =
            roofline.getRidgePoint(peak.opClass, peak.dtype))
      os << ", ridge " << num(*ridge) << " per device-memory byte";
    os << "\n";
  }
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

static void printJson(const Report &report, raw_ostream &os) {
  const DeviceModel &model = report.model;
  const Roofline &roofline = report.roofline;
  json::OStream json(os, /*IndentSize=*/2);
  auto nodeName = [&](NodeId id) { return model.getNode(id).name; };
  json.object([&] {
    json.attribute("device", model.getName());
    json.attribute("clock_mhz", model.getClockMHz());
    json.attributeObject("cores", [&] {
      json.attribute("group", model.getScope(model.getCoreScope()).path);
      json.attribute("count", model.getNumCores());
    });
    json.attributeArray("interconnects", [&] {
      for (const auto &entry : roofline.getInterconnects())
        json.object([&] {
          const InterconnectPeak &peak = entry.second;
          json.attribute("group", model.getScope(entry.first).path);
          json.attribute("topology", stringifyTopology(peak.spec.topology));
          json.attribute("endpoints", peak.endpoints);
          json.attribute("bidirectional", peak.spec.bidirectional);
          json.attribute("link_bandwidth", peak.spec.linkBandwidth);
          json.attribute("hop_latency", peak.spec.hopLatency);
          json.attribute("diameter_hops", peak.diameterHops);
          json.attribute("bisection_bandwidth", peak.bisectionBytesPerCycle);
        });
    });
    json.attributeArray("memories", [&] {
      for (NodeId id : model.getMemories()) {
        const Node &node = model.getNode(id);
        const MemoryPeak *peak = roofline.getMemoryPeak(id);
        json.object([&] {
          json.attribute("name", node.name);
          json.attribute("kind", node.memory->kind);
          json.attribute("level", report.tree.getLevel(id));
          if (std::optional<NodeId> parent = report.tree.getParent(id))
            json.attribute("parent", nodeName(*parent));
          json.attribute("size", node.memory->size);
          json.attribute("instances", node.instances);
          json.attribute("instances_per_core", model.getInstancesPerCore(id));
          if (peak->statedBandwidth)
            json.attribute("stated_bandwidth", *peak->statedBandwidth);
          json.attribute("peak_read", peak->readBytesPerCycle);
          json.attribute("peak_write", peak->writeBytesPerCycle);
          json.attribute("peak_total", peak->totalBytesPerCycle);
        });
      }
    });
    json.attributeArray("units", [&] {
      for (NodeId id : model.getUnits()) {
        const Node &node = model.getNode(id);
        json.object([&] {
          json.attribute("name", node.name);
          json.attribute("kind", node.unit->kind);
          json.attribute("instances", node.instances);
          json.attribute("instances_per_core", model.getInstancesPerCore(id));
          json.attributeArray("roles", [&] {
            for (const std::string &role : roleNames(node))
              json.value(role);
          });
          json.attribute("features", describeFeatures(*node.unit));
          json.attributeArray("throughput", [&] {
            for (const ThroughputEntry &entry : node.unit->throughput)
              json.object([&] {
                json.attribute("class", stringifyOpClass(entry.opClass));
                json.attribute("dtype", typeName(entry.dtype));
                json.attribute("per_cycle", entry.perCycle);
                json.attribute("default", entry.isDefault);
              });
          });
        });
      }
    });
    json.attributeArray("datapaths", [&] {
      for (const Datapath &datapath : model.getDatapaths())
        json.object([&] {
          json.attribute("src", nodeName(datapath.src));
          json.attribute("dst", nodeName(datapath.dst));
          json.attribute("instances", datapath.instances);
          json.attribute("bandwidth", datapath.spec.bandwidth);
          json.attribute("latency", datapath.spec.latency);
          json.attributeArray("transfer_granularity", [&] {
            for (int64_t bytes : datapath.spec.transferGranularity)
              json.value(bytes);
          });
          if (datapath.spec.queue) {
            json.attribute("fifo_depth", datapath.spec.queue->depth);
            json.attribute("ordered", datapath.spec.queue->ordered);
          }
        });
    });
    json.attributeArray("routes", [&] {
      for (const ShownRoute &shown : report.routes)
        json.object([&] {
          json.attribute("from", nodeName(shown.from));
          json.attribute("to", nodeName(shown.to));
          if (!shown.route) {
            json.attribute("path", nullptr);
            return;
          }
          json.attributeArray("path", [&] {
            for (NodeId id : shown.route->nodes)
              json.value(nodeName(id));
          });
          json.attribute("hops", shown.route->getNumHops());
          json.attribute("bandwidth", shown.route->bandwidth);
          json.attribute("latency", shown.route->latency);
          if (shown.route->minFifoDepth)
            json.attribute("min_fifo_depth", *shown.route->minFifoDepth);
        });
    });
    json.attributeArray("isolated_units", [&] {
      for (NodeId id : report.isolated)
        json.value(nodeName(id));
    });
    json.attributeObject("roofline", [&] {
      json.attribute("device_memory_bandwidth",
                     roofline.getDeviceMemoryBytesPerCycle());
      json.attribute("device_memory_bandwidth_per_core",
                     roofline.getDeviceMemoryBytesPerCyclePerCore());
      json.attributeArray("compute", [&] {
        for (const ComputePeak &peak : roofline.getComputePeaks())
          json.object([&] {
            json.attribute("class", stringifyOpClass(peak.opClass));
            json.attribute("dtype", typeName(peak.dtype));
            json.attribute("per_core", peak.perCore);
            json.attribute("per_device", peak.perDevice);
            if (std::optional<double> ridge =
                    roofline.getRidgePoint(peak.opClass, peak.dtype))
              json.attribute("ridge_point", *ridge);
          });
      });
    });
  });
  os << "\n";
}

//===----------------------------------------------------------------------===//
// Command
//===----------------------------------------------------------------------===//

int ktflow::driver::runArchInfo() {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  ModuleLoader loader(context);
  mlir::OwningOpRef<mlir::ModuleOp> module = loader.load(archInput);
  if (!module)
    return 1;

  mlir::FailureOr<TargetDevice> target =
      resolveDeviceOrTarget(*module, archDevice);
  if (failed(target))
    return 1;

  CrashPhase phase("device model", archInput);
  mlir::FailureOr<DeviceModel> model = DeviceModel::build(target->device);
  if (failed(model))
    return 1;
  Report report(*model);
  if (archJson) {
    printJson(report, outs());
    return 0;
  }
  if (target->target)
    outs() << "target of " << archInput << ": global -> \""
           << target->globalMemory << "\", ct_local -> \""
           << target->ctLocalMemory << "\"\n";
  printText(report, outs());
  return 0;
}

//===- DeviceSummary.cpp - What arch-info reports about a device ----------===//
//
// This file implements the summary `ktflow arch-info` prints: the routes it
// shows, and the one-line descriptions of figures, types, roles, unit
// features and interconnects the text and JSON printers share.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Device/DeviceSummary.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace llvm;
using namespace mlir::ktdf_arch;
using namespace ktflow::device;

DeviceSummary::DeviceSummary(const DeviceModel &model)
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

void DeviceSummary::addRoute(NodeId from, NodeId to) {
  routes.push_back({from, to, routing.findRoute(from, to)});
}

std::string ktflow::device::formatFigure(double value) {
  return formatv("{0}", json::Value(value)).str();
}

std::string ktflow::device::formatType(mlir::Type type) {
  std::string name;
  raw_string_ostream os(name);
  type.print(os);
  return name;
}

SmallVector<std::string> ktflow::device::getRoleNames(const Node &node) {
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

std::string ktflow::device::describeUnitFeatures(const UnitSpec &unit) {
  SmallVector<std::string> parts;
  if (unit.compute)
    parts.push_back("compute");
  if (unit.simd) {
    std::string text = "simd";
    if (!unit.simd->lanes.empty()) {
      text += "(lanes";
      for (auto [type, lanes] : unit.simd->lanes)
        text += " " + formatType(type) + "=" + std::to_string(lanes);
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
      text += " " + formatType(type);
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

std::string ktflow::device::describeInterconnect(const InterconnectPeak &peak) {
  const InterconnectSpec &spec = peak.spec;
  return formatv("{0}{1}, {2} B/cycle per link and direction, {3} cycle(s) "
                 "per hop, diameter {4} hops, bisection {5} B/cycle",
                 stringifyTopology(spec.topology),
                 spec.topology == Topology::Mesh
                     ? formatv(" {0}x{1}", spec.dims[0], spec.dims[1]).str()
                 : spec.topology == Topology::Ring && spec.bidirectional
                     ? std::string(" bidirectional")
                     : std::string(),
                 formatFigure(spec.linkBandwidth), spec.hopLatency,
                 peak.diameterHops, formatFigure(peak.bisectionBytesPerCycle));
}

//===- DeviceSummary.h - What arch-info reports about a device --*- C++ -*-===//
//
// This file declares DeviceSummary, the report `ktflow arch-info` prints about
// a device model: the model with its memory tree, routing graph and roofline,
// the routes worth showing (both ways along every edge of the memory tree,
// then from and to every memory root for every compute unit), the units no
// memory reaches, and one-line descriptions of unit features and
// interconnects in the description's terms. It is computed once and printed
// as text or as JSON.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DEVICE_DEVICESUMMARY_H
#define KTFLOW_DEVICE_DEVICESUMMARY_H

#include "ktflow/Device/DeviceModel.h"
#include "ktflow/Device/MemoryTree.h"
#include "ktflow/Device/Roofline.h"
#include "ktflow/Device/RoutingGraph.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace ktflow::device {

/// A route the summary shows: its ends, and the route (none when no chain
/// of data movers joins them).
struct SummaryRoute {
  NodeId from, to;
  std::optional<Route> route;
};

class DeviceSummary {
public:
  /// Builds the memory tree, routing graph and roofline of `model` and finds
  /// the routes to show. `model` must outlive the summary.
  explicit DeviceSummary(const DeviceModel &model);

  const DeviceModel &getModel() const { return model; }
  const MemoryTree &getMemoryTree() const { return tree; }
  const RoutingGraph &getRoutingGraph() const { return routing; }
  const Roofline &getRoofline() const { return roofline; }
  /// Both ways along every edge of the memory tree, in memory order, then
  /// from and to every root memory for every compute unit, in unit order.
  llvm::ArrayRef<SummaryRoute> getRoutes() const { return routes; }
  /// Units with no route to or from any memory.
  llvm::ArrayRef<NodeId> getIsolatedUnits() const { return isolated; }

private:
  void addRoute(NodeId from, NodeId to);

  const DeviceModel &model;
  MemoryTree tree;
  RoutingGraph routing;
  Roofline roofline;
  llvm::SmallVector<SummaryRoute> routes;
  llvm::SmallVector<NodeId> isolated;
};

/// `128`, `0.5`, `1.5e+06`: a figure as JSON prints it, short and exact
/// enough for bandwidths and peaks.
std::string formatFigure(double value);

/// An MLIR type as the description spells it (`f16`, `i8`).
std::string formatType(mlir::Type type);

/// The roles of a unit, in getAllUnitRoles() order (`load`, `compute`, ...).
llvm::SmallVector<std::string> getRoleNames(const Node &node);

/// The features of a unit in one line, in the description's terms:
/// `compute, simd(lanes f16=64) splat, load(word ...)`, or `-` for none.
std::string describeUnitFeatures(const mlir::ktdf_arch::UnitSpec &unit);

/// An interconnect in one line: topology and shape, link bandwidth, hop
/// latency, diameter and bisection bandwidth.
std::string describeInterconnect(const InterconnectPeak &peak);

/// Prints the summary as `ktflow arch-info` does: the device and its
/// interconnects, then sections for memories, units per core, datapaths,
/// routes and roofline.
void printDeviceSummary(const DeviceSummary &summary, llvm::raw_ostream &os);

/// Prints the summary as `ktflow arch-info --json` does: one JSON object
/// (device, clock_mhz, cores, interconnects, memories, units, datapaths,
/// routes, isolated_units, roofline) indented by two, then a newline.
void printDeviceSummaryJson(const DeviceSummary &summary,
                            llvm::raw_ostream &os);

} // namespace ktflow::device

#endif // KTFLOW_DEVICE_DEVICESUMMARY_H

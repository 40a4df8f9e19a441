//===- RoutingGraph.h - Legal routes between device nodes -------*- C++ -*-===//
//
// This file declares RoutingGraph, which finds how data can travel between
// two nodes of a device: the shortest chain of datapaths whose intermediate
// nodes only store or move data (memories and non-compute units), with the
// route's bottleneck bandwidth, total latency and shallowest FIFO.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DEVICE_ROUTINGGRAPH_H
#define KTFLOW_DEVICE_ROUTINGGRAPH_H

#include "ktflow/Device/DeviceModel.h"

namespace ktflow::device {

struct Route {
  /// From the source to the destination, both included.
  llvm::SmallVector<NodeId> nodes;
  /// `datapaths[i]` joins `nodes[i]` and `nodes[i + 1]`.
  llvm::SmallVector<DatapathId> datapaths;
  /// The least bandwidth along the route, in bytes per cycle.
  double bandwidth = 0;
  /// The sum of the datapath latencies, in cycles.
  int64_t latency = 0;
  /// The smallest FIFO depth along the route, if it crosses a FIFO.
  std::optional<int64_t> minFifoDepth;

  unsigned getNumHops() const { return datapaths.size(); }
  /// Cycles to move `bytes` along the route when nothing else uses it.
  double getTransferCycles(double bytes) const {
    return latency + bytes / bandwidth;
  }
};

class RoutingGraph {
public:
  explicit RoutingGraph(const DeviceModel &model) : model(model) {}

  /// The shortest legal route from `from` to `to`: fewest datapaths, then
  /// least latency; remaining ties go to the datapath written first. A
  /// compute unit may only start or end a route. A node routes to itself
  /// with zero hops.
  std::optional<Route> findRoute(NodeId from, NodeId to) const;

  /// Units that no legal route reaches from `memory`.
  llvm::SmallVector<NodeId> getUnitsUnreachableFrom(NodeId memory) const;
  /// Units from which no legal route reaches `memory`.
  llvm::SmallVector<NodeId> getUnitsNotReaching(NodeId memory) const;
  /// Units with no legal route from or to any memory.
  llvm::SmallVector<NodeId> getIsolatedUnits() const;

  const DeviceModel &getModel() const { return model; }

private:
  /// Whether a route may pass through `node` on its way elsewhere.
  bool isTransit(NodeId node) const;
  /// Marks the nodes legal routes reach from `root`, following datapaths
  /// forward or backward.
  llvm::SmallVector<bool> reachable(NodeId root, bool forward) const;

  const DeviceModel &model;
};

} // namespace ktflow::device

#endif // KTFLOW_DEVICE_ROUTINGGRAPH_H

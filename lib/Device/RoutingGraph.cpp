//===- RoutingGraph.cpp - Legal routes between device nodes ---------------===//
//
// This file finds shortest legal routes with Dijkstra's algorithm over
// (hops, latency) and the units that legal routes cannot reach.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Device/RoutingGraph.h"

#include <limits>
#include <queue>
#include <tuple>

using namespace ktflow::device;

bool RoutingGraph::isTransit(NodeId node) const {
  return !model.getNode(node).isCompute();
}

std::optional<Route> RoutingGraph::findRoute(NodeId from, NodeId to) const {
  size_t numNodes = model.getNodes().size();
  if (from >= numNodes || to >= numNodes)
    return std::nullopt;

  using Cost = std::pair<unsigned, int64_t>;
  const Cost unreached{std::numeric_limits<unsigned>::max(), 0};
  llvm::SmallVector<Cost> best(numNodes, unreached);
  llvm::SmallVector<std::optional<DatapathId>> via(numNodes);
  using Entry = std::tuple<unsigned, int64_t, NodeId>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
  best[from] = {0, 0};
  queue.push({0, 0, from});
  while (!queue.empty()) {
    auto [hops, latency, node] = queue.top();
    queue.pop();
    if (Cost{hops, latency} != best[node])
      continue;
    if (node == to)
      break;
    if (node != from && !isTransit(node))
      continue;
    for (DatapathId id : model.getOutgoing(node)) {
      const Datapath &datapath = model.getDatapath(id);
      Cost cost{hops + 1, latency + datapath.spec.latency};
      if (cost < best[datapath.dst]) {
        best[datapath.dst] = cost;
        via[datapath.dst] = id;
        queue.push({cost.first, cost.second, datapath.dst});
      }
    }
  }
  if (best[to] == unreached)
    return std::nullopt;

  Route route;
  route.bandwidth = std::numeric_limits<double>::infinity();
  for (NodeId node = to; node != from;) {
    const Datapath &datapath = model.getDatapath(*via[node]);
    route.datapaths.push_back(datapath.id);
    route.nodes.push_back(node);
    route.latency += datapath.spec.latency;
    route.bandwidth = std::min(route.bandwidth, datapath.spec.bandwidth);
    if (datapath.spec.queue)
      route.minFifoDepth =
          std::min(route.minFifoDepth.value_or(datapath.spec.queue->depth),
                   datapath.spec.queue->depth);
    node = datapath.src;
  }
  route.nodes.push_back(from);
  std::reverse(route.nodes.begin(), route.nodes.end());
  std::reverse(route.datapaths.begin(), route.datapaths.end());
  return route;
}

llvm::SmallVector<bool> RoutingGraph::reachable(NodeId root,
                                                bool forward) const {
  llvm::SmallVector<bool> seen(model.getNodes().size(), false);
  llvm::SmallVector<NodeId> worklist{root};
  seen[root] = true;
  while (!worklist.empty()) {
    NodeId node = worklist.pop_back_val();
    if (node != root && !isTransit(node))
      continue;
    for (DatapathId id :
         forward ? model.getOutgoing(node) : model.getIncoming(node)) {
      const Datapath &datapath = model.getDatapath(id);
      NodeId next = forward ? datapath.dst : datapath.src;
      if (!seen[next]) {
        seen[next] = true;
        worklist.push_back(next);
      }
    }
  }
  return seen;
}

llvm::SmallVector<NodeId>
RoutingGraph::getUnitsUnreachableFrom(NodeId memory) const {
  llvm::SmallVector<bool> seen = reachable(memory, /*forward=*/true);
  llvm::SmallVector<NodeId> result;
  for (NodeId unit : model.getUnits())
    if (!seen[unit])
      result.push_back(unit);
  return result;
}

llvm::SmallVector<NodeId>
RoutingGraph::getUnitsNotReaching(NodeId memory) const {
  llvm::SmallVector<bool> seen = reachable(memory, /*forward=*/false);
  llvm::SmallVector<NodeId> result;
  for (NodeId unit : model.getUnits())
    if (!seen[unit])
      result.push_back(unit);
  return result;
}

llvm::SmallVector<NodeId> RoutingGraph::getIsolatedUnits() const {
  llvm::SmallVector<bool> connected(model.getNodes().size(), false);
  for (NodeId memory : model.getMemories())
    for (bool forward : {true, false}) {
      llvm::SmallVector<bool> seen = reachable(memory, forward);
      for (size_t node = 0; node < seen.size(); ++node)
        connected[node] = connected[node] || seen[node];
    }
  llvm::SmallVector<NodeId> result;
  for (NodeId unit : model.getUnits())
    if (!connected[unit])
      result.push_back(unit);
  return result;
}

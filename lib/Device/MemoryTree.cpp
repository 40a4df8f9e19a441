//===- MemoryTree.cpp - The memory hierarchy of a device ------------------===//
//
// This file derives the memory tree from the scope nesting of the memories
// and the datapaths that join them, and answers capacity and locality
// queries.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Device/MemoryTree.h"

#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace ktflow::device;

/// Memories joined to `start` through data movers only, with their distance
/// in hops, in breadth-first order.
static llvm::SmallVector<std::pair<NodeId, unsigned>>
findAdjacentMemories(const DeviceModel &model, NodeId start) {
  llvm::SmallVector<unsigned> distance(model.getNodes().size(), ~0u);
  llvm::SmallVector<std::pair<NodeId, unsigned>> memories;
  llvm::SmallVector<NodeId> frontier{start};
  distance[start] = 0;
  for (size_t i = 0; i < frontier.size(); ++i) {
    NodeId node = frontier[i];
    const Node &info = model.getNode(node);
    if (node != start && (info.isMemory() || info.isCompute()))
      continue;
    auto visit = [&](NodeId next) {
      if (distance[next] != ~0u)
        return;
      distance[next] = distance[node] + 1;
      frontier.push_back(next);
      if (model.getNode(next).isMemory())
        memories.push_back({next, distance[next]});
    };
    for (DatapathId id : model.getOutgoing(node))
      visit(model.getDatapath(id).dst);
    for (DatapathId id : model.getIncoming(node))
      visit(model.getDatapath(id).src);
  }
  return memories;
}

/// `a * b` for non-negative counts, or INT64_MAX when it does not fit.
static int64_t saturatingProduct(int64_t a, int64_t b) {
  int64_t product;
  if (llvm::MulOverflow(a, b, product))
    return std::numeric_limits<int64_t>::max();
  return product;
}

MemoryTree::MemoryTree(const DeviceModel &model)
    : model(model), parents(model.getNodes().size()),
      children(model.getNodes().size()), levels(model.getNodes().size(), 0) {
  // Memories are in program order, so a parent (in an enclosing scope) is
  // always seen before its children and its level is already known.
  for (NodeId memory : model.getMemories()) {
    std::optional<ScopeId> scope = model.getScope(model.getNode(memory).scope)
                                       .parent;
    llvm::SmallVector<NodeId> candidates;
    for (; scope && candidates.empty(); scope = model.getScope(*scope).parent)
      for (NodeId other : model.getMemories())
        if (model.getNode(other).scope == *scope)
          candidates.push_back(other);
    if (candidates.empty()) {
      roots.push_back(memory);
      numLevels = std::max(numLevels, 1u);
      continue;
    }
    NodeId parent = candidates.front();
    for (auto [adjacent, distance] : findAdjacentMemories(model, memory))
      if (llvm::is_contained(candidates, adjacent)) {
        parent = adjacent;
        break;
      }
    parents[memory] = parent;
    children[parent].push_back(memory);
    levels[memory] = levels[parent] + 1;
    numLevels = std::max(numLevels, levels[memory] + 1);
  }
}

std::optional<NodeId> MemoryTree::getParent(NodeId memory) const {
  return parents[memory];
}

llvm::ArrayRef<NodeId> MemoryTree::getChildren(NodeId memory) const {
  return children[memory];
}

unsigned MemoryTree::getLevel(NodeId memory) const { return levels[memory]; }

llvm::SmallVector<NodeId> MemoryTree::getMemoriesAtLevel(unsigned level) const {
  llvm::SmallVector<NodeId> result;
  for (NodeId memory : model.getMemories())
    if (levels[memory] == level)
      result.push_back(memory);
  return result;
}

int64_t MemoryTree::getCapacity(NodeId memory) const {
  const Node &node = model.getNode(memory);
  return node.memory ? node.memory->size : 0;
}

int64_t MemoryTree::getCapacityPerCore(NodeId memory) const {
  return saturatingProduct(getCapacity(memory),
                           model.getInstancesPerCore(memory));
}

int64_t MemoryTree::getTotalCapacity(NodeId memory) const {
  return saturatingProduct(getCapacity(memory),
                           model.getNode(memory).instances);
}

llvm::SmallVector<NodeId> MemoryTree::getLocalMemories(NodeId node) const {
  llvm::SmallVector<std::pair<NodeId, unsigned>> adjacent =
      findAdjacentMemories(model, node);
  llvm::sort(adjacent, [](auto a, auto b) {
    return std::make_pair(a.second, a.first) < std::make_pair(b.second, b.first);
  });
  llvm::SmallVector<NodeId> result;
  for (auto [memory, distance] : adjacent)
    result.push_back(memory);
  return result;
}

//===- MemoryTree.h - The memory hierarchy of a device ----------*- C++ -*-===//
//
// This file declares MemoryTree: which memory each memory is staged from
// (device memory → core scratchpad → unit register memory), capacities per
// instance, per core and per device, and which memories are local to a unit.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DEVICE_MEMORYTREE_H
#define KTFLOW_DEVICE_MEMORYTREE_H

#include "ktflow/Device/DeviceModel.h"

namespace ktflow::device {

class MemoryTree {
public:
  explicit MemoryTree(const DeviceModel &model);

  /// The memory `memory` is staged from: among the memories of the nearest
  /// enclosing scope that has any, the first one directly connected to it
  /// (through data movers, no other memory between), else the first one.
  /// None for the device memories.
  std::optional<NodeId> getParent(NodeId memory) const;
  llvm::ArrayRef<NodeId> getChildren(NodeId memory) const;
  /// 0 for device memories, parent's level + 1 otherwise.
  unsigned getLevel(NodeId memory) const;
  llvm::ArrayRef<NodeId> getRoots() const { return roots; }
  unsigned getNumLevels() const { return numLevels; }
  llvm::SmallVector<NodeId> getMemoriesAtLevel(unsigned level) const;

  /// Bytes of one instance of `memory`.
  int64_t getCapacity(NodeId memory) const;
  /// Bytes of all copies of `memory` in one core; 0 for shared memories.
  int64_t getCapacityPerCore(NodeId memory) const;
  /// Bytes of all copies of `memory` in the device.
  int64_t getTotalCapacity(NodeId memory) const;

  /// Memories joined to `node` by datapaths through data movers only
  /// (in either direction), nearest first, then in program order.
  llvm::SmallVector<NodeId> getLocalMemories(NodeId node) const;

private:
  const DeviceModel &model;
  llvm::SmallVector<std::optional<NodeId>> parents;
  llvm::SmallVector<llvm::SmallVector<NodeId, 2>> children;
  llvm::SmallVector<unsigned> levels;
  llvm::SmallVector<NodeId> roots;
  unsigned numLevels = 0;
};

} // namespace ktflow::device

#endif // KTFLOW_DEVICE_MEMORYTREE_H

//===- DeviceModel.h - A device description as queryable data ---*- C++ -*-===//
//
// This file declares DeviceModel, the C++ view of one `ktdf_arch.device`:
// its scopes (the device body and every group body, with instance counts),
// its nodes (memories and execution units, with typed specs and derived
// roles) and its datapaths. The simulator, the scheduler and the cost model
// ask this model; RoutingGraph, MemoryTree and Roofline answer the questions
// that need more than one node.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DEVICE_DEVICEMODEL_H
#define KTFLOW_DEVICE_DEVICEMODEL_H

#include "ktflow/Dialect/KTDFArch/IR/KTDFArch.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ktflow::device {

using NodeId = unsigned;
using DatapathId = unsigned;
using ScopeId = unsigned;

/// What a unit does, derived from its features and its neighbours in the
/// graph (never from its kind string). A unit may have several roles.
enum class UnitRole : unsigned {
  /// Moves data from a memory into a more local memory.
  DmaLoad = 1u << 0,
  /// Moves data from a memory into a less local memory.
  DmaStore = 1u << 1,
  /// Feeds another unit from a memory.
  ScratchpadLoad = 1u << 2,
  /// Writes another unit's results into a memory.
  ScratchpadStore = 1u << 3,
  /// Computes on SIMD lanes.
  VectorCompute = 1u << 4,
  /// Computes matrix products.
  MatrixCompute = 1u << 5,
};
llvm::StringRef stringifyUnitRole(UnitRole role);
llvm::ArrayRef<UnitRole> getAllUnitRoles();

/// The device body or one group body. A body stands for `instances` copies
/// per instance of its parent.
struct Scope {
  ScopeId id = 0;
  std::optional<ScopeId> parent;
  /// Null for the device body.
  mlir::ktdf_arch::GroupOp op;
  /// The group's kind, suffixed `[i]` when siblings share it; "" for the
  /// device body.
  std::string label;
  /// Path of labels from the device, `/`-separated; "" for the device body.
  std::string path;
  int64_t instances = 1;
  /// Copies of this body in the whole device (product along the chain).
  int64_t totalInstances = 1;
  unsigned depth = 0;
  std::optional<mlir::ktdf_arch::InterconnectSpec> interconnect;
};

enum class NodeKind { Memory, ExecUnit };

struct Node {
  NodeId id = 0;
  NodeKind kind = NodeKind::Memory;
  mlir::Operation *op = nullptr;
  ScopeId scope = 0;
  /// Scope path and kind, e.g. "core/subcore[1]/SFU_Block/SFU".
  std::string name;
  /// Copies of this node in the whole device.
  int64_t instances = 1;
  /// Set for memories.
  std::optional<mlir::ktdf_arch::MemorySpec> memory;
  /// Set for execution units.
  std::optional<mlir::ktdf_arch::UnitSpec> unit;
  unsigned roles = 0;

  bool isMemory() const { return kind == NodeKind::Memory; }
  bool isUnit() const { return kind == NodeKind::ExecUnit; }
  bool isCompute() const { return unit && unit->compute; }
  bool hasRole(UnitRole role) const {
    return roles & static_cast<unsigned>(role);
  }
  llvm::StringRef getKind() const {
    return memory ? llvm::StringRef(memory->kind)
                  : unit ? llvm::StringRef(unit->kind) : llvm::StringRef();
  }
};

struct Datapath {
  DatapathId id = 0;
  NodeId src = 0, dst = 0;
  mlir::ktdf_arch::DatapathOp op;
  ScopeId scope = 0;
  /// Copies of this datapath in the whole device.
  int64_t instances = 1;
  mlir::ktdf_arch::DatapathSpec spec;

  bool isFifo() const { return spec.queue.has_value(); }
};

class DeviceModel {
public:
  /// Builds the model of a verified device. Fails, after reporting against
  /// the offending op, on anything the verifier would reject.
  static mlir::FailureOr<DeviceModel> build(mlir::ktdf_arch::DeviceOp device);

  mlir::ktdf_arch::DeviceOp getOp() const { return deviceOp; }
  llvm::StringRef getName() const { return name; }
  double getClockMHz() const { return clockMHz; }

  llvm::ArrayRef<Scope> getScopes() const { return scopes; }
  llvm::ArrayRef<Node> getNodes() const { return nodes; }
  llvm::ArrayRef<Datapath> getDatapaths() const { return datapaths; }
  const Scope &getScope(ScopeId id) const { return scopes[id]; }
  const Node &getNode(NodeId id) const { return nodes[id]; }
  const Datapath &getDatapath(DatapathId id) const { return datapaths[id]; }
  llvm::ArrayRef<DatapathId> getOutgoing(NodeId id) const {
    return outgoing[id];
  }
  llvm::ArrayRef<DatapathId> getIncoming(NodeId id) const {
    return incoming[id];
  }

  /// The node a `memory`/`exec_unit` op or a handle (group results
  /// included) stands for.
  std::optional<NodeId> lookup(mlir::Operation *op) const;
  std::optional<NodeId> lookup(mlir::Value handle) const;
  /// The first node (in program order) whose kind is `kind`.
  std::optional<NodeId> findByKind(llvm::StringRef kind) const;

  llvm::SmallVector<NodeId> getMemories() const;
  llvm::SmallVector<NodeId> getUnits() const;
  llvm::SmallVector<NodeId> getUnitsWithRole(UnitRole role) const;

  /// A core is one instance of the outermost group whose body defines a
  /// memory (its scratchpad); without such a group the device is one core.
  ScopeId getCoreScope() const { return coreScope; }
  int64_t getNumCores() const { return scopes[coreScope].totalInstances; }
  /// True when `inner` is `outer` or nested in it.
  bool isWithin(ScopeId inner, ScopeId outer) const;
  /// Copies of a node in one core; 0 for nodes outside the cores (shared by
  /// all of them).
  int64_t getInstancesPerCore(NodeId id) const;
  int64_t getDatapathInstancesPerCore(DatapathId id) const;
  /// Copies of scope `scope` in one core; 0 outside the cores.
  int64_t getScopeInstancesPerCore(ScopeId scope) const;
  /// Every assignment of an instance index to each of `scopes` (one map
  /// per combination, the last scope varying fastest).
  std::vector<std::map<ScopeId, int64_t>>
  getInstanceCombinations(llvm::ArrayRef<ScopeId> scopes) const;

private:
  DeviceModel() = default;

  mlir::ktdf_arch::DeviceOp deviceOp;
  std::string name;
  double clockMHz = mlir::ktdf_arch::kDefaultClockMHz;
  std::vector<Scope> scopes;
  std::vector<Node> nodes;
  std::vector<Datapath> datapaths;
  llvm::SmallVector<llvm::SmallVector<DatapathId, 4>> outgoing, incoming;
  llvm::DenseMap<mlir::Operation *, NodeId> nodeOfOp;
  ScopeId coreScope = 0;

  friend class DeviceModelBuilder;
};

} // namespace ktflow::device

#endif // KTFLOW_DEVICE_DEVICEMODEL_H

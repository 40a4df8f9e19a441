//===- DeviceModel.cpp - Build a DeviceModel from ktdf_arch.device --------===//
//
// This file builds the scopes, nodes and datapaths of a DeviceModel from a
// device op and derives every unit's roles from its features and its
// neighbours: what feeds it, what it feeds, and how local those memories are.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Device/DeviceModel.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::ktdf_arch;
using namespace ktflow::device;

StringRef ktflow::device::stringifyUnitRole(UnitRole role) {
  switch (role) {
  case UnitRole::DmaLoad:
    return "dma_load";
  case UnitRole::DmaStore:
    return "dma_store";
  case UnitRole::ScratchpadLoad:
    return "scratchpad_load";
  case UnitRole::ScratchpadStore:
    return "scratchpad_store";
  case UnitRole::VectorCompute:
    return "vector_compute";
  case UnitRole::MatrixCompute:
    return "matrix_compute";
  }
  return "unknown";
}

ArrayRef<UnitRole> ktflow::device::getAllUnitRoles() {
  static const UnitRole roles[] = {
      UnitRole::DmaLoad,        UnitRole::DmaStore,
      UnitRole::ScratchpadLoad, UnitRole::ScratchpadStore,
      UnitRole::VectorCompute,  UnitRole::MatrixCompute};
  return roles;
}

/// More copies of one group body than any device the model is meant for;
/// larger products are reported instead of risking overflow downstream.
/// The device verifier already bounds the instances of nodes far lower
/// (kMaxDeviceInstances); this catches copies of groups that hold none.
static constexpr int64_t kMaxTotalInstances = int64_t(1) << 24;

namespace ktflow::device {

/// Fills a DeviceModel in one walk over the device body.
class DeviceModelBuilder {
public:
  explicit DeviceModelBuilder(DeviceModel &model) : model(model) {}

  LogicalResult build(DeviceOp device);

private:
  LogicalResult visitBody(Block &block, ScopeId scope);
  Node makeNode(NodeKind kind, Operation *op, ScopeId scope) const;
  LogicalResult addDatapath(DatapathOp op, ScopeId scope);
  void nameNodes();
  void findCoreScope();
  void deriveRoles();

  DeviceModel &model;
  SmallVector<std::pair<DatapathOp, ScopeId>> pendingDatapaths;
};

} // namespace ktflow::device

LogicalResult DeviceModelBuilder::build(DeviceOp device) {
  model.deviceOp = device;
  model.name = device.getSymName().str();
  FailureOr<DeviceSpec> spec =
      readDeviceSpec(device->getDiscardableAttrDictionary(),
                     [&] { return device.emitOpError(); });
  if (failed(spec))
    return failure();
  model.clockMHz = spec->clockMHz;

  Scope root;
  root.id = 0;
  model.scopes.push_back(root);
  if (device.getBody().empty() || failed(visitBody(device.getBody().front(), 0)))
    return failure();

  model.outgoing.resize(model.nodes.size());
  model.incoming.resize(model.nodes.size());
  for (auto [op, scope] : pendingDatapaths)
    if (failed(addDatapath(op, scope)))
      return failure();
  nameNodes();
  findCoreScope();
  deriveRoles();
  return success();
}

Node DeviceModelBuilder::makeNode(NodeKind kind, Operation *op,
                                  ScopeId scope) const {
  Node node;
  node.id = model.nodes.size();
  node.kind = kind;
  node.op = op;
  node.scope = scope;
  node.instances = model.scopes[scope].totalInstances;
  return node;
}

LogicalResult DeviceModelBuilder::visitBody(Block &block, ScopeId scopeId) {
  // Sibling groups of one kind get an index so that their paths differ.
  llvm::DenseMap<Operation *, GroupSpec> groupSpecs;
  llvm::StringMap<unsigned> groupKinds, groupIndex;
  for (Operation &op : block) {
    auto group = dyn_cast<GroupOp>(op);
    if (!group)
      continue;
    FailureOr<GroupSpec> spec = readGroupSpec(
        group.getSpecAttr(), [&] { return group.emitOpError(); });
    if (failed(spec))
      return failure();
    ++groupKinds[spec->kind];
    groupSpecs[group] = std::move(*spec);
  }

  for (Operation &op : block) {
    auto emitError = [&] { return op.emitOpError(); };
    if (auto memory = dyn_cast<MemoryOp>(op)) {
      FailureOr<MemorySpec> spec = readMemorySpec(memory.getSpec(), emitError);
      if (failed(spec))
        return failure();
      Node node = makeNode(NodeKind::Memory, &op, scopeId);
      node.memory = std::move(*spec);
      model.nodeOfOp[&op] = node.id;
      model.nodes.push_back(std::move(node));
    } else if (auto unitOp = dyn_cast<ExecUnitOp>(op)) {
      FailureOr<UnitSpec> spec = readUnitSpec(unitOp.getSpec(), emitError);
      if (failed(spec))
        return failure();
      Node node = makeNode(NodeKind::ExecUnit, &op, scopeId);
      node.unit = std::move(*spec);
      model.nodeOfOp[&op] = node.id;
      model.nodes.push_back(std::move(node));
    } else if (auto group = dyn_cast<GroupOp>(op)) {
      const GroupSpec *spec = &groupSpecs[group];
      if (group.getBody().empty())
        return failure();
      const Scope &parent = model.scopes[scopeId];
      Scope scope;
      scope.id = model.scopes.size();
      scope.parent = scopeId;
      scope.op = group;
      scope.label = spec->kind;
      if (groupKinds[spec->kind] > 1)
        scope.label += "[" + std::to_string(groupIndex[spec->kind]++) + "]";
      scope.path =
          parent.path.empty() ? scope.label : parent.path + "/" + scope.label;
      scope.instances = spec->instances;
      // Counts multiply down the nesting; refuse products no device has
      // rather than let them wrap.
      if (llvm::MulOverflow(parent.totalInstances, spec->instances,
                            scope.totalInstances) ||
          scope.totalInstances > kMaxTotalInstances)
        return group.emitOpError()
               << "replicates its body " << spec->instances
               << " times inside " << parent.totalInstances
               << " copies of its parent: more than " << kMaxTotalInstances
               << " copies in the device";
      scope.depth = parent.depth + 1;
      scope.interconnect = spec->interconnect;
      model.scopes.push_back(scope);
      if (failed(visitBody(group.getBody().front(), scope.id)))
        return failure();
    } else if (auto datapath = dyn_cast<DatapathOp>(op)) {
      pendingDatapaths.push_back({datapath, scopeId});
    }
  }
  return success();
}

LogicalResult DeviceModelBuilder::addDatapath(DatapathOp op, ScopeId scope) {
  FailureOr<DatapathSpec> spec =
      readDatapathSpec(op.getSpecAttr(), [&] { return op.emitOpError(); });
  if (failed(spec))
    return failure();
  std::optional<NodeId> src = model.lookup(op.getSrc());
  std::optional<NodeId> dst = model.lookup(op.getDst());
  if (!src || !dst)
    return op.emitOpError("connects a group that does not yield a node");
  Datapath datapath;
  datapath.id = model.datapaths.size();
  datapath.src = *src;
  datapath.dst = *dst;
  datapath.op = op;
  datapath.scope = scope;
  datapath.instances = model.scopes[scope].totalInstances;
  datapath.spec = std::move(*spec);
  model.outgoing[*src].push_back(datapath.id);
  model.incoming[*dst].push_back(datapath.id);
  model.datapaths.push_back(std::move(datapath));
  return success();
}

void DeviceModelBuilder::nameNodes() {
  llvm::StringMap<unsigned> count, index;
  auto key = [](const Node &node) {
    return std::to_string(node.scope) + "/" + node.getKind().str();
  };
  for (const Node &node : model.nodes)
    ++count[key(node)];
  for (Node &node : model.nodes) {
    std::string name = node.getKind().str();
    if (count[key(node)] > 1)
      name += "[" + std::to_string(index[key(node)]++) + "]";
    const std::string &path = model.scopes[node.scope].path;
    node.name = path.empty() ? name : path + "/" + name;
  }
}

void DeviceModelBuilder::findCoreScope() {
  // Nodes are in program order, so the first memory of least depth wins.
  std::optional<ScopeId> best;
  for (const Node &node : model.nodes) {
    unsigned depth = model.scopes[node.scope].depth;
    if (node.isMemory() && depth > 0 &&
        (!best || depth < model.scopes[*best].depth))
      best = node.scope;
  }
  model.coreScope = best.value_or(0);
}

void DeviceModelBuilder::deriveRoles() {
  for (Node &node : model.nodes) {
    if (!node.isUnit())
      continue;
    const UnitSpec &unit = *node.unit;
    if (unit.compute) {
      if (unit.simd && !unit.simd->lanes.empty())
        node.roles |= static_cast<unsigned>(UnitRole::VectorCompute);
      if (unit.matrix)
        node.roles |= static_cast<unsigned>(UnitRole::MatrixCompute);
      continue;
    }
    // A data mover: classify every (input, output) pair of neighbours.
    for (DatapathId in : model.incoming[node.id]) {
      const Node &from = model.nodes[model.datapaths[in].src];
      for (DatapathId out : model.outgoing[node.id]) {
        const Node &to = model.nodes[model.datapaths[out].dst];
        if (from.id == to.id)
          continue;
        UnitRole role;
        if (from.isMemory() && to.isMemory()) {
          unsigned fromDepth = model.scopes[from.scope].depth;
          unsigned toDepth = model.scopes[to.scope].depth;
          if (toDepth != fromDepth)
            role = toDepth > fromDepth ? UnitRole::DmaLoad : UnitRole::DmaStore;
          else if (unit.load || unit.store)
            role = unit.load ? UnitRole::DmaLoad : UnitRole::DmaStore;
          else
            continue;
        } else if (from.isMemory()) {
          role = UnitRole::ScratchpadLoad;
        } else if (to.isMemory()) {
          role = UnitRole::ScratchpadStore;
        } else {
          continue;
        }
        node.roles |= static_cast<unsigned>(role);
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// DeviceModel
//===----------------------------------------------------------------------===//

FailureOr<DeviceModel> DeviceModel::build(DeviceOp device) {
  DeviceModel model;
  DeviceModelBuilder builder(model);
  if (failed(builder.build(device)))
    return failure();
  return model;
}

std::optional<NodeId> DeviceModel::lookup(Operation *op) const {
  auto it = nodeOfOp.find(op);
  if (it == nodeOfOp.end())
    return std::nullopt;
  return it->second;
}

std::optional<NodeId> DeviceModel::lookup(Value handle) const {
  Operation *op = resolveNode(handle);
  return op ? lookup(op) : std::nullopt;
}

std::optional<NodeId> DeviceModel::findByKind(StringRef kind) const {
  for (const Node &node : nodes)
    if (node.getKind() == kind)
      return node.id;
  return std::nullopt;
}

SmallVector<NodeId> DeviceModel::getMemories() const {
  SmallVector<NodeId> result;
  for (const Node &node : nodes)
    if (node.isMemory())
      result.push_back(node.id);
  return result;
}

SmallVector<NodeId> DeviceModel::getUnits() const {
  SmallVector<NodeId> result;
  for (const Node &node : nodes)
    if (node.isUnit())
      result.push_back(node.id);
  return result;
}

SmallVector<NodeId> DeviceModel::getUnitsWithRole(UnitRole role) const {
  SmallVector<NodeId> result;
  for (const Node &node : nodes)
    if (node.hasRole(role))
      result.push_back(node.id);
  return result;
}

bool DeviceModel::isWithin(ScopeId inner, ScopeId outer) const {
  for (std::optional<ScopeId> walk = inner; walk; walk = scopes[*walk].parent)
    if (*walk == outer)
      return true;
  return false;
}

int64_t DeviceModel::getScopeInstancesPerCore(ScopeId scope) const {
  if (!isWithin(scope, coreScope))
    return 0;
  return scopes[scope].totalInstances / scopes[coreScope].totalInstances;
}

std::vector<std::map<ScopeId, int64_t>>
DeviceModel::getInstanceCombinations(llvm::ArrayRef<ScopeId> chain) const {
  std::vector<std::map<ScopeId, int64_t>> out{{}};
  for (ScopeId s : chain) {
    std::vector<std::map<ScopeId, int64_t>> next;
    for (const auto &partial : out)
      for (int64_t i = 0; i < scopes[s].instances; ++i) {
        auto extended = partial;
        extended[s] = i;
        next.push_back(std::move(extended));
      }
    out = std::move(next);
  }
  return out;
}

int64_t DeviceModel::getInstancesPerCore(NodeId id) const {
  return getScopeInstancesPerCore(nodes[id].scope);
}

int64_t DeviceModel::getDatapathInstancesPerCore(DatapathId id) const {
  return getScopeInstancesPerCore(datapaths[id].scope);
}

//===- ScheduleTarget.cpp - What the scheduler knows of its device --------===//
//
// This file resolves a kernel module's target device, builds its model and
// finds the lanes of a core: every copy (per core) of every vector compute
// unit, with the routes from device memory to it and back cut into hops,
// keeping the ones whose routes have the shape of the first lane's.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Scheduler/ScheduleTarget.h"
#include "ktflow/Device/ComputeOpClass.h"
#include "ktflow/Device/Target.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::sched;
using device::DeviceModel;
using device::UnitRole;

//===----------------------------------------------------------------------===//
// Routes to hops
//===----------------------------------------------------------------------===//

FailureOr<HopChain> ktflow::sched::cutRoute(const DeviceModel &model,
                                            const device::MemoryTree &tree,
                                            const device::Route &route,
                                            std::string &reason) {
  (void)tree;
  HopChain chain;
  chain.route = route;
  ArrayRef<NodeId> nodes = route.nodes;
  auto name = [&](NodeId n) { return model.getNode(n).name; };
  if (nodes.size() < 2) {
    reason = "the route is empty";
    return failure();
  }
  size_t i = 0;
  if (model.getNode(nodes[0]).isCompute()) {
    // compute -> store unit -> memory.
    if (nodes.size() < 3 || !model.getNode(nodes[1]).isUnit() ||
        !model.getNode(nodes[2]).isMemory()) {
      reason = "'" + name(nodes[0]) +
               "' does not reach memory through exactly one store unit";
      return failure();
    }
    Hop hop;
    hop.kind = Hop::Drain;
    hop.unit = nodes[1];
    hop.to = nodes[2];
    hop.fifo = route.datapaths[0];
    chain.hops.push_back(hop);
    i = 2;
  }
  while (i + 1 < nodes.size()) {
    if (!model.getNode(nodes[i]).isMemory()) {
      reason = "expected a memory at '" + name(nodes[i]) + "'";
      return failure();
    }
    // memory -> unit -> (memory | compute).
    if (i + 2 >= nodes.size() || model.getNode(nodes[i + 1]).isMemory()) {
      reason = "'" + name(nodes[i]) + "' is joined to '" + name(nodes[i + 1]) +
               "' without a unit that moves the data";
      return failure();
    }
    const device::Node &next = model.getNode(nodes[i + 2]);
    Hop hop;
    hop.unit = nodes[i + 1];
    hop.from = nodes[i];
    if (next.isMemory()) {
      hop.kind = Hop::Dma;
      hop.to = nodes[i + 2];
    } else if (next.isCompute() && i + 2 == nodes.size() - 1) {
      hop.kind = Hop::Feed;
      hop.fifo = route.datapaths[i + 1];
    } else {
      reason = "data passes from '" + name(nodes[i + 1]) + "' to '" +
               next.name + "' without a memory in between";
      return failure();
    }
    chain.hops.push_back(hop);
    i += 2;
  }
  return chain;
}

//===----------------------------------------------------------------------===//
// ScheduleTarget
//===----------------------------------------------------------------------===//

ScheduleTarget::ScheduleTarget(Operation *module) {
  // In the body, not the initializer list: build() fills the other members.
  valid = succeeded(build(cast<ModuleOp>(module)));
}

LogicalResult ScheduleTarget::build(ModuleOp module) {
  FailureOr<device::TargetDevice> resolved =
      device::resolveTarget(module, device::TargetImport::InModule);
  if (failed(resolved))
    return failure();
  ktdf_arch::TargetOp target = resolved->target;
  FailureOr<DeviceModel> built = DeviceModel::build(resolved->device);
  if (failed(built))
    return failure();
  model = std::make_unique<DeviceModel>(std::move(*built));
  routing = std::make_unique<device::RoutingGraph>(*model);
  tree = std::make_unique<device::MemoryTree>(*model);
  roofline = std::make_unique<device::Roofline>(*model);

  if (resolved->globalMemory.empty())
    return target.emitError("the memory map does not say which device "
                            "memory KTIR's global space is");
  globalKind = resolved->globalMemory;
  std::optional<NodeId> globalNode = model->findByKind(globalKind);
  if (!globalNode)
    return target.emitError("device has no memory of kind '")
           << globalKind << "'";
  globalMemory = *globalNode;
  if (!resolved->ctLocalMemory.empty())
    localMemory = model->findByKind(resolved->ctLocalMemory);
  return findLanes(target);
}

/// Kinds of the hops, and the number of datapaths, of a chain.
static std::string shapeOf(const HopChain &chain) {
  std::string s;
  for (const Hop &hop : chain.hops)
    s += "DFR"[hop.kind];
  return s + std::to_string(chain.route.getNumHops());
}

std::optional<ComputePath> ScheduleTarget::findMatrixPath(ScopeId scope) const {
  const DeviceModel &m = *model;
  for (NodeId unit : m.getUnitsWithRole(UnitRole::MatrixCompute)) {
    if (m.getNode(unit).scope != scope)
      continue;
    std::optional<device::Route> in = routing->findRoute(globalMemory, unit);
    std::optional<device::Route> out = routing->findRoute(unit, globalMemory);
    if (!in || !out)
      continue;
    std::string reason;
    FailureOr<HopChain> inbound = cutRoute(m, *tree, *in, reason);
    if (failed(inbound))
      continue;
    FailureOr<HopChain> outbound = cutRoute(m, *tree, *out, reason);
    if (failed(outbound))
      continue;
    return ComputePath{unit, std::move(*inbound), std::move(*outbound)};
  }
  return std::nullopt;
}

LogicalResult ScheduleTarget::findLanes(Operation *anchor) {
  const DeviceModel &m = *model;
  ScopeId coreScope = m.getCoreScope();
  std::string firstReason;
  for (NodeId unit : m.getUnitsWithRole(UnitRole::VectorCompute)) {
    const device::Node &node = m.getNode(unit);
    if (!m.isWithin(node.scope, coreScope))
      continue;
    std::optional<device::Route> in = routing->findRoute(globalMemory, unit);
    std::optional<device::Route> out = routing->findRoute(unit, globalMemory);
    std::string reason;
    if (!in || !out) {
      reason = "no route between '" + globalKind + "' and '" + node.name + "'";
    }
    FailureOr<HopChain> inbound = failure(), outbound = failure();
    if (reason.empty())
      inbound = cutRoute(m, *tree, *in, reason);
    if (reason.empty())
      outbound = cutRoute(m, *tree, *out, reason);
    if (!reason.empty()) {
      if (firstReason.empty())
        firstReason = reason;
      continue;
    }
    // One lane per combination of instance indices of the replicated
    // scopes strictly inside the core on the unit's chain.
    SmallVector<ScopeId> replicated;
    for (std::optional<ScopeId> s = node.scope; s && *s != coreScope;
         s = m.getScope(*s).parent)
      if (m.getScope(*s).instances > 1)
        replicated.push_back(*s);
    std::optional<ComputePath> matrix = findMatrixPath(node.scope);
    for (auto &coords : m.getInstanceCombinations(replicated)) {
      Lane lane;
      lane.compute = unit;
      lane.coords = coords;
      lane.inbound = *inbound;
      lane.outbound = *outbound;
      lane.matrix = matrix;
      if (!lanes.empty() &&
          (shapeOf(lane.inbound) != shapeOf(lanes.front().inbound) ||
           shapeOf(lane.outbound) != shapeOf(lanes.front().outbound)))
        continue;
      lanes.push_back(std::move(lane));
    }
  }
  if (lanes.empty())
    return anchor->emitError("device '")
           << m.getName()
           << "' has no vector compute unit the scheduler can feed from '"
           << globalKind << "' and drain back"
           << (firstReason.empty() ? "" : ": " + firstReason);
  return success();
}

std::string ScheduleTarget::getInstanceName(NodeId node, int64_t core,
                                            const Lane &lane) const {
  const DeviceModel &m = *model;
  const device::Node &n = m.getNode(node);
  SmallVector<ScopeId> chain;
  for (std::optional<ScopeId> s = n.scope; s; s = m.getScope(*s).parent)
    if (m.getScope(*s).parent)
      chain.insert(chain.begin(), *s);
  std::string name;
  for (ScopeId s : chain) {
    const device::Scope &scope = m.getScope(s);
    name += scope.label;
    if (scope.instances > 1) {
      int64_t index = 0;
      if (s == m.getCoreScope())
        index = core;
      else if (auto it = lane.coords.find(s); it != lane.coords.end())
        index = it->second;
      name += "[" + std::to_string(index) + "]";
    }
    name += "/";
  }
  const std::string &path = m.getScope(n.scope).path;
  StringRef leaf = n.name;
  if (!path.empty() && leaf.starts_with(path + "/"))
    leaf = leaf.drop_front(path.size() + 1);
  return name + leaf.str();
}

NodeId ScheduleTarget::mapFromFirstLane(NodeId node, const Lane &lane) const {
  const Lane &first = lanes.front();
  SmallVector<std::pair<const HopChain *, const HopChain *>, 4> chains = {
      {&first.inbound, &lane.inbound}, {&first.outbound, &lane.outbound}};
  if (first.matrix && lane.matrix) {
    chains.push_back({&first.matrix->inbound, &lane.matrix->inbound});
    chains.push_back({&first.matrix->outbound, &lane.matrix->outbound});
  }
  for (auto [a, b] : chains)
    for (auto [x, y] : llvm::zip(a->route.nodes, b->route.nodes))
      if (x == node)
        return y;
  return node;
}

std::optional<NodeId> ScheduleTarget::findNode(StringRef name) const {
  for (const device::Node &node : model->getNodes())
    if (node.name == name)
      return node.id;
  return std::nullopt;
}

int64_t ScheduleTarget::getLanesPerInstance(NodeId unit) const {
  int64_t instances = std::max<int64_t>(model->getInstancesPerCore(unit), 1);
  return std::max<int64_t>(static_cast<int64_t>(lanes.size()) / instances, 1);
}

bool ScheduleTarget::loadsAndStoresOnOneEngine() const {
  const Lane &lane = lanes.front();
  if (lane.inbound.hops.empty() || lane.outbound.hops.empty())
    return false;
  const Hop &in = lane.inbound.hops.front(), &out = lane.outbound.hops.back();
  return in.kind == Hop::Dma && out.kind == Hop::Dma && out.unit == in.unit;
}

bool ScheduleTarget::readsMemory(NodeId unit, NodeId memory) const {
  std::optional<device::Route> route = routing->findRoute(memory, unit);
  return route &&
         llvm::all_of(ArrayRef(route->nodes).drop_front().drop_back(),
                      [&](NodeId n) { return model->getNode(n).isMemory(); });
}

std::optional<int64_t> ScheduleTarget::getSimdLanes(const Lane &lane,
                                                    Type type) const {
  const device::Node &node = model->getNode(lane.compute);
  if (!node.unit || !node.unit->simd)
    return std::nullopt;
  // A chunk of a type the unit has no lanes for (bf16) is held in the
  // lanes it computes it in (f32).
  Type held = device::getHeldType(type, *node.unit);
  for (auto [t, n] : node.unit->simd->lanes)
    if (t == held)
      return n;
  return std::nullopt;
}

//===- FromDevice.cpp - Machines from device models -----------------------===//
//
// This file expands a DeviceModel into a Machine. A node of a scope with N
// copies in the device becomes N instances, one per combination of the
// instance indices of its enclosing groups; a datapath is instanced the
// same way and joins, at each of its copies, the endpoint instances that
// share its indices (endpoints in inner groups take instance 0 of groups
// the datapath does not enclose).
//
//===----------------------------------------------------------------------===//

#include "ktflow/Machine/FromDevice.h"
#include "ktflow/Device/Target.h"

#include "mlir/IR/BuiltinTypes.h"

#include <algorithm>
#include <map>

using namespace ktflow;
using namespace ktflow::machine;
using device::DeviceModel;
using device::ScopeId;

namespace {
/// The groups enclosing a scope, outermost first (the device body excluded).
std::vector<ScopeId> chainOf(const DeviceModel &model, ScopeId scope) {
  std::vector<ScopeId> chain;
  for (std::optional<ScopeId> s = scope; s; s = model.getScope(*s).parent)
    if (model.getScope(*s).parent)
      chain.insert(chain.begin(), *s);
  return chain;
}

std::string instanceName(const DeviceModel &model, const device::Node &node,
                         const std::map<ScopeId, int64_t> &coords) {
  std::string name;
  for (ScopeId s : chainOf(model, node.scope)) {
    const device::Scope &scope = model.getScope(s);
    name += scope.label;
    if (scope.instances > 1)
      name += "[" + std::to_string(coords.at(s)) + "]";
    name += "/";
  }
  const std::string &path = model.getScope(node.scope).path;
  llvm::StringRef leaf = node.name;
  if (!path.empty() && leaf.starts_with(path + "/"))
    leaf = leaf.drop_front(path.size() + 1);
  return name + leaf.str();
}

/// The coordinates of `node` seen from a datapath copy at `coords`.
std::map<ScopeId, int64_t> project(const DeviceModel &model,
                                   const device::Node &node,
                                   const std::map<ScopeId, int64_t> &coords) {
  std::map<ScopeId, int64_t> out;
  for (ScopeId s : chainOf(model, node.scope)) {
    auto it = coords.find(s);
    out[s] = it == coords.end() ? 0 : it->second;
  }
  return out;
}

mlir::Type mlirType(mlir::MLIRContext *ctx, ElemType t) {
  switch (t) {
  case ElemType::i1:
    return mlir::IntegerType::get(ctx, 1);
  case ElemType::i8:
    return mlir::IntegerType::get(ctx, 8);
  case ElemType::i16:
    return mlir::IntegerType::get(ctx, 16);
  case ElemType::i32:
    return mlir::IntegerType::get(ctx, 32);
  case ElemType::i64:
    return mlir::IntegerType::get(ctx, 64);
  case ElemType::f16:
    return mlir::Float16Type::get(ctx);
  case ElemType::bf16:
    return mlir::BFloat16Type::get(ctx);
  case ElemType::f32:
    return mlir::Float32Type::get(ctx);
  case ElemType::f64:
    return mlir::Float64Type::get(ctx);
  }
  return {};
}

/// The linear index of the core instance a node belongs to (the product of
/// the instance indices from the device down to the core scope), or -1.
int32_t coreIndex(const DeviceModel &model, const device::Node &node,
                  const std::map<ScopeId, int64_t> &coords) {
  ScopeId core = model.getCoreScope();
  if (!model.getScope(core).parent || !model.isWithin(node.scope, core))
    return -1;
  int64_t index = 0;
  for (ScopeId s : chainOf(model, core)) {
    auto it = coords.find(s);
    index = index * model.getScope(s).instances +
            (it == coords.end() ? 0 : it->second);
  }
  return static_cast<int32_t>(index);
}

uint32_t rolesOf(const device::Node &node) {
  using device::UnitRole;
  uint32_t roles = 0;
  if (node.hasRole(UnitRole::DmaLoad) || node.hasRole(UnitRole::DmaStore))
    roles |= RoleDma;
  if (node.hasRole(UnitRole::ScratchpadLoad))
    roles |= RoleLoad;
  if (node.hasRole(UnitRole::ScratchpadStore))
    roles |= RoleStore;
  if (node.hasRole(UnitRole::VectorCompute))
    roles |= RoleVector;
  if (node.hasRole(UnitRole::MatrixCompute))
    roles |= RoleMatrix;
  return roles;
}
} // namespace

Machine ktflow::machine::buildMachine(const DeviceModel &model) {
  Machine m;
  m.name = model.getName().str();
  m.clockHz = model.getClockMHz() * 1e6;
  m.syncLatency = kDefaultSyncLatency;
  mlir::MLIRContext *ctx = model.getOp()->getContext();
  device::ScopeId coreScope = model.getCoreScope();
  const device::Scope &cores = model.getScope(coreScope);
  m.interconnect.numCores = static_cast<uint32_t>(model.getNumCores());
  if (cores.interconnect) {
    using T = mlir::ktdf_arch::Topology;
    const mlir::ktdf_arch::InterconnectSpec &ic = *cores.interconnect;
    m.interconnect.topology = ic.topology == T::Ring ? MachineInterconnect::Ring
                              : ic.topology == T::Mesh
                                  ? MachineInterconnect::Mesh
                                  : MachineInterconnect::Crossbar;
    m.interconnect.bidirectional = ic.bidirectional;
    m.interconnect.hopLatency = static_cast<uint32_t>(ic.hopLatency);
    m.interconnect.linkBandwidth = ic.linkBandwidth;
    for (int64_t d : ic.dims)
      m.interconnect.dims.push_back(static_cast<uint32_t>(d));
  }
  // (node, coordinates) -> machine node
  std::map<std::pair<device::NodeId, std::map<ScopeId, int64_t>>, NodeRef>
      instances;
  for (const device::Node &node : model.getNodes()) {
    for (const auto &coords :
         model.getInstanceCombinations(chainOf(model, node.scope))) {
      std::string name = instanceName(model, node, coords);
      if (node.isMemory()) {
        MachineMemory mem;
        mem.name = name;
        mem.kind = node.memory->kind;
        mem.size = static_cast<uint64_t>(node.memory->size);
        mem.bandwidth = node.memory->bandwidth.value_or(0);
        mem.core = coreIndex(model, node, coords);
        instances[{node.id, coords}] = {
            NodeRef::Memory, static_cast<uint32_t>(m.memories.size())};
        m.memories.push_back(std::move(mem));
        continue;
      }
      MachineUnit unit;
      unit.name = name;
      unit.kind = node.unit->kind;
      unit.roles = rolesOf(node);
      unit.core = coreIndex(model, node, coords);
      unit.maxOutstanding = static_cast<uint32_t>(
          std::clamp<int64_t>(node.unit->maxOutstanding, 1, UINT32_MAX));
      if (const auto &matrix = node.unit->matrix)
        unit.matrix = {static_cast<uint32_t>(matrix->m),
                       static_cast<uint32_t>(matrix->n),
                       static_cast<uint32_t>(matrix->k)};
      for (unsigned c = 0; c < kNumOpClasses; ++c)
        for (unsigned t = 0; t < kNumElemTypes; ++t) {
          std::optional<double> thr = node.unit->getThroughput(
              static_cast<OpClass>(c), mlirType(ctx, static_cast<ElemType>(t)));
          unit.throughput[c][t] = thr.value_or(0);
        }
      instances[{node.id, coords}] = {NodeRef::Unit,
                                      static_cast<uint32_t>(m.units.size())};
      m.units.push_back(std::move(unit));
    }
  }
  for (const device::Datapath &dp : model.getDatapaths()) {
    for (const auto &coords :
         model.getInstanceCombinations(chainOf(model, dp.scope))) {
      const device::Node &src = model.getNode(dp.src);
      const device::Node &dst = model.getNode(dp.dst);
      MachineLink link;
      link.from = instances.at({dp.src, project(model, src, coords)});
      link.to = instances.at({dp.dst, project(model, dst, coords)});
      link.bandwidth = dp.spec.bandwidth;
      link.latency = static_cast<uint32_t>(dp.spec.latency);
      link.fifoDepth =
          dp.spec.queue ? static_cast<uint32_t>(dp.spec.queue->depth) : 0;
      for (int64_t g : dp.spec.transferGranularity)
        link.granularities.push_back(static_cast<uint32_t>(g));
      m.links.push_back(std::move(link));
    }
  }
  return m;
}

mlir::FailureOr<Machine> ktflow::machine::loadMachine(ModuleLoader &loader,
                                                      llvm::StringRef path,
                                                      llvm::StringRef name) {
  mlir::OwningOpRef<mlir::ModuleOp> module = loader.load(path);
  if (!module)
    return mlir::failure();
  mlir::FailureOr<mlir::ktdf_arch::DeviceOp> device =
      device::findDevice(*module, name);
  if (mlir::failed(device))
    return mlir::failure();
  mlir::FailureOr<DeviceModel> model = DeviceModel::build(*device);
  if (mlir::failed(model))
    return mlir::failure();
  return buildMachine(*model);
}

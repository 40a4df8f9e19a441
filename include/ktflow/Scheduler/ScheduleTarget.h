//===- ScheduleTarget.h - What the scheduler knows of a device --*- C++ -*-===//
//
// This file declares ScheduleTarget, the scheduler's view of the device a
// kernel module targets: the device model with its routing graph, memory
// tree and roofline, the device memories KTIR's memory spaces map to, and
// the compute *lanes* of a core — the identical instances of a vector
// compute unit together with the units that feed and drain it, found by
// routing from device memory to the unit and back. Every scheduling and
// lowering decision that depends on the hardware asks this class, so no
// pass names a unit or a size.
//
// It is an MLIR analysis of the kernel module: a pass asks for it with
// getAnalysis<ScheduleTarget>(), and every pass that leaves the target and
// its device alone marks it preserved, so the scheduling and lowering passes
// of one pipeline share one model of the device.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_SCHEDULER_SCHEDULETARGET_H
#define KTFLOW_SCHEDULER_SCHEDULETARGET_H

#include "ktflow/Device/DeviceModel.h"
#include "ktflow/Device/MemoryTree.h"
#include "ktflow/Device/Roofline.h"
#include "ktflow/Device/RoutingGraph.h"

#include "mlir/IR/BuiltinOps.h"

#include <map>
#include <memory>
#include <string>

namespace ktflow::sched {

using device::NodeId;
using device::ScopeId;

/// One step of a route between device memory and a compute unit.
struct Hop {
  enum Kind {
    /// Memory to memory through a data mover (DMA).
    Dma,
    /// Memory into the FIFO of the compute unit, through a load unit.
    Feed,
    /// The compute unit's FIFO into memory, through a store unit.
    Drain,
  };
  Kind kind = Dma;
  /// The unit that performs the hop.
  NodeId unit = 0;
  /// The memory read (Dma, Feed) and the memory written (Dma, Drain).
  std::optional<NodeId> from, to;
  /// The datapath into the compute unit (Feed) or out of it (Drain).
  std::optional<device::DatapathId> fifo;
};

/// A route from device memory to a compute unit (inbound) or back
/// (outbound), cut into hops.
struct HopChain {
  llvm::SmallVector<Hop, 4> hops;
  device::Route route;
};

/// A compute unit with the routes that feed and drain it.
struct ComputePath {
  NodeId unit = 0;
  HopChain inbound, outbound;
};

/// One identical instance of a vector compute unit within a core, with the
/// routes that feed and drain it.
struct Lane {
  NodeId compute = 0;
  /// Instance index of every replicated scope inside the core on the
  /// compute unit's chain of scopes.
  std::map<ScopeId, int64_t> coords;
  HopChain inbound, outbound;
  /// The matrix compute unit beside the vector unit (in the same scope,
  /// so the same instance of it serves this lane), with its routes; none
  /// on a device whose lanes have no matrix unit.
  std::optional<ComputePath> matrix;

  /// This lane with its compute unit and routes replaced by the matrix
  /// unit's: what matrix products are scheduled on. Needs `matrix`.
  Lane viaMatrix() const {
    Lane lane = *this;
    lane.compute = matrix->unit;
    lane.inbound = matrix->inbound;
    lane.outbound = matrix->outbound;
    return lane;
  }
};

class ScheduleTarget {
public:
  /// Resolves the `ktdf_arch.target` of `module` (a ModuleOp) against a
  /// device defined in the module (the import pass puts it there), builds the
  /// model and finds the lanes. On failure a located error has been reported
  /// and isValid() is false; nothing else may be asked then.
  explicit ScheduleTarget(mlir::Operation *module);

  /// Whether the target resolved; a pass that finds it did not fails.
  bool isValid() const { return valid; }

  const device::DeviceModel &getModel() const { return *model; }
  const device::RoutingGraph &getRouting() const { return *routing; }
  const device::MemoryTree &getMemoryTree() const { return *tree; }
  const device::Roofline &getRoofline() const { return *roofline; }
  mlir::ktdf_arch::DeviceOp getDevice() const { return model->getOp(); }

  /// The device memory KTIR's `global` space maps to.
  NodeId getGlobalMemory() const { return globalMemory; }
  llvm::StringRef getGlobalKind() const { return globalKind; }
  /// The memory KTIR's `ct_local` space maps to, if the map names one.
  std::optional<NodeId> getLocalMemory() const { return localMemory; }

  int64_t getNumCores() const { return model->getNumCores(); }
  /// The lanes of one core, identical to the first (same hop kinds along
  /// the same number of datapaths); at least one.
  llvm::ArrayRef<Lane> getLanes() const { return lanes; }
  /// The lane instances of the device (every lane of every core, or only
  /// the first of each with `everyLane` off): how many grid points or
  /// iterations can run at once.
  int64_t getNumLaneInstances(bool everyLane = true) const {
    return getNumCores() * (everyLane ? static_cast<int64_t>(lanes.size()) : 1);
  }

  /// The instance name (as the simulator's machine names it) of `node` on
  /// core `core` in lane `lane`: replicated scopes on the lane's chain take
  /// the lane's index, the core scope takes `core`, others 0.
  std::string getInstanceName(NodeId node, int64_t core,
                              const Lane &lane) const;
  /// The node of lane `lane` that plays the part `node` plays in lane 0
  /// (the same position on the same route); `node` itself for nodes no
  /// route of lane 0 uses differently.
  NodeId mapFromFirstLane(NodeId node, const Lane &lane) const;
  /// Finds a node by its device-model name ("core/subcore[0]/L1LU").
  std::optional<NodeId> findNode(llvm::StringRef name) const;
  /// Whether unit `unit` reads memory `memory` itself: a route from the
  /// memory to the unit that relays only through memories, as the bundle
  /// emitter routes an instruction (a route through another unit, the
  /// load unit filling the scratchpad, is none).
  bool readsMemory(NodeId unit, NodeId memory) const;
  /// The lanes of a core one instance of `unit` serves (its DMA engine's
  /// transfers queue on it): a unit outside the lane's own scopes serves
  /// several; at least one.
  int64_t getLanesPerInstance(NodeId unit) const;
  /// Whether one DMA engine of a lane both loads from and stores to device
  /// memory (mesh_device's): it runs an execution's transfers in order.
  bool loadsAndStoresOnOneEngine() const;

  /// SIMD lanes of `lane`'s compute unit for `type` (those it holds `type`
  /// in: f32's for a bf16 it has no lanes for, getHeldType), if it has any.
  std::optional<int64_t> getSimdLanes(const Lane &lane, mlir::Type type) const;

private:
  mlir::LogicalResult build(mlir::ModuleOp module);
  mlir::LogicalResult findLanes(mlir::Operation *anchor);
  /// The matrix compute unit in `scope` that device memory reaches and
  /// that drains back to it, with its routes.
  std::optional<ComputePath> findMatrixPath(ScopeId scope) const;

  bool valid = false;

  std::unique_ptr<device::DeviceModel> model;
  std::unique_ptr<device::RoutingGraph> routing;
  std::unique_ptr<device::MemoryTree> tree;
  std::unique_ptr<device::Roofline> roofline;
  NodeId globalMemory = 0;
  std::string globalKind;
  std::optional<NodeId> localMemory;
  llvm::SmallVector<Lane, 2> lanes;
};

/// Cuts a legal route into hops. Fails (returning a reason) when a stretch
/// between memories is not exactly one data mover, or a compute unit is
/// not reached through exactly one load or store unit.
llvm::FailureOr<HopChain> cutRoute(const device::DeviceModel &model,
                                   const device::MemoryTree &tree,
                                   const device::Route &route,
                                   std::string &reason);

} // namespace ktflow::sched

#endif // KTFLOW_SCHEDULER_SCHEDULETARGET_H

//===- DeviceVerifier.cpp - Whole-device checks of ktdf_arch --------------===//
//
// This file implements the checks that need more than one op: what a device
// or group body may contain, that a group touches only the outer nodes it
// shares, that memory kinds are unique in a scope, that every execution
// unit is connected to some memory by a legal route (one that passes
// through no compute unit), and that the device, every replicated copy
// counted, stays within the documented limit on instances (NodeSpec.h)
// before any tool starts modelling it.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDFArch/IR/KTDFArch.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::ktdf_arch;

LogicalResult DeviceOp::verify() {
  return readDeviceSpec(getOperation()->getDiscardableAttrDictionary(),
                        [&] { return emitOpError(); });
}

/// Checks the ops of one device or group body, then recurses into groups.
static LogicalResult verifyBody(Block &block, bool isDevice) {
  llvm::StringMap<MemoryOp> memoryKinds;
  for (Operation &op : block) {
    bool allowed = isa<MemoryOp, ExecUnitOp, GroupOp, DatapathOp>(op) ||
                   (isDevice ? isa<PatternsOp>(op) : isa<YieldOp>(op));
    if (!allowed)
      return op.emitOpError()
             << "cannot appear in a " << (isDevice ? "device" : "group")
             << " body, which holds memory, exec_unit, group, datapath"
             << (isDevice ? " and patterns" : " and yield") << " ops";
    if (auto memory = dyn_cast<MemoryOp>(op)) {
      auto kind = dyn_cast_if_present<StringAttr>(
          memory.getSpec().get(kKindKey));
      if (!kind)
        continue;
      auto [it, inserted] = memoryKinds.try_emplace(kind.getValue(), memory);
      if (!inserted)
        return memory.emitOpError()
                   .append("duplicate memory kind ", kind,
                           " in one scope; memory maps could not tell them "
                           "apart")
                   .attachNote(it->second.getLoc())
               << "first defined here";
    }
    if (auto group = dyn_cast<GroupOp>(op))
      if (failed(verifyBody(group.getBody().front(), /*isDevice=*/false)))
        return failure();
  }
  return success();
}

/// Whether data can pass through `node` on its way elsewhere: memories and
/// units that only move data can, compute units only start or end a route.
static bool isTransit(Operation *node) {
  auto unit = dyn_cast<ExecUnitOp>(node);
  if (!unit)
    return true;
  auto features =
      dyn_cast_if_present<DictionaryAttr>(unit.getSpec().get(kFeaturesKey));
  return !features || !features.get(kComputeFeature);
}

/// Marks every node that a route from one of `roots` reaches along `edges`.
static llvm::DenseSet<Operation *>
reach(ArrayRef<Operation *> roots,
      const llvm::DenseMap<Operation *, SmallVector<Operation *>> &edges) {
  llvm::DenseSet<Operation *> seen(roots.begin(), roots.end());
  SmallVector<Operation *> worklist(roots.begin(), roots.end());
  while (!worklist.empty()) {
    Operation *node = worklist.pop_back_val();
    if (!isTransit(node))
      continue;
    auto it = edges.find(node);
    if (it == edges.end())
      continue;
    for (Operation *next : it->second)
      if (seen.insert(next).second)
        worklist.push_back(next);
  }
  return seen;
}

namespace {
/// What a device asks ktflow to model, every copy of a replicated group
/// counted (saturating at INT64_MAX).
struct Footprint {
  /// Instances of memories, execution units and datapaths.
  int64_t instances = 0;
  /// The group with the largest `ktdf_arch.instances`, which the errors
  /// point at.
  GroupOp widest;
  int64_t widestInstances = 1;
};
} // namespace

static int64_t saturatingMul(int64_t a, int64_t b) {
  int64_t r;
  return llvm::MulOverflow(a, b, r) ? INT64_MAX : r;
}

static int64_t saturatingAdd(int64_t a, int64_t b) {
  int64_t r;
  return llvm::AddOverflow(a, b, r) ? INT64_MAX : r;
}

/// An integer entry of a node or group spec (already verified), or `dflt`.
static int64_t specInt(DictionaryAttr spec, StringRef key, int64_t dflt) {
  auto value = dyn_cast_if_present<IntegerAttr>(spec ? spec.get(key) : nullptr);
  return value ? value.getInt() : dflt;
}

/// Adds the ops of `block`, which stands for `copies` copies, to `fp`.
static void measure(Block &block, int64_t copies, Footprint &fp) {
  for (Operation &op : block) {
    if (isa<MemoryOp, ExecUnitOp, DatapathOp>(op)) {
      fp.instances = saturatingAdd(fp.instances, copies);
    } else if (auto group = dyn_cast<GroupOp>(op)) {
      int64_t instances = specInt(group.getSpecAttr(), kInstancesKey, 1);
      if (instances > fp.widestInstances) {
        fp.widest = group;
        fp.widestInstances = instances;
      }
      measure(group.getBody().front(), saturatingMul(copies, instances), fp);
    }
  }
}

/// Refuses a device beyond kMaxDeviceInstances: modelling it would take
/// minutes and gigabytes.
static LogicalResult verifyFootprint(DeviceOp device) {
  Footprint fp;
  measure(device.getBody().front(), 1, fp);
  if (fp.instances <= kMaxDeviceInstances)
    return success();
  InFlightDiagnostic diag = fp.widest ? fp.widest.emitOpError()
                                      : device.emitOpError();
  if (fp.widest)
    diag << "replicates its body " << fp.widestInstances << " times: ";
  return diag << "the device would have " << fp.instances
              << " instances of memories, execution units and datapaths, "
                 "more than the "
              << kMaxDeviceInstances << " ktflow models";
}

LogicalResult DeviceOp::verifyRegions() {
  if (failed(verifyBody(getBody().front(), /*isDevice=*/true)) ||
      failed(verifyFootprint(*this)))
    return failure();

  SmallVector<Operation *> memories, units;
  llvm::DenseMap<Operation *, SmallVector<Operation *>> forward, backward;
  WalkResult result = walk([&](Operation *op) {
    if (isa<MemoryOp>(op))
      memories.push_back(op);
    else if (isa<ExecUnitOp>(op))
      units.push_back(op);
    if (auto datapath = dyn_cast<DatapathOp>(op)) {
      Operation *src = resolveNode(datapath.getSrc());
      Operation *dst = resolveNode(datapath.getDst());
      if (!src || !dst)
        return WalkResult::interrupt();
      forward[src].push_back(dst);
      backward[dst].push_back(src);
    }
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();

  llvm::DenseSet<Operation *> fed = reach(memories, forward);
  llvm::DenseSet<Operation *> draining = reach(memories, backward);
  for (Operation *unit : units)
    if (!fed.contains(unit) && !draining.contains(unit))
      return unit->emitOpError(
          "has no route to or from any memory; connect it with datapaths");
  return success();
}

LogicalResult GroupOp::verifyRegions() {
  llvm::SmallDenseSet<Value> shared(getShared().begin(), getShared().end());
  Region &body = getBody();
  WalkResult walk = body.walk([&](Operation *op) {
    for (Value operand : op->getOperands()) {
      if (body.isAncestor(operand.getParentRegion()) ||
          shared.contains(operand))
        continue;
      op->emitOpError("uses a node defined outside its group that the group "
                      "does not share")
              .attachNote(getLoc())
          << "add it to this group's share(...)";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

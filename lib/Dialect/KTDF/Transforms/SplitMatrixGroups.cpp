//===- SplitMatrixGroups.cpp - Products to the matrix unit ----------------===//
//
// This file implements --ktdf-split-matrix-groups. ktir-to-ktdf makes one
// pipeline, on one compute unit, of each compute group; a matrix unit has
// no element-wise datapath, so a group holding both matrix products and
// element-wise work (a SwiGLU's projections around its SiLU and gate) ran
// entirely on the vector unit, multiplying at its f32 lanes' rate. Here
// such a group is cut into parts of one side each — the products the
// lane's matrix unit multiplies, and everything else — joined by
// scratchpad views: a value handed from one side to the other is stored
// into a view of its own right after it is computed and loaded back before
// its first use on the other side. The parts then become separate
// pipelines whose feeds and drains reach the views directly (no DMA), and
// the lowering orders each hand-over with the channels of scratchpad views
// (docs/scheduler.md).
//
//===----------------------------------------------------------------------===//

#include "GroupParts.h"

#include "ktflow/Dialect/KTDF/Transforms/MatrixStages.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Scheduler/ScheduleTarget.h"
#include "ktflow/Scheduler/ScheduleTargetPass.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/EquivalenceClasses.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFSPLITMATRIXGROUPS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

bool mlir::ktdf::isHandoverView(Operation *view) {
  return view && view->hasAttr(kHandoverViewAttrName);
}

namespace {
enum class Side { Matrix, Vector };

/// Splits the compute groups of one block.
class BlockSplitter : public GroupSplitter {
public:
  BlockSplitter(Block &block, const ktdf_arch::UnitSpec &matrixUnit,
                StringRef localKind, func::FuncOp func,
                ScratchpadCursor &cursor)
      : GroupSplitter(block, localKind, func, cursor), matrixUnit(matrixUnit) {}

  void run() {
    for (SmallVector<Operation *> &ops : collectGroups())
      splitGroup(ops);
  }

private:
  /// A 2-d product the lane's matrix unit multiplies (a batched one's
  /// result goes whole to memory: ktdf-check-supported refuses an
  /// epilogue beside it, and the units are fed tiles of rank 1 or 2).
  bool isMatrixOp(Operation *op) const {
    if (!isa<linalg::MatmulOp>(op))
      return false;
    return matrixRate(op, matrixUnit).has_value();
  }

  /// Loads and fills go with their users, copied for each part that uses
  /// them.
  static bool isFlexible(Operation *op) {
    return isa<ktdp::LoadOp>(op) || isFill(op);
  }

  /// The side of a compute op or a store (a store of a flexible value
  /// counts as element-wise work).
  Side sideOf(Operation *op) {
    if (auto store = dyn_cast<ktdp::StoreOp>(op)) {
      Operation *def = store.getDataTile().getDefiningOp();
      return def && position.contains(def) && !isFlexible(def) ? sideOf(def)
                                                               : Side::Vector;
    }
    return isMatrixOp(op) ? Side::Matrix : Side::Vector;
  }

  void splitGroup(ArrayRef<Operation *> ops) {
    bool matrix =
        llvm::any_of(ops, [&](Operation *op) { return isMatrixOp(op); });
    bool vector = llvm::any_of(ops, [&](Operation *op) {
      return !isMatrixOp(op) && !isFlexible(op) && !isa<ktdp::StoreOp>(op);
    });
    if (!matrix || !vector)
      return;
    parts = {};
    crossing.clear();
    // Parts: ops joined by same-side uses; the other uses cross.
    for (Operation *op : ops) {
      if (isFlexible(op))
        continue;
      parts.insert(op);
      for (Operation *def : groupOperands(op)) {
        if (isFlexible(def))
          continue;
        if (sideOf(def) == sideOf(op))
          parts.unionSets(def, op);
        else
          crossing.push_back({def, op});
      }
    }
    if (!handsOverForward())
      return;
    // A load or fill joins the parts of one side that use it where they
    // can run as one pipeline (a product's operand shared by its
    // neighbours), else each part gets a copy. A part that cannot join the
    // first user's may join a later one's (a SwiGLU's second chunk: its
    // two up projections share X, but their SiLU runs after the first
    // chunk's).
    for (Operation *op : ops) {
      if (!isFlexible(op))
        continue;
      SmallVector<Operation *> users = userParts(op);
      for (auto [i, other] : llvm::enumerate(users))
        for (Operation *earlier : ArrayRef(users).take_front(i))
          if (tryJoin(earlier, other))
            break;
    }
    for (Operation *op : ops)
      if (isFlexible(op))
        copyPerPart(op);
    handOver();
  }

  /// The leaders of the parts that use the flexible op `op`, in block
  /// order of their first use.
  SmallVector<Operation *> userParts(Operation *op) {
    SmallVector<Operation *> leaders;
    for (Operation *user : op->getUsers())
      if (position.contains(user) && parts.contains(user))
        if (!llvm::is_contained(leaders, parts.getLeaderValue(user)))
          leaders.push_back(parts.getLeaderValue(user));
    llvm::sort(leaders, [&](Operation *a, Operation *b) {
      return firstUse(op, a) < firstUse(op, b);
    });
    return leaders;
  }

  size_t firstUse(Operation *op, Operation *leader) {
    size_t first = SIZE_MAX;
    for (Operation *user : op->getUsers())
      if (parts.contains(user) && parts.getLeaderValue(user) == leader)
        first = std::min(first, position[user]);
    return first;
  }

  /// Whether every part that hands a value over is placed (after its
  /// last op) before the part that receives it.
  bool handsOverForward() {
    return llvm::all_of(crossing, [&](auto edge) {
      return lastOf(edge.first) < lastOf(edge.second);
    });
  }

  /// Joins the parts of `a` and `b` when they are on one side and every
  /// hand-over still goes forward; whether they are one part now.
  bool tryJoin(Operation *a, Operation *b) {
    if (sideOf(a) != sideOf(b))
      return false;
    if (parts.isEquivalent(a, b))
      return true;
    llvm::EquivalenceClasses<Operation *> saved = parts;
    parts.unionSets(a, b);
    if (handsOverForward())
      return true;
    parts = std::move(saved);
    return false;
  }

  /// Leaves `op` to the first part that uses it and gives every other
  /// part a copy of its own, just before it.
  void copyPerPart(Operation *op) { copyForParts(op, userParts(op)); }

  const ktdf_arch::UnitSpec &matrixUnit;
};

/// The lane's matrix unit, when it and the vector unit are both fed from
/// and drained into the memory `ct_local` maps to (where the handover
/// views live); none otherwise.
static const ktdf_arch::UnitSpec *
sharedScratchpadMatrixUnit(const ktflow::sched::ScheduleTarget &target) {
  const ktflow::sched::Lane &lane = target.getLanes().front();
  std::optional<ktflow::sched::NodeId> local = target.getLocalMemory();
  if (!lane.matrix || !local)
    return nullptr;
  for (const ktflow::sched::HopChain *chain :
       {&lane.inbound, &lane.matrix->inbound})
    if (chain->hops.back().from != local)
      return nullptr;
  for (const ktflow::sched::HopChain *chain :
       {&lane.outbound, &lane.matrix->outbound})
    if (chain->hops.front().to != local)
      return nullptr;
  return &*target.getModel().getNode(lane.matrix->unit).unit;
}

struct SplitMatrixGroupsPass
    : public ktflow::sched::WithScheduleTarget<
          ktdf::impl::KTDFSplitMatrixGroupsBase<SplitMatrixGroupsPass>> {
  void runOnOperation() override {
    bool products = false;
    getOperation().walk(
        [&](Operation *op) { products |= isMatrixProduct(op); });
    if (!products)
      return markAllAnalysesPreserved();
    const ktflow::sched::ScheduleTarget *target = requireScheduleTarget();
    if (!target)
      return;
    const ktdf_arch::UnitSpec *unit = sharedScratchpadMatrixUnit(*target);
    if (!unit)
      return;
    StringRef localKind =
        target->getModel().getNode(*target->getLocalMemory()).getKind();
    (void)splitEachBlock(getOperation(), [&](Block &block, func::FuncOp func,
                                             ScratchpadCursor &cursor) {
      BlockSplitter(block, *unit, localKind, func, cursor).run();
      return success();
    });
  }
};
} // namespace

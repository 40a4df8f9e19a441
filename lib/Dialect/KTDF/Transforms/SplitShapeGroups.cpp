//===- SplitShapeGroups.cpp - A window's computation in its own stage -----===//
//
// This file implements --ktdf-split-shape-groups. ktir-to-ktdf makes one
// pipeline of each compute group, with one compute stage, and a compute
// stage streams tiles of one shape (StreamPlan.cpp). A kernel that
// computes on a window of its row next to the whole row (each row minus
// the sum of its left half; the row times exp of its second element; a
// half picked by the row's maximum) makes one group of two shapes, after
// ktdf-lift-slices has loaded the window as its own sub-tile. When what
// flows between the ops of one shape and those of another is only a row
// scalar — a one-element tensor (a reduction's result, an element's
// value) that its user broadcasts over its tile — the group is cut into
// parts of one shape each, joined by scratchpad views as
// ktdf-split-matrix-groups joins a product to its epilogue: the scalar is
// stored into a `ktdf.handover` view of its own right after it is
// computed and loaded back before its first use, which the stream planner
// reads as one value per row. Parts of the same shape stay one part (a
// softmax's row maximum and its exp share the row's stage) where their
// order allows it.
//
//===----------------------------------------------------------------------===//

#include "GroupParts.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Scheduler/ScheduleTarget.h"
#include "ktflow/Scheduler/ScheduleTargetPass.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFSPLITSHAPEGROUPS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

/// Whether `v` is a tensor of one element (of rank 1 or more, which a
/// scratchpad view can hold).
static bool isOneElement(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && type.hasStaticShape() && type.getRank() > 0 &&
         type.getNumElements() == 1;
}

/// Whether `user` broadcasts the row scalar `value`, computed by a compute
/// op, over more than one element (its inputs read it through constant
/// maps only): the only use that may cross from one part to another. (A
/// loaded one-element tile stays with its user: the stream planner reads it
/// as one value per row.)
static bool broadcastsRowScalar(Value value, Operation *user) {
  auto generic = dyn_cast<linalg::GenericOp>(user);
  if (!generic || !isOneElement(value) ||
      isa_and_nonnull<ktdp::LoadOp>(value.getDefiningOp()) ||
      llvm::is_contained(generic.getDpsInits(), value) ||
      generic.getStaticLoopRanges().empty() ||
      llvm::product_of(generic.getStaticLoopRanges()) <= 1)
    return false;
  for (OpOperand *operand : generic.getDpsInputOperands())
    if (operand->get() == value &&
        !generic.getMatchingIndexingMap(operand).isConstant())
      return false;
  return true;
}

/// Whether a tile of type `a` is wider than one of shape `b`, by rank then
/// elements: the widest sets its stage's tile shape (StreamPlan's
/// collectStage).
static bool isWider(ShapedType a, ArrayRef<int64_t> b) {
  if (a.getRank() != static_cast<int64_t>(b.size()))
    return a.getRank() > static_cast<int64_t>(b.size());
  return a.getNumElements() > llvm::product_of(b);
}

namespace {
/// Splits the compute groups of one block whose parts compute on tiles of
/// different shapes.
class BlockSplitter : public GroupSplitter {
public:
  using GroupSplitter::GroupSplitter;

  LogicalResult run() {
    for (SmallVector<Operation *> &ops : collectGroups())
      if (failed(splitGroup(ops)))
        return failure();
    return success();
  }

private:
  /// Only loads, stores and generics, which the stream planner streams
  /// (a matrix product's stage works on whole tiles of any shape).
  static bool isStreamedGroup(ArrayRef<Operation *> ops) {
    return llvm::all_of(ops, [](Operation *op) {
      return isa<ktdp::LoadOp, ktdp::StoreOp, linalg::GenericOp>(op);
    });
  }

  LogicalResult splitGroup(ArrayRef<Operation *> ops) {
    if (!isStreamedGroup(ops))
      return success();
    parts = {};
    crossing.clear();
    for (Operation *op : ops) {
      if (isFill(op))
        continue;
      parts.insert(op);
      for (Operation *def : groupOperands(op)) {
        if (isFill(def))
          continue;
        if (broadcastsRowScalar(def->getResult(0), op))
          crossing.push_back({def, op});
        else
          parts.unionSets(def, op);
      }
    }
    joinRowArithmetic(ops);
    // Each part's tile shape; parts of one shape join where their order
    // allows (else each stays a stage of its own).
    llvm::MapVector<Operation *, SmallVector<int64_t>> shapes = partShapes(ops);
    if (llvm::all_of(shapes, [&](auto &entry) {
          return entry.second == shapes.front().second;
        }))
      return success();
    for (auto [i, a] : llvm::enumerate(shapes))
      for (auto &b : llvm::drop_begin(shapes, i + 1)) {
        if (a.second != b.second || parts.isEquivalent(a.first, b.first))
          continue;
        size_t before = backwardHandOvers().size();
        llvm::EquivalenceClasses<Operation *> saved = parts;
        parts.unionSets(a.first, b.first);
        if (backwardHandOvers().size() > before)
          parts = std::move(saved);
      }
    shapes = partShapes(ops);
    for (auto [def, user] : backwardHandOvers())
      if (shapes.lookup(parts.getLeaderValue(def)) !=
          shapes.lookup(parts.getLeaderValue(user)))
        return refuseBackwardHandOver(shapes, def, user);
    // Parts of one shape that cannot run in order: one stage, as before.
    if (!backwardHandOvers().empty())
      return success();
    llvm::erase_if(crossing, [&](auto edge) {
      return parts.isEquivalent(edge.first, edge.second);
    });
    for (Operation *op : ops)
      if (isFill(op))
        copyPerPart(op);
    handOver();
    return success();
  }

  /// The stream planner would refuse the group's two tile shapes in one
  /// stage; says why they cannot be two stages, at the window's op (of the
  /// narrower shape) of the hand-over from `def` to `user` that goes
  /// backwards.
  LogicalResult refuseBackwardHandOver(
      const llvm::MapVector<Operation *, SmallVector<int64_t>> &shapes,
      Operation *def, Operation *user) {
    // A view of the map's own vector (lookup would return a copy that dies
    // with the call).
    auto shapeOf = [&](Operation *op) -> ArrayRef<int64_t> {
      auto it = shapes.find(parts.getLeaderValue(op));
      return it == shapes.end() ? ArrayRef<int64_t>() : it->second;
    };
    Type element = getElementTypeOrSelf(def->getResult(0).getType());
    auto typeOf = [&](Operation *op) {
      return RankedTensorType::get(shapeOf(op), element);
    };
    bool windowUses = !isWider(typeOf(user), shapeOf(def));
    Operation *window = windowUses ? user : def,
              *whole = windowUses ? def : user;
    bool both = llvm::any_of(crossing, [&](auto edge) {
      return parts.isEquivalent(edge.first, user) &&
             parts.isEquivalent(edge.second, def);
    });
    InFlightDiagnostic diag =
        window->emitError("this computes on a window of a loaded tile (")
        << typeOf(window) << ") in the same computation as the whole tile ("
        << typeOf(whole)
        << "): one compute stage works on tiles of one shape, and a "
           "window's computation becomes a stage of its own, run before or "
           "after the whole tile's, only when the row scalars between them "
           "(a reduction's result, one element) go one way, from the stage "
           "that ends first in the program; here "
        << (both         ? "each uses a result of the other"
            : windowUses ? "it uses a value of the whole tile's "
                           "computation, which ends after it"
                         : "the whole tile's computation uses its result "
                           "and ends before it");
    diag.attachNote(whole->getLoc())
        << (windowUses ? "the whole tile's value it uses"
                       : "the whole tile's computation uses the window's "
                         "result here");
    return diag;
  }

  /// The widest tensor shape each part reads, computes or writes, by
  /// the leader of the part.
  llvm::MapVector<Operation *, SmallVector<int64_t>>
  partShapes(ArrayRef<Operation *> ops) {
    llvm::MapVector<Operation *, SmallVector<int64_t>> shapes;
    for (Operation *op : ops) {
      if (!parts.contains(op))
        continue;
      SmallVector<int64_t> &shape = shapes[parts.getLeaderValue(op)];
      for (Value v : llvm::concat<Value>(op->getOperands(), op->getResults()))
        if (auto type = dyn_cast<RankedTensorType>(v.getType());
            type && type.hasStaticShape() && isWider(type, shape))
          shape = llvm::to_vector(type.getShape());
    }
    return shapes;
  }

  /// Joins to its neighbours each part that only computes on row scalars
  /// with ops of fewer loops than the group's tiles have dimensions (an
  /// RMSNorm's sqrt of its exchanged sum): the stream planner runs those
  /// in the row's stage, between its passes. (A one-element window
  /// computed at the tile's rank, exp of x[r, 1] as a 1x1 tile, is a
  /// shape of its own.)
  void joinRowArithmetic(ArrayRef<Operation *> ops) {
    llvm::MapVector<Operation *, SmallVector<int64_t>> shapes = partShapes(ops);
    size_t rank = 0;
    for (auto &entry : shapes)
      rank = std::max(rank, entry.second.size());
    llvm::SmallPtrSet<Operation *, 4> rowArithmetic;
    for (auto &[leader, shape] : shapes)
      if (llvm::product_of(shape) == 1 &&
          llvm::all_of(ops, [&, leader = leader](Operation *op) {
            auto generic = dyn_cast<linalg::GenericOp>(op);
            return !generic || !parts.contains(op) ||
                   parts.getLeaderValue(op) != leader ||
                   generic.getNumLoops() < rank;
          }))
        rowArithmetic.insert(leader);
    SmallVector<std::pair<Operation *, Operation *>> joins;
    for (auto [def, user] : crossing)
      if (rowArithmetic.contains(parts.getLeaderValue(def)) ||
          rowArithmetic.contains(parts.getLeaderValue(user)))
        joins.push_back({def, user});
    for (auto [def, user] : joins)
      parts.unionSets(def, user);
  }

  /// The crossing uses whose part is not placed (after its last op)
  /// before the part that receives the value.
  SmallVector<std::pair<Operation *, Operation *>> backwardHandOvers() {
    SmallVector<std::pair<Operation *, Operation *>> backward;
    for (auto edge : crossing)
      if (!parts.isEquivalent(edge.first, edge.second) &&
          lastOf(edge.first) >= lastOf(edge.second))
        backward.push_back(edge);
    return backward;
  }

  /// Leaves the fill `op` to the first part that uses it and gives every
  /// other part a copy of its own, just before it.
  void copyPerPart(Operation *op) {
    SmallVector<Operation *> leaders;
    for (Operation *user : op->getUsers())
      if (parts.contains(user) &&
          !llvm::is_contained(leaders, parts.getLeaderValue(user)))
        leaders.push_back(parts.getLeaderValue(user));
    copyForParts(op, leaders);
  }
};

/// Whether the lane's vector unit is fed from and drained into the memory
/// `ct_local` maps to, where the handover views live.
static bool
vectorUnitUsesLocalMemory(const ktflow::sched::ScheduleTarget &target) {
  const ktflow::sched::Lane &lane = target.getLanes().front();
  std::optional<ktflow::sched::NodeId> local = target.getLocalMemory();
  return local && lane.inbound.hops.back().from == local &&
         lane.outbound.hops.front().to == local;
}

struct SplitShapeGroupsPass
    : public ktflow::sched::WithScheduleTarget<
          ktdf::impl::KTDFSplitShapeGroupsBase<SplitShapeGroupsPass>> {
  void runOnOperation() override {
    bool crosses = false;
    getOperation().walk([&](linalg::GenericOp op) {
      for (Value input : op.getDpsInputs())
        crosses |= isa_and_nonnull<linalg::GenericOp>(input.getDefiningOp()) &&
                   broadcastsRowScalar(input, op);
    });
    if (!crosses)
      return markAllAnalysesPreserved();
    const ktflow::sched::ScheduleTarget *target = requireScheduleTarget();
    if (!target)
      return;
    if (!vectorUnitUsesLocalMemory(*target))
      return markAllAnalysesPreserved();
    StringRef localKind =
        target->getModel().getNode(*target->getLocalMemory()).getKind();
    auto split = [&](Block &block, func::FuncOp func,
                     ScratchpadCursor &cursor) {
      return BlockSplitter(block, localKind, func, cursor).run();
    };
    if (failed(splitEachBlock(getOperation(), split)))
      signalPassFailure();
  }
};
} // namespace

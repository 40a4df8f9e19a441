//===- StraddlingTiles.cpp - Tiles of distributed views, part by part -----===//
//
// This file implements the split of ktdf-resolve-distributed-views for the
// accesses of distributed views over global parts whose tiles may straddle
// parts. The scheduler has no op joining tensors, but a DMA masks the
// coordinates of a tile its view does not hold: a load reads 0 there and a
// store skips them. So an access of a tile of the distributed view becomes
// one access per part the tile may touch, of the same tile anchored in the
// part's local coordinates (global minus the part's lower bound, as the
// interpreter indexes parts) on a view of the part whose coordinate_set is
// its box moved to the origin. A loaded value is then right only in the
// coordinates of its part, so the values computed from it must be stored
// part by part too: the loads, the element-wise ops computing from them and
// the stores of their results form a group, repeated once per part. A
// store into a tile of a distributed view with the same part boxes at the
// same anchor goes to that view's part; one into a plain view in device
// memory goes to the box of the part in it (a view at the argument plus the
// box's start). Each element stored is computed from the part holding it,
// as the interpreter computes it; a coordinate no part holds is masked in
// every copy.
//
//===----------------------------------------------------------------------===//

#include "ScratchpadParts.h"
#include "StraddlingSplitter.h"

#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include <limits>

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::straddle;

DistributedView Splitter::viewOf(Value tile) const {
  auto op = tile.getDefiningOp<ktdp::ConstructAccessTileOp>();
  auto view = op ? op.getBase().getDefiningOp<DistributedView>() : nullptr;
  return view && views.contains(view) ? view : nullptr;
}

FailureOr<GlobalParts *> Splitter::partsOf(DistributedView view,
                                           Refusal &refusal) {
  auto it = layouts.find(view);
  if (it != layouts.end())
    return &it->second;
  std::string why;
  FailureOr<GlobalParts> parts = globalParts(view, why);
  if (failed(parts)) {
    refusal = {view, "the scheduler cannot access this distributed view "
                     "part by part: " +
                         why};
    return failure();
  }
  return &(layouts[view] = std::move(*parts));
}

bool Splitter::dependsOnSplit(Operation *op, ArrayRef<int64_t> shape) {
  if (auto load = dyn_cast<ktdp::LoadOp>(op))
    return viewOf(load.getAccessTile()) != nullptr;
  if (!isElementwise(op, shape))
    return false;
  return llvm::any_of(op->getOperands(), [&](Value v) {
    Operation *def = v.getDefiningOp();
    return def && def->getBlock() == op->getBlock() &&
           dependsOnSplit(def, shape);
  });
}

LogicalResult Splitter::addTile(ktdp::ConstructAccessTileOp tile,
                                Operation *access, Group &group,
                                Refusal &refusal) {
  auto refuse = [&](const Twine &why) {
    refusal = {access, ("the scheduler splits an access of a distributed "
                        "view that may straddle its parts into one access "
                        "per part: " +
                        why)
                           .str()};
    return failure();
  };
  FailureOr<GlobalParts *> layout =
      partsOf(cast<DistributedView>(tile.getBase().getDefiningOp()), refusal);
  if (failed(layout))
    return failure();
  if (!tile.getSymbolOperands().empty() ||
      tile.getAccessTileSet().getNumSymbols() != 0)
    return refuse("its tile set has symbols");
  FailureOr<ktdp::IntegerBox> box =
      ktdp::getBoundingBox(tile.getAccessTileSet(), {});
  if (failed(box) || llvm::any_of(box->lower, [](int64_t l) { return l < 0; }))
    return refuse("its tile set is unbounded or reaches before its anchor");
  if (!group.tile) {
    group.tile = tile;
    // The parts whose box meets the tile's box for some anchor (a part
    // moving with a run-time size may meet any).
    for (auto [k, partBox] : llvm::enumerate((*layout)->boxes)) {
      bool meets = true;
      const ktdp::IntegerBox &slope = (*layout)->slopes[k];
      for (unsigned d = 0; d < partBox.lower.size(); ++d) {
        if (slope.lower[d] || slope.upper[d])
          continue;
        auto range = anchorRange(tile, d);
        int64_t lo = std::numeric_limits<int64_t>::min();
        int64_t hi = std::numeric_limits<int64_t>::max();
        if (range) {
          lo = range->first + box->lower[d];
          hi = range->second + box->upper[d];
        }
        meets &= partBox.lower[d] <= hi && lo <= partBox.upper[d];
      }
      if (meets)
        group.parts.push_back(k);
    }
    // A tile past every part is masked whole: one copy suffices.
    if (group.parts.empty())
      group.parts.push_back(0);
    return success();
  }
  ktdp::ConstructAccessTileOp first = group.tile;
  FailureOr<GlobalParts *> firstLayout =
      partsOf(cast<DistributedView>(first.getBase().getDefiningOp()), refusal);
  auto sameBoxes = [&] {
    if ((*layout)->boxes.size() != (*firstLayout)->boxes.size() ||
        (*layout)->size != (*firstLayout)->size)
      return false;
    auto same = [](ArrayRef<ktdp::IntegerBox> as,
                   ArrayRef<ktdp::IntegerBox> bs) {
      return llvm::all_of(llvm::zip(as, bs), [](auto ab) {
        auto [a, b] = ab;
        return a.lower == b.lower && a.upper == b.upper;
      });
    };
    return same((*layout)->boxes, (*firstLayout)->boxes) &&
           same((*layout)->slopes, (*firstLayout)->slopes);
  };
  if (!sameBoxes())
    return refuse("the value is computed from or stored into tiles of "
                  "distributed views whose parts hold different boxes");
  if (!sameAccess(tile, first))
    return refuse("the value is computed from or stored into tiles of "
                  "distributed views at different anchors or of different "
                  "shapes");
  return success();
}

LogicalResult Splitter::grow(Operation *seed, Group &group, Refusal &refusal,
                             bool &restart) {
  Block *block = seed->getBlock();
  SmallVector<Operation *> worklist{seed};
  ArrayRef<int64_t> shape;
  auto refuse = [&](Operation *op, const Twine &why) {
    refusal = {seed, ("the scheduler splits an access of a distributed view "
                      "that may straddle its parts into one access per part "
                      "and repeats the element-wise ops computing from its "
                      "loads per part, so their values may only be stored "
                      "into tiles of distributed views with the same part "
                      "boxes at the same anchor: '" +
                      op->getName().getStringRef() + "' " + why)
                         .str()};
    return failure();
  };
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (group.ops.contains(op))
      continue;
    if (op->getBlock() != block)
      return refuse(op, "uses the value in another block");
    if (auto load = dyn_cast<ktdp::LoadOp>(op)) {
      auto tile =
          load.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
      if (failed(addTile(tile, op, group, refusal)))
        return failure();
      shape = cast<RankedTensorType>(load.getType()).getShape();
    } else if (auto store = dyn_cast<ktdp::StoreOp>(op)) {
      auto tile =
          store.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
      auto view =
          tile ? tile.getBase().getDefiningOp<DistributedView>() : nullptr;
      if (view && !views.contains(view) && llvm::is_contained(others, view)) {
        views.insert(view);
        restart = true;
        return failure();
      }
      if (view && views.contains(view)) {
        if (failed(addTile(tile, op, group, refusal)))
          return failure();
      } else if (!group.tile || !tile || view ||
                 !storableByBox(
                     tile, group.tile,
                     layouts.find(group.tile.getBase().getDefiningOp())
                         ->second)) {
        return refuse(op, "stores it into a tile of neither such a "
                          "distributed view nor a plain view in device "
                          "memory (an argument plus a constant, static, a "
                          "box from the origin that the parts fill) at that "
                          "anchor");
      }
      shape = cast<RankedTensorType>(store.getDataTile().getType()).getShape();
    } else if (auto reduce = dyn_cast<linalg::ReduceOp>(op);
               reduce && !shape.empty() &&
               group.ops.contains(reduce.getInputs()[0].getDefiningOp())) {
      // Its result is whole (cutGroup): its uses are not the group's.
      group.ops.insert(op);
      group.reductions.push_back(reduce);
      continue;
    } else if (shape.empty() || !isElementwise(op, shape)) {
      return refuse(op, "uses it and is not element-wise on the tile");
    }
    group.ops.insert(op);
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp();
          def && def->getBlock() == block && !group.ops.contains(def) &&
          !isa<ktdp::ConstructAccessTileOp>(def) && dependsOnSplit(def, shape))
        worklist.push_back(def);
    for (Value result : op->getResults())
      for (Operation *user : result.getUsers())
        worklist.push_back(user);
  }
  return success();
}

bool mlir::ktdf::straddle::loadableAtPiece(Value value,
                                           ArrayRef<int64_t> shape) {
  auto load = value.getDefiningOp<ktdp::LoadOp>();
  auto tile =
      load ? load.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>()
           : nullptr;
  if (!tile || !tile.getBase().getDefiningOp<ktdp::ConstructMemoryViewOp>() ||
      tile.getType().getShape() != shape ||
      !ktdp::isBoxShaped(tile.getAccessTileSet()) ||
      !tile.getAccessTileOrder().isIdentity())
    return false;
  FailureOr<ktdp::IntegerBox> box =
      ktdp::getBoundingBox(tile.getAccessTileSet(), {});
  return succeeded(box) &&
         llvm::all_of(box->lower, [](int64_t l) { return l == 0; });
}

LogicalResult Splitter::cutGroup(Group &group, Refusal &refusal,
                                 bool plainLoads) {
  // Refused at the group's first load, as grow refuses (and as
  // ktdf-check-supported asks); an element-wise group grown from a store
  // may load nothing, and is refused at the access it grew from.
  Operation *load = nullptr;
  for (Operation *op : group.ops)
    if (isa<ktdp::LoadOp>(op) && (!load || op->isBeforeInBlock(load)))
      load = op;
  if (!load)
    load = group.ops.front();
  Operation *reduce =
      group.reductions.empty() ? load : group.reductions.front().getOperation();
  auto refuse = [&](Operation *op, const Twine &why) {
    refusal = {load, ("the scheduler reduces a value loaded from a tile "
                      "that may straddle the parts of a distributed view "
                      "piece by piece (the tile met with each part, folded "
                      "one after the other): '" +
                      op->getName().getStringRef() + "' " + why)
                         .str()};
    return failure();
  };
  std::string why;
  SmallVector<unsigned> cutDims;
  FailureOr<SmallVector<Piece>> pieces = cutIntoPieces(
      group.tile, layouts.find(group.tile.getBase().getDefiningOp())->second,
      group.parts, cutDims, why);
  if (failed(pieces))
    return refuse(reduce,
                  "reduces a tile that cannot be cut into pieces: " + why);
  for (linalg::ReduceOp reduce : group.reductions)
    if (std::optional<std::string> why = whyNotPieceReduction(reduce, cutDims))
      return refuse(reduce, "cannot fold the pieces: " + *why);
  for (Operation *op : group.ops) {
    if (isa<ktdp::LoadOp, ktdp::StoreOp, linalg::ReduceOp>(op))
      continue;
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (isa<ShapedType>(operand.getType()) &&
          !(def && group.ops.contains(def)) &&
          !parts::remakeableAtShape(operand) &&
          !(plainLoads &&
            loadableAtPiece(operand, group.tile.getType().getShape())))
        return refuse(op, "computes with a tensor that is neither a piece "
                          "nor a tensor.empty, tensor.splat or splat "
                          "constant a piece can make at its shape");
    }
  }
  group.pieces = std::move(*pieces);
  return success();
}

void Splitter::cutElementwise(Group &group) {
  SmallVector<unsigned> parts = group.parts;
  Refusal ignored;
  if (failed(cutGroup(group, ignored, /*plainLoads=*/true)))
    group.parts = parts;
}

LogicalResult Splitter::analyze(Refusal &refusal, bool &restart) {
  groups.clear();
  groupOf.clear();
  restart = false;
  for (unsigned v = 0; v < views.size(); ++v) {
    DistributedView view = views[v];
    if (failed(partsOf(view, refusal)))
      return failure();
    // ktdf-resolve-distributed-views splits only views whose users are all
    // access tiles (and refuses the others).
    for (Operation *user : view->getUsers()) {
      auto tile = cast<ktdp::ConstructAccessTileOp>(user);
      for (Operation *access : tile->getUsers()) {
        if (!isa<ktdp::LoadOp, ktdp::StoreOp>(access) ||
            access->getOperand(isa<ktdp::LoadOp>(access) ? 0 : 1) != tile) {
          refusal = {tile, "the scheduler splits a tile of a distributed "
                           "view that may straddle its parts only where it "
                           "is loaded or stored"};
          return failure();
        }
        if (groupOf.count(access))
          continue;
        Group group;
        if (failed(grow(access, group, refusal, restart)) ||
            (!group.reductions.empty() && failed(cutGroup(group, refusal))))
          return failure();
        if (cutElementwiseGroups && group.reductions.empty())
          cutElementwise(group);
        for (Operation *op : group.ops)
          groupOf[op] = groups.size();
        groups.push_back(std::move(group));
      }
    }
  }
  return success();
}

LogicalResult mlir::ktdf::straddle::splitAccesses(
    SetVector<DistributedView> &views, ArrayRef<DistributedView> others,
    Refusal &refusal, bool rewrite, bool cutElementwise) {
  Splitter splitter(views, others, cutElementwise);
  bool restart = true;
  while (restart)
    if (failed(splitter.analyze(refusal, restart)) && !restart)
      return failure();
  if (rewrite)
    splitter.rewrite();
  return success();
}

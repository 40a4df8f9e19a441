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

#include "StraddlingTiles.h"

#include "ktflow/Analysis/LaunchArguments.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"

#include <limits>

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::straddle;

using DistributedView = ktdp::ConstructDistributedMemoryViewOp;

namespace {
/// The accesses of split tiles and the element-wise ops between them that
/// are repeated once per part.
struct Group {
  SetVector<Operation *> ops;
  /// The first split tile of the group: every other has its parts' boxes,
  /// anchor and tile set.
  ktdp::ConstructAccessTileOp tile;
  /// The parts (indices) the tiles may touch.
  SmallVector<unsigned> parts;
};

class Splitter {
public:
  Splitter(SetVector<DistributedView> &views, ArrayRef<DistributedView> others)
      : views(views), others(others) {}

  /// Groups every access of the views' tiles; false with `restart` set
  /// when a view of `others` joined the views (group again).
  LogicalResult analyze(Refusal &refusal, bool &restart);
  void rewrite();

private:
  DistributedView viewOf(Value tile) const;
  FailureOr<GlobalParts *> partsOf(DistributedView view, Refusal &refusal);
  bool dependsOnSplit(Operation *op, ArrayRef<int64_t> shape);
  LogicalResult grow(Operation *seed, Group &group, Refusal &refusal,
                     bool &restart);
  LogicalResult addTile(ktdp::ConstructAccessTileOp tile, Operation *access,
                        Group &group, Refusal &refusal);
  /// The tile of `part` in place of `tile` (of a split view or a plain
  /// view a group stores into), or none when the part lies outside it.
  Value pieceTile(ktdp::ConstructAccessTileOp tile, Group &group,
                  unsigned part);

  SetVector<DistributedView> &views;
  ArrayRef<DistributedView> others;
  DenseMap<Operation *, GlobalParts> layouts;
  SmallVector<Group> groups;
  DenseMap<Operation *, unsigned> groupOf;
  DenseMap<std::pair<Operation *, unsigned>, Value> localViews, pieceTiles;
  llvm::SmallPtrSet<Operation *, 4> plainTiles;
};
} // namespace

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
        if (failed(grow(access, group, refusal, restart)))
          return failure();
        for (Operation *op : group.ops)
          groupOf[op] = groups.size();
        groups.push_back(std::move(group));
      }
    }
  }
  return success();
}

/// `tile`, anchored `lower + slopes * size` earlier, on `view` (`size`, a
/// run-time value, becomes one more index when some slope is not 0).
static Value shiftedTile(ktdp::ConstructAccessTileOp tile, Value view,
                         ArrayRef<int64_t> lower, ArrayRef<int64_t> slopes,
                         Value size) {
  AffineMap map = tile.getBaseMap();
  SmallVector<Value> indices(tile.getIndices());
  bool moving = llvm::any_of(slopes, [](int64_t k) { return k != 0; });
  AffineExpr sizeDim = getAffineDimExpr(map.getNumDims(), tile.getContext());
  if (moving)
    indices.push_back(size);
  SmallVector<AffineExpr> results;
  for (auto [r, lo, k] : llvm::zip(map.getResults(), lower, slopes))
    results.push_back(moving ? r - lo - sizeDim * k : r - lo);
  OpBuilder b(tile);
  return ktdp::ConstructAccessTileOp::create(
      b, tile.getLoc(), tile.getType(), view, indices, ValueRange(),
      AffineMap::get(map.getNumDims() + (moving ? 1 : 0), map.getNumSymbols(),
                     results, tile.getContext()),
      tile.getAccessTileSet(), tile.getAccessTileOrder());
}

/// `set` moved by `lower + slopes * s0` towards the origin (s0 its symbol).
static IntegerSet movedToOrigin(IntegerSet set, ArrayRef<int64_t> lower,
                                ArrayRef<int64_t> slopes) {
  MLIRContext *ctx = set.getContext();
  SmallVector<AffineExpr> dims, symbols;
  for (auto [d, lo, k] : llvm::enumerate(lower, slopes))
    dims.push_back(
        getAffineDimExpr(d, ctx) + lo +
        (k ? getAffineSymbolExpr(0, ctx) * k : getAffineConstantExpr(0, ctx)));
  for (unsigned s = 0; s < set.getNumSymbols(); ++s)
    symbols.push_back(getAffineSymbolExpr(s, ctx));
  IntegerSet moved = set.replaceDimsAndSymbols(dims, symbols, set.getNumDims(),
                                               set.getNumSymbols());
  SmallVector<AffineExpr> constraints;
  for (AffineExpr c : moved.getConstraints())
    constraints.push_back(
        simplifyAffineExpr(c, set.getNumDims(), set.getNumSymbols()));
  return IntegerSet::get(set.getNumDims(), set.getNumSymbols(), constraints,
                         moved.getEqFlags());
}

Value Splitter::pieceTile(ktdp::ConstructAccessTileOp tile, Group &group,
                          unsigned part) {
  auto [it, inserted] = pieceTiles.try_emplace({tile, part});
  if (!inserted)
    return it->second;
  auto view = tile.getBase().getDefiningOp<DistributedView>();
  const GlobalParts &layout =
      layouts.find(view ? view : group.tile.getBase().getDefiningOp())->second;
  const ktdp::IntegerBox &box = layout.boxes[part];
  MLIRContext *ctx = tile.getContext();
  if (view) {
    // The part in local coordinates: its box moved to the origin.
    Value &local = localViews[{view, part}];
    if (!local) {
      OpBuilder b(view);
      b.setInsertionPointAfter(view);
      auto clone = cast<ktdp::ConstructMemoryViewOp>(
          b.clone(*layouts.find(view)->second.parts[part]));
      SmallVector<int64_t> extents;
      for (auto [lo, hi] : llvm::zip(box.lower, box.upper))
        extents.push_back(hi - lo + 1);
      clone.setCoordinateSet(
          layout.size ? movedToOrigin(clone.getCoordinateSet(), box.lower,
                                      layout.slopes[part].lower)
                      : ktdp::getBoxSet(extents, ctx));
      local = clone.getResult();
    }
    Value piece = shiftedTile(tile, local, box.lower, layout.slopes[part].lower,
                              layout.size);
    piece.getDefiningOp()->setAttr(kPartPieceAttrName,
                                   UnitAttr::get(tile.getContext()));
    return pieceTiles[{tile, part}] = piece;
  }
  // A plain view: the part's box in it as a view starting at the box's
  // first element (the view's start plus the box's lower corner), with the
  // view's strides; none when the box lies outside the view.
  auto plain = tile.getBase().getDefiningOp<ktdp::ConstructMemoryViewOp>();
  plainTiles.insert(tile);
  ktdp::IntegerBox viewBox =
      *ktdp::getBoundingBox(plain.getCoordinateSet(), {});
  ArrayRef<int64_t> strides = plain.getStaticStrides();
  SmallVector<int64_t> lower, extents;
  std::optional<ktflow::ViewAddress> address =
      ktflow::getViewAddress(plain.getOffset());
  int64_t start = address->displacement
                      ? getConstantIntValue(address->displacement).value_or(0)
                      : 0;
  for (auto [d, stride] : llvm::enumerate(strides)) {
    int64_t lo = std::max<int64_t>(box.lower[d], 0);
    int64_t hi = std::min(box.upper[d], viewBox.upper[d]);
    if (hi < lo)
      return Value();
    lower.push_back(lo);
    extents.push_back(hi - lo + 1);
    start += lo * stride;
  }
  OpBuilder b(plain);
  b.setInsertionPointAfter(plain);
  Location loc = plain.getLoc();
  Value offset = address->argument;
  if (start != 0)
    offset = arith::AddIOp::create(
        b, loc, offset, arith::ConstantIndexOp::create(b, loc, start));
  auto type = cast<MemRefType>(plain.getType());
  auto boxView = cast<ktdp::ConstructMemoryViewOp>(b.clone(*plain));
  boxView.getOffsetMutable().assign(offset);
  boxView.setStaticSizes(extents);
  boxView.setCoordinateSet(ktdp::getBoxSet(extents, ctx));
  boxView.getResult().setType(MemRefType::get(
      extents, type.getElementType(), StridedLayoutAttr::get(ctx, 0, strides),
      type.getMemorySpace()));
  return pieceTiles[{tile, part}] =
             shiftedTile(tile, boxView, lower,
                         SmallVector<int64_t>(lower.size(), 0), Value());
}

void Splitter::rewrite() {
  for (Group &group : groups) {
    SmallVector<IRMapping> maps(group.parts.size());
    // In program order (one block), each op once per part before it.
    SmallVector<Operation *> ops(group.ops.begin(), group.ops.end());
    llvm::sort(
        ops, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
    for (Operation *op : ops) {
      OpBuilder b(op);
      for (auto [map, part] : llvm::zip(maps, group.parts)) {
        if (isa<ktdp::LoadOp, ktdp::StoreOp>(op)) {
          auto tile = op->getOperand(isa<ktdp::LoadOp>(op) ? 0 : 1)
                          .getDefiningOp<ktdp::ConstructAccessTileOp>();
          Value piece = pieceTile(tile, group, part);
          // A part outside the plain view stores nothing there.
          if (!piece)
            continue;
          map.map(tile.getResult(), piece);
        }
        b.clone(*op, map);
      }
    }
    for (Operation *op : llvm::reverse(ops))
      op->erase();
  }
  // The plain views' tiles the stores went through.
  for (Operation *tile : plainTiles)
    if (tile->use_empty())
      tile->erase();
  for (DistributedView view : views)
    for (Operation *user : llvm::make_early_inc_range(view->getUsers()))
      if (user->use_empty())
        user->erase();
}

LogicalResult
mlir::ktdf::straddle::splitAccesses(SetVector<DistributedView> &views,
                                    ArrayRef<DistributedView> others,
                                    Refusal &refusal, bool rewrite) {
  Splitter splitter(views, others);
  bool restart = true;
  while (restart)
    if (failed(splitter.analyze(refusal, restart)) && !restart)
      return failure();
  if (rewrite)
    splitter.rewrite();
  return success();
}

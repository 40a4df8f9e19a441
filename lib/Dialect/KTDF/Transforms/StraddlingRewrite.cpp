//===- StraddlingRewrite.cpp - Accesses of straddling tiles by part ------===//
//
// This file implements the rewrite of the part-by-part split of
// ktdf-resolve-distributed-views (StraddlingTiles.cpp groups the ops): each
// group's loads, element-wise ops and stores are repeated once per part,
// on tiles of the part in its local coordinates (or of the part's box of a
// plain view a group stores into); a group that reduces runs at the pieces'
// shapes and folds them one after the other (PieceReductions.cpp).
//
//===----------------------------------------------------------------------===//

#include "ScratchpadParts.h"
#include "StraddlingSplitter.h"

#include "ktflow/Analysis/LaunchArguments.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::straddle;

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
                          unsigned i) {
  unsigned part = group.parts[i];
  const Piece *piece = group.pieces.empty() ? nullptr : &group.pieces[i];
  auto [found, inserted] =
      (piece ? cutPieceTiles : pieceTiles).try_emplace({tile, part});
  Value &cached = found->second;
  if (!inserted)
    return cached;
  auto view = tile.getBase().getDefiningOp<DistributedView>();
  const GlobalParts &layout =
      layouts.find(view ? view : group.tile.getBase().getDefiningOp())->second;
  const ktdp::IntegerBox &box = layout.boxes[part];
  MLIRContext *ctx = tile.getContext();
  // A piece starts its offset later in the tile: its anchor is that much
  // later.
  auto startOf = [&](ArrayRef<int64_t> lower) {
    SmallVector<int64_t> start(lower);
    if (piece)
      for (auto [at, offset] : llvm::zip(start, piece->offset))
        at -= offset;
    return start;
  };
  auto cut = [&](Value pieceTile) {
    if (piece) {
      auto op = pieceTile.getDefiningOp<ktdp::ConstructAccessTileOp>();
      op.setAccessTileSet(ktdp::getBoxSet(piece->extents, ctx));
      pieceTile.setType(ktdp::AccessTileType::get(ctx, piece->extents));
    }
    return cached = pieceTile;
  };
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
    Value shifted = shiftedTile(tile, local, startOf(box.lower),
                                layout.slopes[part].lower, layout.size);
    // A masked piece's coordinates outside its part feed no stored
    // element; a cut piece's masked ones (past the view) may feed a
    // reduction, so its load reads 0 there, as the interpreter does.
    if (!piece)
      shifted.getDefiningOp()->setAttr(kPartPieceAttrName,
                                       UnitAttr::get(tile.getContext()));
    return cut(shifted);
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
      return cached = Value();
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
  return cut(shiftedTile(tile, boxView, startOf(lower),
                         SmallVector<int64_t>(lower.size(), 0), Value()));
}

void Splitter::rewriteGroup(Group &group) {
  bool cut = !group.pieces.empty();
  SmallVector<IRMapping> maps(group.parts.size());
  // In program order (one block), each op once per part before it.
  SmallVector<Operation *> ops(group.ops.begin(), group.ops.end());
  llvm::sort(ops,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  SetVector<Operation *> remade;
  for (Operation *op : ops) {
    OpBuilder b(op);
    Value folded;
    for (auto [i, map] : llvm::enumerate(maps)) {
      ArrayRef<int64_t> extents =
          cut ? group.pieces[i].extents : ArrayRef<int64_t>();
      if (isa<ktdp::LoadOp, ktdp::StoreOp>(op)) {
        auto tile = op->getOperand(isa<ktdp::LoadOp>(op) ? 0 : 1)
                        .getDefiningOp<ktdp::ConstructAccessTileOp>();
        Value piece = pieceTile(tile, group, i);
        // A part outside the plain view stores nothing there.
        if (!piece)
          continue;
        map.map(tile.getResult(), piece);
        Operation *clone = b.clone(*op, map);
        if (cut && isa<ktdp::LoadOp>(op))
          clone->getResult(0).setType(RankedTensorType::get(
              extents, getElementTypeOrSelf(op->getResult(0).getType())));
      } else if (isa<linalg::ReduceOp>(op)) {
        // Each piece's fold starts from the previous piece's result.
        auto clone = cast<linalg::ReduceOp>(b.clone(*op, map));
        if (folded)
          clone.getInitsMutable()[0].assign(folded);
        folded = clone->getResult(0);
      } else if (cut) {
        for (Value operand : op->getOperands()) {
          Operation *def = operand.getDefiningOp();
          if (!def || group.ops.contains(def) ||
              !isa<ShapedType>(operand.getType()))
            continue;
          remade.insert(def);
          // A plain view's tile the piece loads its box of.
          if (!map.contains(operand) &&
              loadableAtPiece(operand, group.tile.getType().getShape())) {
            auto load = cast<ktdp::LoadOp>(def);
            Value tile =
                pieceOfTile(b,
                            load.getAccessTile()
                                .getDefiningOp<ktdp::ConstructAccessTileOp>(),
                            group.pieces[i].offset, extents);
            map.map(operand, ktdp::LoadOp::create(
                                 b, load.getLoc(),
                                 RankedTensorType::get(
                                     extents, getElementTypeOrSelf(operand)),
                                 tile)
                                 .getResult());
          }
        }
        parts::computePiece(b, op, extents, map);
      } else {
        b.clone(*op, map);
      }
    }
    if (folded)
      op->getResult(0).replaceAllUsesWith(folded);
  }
  for (Operation *op : llvm::reverse(ops))
    op->erase();
  // The whole tile's operands the pieces made at their shapes.
  for (Operation *def : llvm::reverse(remade)) {
    if (!def->use_empty())
      continue;
    Operation *tile =
        isa<ktdp::LoadOp>(def) ? def->getOperand(0).getDefiningOp() : nullptr;
    def->erase();
    if (tile && tile->use_empty())
      tile->erase();
  }
}

void Splitter::rewrite() {
  for (Group &group : groups)
    rewriteGroup(group);
  // The plain views' tiles the stores went through.
  for (Operation *tile : plainTiles)
    if (tile->use_empty())
      tile->erase();
  for (DistributedView view : views)
    for (Operation *user : llvm::make_early_inc_range(view->getUsers()))
      if (user->use_empty())
        user->erase();
}

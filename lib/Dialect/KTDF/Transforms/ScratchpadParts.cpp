//===- ScratchpadParts.cpp - Reloads of scratchpad parts ------------------===//
//
// This file implements the analysis of ktdf-forward-scratchpad-parts (see
// ForwardScratchpadParts.cpp for the proof it makes).
//
//===----------------------------------------------------------------------===//

#include "ScratchpadParts.h"
#include "IndexAnalysis.h"
#include "ScratchpadViews.h"

#include "ktflow/Analysis/MemoryTensors.h"
#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"
#include "ktflow/Dialect/KTDP/IR/ScratchpadView.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"

using namespace mlir;
using namespace mlir::ktdf;

using namespace mlir::ktdf::parts;

static bool isIdentityOrder(ktdp::ConstructAccessTileOp tile) {
  return tile.getAccessTileOrder().isIdentity();
}

std::optional<TileShape> mlir::ktdf::parts::shapeOf(Value tileValue) {
  auto tile = tileValue.getDefiningOp<ktdp::ConstructAccessTileOp>();
  if (!tile || !tile.getSymbolOperands().empty() || !isIdentityOrder(tile) ||
      !ktdp::isBoxShaped(tile.getAccessTileSet()))
    return std::nullopt;
  FailureOr<ktdp::IntegerBox> box =
      ktdp::getBoundingBox(tile.getAccessTileSet(), {});
  if (failed(box) || box->isEmpty() ||
      llvm::any_of(box->lower, [](int64_t lo) { return lo != 0; }))
    return std::nullopt;
  return TileShape{tile, box->getExtents()};
}

std::optional<SmallVector<int64_t>>
mlir::ktdf::parts::anchorAt(ktdp::ConstructAccessTileOp tile,
                            ArrayRef<int64_t> point) {
  SmallVector<int64_t> indices;
  for (Value index : tile.getIndices()) {
    std::optional<int64_t> value =
        evaluateIndex(index, [&](Value v) -> std::optional<int64_t> {
          auto id = v.getDefiningOp<ktdp::GetComputeTileIdOp>();
          unsigned dim = id ? cast<OpResult>(v).getResultNumber() : 0;
          if (!id || dim >= point.size())
            return std::nullopt;
          return point[dim];
        });
    if (!value)
      return std::nullopt;
    indices.push_back(*value);
  }
  SmallVector<int64_t> anchor;
  for (AffineExpr result : tile.getBaseMap().getResults()) {
    auto form = affineCoefficients(result, indices.size());
    if (!form)
      return std::nullopt;
    int64_t value = form->first;
    for (auto [coeff, index] : llvm::zip(form->second, indices))
      value += coeff * index;
    anchor.push_back(value);
  }
  return anchor;
}

bool mlir::ktdf::parts::intersects(ArrayRef<int64_t> a, ArrayRef<int64_t> ea,
                                   ArrayRef<int64_t> b, ArrayRef<int64_t> eb) {
  for (unsigned d = 0; d < a.size(); ++d)
    if (a[d] + ea[d] <= b[d] || b[d] + eb[d] <= a[d])
      return false;
  return true;
}

FailureOr<TileShape> ScratchpadParts::topLevelShape(ktdp::LoadOp load) {
  std::optional<TileShape> shape = shapeOf(load.getAccessTile());
  if (!shape)
    return refuse(load, "its tile is not a box from its anchor in identity "
                        "order");
  if (load->getBlock() != &func.getBody().front())
    return refuse(load, "it is in a loop or a branch");
  return *shape;
}

const ScratchpadPart *
ScratchpadParts::partViewedBy(ktdp::ConstructMemoryViewOp other,
                              int64_t reader) const {
  auto space = ktdp::normalizeMemorySpace(other.getMemorySpace());
  if (!space || space->kind != ktdp::MemoryKind::ct_local)
    return nullptr;
  int64_t owner = space->computeTileId.value_or(reader);
  for (const ScratchpadPart &part : parts) {
    ktdp::ConstructMemoryViewOp p = part.view;
    if (part.owner == owner &&
        getLiteralElementRange(other) ==
            std::make_pair(part.first, part.last) &&
        other.getStaticSizes() == p.getStaticSizes() &&
        other.getStaticStrides() == p.getStaticStrides() &&
        other.getType().getElementType() == p.getType().getElementType())
      return &part;
  }
  return nullptr;
}

LogicalResult ScratchpadParts::collectParts() {
  for (Value input : view.getMemrefs()) {
    auto part = input.getDefiningOp<ktdp::ConstructMemoryViewOp>();
    if (!part)
      return refuse(view, "a part is not a ktdp.construct_memory_view");
    auto space = ktdp::normalizeMemorySpace(part.getMemorySpace());
    if (space && space->kind == ktdp::MemoryKind::global) {
      if (failed(collectDevicePart(part)))
        return failure();
      continue;
    }
    if (!space || space->kind != ktdp::MemoryKind::ct_local ||
        !space->computeTileId)
      return refuse(view, "every part must be in device memory or in the "
                          "scratchpad of a tile the view names (ct_local "
                          "with ct_id)");
    auto range = getLiteralElementRange(part);
    FailureOr<ktdp::IntegerBox> box =
        ktdp::getBoundingBox(part.getCoordinateSet(), {});
    if (!range || part.getCoordinateSet().getNumSymbols() != 0 ||
        !ktdp::isBoxShaped(part.getCoordinateSet()) || failed(box) ||
        box->isEmpty() || viewMayAlias(part))
      return refuse(view, "a part is not a box of static, non-aliasing "
                          "layout at a literal address");
    if (*space->computeTileId >= int64_t(points.size()))
      return refuse(view, "a part names tile " + Twine(*space->computeTileId) +
                              ", which the grid does not have");
    ScratchpadPart next{part, *space->computeTileId, range->first,
                        range->second, *box};
    for (const ScratchpadPart &other : parts)
      if ((other.owner == next.owner && other.first <= next.last &&
           next.first <= other.last) ||
          intersects(other.box.lower, other.box.getExtents(), next.box.lower,
                     next.box.getExtents()))
        return refuse(view, "two parts share memory or coordinates");
    parts.push_back(next);
  }
  if (parts.empty())
    return refuse(view, "no part is in a scratchpad");
  // The scratchpad parts' boxes were checked against each other only.
  for (const DevicePart &device : devices)
    for (const ScratchpadPart &part : parts)
      if (intersects(device.box.lower, device.box.getExtents(), part.box.lower,
                     part.box.getExtents()))
        return refuse(view, "two parts share memory or coordinates");
  return success();
}

LogicalResult ScratchpadParts::collectStores() {
  for (Operation *user : view->getUsers()) {
    auto tile = dyn_cast<ktdp::ConstructAccessTileOp>(user);
    if (!tile)
      return refuse(user, "a distributed view of scratchpad parts is used "
                          "other than through ktdp.construct_access_tile");
    for (Operation *tileUser : tile->getUsers()) {
      if (isa<ktdp::LoadOp>(tileUser))
        continue; // viewLoad's
      auto store = dyn_cast<ktdp::StoreOp>(tileUser);
      if (!store || store.getAccessTile() != tile.getResult())
        return refuse(tileUser, "a distributed view of scratchpad parts is "
                                "only stored through and loaded from");
      if (store->getBlock() != &func.getBody().front())
        return refuse(store, "a store through a distributed view of "
                             "scratchpad parts must be in the kernel's "
                             "body (not in a loop or a branch)");
      std::optional<TileShape> shape = shapeOf(tile);
      if (!shape)
        return refuse(tile, "the tile is not a box from its anchor in "
                            "identity order");
      for (auto [t, point] : llvm::enumerate(points)) {
        std::optional<SmallVector<int64_t>> anchor = anchorAt(tile, point);
        if (!anchor)
          return refuse(tile, "its anchor does not follow from the tile ids "
                              "and constants");
        // Stores become copies between the cores; none writes memory.
        for (const DevicePart &device : devices)
          if (intersects(device.box.lower, device.box.getExtents(), *anchor,
                         shape->extents))
            return refuse(store, "on tile " + Twine(t) +
                                     " it stores into the distributed "
                                     "view's part in device memory (only "
                                     "its scratchpad parts are stored "
                                     "through)");
      }
      stores.push_back(store);
    }
  }
  return success();
}

bool ScratchpadParts::writesScratchpad(Operation *op) const {
  bool writes = false;
  op->walk([&](Operation *nested) {
    if (auto store = dyn_cast<ktdp::StoreOp>(nested)) {
      if (llvm::is_contained(stores, store))
        return;
      auto written = ktdp::getAccessTileView(store.getAccessTile());
      writes |= !written || ktdp::isScratchpadView(written);
    } else {
      StringRef name = nested->getName().getStringRef();
      writes |= isa<func::CallOp>(nested) ||
                name.starts_with("ktdp.inter_tile") ||
                name == "ktdp.distributed_copy";
    }
  });
  return writes;
}

LogicalResult ScratchpadParts::forwardLoad(ktdp::LoadOp load) {
  auto loadView = ktdp::getAccessTileView(load.getAccessTile());
  // The part each tile reads (its own when the view names no tile).
  SmallVector<const ScratchpadPart *> partOf;
  auto space = loadView ? ktdp::normalizeMemorySpace(loadView.getMemorySpace())
                        : std::nullopt;
  for (size_t t = 0; t < points.size(); ++t) {
    partOf.push_back(loadView ? partViewedBy(loadView, t) : nullptr);
    if (partOf.back())
      continue;
    if (space && space->kind == ktdp::MemoryKind::ct_local &&
        !space->computeTileId)
      return refuse(load, "on tile " + Twine(t) +
                              " it reads its own scratchpad, where no part "
                              "of the distributed view lies laid out as its "
                              "view (the same address, sizes, strides and "
                              "element type)");
    return refuse(load, "it reads the memory of a scratchpad part through "
                        "a view not laid out as that part (the same tile, "
                        "address, sizes, strides and element type)");
  }
  FailureOr<ktdp::IntegerBox> localBox =
      ktdp::getBoundingBox(loadView.getCoordinateSet(), {});
  if (failed(localBox) || !ktdp::isBoxShaped(loadView.getCoordinateSet()) ||
      llvm::any_of(localBox->lower, [](int64_t lo) { return lo != 0; }) ||
      llvm::any_of(partOf, [&](const ScratchpadPart *part) {
        return localBox->getExtents() != part->box.getExtents();
      }))
    return refuse(load, "its view's coordinate set is not the part's box in "
                        "local coordinates (from 0)");
  FailureOr<TileShape> shape = topLevelShape(load);
  if (failed(shape))
    return failure();
  ktdp::StoreOp store;
  for (Operation *op = load->getPrevNode(); op && !store;
       op = op->getPrevNode()) {
    if (auto s = dyn_cast<ktdp::StoreOp>(op);
        s && llvm::is_contained(stores, s))
      store = s;
    else if (writesScratchpad(op))
      return refuse(load, "another write of a scratchpad lies between it and "
                          "the store through the distributed view");
  }
  if (!store)
    return refuse(load, "no store through the distributed view precedes it");
  std::optional<TileShape> stored = shapeOf(store.getAccessTile());
  PartForward forward{load, {}, store, {}, {}};
  for (auto [point, part] : llvm::zip(points, partOf)) {
    std::optional<SmallVector<int64_t>> anchor = anchorAt(shape->tile, point);
    if (!anchor)
      return refuse(load, "its anchor does not follow from the tile ids and "
                          "constants");
    SmallVector<int64_t> partExtents = part->box.getExtents();
    SmallVector<int64_t> read = *anchor;
    SmallVector<int64_t> written = *anchorAt(stored->tile, point);
    SmallVector<int64_t> offset;
    for (unsigned d = 0; d < read.size(); ++d) {
      if (read[d] < 0 || read[d] + shape->extents[d] > partExtents[d])
        return refuse(load, "its tile may leave the part's box");
      read[d] += part->box.lower[d]; // global coordinates
      offset.push_back(read[d] - written[d]);
      if (offset[d] < 0 || offset[d] + shape->extents[d] > stored->extents[d])
        return refuse(load, "it may read elements the nearest earlier store "
                            "through the distributed view does not write");
    }
    if (!forward.offset.empty() && forward.offset != offset)
      return refuse(load, "its tile lies at a different offset in the stored "
                          "tile on different tiles");
    forward.offset = offset;
    // No other tile's store through the view may touch what it reads.
    for (ArrayRef<int64_t> other : points) {
      if (other == ArrayRef<int64_t>(point))
        continue;
      for (ktdp::StoreOp s : stores) {
        std::optional<TileShape> otherShape = shapeOf(s.getAccessTile());
        if (intersects(*anchorAt(otherShape->tile, other), otherShape->extents,
                       read, shape->extents))
          return refuse(load, "another tile's store through the distributed "
                              "view may write what it reads (copyLoad's "
                              "case)");
      }
    }
  }
  if (cast<ShapedType>(store.getDataTile().getType()).getElementType() !=
      cast<ShapedType>(load.getType()).getElementType())
    return refuse(load, "it reads another element type than was stored");
  if (store.getDataTile().getType() == load.getType() &&
      llvm::all_of(forward.offset, [](int64_t o) { return o == 0; })) {
    forwardList.push_back(forward);
    return success();
  }
  // A slice: reload it from where the stored tensor was loaded.
  FailureOr<ktdp::LoadOp> source = sliceSource(load, store);
  if (failed(source))
    return failure();
  forward.source = *source;
  forwardList.push_back(forward);
  return success();
}

FailureOr<ktdp::LoadOp> ScratchpadParts::sliceSource(ktdp::LoadOp load,
                                                     ktdp::StoreOp store) {
  std::optional<TileShape> stored = shapeOf(store.getAccessTile());
  auto source = store.getDataTile().getDefiningOp<ktdp::LoadOp>();
  std::optional<TileShape> sourceShape =
      source ? shapeOf(source.getAccessTile()) : std::nullopt;
  auto sourceView =
      source ? ktdp::getAccessTileView(source.getAccessTile()) : nullptr;
  auto tensor =
      source ? ktflow::getDeviceTensor(source.getAccessTile()) : std::nullopt;
  if (!stored || !sourceShape || !sourceView ||
      ktdp::isScratchpadView(sourceView) || !tensor ||
      sourceShape->extents != stored->extents ||
      mayLeaveView(sourceShape->tile))
    return refuse(load, "it reads part of the stored tensor, which is not "
                        "a load of a box of device memory inside its view");
  WalkResult written = func.walk([&](ktdp::StoreOp s) {
    if (llvm::is_contained(stores, s) ||
        ktdp::isScratchpadView(ktdp::getAccessTileView(s.getAccessTile())))
      return WalkResult::advance();
    auto other = ktflow::getDeviceTensor(s.getAccessTile());
    if (!other || *other == *tensor)
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (written.wasInterrupted())
    return refuse(load, "it reads part of the stored tensor, loaded from "
                        "device memory that a store of the kernel may write");
  return source;
}

LogicalResult ScratchpadParts::analyze(PartsRefusal &why) {
  refusal = &why;
  func = view->getParentOfType<func::FuncOp>();
  auto grid = func ? ktdp::getLaunchGrid(func)
                   : FailureOr<std::optional<SmallVector<int64_t>>>(failure());
  SmallVector<int64_t> extents{1};
  if (succeeded(grid) && *grid)
    extents = **grid;
  int64_t numTiles = ktdp::getNumTiles(extents);
  if (!func || failed(grid) || numTiles > 1024)
    return refuse(view, "the grid is unknown or has more than 1024 tiles");
  for (int64_t t = 0; t < numTiles; ++t)
    points.push_back(ktdp::delinearizeTileId(t, extents));
  if (failed(collectParts()) || failed(collectStores()))
    return failure();
  // Whether an access through `accessTile` may touch a part's memory.
  auto mayTouchParts = [&](Value accessTile) {
    if (auto other = ktdp::getAccessTileView(accessTile)) {
      std::optional<std::pair<int64_t, int64_t>> range =
          getLiteralElementRange(other);
      return ktdp::isScratchpadView(other) &&
             (!range || llvm::any_of(parts, [&](const ScratchpadPart &p) {
               return p.first <= range->second && range->first <= p.last;
             }));
    }
    // Through another distributed view: harmless if of device memory only.
    auto tile = accessTile.getDefiningOp<ktdp::ConstructAccessTileOp>();
    auto other =
        tile ? tile.getBase()
                   .getDefiningOp<ktdp::ConstructDistributedMemoryViewOp>()
             : nullptr;
    return !other || other == view ||
           llvm::any_of(other.getMemrefs(), [](Value part) {
             return ktdp::isScratchpadView(
                 part.getDefiningOp<ktdp::ConstructMemoryViewOp>());
           });
  };
  // Any tile may run any other store while a load waits.
  WalkResult stored = func.walk([&](ktdp::StoreOp store) {
    if (llvm::is_contained(stores, store) ||
        !mayTouchParts(store.getAccessTile()))
      return WalkResult::advance();
    (void)refuse(store, "it may write the memory of a scratchpad part other "
                        "than through the distributed view");
    return WalkResult::interrupt();
  });
  if (stored.wasInterrupted())
    return failure();
  // Every load that may read a part's memory must be a reload or a copy.
  WalkResult result = func.walk([&](ktdp::LoadOp load) {
    if (!mayTouchParts(load.getAccessTile()))
      return WalkResult::advance();
    auto tile =
        load.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
    if (tile && tile.getBase() == view.getResult())
      return failed(viewLoad(load)) ? WalkResult::interrupt()
                                    : WalkResult::advance();
    return failed(forwardLoad(load)) && failed(copyLoad(load))
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

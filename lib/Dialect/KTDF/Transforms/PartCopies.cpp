//===- PartCopies.cpp - Reads of scratchpad parts another tile wrote ------===//
//
// This file implements ktdf-forward-scratchpad-parts' copies: a tile reads,
// from a part of a distributed view over scratchpads, what ANOTHER tile
// stored there through the view (tile t stores its block into its
// neighbour's scratchpad, then every tile reads its own). The scheduler
// keeps each scratchpad private to its core, so the store becomes the
// producer's side of a copy between the tiles and the read the consumer's:
// an `inter_tile_produce` of the stored tensor right after the store and
// an `inter_tile_consume` in place of the load, which ktdf-lower-inter-tile
// makes a `ktdf.tile_copy` (a remote DMA over the core interconnect, and a
// signal the reader waits for before it reads).
//
// The interpreter's meaning, which the copy keeps: tiles run round-robin
// in tile order and yield before each load, so a load sees every store
// that precedes it in program order on every tile, provided every tile
// makes the same loads before it (no branch, no loop of varying trips, no
// inter-tile exchange that could hold a tile back). A store after the load
// in program order would be seen by a reader later in tile order than the
// writer and missed by an earlier one: the hardware cannot reproduce that,
// and it is refused, as are two stores of what a tile reads (which lands
// last follows the tile order). Checked on every grid point: the load reads,
// through a view laid out as a part (the tile it names, or its own
// scratchpad when it names none), a box inside the box one store through
// the view wrote on one tile, the same store at the same offset for every
// reader, before the load. A slice of the stored tile is copied from a
// reload of where the stored tensor came from (forwardLoad's condition: a
// box of device memory no store of the kernel writes), on the writer.
// Where one DMA engine both loads and stores device memory
// (reloadAcrossTiles: mesh_device), such a tensor is not copied: every
// reader reloads the box itself, when it is the same box for every reader
// (reloadAcross), as it reloads its own store.
//
// A load through the distributed view itself reads global coordinates: when
// its box lies in one part on every tile, the same proof applies; when
// every tile reads its own store it is a reload, on forwardLoad's condition
// (no scratchpad write in between). A box that straddles parts on some tile
// is cut, along each dimension, at every part boundary any tile's box
// crosses (and every boundary of a box a store wrote), so that each piece
// lies in one part, and one store's box, on every tile, and each piece is
// proved as a load of its own (a copy or a reload; a load of device
// memory where the part is there, DeviceParts.cpp). The scheduler
// has no op joining tensors (tensor.insert_slice), so the pieces are joined
// where the load's value goes: stores of the whole tile into device memory,
// of it or of what element-wise ops compute from it; each piece runs those
// ops at its own shape and is stored into its box (JoinedPieces.cpp).
//
//===----------------------------------------------------------------------===//

#include "ScratchpadParts.h"
#include "ScratchpadViews.h"

#include "ktflow/Dialect/KTDP/IR/ScratchpadView.h"

#include "mlir/IR/IntegerSet.h"

#include <numeric>

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::parts;

namespace {
/// A store through the view on one tile and the box it writes there.
struct Writer {
  ktdp::StoreOp store;
  int64_t tile;
  SmallVector<int64_t> anchor, extents;
};
} // namespace

// The tiles read from are b + gcd(a, N) * k.
std::optional<std::pair<IntegerSet, IntegerSet>>
mlir::ktdf::parts::dependencySets(ArrayRef<int64_t> sources, MLIRContext *ctx) {
  int64_t n = sources.size();
  int64_t b = sources[0];
  int64_t a = n > 1 ? ((sources[1] - b) % n + n) % n : 0;
  AffineExpr p = getAffineDimExpr(0, ctx), c = getAffineSymbolExpr(0, ctx);
  IntegerSet dependency = IntegerSet::get(1, 1, {p - (c * a + b) % n}, {true});
  int64_t g = std::gcd(a, n);
  SmallVector<AffineExpr> bounds = {p, n - 1 - p, c};
  SmallVector<bool> equalities = {false, false, true};
  if (g > 1) {
    bounds.push_back((p + (g - b % g)) % g);
    equalities.push_back(true);
  }
  IntegerSet producers = IntegerSet::get(1, 1, bounds, equalities);
  for (auto [reader, source] : llvm::enumerate(sources))
    if (source != (a * static_cast<int64_t>(reader) + b) % n ||
        !ktdp::containsPoint(dependency, {source},
                             {static_cast<int64_t>(reader)}) ||
        !ktdp::containsPoint(producers, {source}, {0}))
      return std::nullopt;
  return std::make_pair(dependency, producers);
}

LogicalResult ScratchpadParts::copyLoad(ktdp::LoadOp load) {
  auto loadView = ktdp::getAccessTileView(load.getAccessTile());
  std::optional<TileShape> shape = shapeOf(load.getAccessTile());
  FailureOr<ktdp::IntegerBox> localBox =
      loadView ? ktdp::getBoundingBox(loadView.getCoordinateSet(), {})
               : FailureOr<ktdp::IntegerBox>(failure());
  // Reads shaped as forwardLoad wants them keep its reason.
  if (!loadView || !shape || failed(localBox) ||
      !ktdp::isBoxShaped(loadView.getCoordinateSet()) ||
      llvm::any_of(localBox->lower, [](int64_t lo) { return lo != 0; }) ||
      load->getBlock() != &func.getBody().front())
    return failure();
  SmallVector<SmallVector<int64_t>> reads;
  for (auto [c, point] : llvm::enumerate(points)) {
    const ScratchpadPart *part = partViewedBy(loadView, c);
    if (!part || localBox->getExtents() != part->box.getExtents())
      return failure();
    std::optional<SmallVector<int64_t>> read = anchorAt(shape->tile, point);
    if (!read)
      return failure();
    for (unsigned d = 0; d < read->size(); ++d) {
      if ((*read)[d] < 0 ||
          (*read)[d] + shape->extents[d] > part->box.getExtents()[d])
        return failure();
      (*read)[d] += part->box.lower[d]; // global coordinates
    }
    reads.push_back(*read);
  }
  return copyReads(load, *shape, reads, /*own=*/false);
}

/// Whether `box` holds the box [read, read + extents).
static bool holds(const ktdp::IntegerBox &box, ArrayRef<int64_t> read,
                  ArrayRef<int64_t> extents) {
  for (unsigned d = 0; d < read.size(); ++d)
    if (read[d] < box.lower[d] || read[d] + extents[d] > box.upper[d] + 1)
      return false;
  return true;
}

LogicalResult ScratchpadParts::viewLoad(ktdp::LoadOp load) {
  FailureOr<TileShape> shape = topLevelShape(load);
  if (failed(shape))
    return failure();
  SmallVector<SmallVector<int64_t>> reads;
  std::string straddle;
  for (auto [c, point] : llvm::enumerate(points)) {
    std::optional<SmallVector<int64_t>> read = anchorAt(shape->tile, point);
    if (!read)
      return refuse(load, "its anchor does not follow from the tile ids and "
                          "constants");
    SmallVector<std::string> names;
    SmallVector<const ktdp::IntegerBox *> touched =
        boxesTouched(*read, shape->extents, &names);
    if (touched.size() > 1 && straddle.empty())
      straddle = ("on tile " + Twine(c) + " its tile straddles " + names[0] +
                  " and " + names[1])
                     .str();
    if (touched.empty() ||
        (touched.size() == 1 && !holds(*touched[0], *read, shape->extents)))
      return refuse(load, "on tile " + Twine(c) +
                              " its tile leaves the distributed view's parts");
    reads.push_back(*read);
  }
  if (!straddle.empty())
    return pieceLoads(load, *shape, reads, straddle);
  FailureOr<bool> device = deviceRead(load, *shape, reads, {});
  if (failed(device) || *device)
    return failure(failed(device));
  return copyReads(load, *shape, reads, /*own=*/true);
}

LogicalResult ScratchpadParts::pieceLoads(ktdp::LoadOp load,
                                          const TileShape &shape,
                                          ArrayRef<SmallVector<int64_t>> reads,
                                          const std::string &straddle) {
  // The scheduler has no op joining tensors: the pieces are joined where
  // the load's value (or what element-wise ops compute from it) is stored
  // whole into device memory.
  Operation *refused = nullptr;
  joinedUses(load, shape.extents, refused);
  if (refused)
    return refuse(load, Twine(straddle) +
                            "; each piece is copied on its own, and the "
                            "scheduler joins the pieces only in stores of "
                            "the whole tile to device memory, after "
                            "element-wise ops (it has no op joining "
                            "tensors), not in '" +
                            refused->getName().getStringRef() + "'");
  // Cut the box, per dimension, wherever a part boundary crosses it on
  // some tile.
  unsigned rank = shape.extents.size();
  SmallVector<SmallVector<int64_t>> cuts(rank);
  for (unsigned d = 0; d < rank; ++d)
    cuts[d] = {0, shape.extents[d]};
  // And at every boundary of a box a store writes inside it, so that each
  // piece is one store's on every tile.
  SmallVector<ktdp::IntegerBox> boxes;
  for (ktdp::StoreOp store : stores) {
    std::optional<TileShape> stored = shapeOf(store.getAccessTile());
    for (ArrayRef<int64_t> point : points) {
      ktdp::IntegerBox &box = boxes.emplace_back();
      box.lower = *anchorAt(stored->tile, point);
      for (auto [lower, extent] : llvm::zip(box.lower, stored->extents))
        box.upper.push_back(lower + extent - 1);
    }
  }
  for (ArrayRef<int64_t> read : reads) {
    SmallVector<const ktdp::IntegerBox *> touched =
        boxesTouched(read, shape.extents);
    for (const ktdp::IntegerBox &box : boxes)
      if (intersects(box.lower, box.getExtents(), read, shape.extents))
        touched.push_back(&box);
    for (const ktdp::IntegerBox *box : touched)
      for (unsigned d = 0; d < rank; ++d)
        for (int64_t bound : {box->lower[d], box->upper[d] + 1})
          if (bound > read[d] && bound < read[d] + shape.extents[d])
            cuts[d].push_back(bound - read[d]);
  }
  int64_t numPieces = 1;
  for (SmallVector<int64_t> &cut : cuts) {
    llvm::sort(cut);
    cut.erase(llvm::unique(cut), cut.end());
    numPieces *= cut.size() - 1;
  }
  if (numPieces > 64)
    return refuse(load, Twine(straddle) +
                            "; cut at every part boundary the tiles' "
                            "boxes cross, it makes " +
                            Twine(numPieces) +
                            " pieces (at most 64 are "
                            "copied)");
  for (int64_t index = 0; index < numPieces; ++index) {
    LoadPiece piece;
    for (unsigned d = 0, rest = index; d < rank; ++d) {
      unsigned n = cuts[d].size() - 1, k = rest % n;
      rest /= n;
      piece.at.push_back(cuts[d][k]);
      piece.extents.push_back(cuts[d][k + 1] - cuts[d][k]);
    }
    SmallVector<SmallVector<int64_t>> pieceReads;
    for (auto [c, read] : llvm::enumerate(reads)) {
      SmallVector<int64_t> &at = pieceReads.emplace_back(read);
      for (unsigned d = 0; d < rank; ++d)
        at[d] += piece.at[d];
      SmallVector<const ktdp::IntegerBox *> touched =
          boxesTouched(at, piece.extents);
      if (touched.size() != 1 || !holds(*touched[0], at, piece.extents))
        return refuse(load, "on tile " + Twine(c) +
                                " its tile leaves the distributed view's "
                                "parts");
    }
    TileShape pieceShape{shape.tile, piece.extents};
    FailureOr<bool> device = deviceRead(load, pieceShape, pieceReads, piece);
    if (failed(device) ||
        (!*device && failed(copyReads(load, pieceShape, pieceReads,
                                      /*own=*/true, piece))))
      return failure();
  }
  return success();
}

LogicalResult ScratchpadParts::copyReads(ktdp::LoadOp load,
                                         const TileShape &shape,
                                         ArrayRef<SmallVector<int64_t>> reads,
                                         bool own, const LoadPiece &piece) {
  // What is read: the load's type, or its piece's.
  Type element = cast<ShapedType>(load.getType()).getElementType();
  Type readType = piece.at.empty()
                      ? load.getType()
                      : RankedTensorType::get(shape.extents, element);
  // Each store's box on each tile (collectStores checked they exist).
  SmallVector<SmallVector<Writer>> written;
  for (ktdp::StoreOp store : stores) {
    std::optional<TileShape> stored = shapeOf(store.getAccessTile());
    SmallVector<Writer> &boxes = written.emplace_back();
    for (auto [p, point] : llvm::enumerate(points))
      boxes.push_back({store, static_cast<int64_t>(p),
                       *anchorAt(stored->tile, point), stored->extents});
  }
  // Per reading tile: the stores (and their tiles) that write what it reads.
  SmallVector<SmallVector<Writer>> writers;
  bool crosses = false;
  for (auto [c, read] : llvm::enumerate(reads)) {
    SmallVector<Writer> &found = writers.emplace_back();
    for (ArrayRef<Writer> boxes : written)
      for (const Writer &w : boxes)
        if (intersects(w.anchor, w.extents, read, shape.extents)) {
          found.push_back(w);
          crosses |= static_cast<size_t>(w.tile) != c;
        }
  }
  if (!crosses && !own)
    return failure();
  if (llvm::all_of(writers, [](auto &found) { return found.empty(); }))
    return residentRead(load, shape, reads, piece);
  PartCopy copy;
  copy.load = load;
  copy.piece = piece;
  for (auto [c, found] : llvm::enumerate(writers)) {
    if (found.empty())
      return refuse(load, "no store through the distributed view writes "
                          "what tile " +
                              Twine(c) +
                              " reads, while one writes what another tile "
                              "reads (contents from before the kernel are "
                              "read only by loads no store writes on any "
                              "tile)");
    if (found.size() > 1)
      return refuse(load, "two stores through the distributed view (by "
                          "tiles " +
                              Twine(found[0].tile) + " and " +
                              Twine(found[1].tile) + ") write what tile " +
                              Twine(c) +
                              " reads; which lands last follows the "
                              "interpreter's tile order");
  }
  for (auto [c, found] : llvm::enumerate(writers)) {
    const Writer &w = found.front();
    SmallVector<int64_t> offset;
    for (unsigned d = 0; d < w.anchor.size(); ++d) {
      offset.push_back(reads[c][d] - w.anchor[d]);
      if (offset[d] < 0 || offset[d] + shape.extents[d] > w.extents[d])
        return refuse(load, "tile " + Twine(c) +
                                " reads elements no store through the "
                                "distributed view writes (past what "
                                "tile " +
                                Twine(w.tile) + " stored)");
    }
    if (!copy.offset.empty() && copy.offset != offset)
      return refuse(load, "its tile lies at a different offset in the stored "
                          "tile on different tiles");
    copy.offset = offset;
    if (copy.store && copy.store != w.store)
      return refuse(load, "its tiles read what different stores through "
                          "the distributed view wrote");
    copy.store = w.store;
    copy.sources.push_back(w.tile);
  }
  if (!copy.store->isBeforeInBlock(load) && !crosses)
    return refuse(load, "it reads what its own tile stores after it in "
                        "program order");
  if (!copy.store->isBeforeInBlock(load))
    return refuse(load, "it reads what another tile stores after it in "
                        "program order: whether it sees the store follows "
                        "the interpreter's tile order, which a compiled "
                        "kernel does not reproduce");
  // Reading another tile's store also needs every tile to make the same
  // loads before it.
  for (Operation &op : func.getBody().front()) {
    if (&op == load.getOperation() || !crosses)
      break; // a tile's own store precedes its load in its own order
    if (isa<ktdp::InterTileConsumeOp, ktdp::InterTileReduceOp>(op))
      return refuse(load, "it reads another tile's store after an inter-tile "
                          "exchange, where the writer may still wait");
    if (op.getNumRegions() && !loadsRunUniformly(&op))
      return refuse(load, "it reads another tile's store after loads that "
                          "not every tile makes equally often (in a branch, "
                          "or a loop with bounds that are not constants), "
                          "so the writer may not have stored yet");
  }
  if (cast<ShapedType>(copy.store.getDataTile().getType()).getElementType() !=
      element)
    return refuse(load, "it reads another element type than was stored");
  // A slice is copied from a reload of where the stored tensor came from.
  if (copy.store.getDataTile().getType() != readType ||
      llvm::any_of(copy.offset, [](int64_t o) { return o != 0; })) {
    FailureOr<ktdp::LoadOp> source = sliceSource(load, copy.store);
    if (failed(source))
      return failure();
    copy.source = *source;
  }
  if (!crosses) {
    // A reload, on forwardLoad's condition: no scratchpad write between.
    for (Operation *op = copy.store->getNextNode(); op != load;
         op = op->getNextNode())
      if (writesScratchpad(op))
        return refuse(load, "another write of a scratchpad lies between it "
                            "and the store through the distributed view");
    forwardList.push_back(
        {load, copy.source, copy.store, copy.offset, copy.piece});
    return success();
  }
  if (reloadAcross(copy))
    return success();
  auto sets = dependencySets(copy.sources, load.getContext());
  if (!sets)
    return refuse(load, "the tile each tile reads from is not (a * t + b) "
                        "mod " +
                            Twine(points.size()) +
                            " of the reading tile t, which is what an "
                            "inter-tile copy can express");
  std::tie(copy.dependency, copy.producers) = *sets;
  copyList.push_back(copy);
  return success();
}

bool ScratchpadParts::reloadAcross(PartCopy &copy) {
  // Only a value stored unchanged into device memory: its reload and store
  // are then one DMA from device memory to device memory. A value computed
  // with keeps its copy (Inputs/lx_broadcast_parts.mlir, doubled after the
  // read: mesh_device 297 cycles with the copies, 394 reloading).
  auto storedOnly = [](ktdp::LoadOp load) {
    return llvm::all_of(load->getUses(), [](OpOperand &use) {
      auto store = dyn_cast<ktdp::StoreOp>(use.getOwner());
      return store && use.get() == store.getDataTile() &&
             !ktdp::isScratchpadView(
                 ktdp::getAccessTileView(store.getAccessTile()));
    });
  };
  if (!reloadAcrossTiles || !storedOnly(copy.load))
    return false;
  // The load the stored tensor came from; where there is none the copy
  // stays, and so does the refusal found before.
  ktdp::LoadOp source = copy.source;
  if (!source) {
    PartsRefusal kept = *refusal;
    FailureOr<ktdp::LoadOp> found = sliceSource(copy.load, copy.store);
    *refusal = kept;
    if (failed(found))
      return false;
    source = *found;
  }
  // The box each reader reloads: the source's anchor on its writer's grid
  // point, moved by the offset; one box for every reader.
  auto tile =
      source.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
  SmallVector<int64_t> at;
  for (int64_t writer : copy.sources) {
    std::optional<SmallVector<int64_t>> anchor = anchorAt(tile, points[writer]);
    if (!anchor)
      return false;
    for (auto [a, o] : llvm::zip(*anchor, copy.offset))
      a += o;
    if (!at.empty() && at != *anchor)
      return false;
    at = *anchor;
  }
  forwardList.push_back(
      {copy.load, source, copy.store, copy.offset, copy.piece, at});
  return true;
}

Value mlir::ktdf::parts::reloadAt(OpBuilder &b, ktdp::LoadOp source,
                                  ArrayRef<int64_t> at,
                                  ArrayRef<int64_t> extents, Location loc) {
  MLIRContext *ctx = b.getContext();
  auto from =
      source.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
  SmallVector<AffineExpr> anchor;
  for (int64_t a : at)
    anchor.push_back(getAffineConstantExpr(a, ctx));
  Value tile = ktdp::ConstructAccessTileOp::create(
      b, loc, ktdp::AccessTileType::get(ctx, extents), from.getBase(),
      ValueRange(), ValueRange(), AffineMap::get(0, 0, anchor, ctx),
      ktdp::getBoxSet(extents, ctx),
      AffineMap::getMultiDimIdentityMap(extents.size(), ctx));
  Type element = cast<ShapedType>(source.getType()).getElementType();
  return ktdp::LoadOp::create(b, loc, RankedTensorType::get(extents, element),
                              tile);
}

Value ScratchpadParts::rewriteCopy(PartCopy &copy) {
  auto type = cast<RankedTensorType>(copy.load.getType());
  if (!copy.piece.at.empty())
    type = RankedTensorType::get(copy.piece.extents, type.getElementType());
  // Every tile consumes, its producer picked by the dependency.
  return createTileCopy(
      copy.load, copy.store, type, copy.producers,
      everyTileSet(points.size(), copy.load.getContext()), copy.dependency,
      [&](OpBuilder &b) -> Value {
        if (!copy.source)
          return copy.store.getDataTile();
        if (copy.piece.at.empty())
          return reloadSlice(b, copy.source, copy.offset, copy.load);
        return reloadSlice(b, copy.source, copy.offset, copy.piece.extents,
                           copy.load.getLoc());
      });
}

//===- ResidentParts.cpp - Scratchpad parts holding data from before ------===//
//
// This file implements ktdf-forward-scratchpad-parts' reads of resident
// parts: a load through a distributed view may read a scratchpad part that
// no store through the view writes (the field guide's §1b.6 kernel as
// written: an earlier kernel or the host put the LX parts' contents there,
// `lx<K>@ADDR` inputs). The scheduler keeps each scratchpad private to its
// core, so the part's tile loads the box from its own scratchpad (a view
// of the part as the tile's own `ct_local` memory, in the part's local
// coordinates: global minus its lower bound, as the interpreter indexes
// parts) and copies it to every tile over the core interconnect: an
// `inter_tile_produce` on the part's tile and an `inter_tile_consume` on
// every tile in place of the load (the part's own tile consumes its own
// copy). The own view at a literal address is a scratchpad-resident input
// of the bundle (KernelTensors.cpp).
//
// A part whose innermost dimension is not contiguous (the guide's
// column-major part, `sizes: [32, 64]`, `strides: [1, 64]`: element (i, j)
// at i + 64j) holds the same elements as a row-major view of its dimensions
// ordered by decreasing stride (64x32, strides [64, 1]). The load units
// read a scratchpad in contiguous rows, so the part's tile reads and
// copies the box in that order, and every tile transposes the copy back
// (`linalg.transpose`); ktdf-generalize moves the transposition into the
// stores of device memory it feeds, strided DMAs (TransposeIdioms.h), or
// ktdf-check-supported refuses it there, located at the load.
//
// Every tile must read the same box: a copy from one producer to all.
//
//===----------------------------------------------------------------------===//

#include "RowMajorViews.h"
#include "ScratchpadParts.h"
#include "ScratchpadViews.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::parts;

LogicalResult
ScratchpadParts::residentRead(ktdp::LoadOp load, const TileShape &shape,
                              ArrayRef<SmallVector<int64_t>> reads,
                              const LoadPiece &piece) {
  std::optional<unsigned> held;
  for (auto [index, part] : llvm::enumerate(parts))
    if (intersects(part.box.lower, part.box.getExtents(), reads.front(),
                   shape.extents))
      held = index;
  for (auto [c, read] : llvm::enumerate(reads))
    if (!held || read != reads.front())
      return refuse(load, "no store through the distributed view writes "
                          "what tile " +
                              Twine(c) +
                              " reads, and the tiles read different boxes "
                              "(scratchpad contents from before the kernel "
                              "are copied from the part's tile when every "
                              "tile reads the same box)");
  SmallVector<int64_t> sources(points.size(), parts[*held].owner);
  auto sets = dependencySets(sources, load.getContext());
  residentList.push_back({load, *held, sets->first, sets->second, piece});
  return success();
}

Value ScratchpadParts::rewriteResidentRead(ResidentRead &read) {
  const ScratchpadPart &part = parts[read.part];
  MLIRContext *ctx = read.load.getContext();
  // The part's dimensions in row-major order (identity but for a part
  // whose innermost dimension is not contiguous).
  SmallVector<int64_t> order = rowMajorOrder(part.view).value_or(
      llvm::to_vector(llvm::seq<int64_t>(0, part.box.lower.size())));
  // The part as its tile's own scratchpad, its box moved to the origin.
  Value &local = localResidentViews[read.part];
  if (!local) {
    OpBuilder b(part.view);
    b.setInsertionPointAfter(part.view);
    auto clone = cast<ktdp::ConstructMemoryViewOp>(b.clone(*part.view));
    reorderView(clone, order, part.box.getExtents());
    clone.setMemorySpaceAttr(
        ktdp::MemorySpaceAttr::get(ctx, ktdp::MemoryKind::ct_local, -1));
    local = clone.getResult();
  }
  auto tile =
      read.load.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
  LoadPiece at = partLocalPiece(read.load, read.piece, part.box.lower);
  Type element = getElementTypeOrSelf(read.load);
  auto pieceType = RankedTensorType::get(inOrder(at.extents, order), element);
  Value copy = createTileCopy(
      read.load, /*store=*/nullptr, pieceType, read.producers,
      everyTileSet(points.size(), ctx), read.dependency,
      [&](OpBuilder &b) -> Value {
        Value piece = pieceOfTile(b, tile, at.at, at.extents, local);
        // The piece's anchor and box in the clone's dimension order.
        if (!llvm::is_sorted(order))
          reorderTile(piece.getDefiningOp<ktdp::ConstructAccessTileOp>(), order,
                      at.extents);
        return ktdp::LoadOp::create(b, read.load.getLoc(), pieceType, piece);
      });
  if (llvm::is_sorted(order))
    return copy;
  // Back in the part's (and the load's) dimension order.
  OpBuilder b(read.load);
  return transposed(b, read.load.getLoc(), copy, inverseOrder(order));
}

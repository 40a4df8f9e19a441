//===- PieceReductions.cpp - Reductions over the pieces of a tile --------===//
//
// This file implements the analyses that let the part-by-part split of
// ktdf-resolve-distributed-views (StraddlingTiles.cpp) reduce a value
// loaded from a tile that straddles parts. A masked piece holds the whole
// tile, right only inside its part; an element-wise op does not care, but
// a reduction would fold the other coordinates in. So a group with a
// reduction cuts the tile at the part boundaries inside it: each piece is
// the tile's box met with a part's box, accessed at its own shape, and the
// reduction folds the pieces one after the other (each piece's fold starts
// from the previous one's result), in ascending order of their place in
// the tile. That needs the boundaries at the same place in the tile on
// every compute tile and iteration: the tile's anchor is a constant along
// every dimension the parts cut.
//
//===----------------------------------------------------------------------===//

#include "StraddlingTiles.h"

#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::straddle;

FailureOr<SmallVector<Piece>> mlir::ktdf::straddle::cutIntoPieces(
    ktdp::ConstructAccessTileOp tile, const GlobalParts &layout,
    SmallVectorImpl<unsigned> &parts, SmallVectorImpl<unsigned> &cutDims,
    std::string &why) {
  if (layout.size) {
    why = "its parts move with a run-time size";
    return failure();
  }
  ArrayRef<int64_t> shape = tile.getType().getShape();
  FailureOr<ktdp::IntegerBox> box =
      ktdp::getBoundingBox(tile.getAccessTileSet(), {});
  if (failed(box) || !ktdp::isBoxShaped(tile.getAccessTileSet()) ||
      llvm::any_of(box->lower, [](int64_t l) { return l != 0; })) {
    why = "its tile set is not a box from its anchor";
    return failure();
  }
  SmallVector<Piece> pieces(parts.size());
  for (unsigned d = 0; d < shape.size(); ++d) {
    const ktdp::IntegerBox &first = layout.boxes[parts.front()];
    bool cut = llvm::any_of(parts, [&](unsigned k) {
      return layout.boxes[k].lower[d] != first.lower[d] ||
             layout.boxes[k].upper[d] != first.upper[d];
    });
    if (!cut) {
      for (Piece &piece : pieces) {
        piece.offset.push_back(0);
        piece.extents.push_back(shape[d]);
      }
      continue;
    }
    std::optional<std::pair<int64_t, int64_t>> anchor = anchorRange(tile, d);
    if (!anchor || anchor->first != anchor->second) {
      why = "the parts cut dimension " + std::to_string(d) +
            " of the tile, along which its anchor is not a constant";
      return failure();
    }
    cutDims.push_back(d);
    for (auto [piece, k] : llvm::zip(pieces, parts)) {
      int64_t lo = std::max(anchor->first, layout.boxes[k].lower[d]);
      int64_t hi =
          std::min(anchor->first + shape[d] - 1, layout.boxes[k].upper[d]);
      piece.offset.push_back(lo - anchor->first);
      piece.extents.push_back(std::max<int64_t>(hi - lo + 1, 0));
    }
  }
  // The parts the tile meets, in ascending order of their pieces' places.
  SmallVector<unsigned> order;
  for (unsigned i = 0; i < parts.size(); ++i)
    if (llvm::all_of(pieces[i].extents, [](int64_t e) { return e > 0; }))
      order.push_back(i);
  if (order.empty()) {
    why = "it lies outside every part";
    return failure();
  }
  llvm::sort(order, [&](unsigned a, unsigned b) {
    return pieces[a].offset < pieces[b].offset;
  });
  SmallVector<Piece> kept;
  SmallVector<unsigned> keptParts;
  for (unsigned i : order) {
    kept.push_back(pieces[i]);
    keptParts.push_back(parts[i]);
  }
  parts.assign(keptParts);
  return kept;
}

std::optional<std::string>
mlir::ktdf::straddle::whyNotPieceReduction(linalg::ReduceOp reduce,
                                           ArrayRef<unsigned> cutDims) {
  if (reduce.getNumDpsInputs() != 1)
    return std::string("it reduces several tensors at once");
  ArrayRef<int64_t> reduced = reduce.getDimensions();
  for (unsigned d : cutDims)
    if (!llvm::is_contained(reduced, static_cast<int64_t>(d)))
      return "the parts cut dimension " + std::to_string(d) +
             ", which it keeps (its result would be cut too)";
  // Folding piece after piece rounds each piece's result to the element
  // type before the next piece's fold: exact for max and min, and for f32
  // sums what any other order gives (the device's chunks), but a 16-bit
  // float sum, which the interpreter accumulates in f32 and rounds once,
  // would be rounded once more per piece.
  Type element = getElementTypeOrSelf(reduce.getInits()[0].getType());
  bool narrowFloat =
      isa<FloatType>(element) && element.getIntOrFloatBitWidth() < 32;
  bool sums = llvm::any_of(reduce.getCombiner().front(), [](Operation &op) {
    return isa<arith::AddFOp, arith::SubFOp, arith::MulFOp>(op);
  });
  if (narrowFloat && sums)
    return std::string("it sums 16-bit floats, which the interpreter "
                       "accumulates in f32 and rounds once, and each piece's "
                       "partial would be rounded to the element type (extend "
                       "to f32 before the reduction)");
  return std::nullopt;
}

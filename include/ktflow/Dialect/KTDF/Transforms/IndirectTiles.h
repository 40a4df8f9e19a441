//===- IndirectTiles.h - Gathers and scatters the scheduler moves -*- C++
//-*-===//
//
// This file declares what the scheduler knows of an indirect access tile
// (`ktdp.construct_indirect_access_tile`) it compiles: the views it reads
// its coordinates from, the shape of its variable space, and whether its
// innermost variable walks a contiguous run of its base view. The DMA
// lowering moves such a tile as index-gated transfers: per point of the
// other variables, the unit reads each index with `dfir.read_index`
// (bounds-checked at run time), computes the run's address and moves it
// with one `dfir.dma`. ktdf-check-supported refuses, at the tile, what
// this plan cannot describe.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDF_TRANSFORMS_INDIRECTTILES_H
#define KTFLOW_DIALECT_KTDF_TRANSFORMS_INDIRECTTILES_H

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include <optional>
#include <string>

namespace mlir::ktdf {

/// How an indirect access tile moves.
struct IndirectTilePlan {
  ktdp::ConstructIndirectAccessTileOp tile;
  /// The view the tile addresses, and the views its indirect subscripts
  /// read, in the order of its base dimensions.
  ktdp::ConstructMemoryViewOp base;
  SmallVector<ktdp::ConstructMemoryViewOp> indexViews;
  /// The extents of the variable space (from 0), outermost first.
  SmallVector<int64_t> extents;
  /// The number of coordinates of the base view along each dimension.
  SmallVector<int64_t> baseExtents;
  /// Elements one transfer moves: the innermost variable's extent when it
  /// only advances the innermost (unit-stride) base coordinate, by one per
  /// step (a run of a row), else 1.
  int64_t runLength = 1;
  /// Whether a run may reach past either end of its base dimension (the
  /// lowering then clamps it at run time; a load reads 0 there).
  bool runMayLeave = false;
  /// Elements of the tile (its buffer, row-major) between consecutive
  /// values of each variable: the tile's dimensions walk the variables in
  /// `variables_space_order`, so under a permuted order a run lands in
  /// the buffer `bufferStrides.back()` elements apart (a transposed page).
  SmallVector<int64_t> bufferStrides;
  /// Whether the order keeps the variables in place (runs land whole).
  bool identityOrder() const {
    return bufferStrides.empty() || bufferStrides.back() == 1;
  }
};

/// Whether an indirect subscript of `tile` (one that reads an index view)
/// depends on position `pos` of its domain (the captured values, then the
/// variables): the tile reads an index for every value of that position.
bool readsIndexAt(ktdp::ConstructIndirectAccessTileOp tile, unsigned pos);

/// The box of index view `k` of a plan that one transfer of the tile
/// reads: what a unit that cannot read the index view's memory needs
/// staged where it can (an access tile of the view, moved into a buffer
/// by a unit that reads it). Along each dimension of the view, the box
/// starts at `anchor` (an expression of the tile's captured values, in
/// their order) and holds `extents` coordinates: the subscript's range
/// over the variables for the captured values of the transfer, or the
/// view's whole extent where the subscript does not split into a part of
/// the captured values and a part of the variables, or the box might
/// leave the view.
struct StagedIndexBox {
  AffineMap anchor;
  SmallVector<int64_t> extents;
};
StagedIndexBox stagedIndexBox(const IndirectTilePlan &plan, unsigned k);

/// The plan of `tile`, or why the scheduler cannot move it yet.
FailureOr<IndirectTilePlan>
planIndirectTile(ktdp::ConstructIndirectAccessTileOp tile, std::string &why);

/// Why the scheduler cannot move `tile` yet, or none (ktdf-check-supported).
std::optional<std::string>
whyNotIndirect(ktdp::ConstructIndirectAccessTileOp tile);

} // namespace mlir::ktdf

#endif // KTFLOW_DIALECT_KTDF_TRANSFORMS_INDIRECTTILES_H

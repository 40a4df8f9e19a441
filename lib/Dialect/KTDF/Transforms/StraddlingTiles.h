//===- StraddlingTiles.h - Distributed-view accesses by part ----*- C++ -*-===//
//
// This file declares the split of ktdf-resolve-distributed-views for
// distributed views over global parts whose tiles may straddle parts (or
// whose parts are not shards of one tensor): each access to such a tile
// becomes one masked access per part it may touch, of a tile of the part in
// local coordinates, and the element-wise computation between those loads
// and stores is repeated per part. A masked load reads 0 outside its part
// and a masked store skips the coordinates outside it, so every element
// stored is computed from the part that holds it: no tensor is joined.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_STRADDLINGTILES_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_STRADDLINGTILES_H

#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include "llvm/ADT/SetVector.h"

#include <string>

namespace mlir::ktdf::straddle {

using Refusal = std::pair<Operation *, std::string>;

/// The parts of a distributed view and their boxes in global coordinates.
/// A part of a run-time size binds its coordinate_set's symbol to it, so
/// its box moves with `size`: along dimension d it holds
/// [lower[d] + slopes.lower[d] * size, upper[d] + slopes.upper[d] * size].
struct GlobalParts {
  SmallVector<ktdp::ConstructMemoryViewOp> parts;
  SmallVector<ktdp::IntegerBox> boxes;
  /// The one run-time size every part's symbol is bound to; null when the
  /// parts are static (every slope 0).
  Value size;
  SmallVector<ktdp::IntegerBox> slopes;
};

/// The parts of `view` when they can be accessed part by part (global views
/// of static strides whose coordinate sets are disjoint boxes, static or
/// with bounds affine in one run-time size shared by the parts), else why
/// not.
FailureOr<GlobalParts> globalParts(ktdp::ConstructDistributedMemoryViewOp view,
                                   std::string &why);
std::optional<std::string>
whyNotGlobalParts(ktdp::ConstructDistributedMemoryViewOp view);

/// Whether `op` computes each element of its tensor results from the same
/// element of its tensor operands, all of shape `shape`.
bool isElementwise(Operation *op, ArrayRef<int64_t> shape);

/// Whether tiles `a` and `b` cover the same coordinates of their views.
bool sameAccess(ktdp::ConstructAccessTileOp a, ktdp::ConstructAccessTileOp b);

/// Whether `tile`, of a plain view, can take stores part by part at the
/// anchor of `like`, a tile of a view whose parts hold `parts`: a view in
/// device memory at a kernel argument plus a constant, of static sizes and
/// strides, whose coordinate set is a box from the origin inside the box
/// the parts fill (a coordinate no part holds would be stored as 0 by the
/// kernel and by no part's copy), the tile anchored and shaped as `like`.
/// Parts of a run-time size are never stored this way.
bool storableByBox(ktdp::ConstructAccessTileOp tile,
                   ktdp::ConstructAccessTileOp like, const GlobalParts &parts);

/// Where a piece of a tile lies in it: per dimension, its first coordinate
/// (from the anchor) and its extent.
struct Piece {
  SmallVector<int64_t> offset, extents;
};

/// The pieces of `tile` in `parts` (indices of `layout.boxes`) when values
/// loaded from it are reduced (PieceReductions.cpp): the tile's box met
/// with each part's box, the tile cut wherever `parts` disagree
/// (`cutDims`), which needs a constant anchor there. `parts` keeps the
/// parts the tile meets, in ascending order of their pieces. Fails with
/// the reason.
FailureOr<SmallVector<Piece>> cutIntoPieces(ktdp::ConstructAccessTileOp tile,
                                            const GlobalParts &layout,
                                            SmallVectorImpl<unsigned> &parts,
                                            SmallVectorImpl<unsigned> &cutDims,
                                            std::string &why);

/// Whether `value` is a load of a box tile (from its anchor, identity
/// order) of `shape` of a plain view: a piece loads its own box of it.
bool loadableAtPiece(Value value, ArrayRef<int64_t> shape);

/// Why `reduce` of a value cut into pieces along `cutDims` cannot fold the
/// pieces one after the other, each from the previous one's result.
std::optional<std::string> whyNotPieceReduction(linalg::ReduceOp reduce,
                                                ArrayRef<unsigned> cutDims);

/// Splits (or, unless `rewrite`, only checks) the accesses of the tiles of
/// `views` (each with global parts, see whyNotGlobalParts) part by part.
/// A view of `others` (views with global parts resolved otherwise) whose
/// tile a split value is stored into joins `views`. Fails with the
/// refusal at the access that cannot be split.
/// `cutElementwise`: a group without reductions also runs at its pieces'
/// shapes where its tile can be cut (each part computes only the elements
/// it holds, not the whole tile masked); else it is repeated whole.
LogicalResult
splitAccesses(llvm::SetVector<ktdp::ConstructDistributedMemoryViewOp> &views,
              ArrayRef<ktdp::ConstructDistributedMemoryViewOp> others,
              Refusal &refusal, bool rewrite, bool cutElementwise = false);

} // namespace mlir::ktdf::straddle

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_STRADDLINGTILES_H

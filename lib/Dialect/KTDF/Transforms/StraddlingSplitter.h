//===- StraddlingSplitter.h - The part-by-part split's state ----*- C++ -*-===//
//
// This file declares the state of the part-by-part split of
// ktdf-resolve-distributed-views, shared by its analysis
// (StraddlingTiles.cpp: which ops form a group repeated per part) and its
// rewrite (StraddlingRewrite.cpp: the pieces' tiles and ops).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_STRADDLINGSPLITTER_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_STRADDLINGSPLITTER_H

#include "StraddlingTiles.h"

namespace mlir::ktdf::straddle {

using DistributedView = ktdp::ConstructDistributedMemoryViewOp;

/// The accesses of split tiles and the element-wise ops between them that
/// are repeated once per part.
struct Group {
  SetVector<Operation *> ops;
  /// The first split tile of the group: every other has its parts' boxes,
  /// anchor and tile set.
  ktdp::ConstructAccessTileOp tile;
  /// The parts (indices) the tiles may touch.
  SmallVector<unsigned> parts;
  /// The reductions of the group's values, and, when there are any (or
  /// the group is element-wise and its tile's anchor is constant where the
  /// parts cut it), where each part's piece lies in the tile
  /// (PieceReductions.cpp): the group then runs at the pieces' shapes, and
  /// each reduction folds the pieces one after the other.
  SmallVector<linalg::ReduceOp> reductions;
  SmallVector<Piece> pieces;
};

class Splitter {
public:
  Splitter(SetVector<DistributedView> &views, ArrayRef<DistributedView> others,
           bool cutElementwise = false)
      : views(views), others(others), cutElementwiseGroups(cutElementwise) {}

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
  /// `plainLoads`: the pieces may also load their boxes of a plain view's
  /// tile the group computes with (loadableAtPiece).
  LogicalResult cutGroup(Group &group, Refusal &refusal,
                         bool plainLoads = false);
  /// Cuts an element-wise group into pieces at their own shapes where
  /// cutGroup can (each part then computes only the elements it holds,
  /// not the whole tile masked); else leaves it whole, masked per part.
  void cutElementwise(Group &group);
  /// The tile of the group's `i`th part in place of `tile` (of a split view
  /// or a plain view a group stores into), or none when the part lies
  /// outside it.
  Value pieceTile(ktdp::ConstructAccessTileOp tile, Group &group, unsigned i);
  /// Repeats the group's ops once per part (per piece, at its shape, when
  /// the group is cut), in program order.
  void rewriteGroup(Group &group);

  SetVector<DistributedView> &views;
  ArrayRef<DistributedView> others;
  bool cutElementwiseGroups;
  DenseMap<Operation *, GlobalParts> layouts;
  SmallVector<Group, 1> groups;
  DenseMap<Operation *, unsigned> groupOf;
  DenseMap<std::pair<Operation *, unsigned>, Value> localViews, pieceTiles,
      cutPieceTiles;
  llvm::SmallPtrSet<Operation *, 4> plainTiles;
};

} // namespace mlir::ktdf::straddle

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_STRADDLINGSPLITTER_H

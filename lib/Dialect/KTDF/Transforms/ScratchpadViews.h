//===- ScratchpadViews.h - Scratchpad views the scheduler adds --*- C++ -*-===//
//
// This file declares what ktdf-carry-in-scratchpad, ktdf-lower-inter-tile
// and ktdf-share-left-operands share: a cursor that places new `ct_local`
// views past the kernel's own, and the construction of such a view (with
// the access tile covering it) at the start of the kernel; and the elements
// a view at a literal address spans.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_SCRATCHPADVIEWS_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_SCRATCHPADVIEWS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IntegerSet.h"

#include <optional>

namespace mlir::ktdp {
class ConstructMemoryViewOp;
class LoadOp;
} // namespace mlir::ktdp

namespace mlir::ktdf {

/// The byte just past the last element of `view` when it is a scratchpad
/// (ct_local) view at a literal address, else std::nullopt.
std::optional<int64_t>
getLiteralScratchpadEnd(ktdp::ConstructMemoryViewOp view);

/// The elements [first, last] of a view at a literal address with static
/// sizes and strides, or std::nullopt (also for a null view).
std::optional<std::pair<int64_t, int64_t>>
getLiteralElementRange(ktdp::ConstructMemoryViewOp view);

/// Element addresses of new scratchpad views, past the kernel's own.
class ScratchpadCursor {
public:
  explicit ScratchpadCursor(func::FuncOp func);

  /// The element address of a new region of `type`, aligned for any
  /// transfer granularity of the shipped devices.
  int64_t allocate(RankedTensorType type);

private:
  static constexpr int64_t kAlign = 256;
  int64_t bytes = 0;
};

/// A `ct_local` view holding one `type` at the next address of `cursor`,
/// marked with the unit attribute `marker`, and the access tile covering
/// it, both at the start of `func`; returns the tile.
Value createScratchpadTile(func::FuncOp func, ScratchpadCursor &cursor,
                           RankedTensorType type, Location loc,
                           StringRef marker);

/// Whether every tile runs `op` (and the loads in it) the same number of
/// times: the loads in it are in `scf.for` loops of constant bounds only.
/// Then the interpreter, which yields before each load, keeps the tiles in
/// lockstep across it.
bool loadsRunUniformly(Operation *op);

/// A copy between tiles: an inter_tile_produce right after `store` (null:
/// right before `before`), on the
/// tiles `producers` names, of the value `partial` builds there, and an
/// inter_tile_consume of it of `type` before `before`, on the tiles
/// `consumers` names, after `dependency` (null: none); returns the consumed
/// value. The sets take the tile id as their one dimension and the group
/// as their symbol.
Value createTileCopy(Operation *before, Operation *store, RankedTensorType type,
                     IntegerSet producers, IntegerSet consumers,
                     IntegerSet dependency,
                     function_ref<Value(OpBuilder &)> partial);

/// The set `(i)[g]` of every tile of a grid of `numTiles`, in the one group:
/// the consumers of a copy to all tiles.
IntegerSet everyTileSet(int64_t numTiles, MLIRContext *ctx);

/// Replaces `load` by createTileCopy's value (consumed in place of the
/// load, of its type).
void replaceLoadByTileCopy(ktdp::LoadOp load, Operation *store,
                           IntegerSet producers, IntegerSet consumers,
                           IntegerSet dependency,
                           function_ref<Value(OpBuilder &)> partial);

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_SCRATCHPADVIEWS_H

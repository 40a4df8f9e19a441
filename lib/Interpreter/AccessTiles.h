//===- AccessTiles.h - Access tiles, loads and stores -----------*- C++ -*-===//
//
// This file declares the construction of direct and indirect access tiles,
// the resolution of a coordinate to an element of memory through a
// (possibly distributed) view, and the ktdp.load / ktdp.store handlers.
//
// Masking: a tile position whose set point is outside the access set, or
// whose coordinate no part's coordinate_set holds, is masked: loads yield 0
// and stores skip it. A coordinate held by a part but outside its sizes,
// or an address outside memory, is an error.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_INTERPRETER_ACCESSTILES_H
#define KTFLOW_LIB_INTERPRETER_ACCESSTILES_H

#include "Executor.h"

namespace ktflow::interp {

/// Resolves coordinates of one view to elements of memory.
class ViewAccessor {
public:
  enum class Status { Ok, Masked, OutsideView, OutsideMemory };

  explicit ViewAccessor(const MemoryView &view);

  /// Finds the element holding `coord`. On Ok, `region` and `index` give
  /// it; on OutsideView / OutsideMemory, `message` says why.
  Status locate(llvm::ArrayRef<int64_t> coord, MemRegion *&region,
                int64_t &index, std::string *message = nullptr) const;

  const MemoryView &getView() const { return view; }

private:
  const MemoryView &view;
  llvm::SmallVector<MemRegion *, 2> regions;
};

mlir::LogicalResult runConstructAccessTile(TileExecutor &exec,
                                           mlir::Operation *op);
mlir::LogicalResult runConstructIndirectAccessTile(TileExecutor &exec,
                                                   mlir::Operation *op);
mlir::LogicalResult runLoad(TileExecutor &exec, mlir::Operation *op);
mlir::LogicalResult runStore(TileExecutor &exec, mlir::Operation *op);

/// Calls `visit(flat, coord)` for every tile position (flat row-major index
/// in the tile's shape) whose set point is in the access set, with the
/// coordinate it accesses. Indirect coordinates are read from index views
/// here; an index value outside the base view is an error naming `op`.
mlir::LogicalResult forEachTileCoordinate(
    TileExecutor &exec, mlir::Operation *op, const AccessTile &tile,
    llvm::function_ref<mlir::LogicalResult(int64_t,
                                           llvm::ArrayRef<int64_t>)>
        visit);

} // namespace ktflow::interp

#endif // KTFLOW_LIB_INTERPRETER_ACCESSTILES_H

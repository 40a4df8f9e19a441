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

  /// Finds the elements holding the coordinates first + i * step (i <
  /// count, `last` the final one) when the view's first part, a box,
  /// holds both ends and memory has both ends' elements: then every
  /// coordinate of the run is Ok there, coordinate i at element index +
  /// i * indexStep of `region`. False otherwise (nothing is known).
  bool locateRun(llvm::ArrayRef<int64_t> first, llvm::ArrayRef<int64_t> last,
                 llvm::ArrayRef<int64_t> step, MemRegion *&region,
                 int64_t &index, int64_t &indexStep) const;

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

/// Positions `flat + i` (i < count) of one row of a tile's innermost
/// dimension, accessing coordinates first + i * step.
struct CoordinateRun {
  int64_t flat;
  llvm::ArrayRef<int64_t> first, step;
  int64_t count;
};

/// Calls `visit` for every tile position (flat row-major index in the
/// tile's shape) whose set point is in the access set, with the coordinate
/// it accesses, in tile order. With `runs`, a row whose coordinates step
/// by a constant may come as one run of its positions, every one of which
/// resolved (TileCoordinates.cpp), its index elements read before any is
/// visited: for callers that do not write memory. Otherwise each run is one
/// position. Indirect coordinates are read from index views here; an index
/// value outside the base view is an error naming `op`.
mlir::LogicalResult forEachTileRun(
    TileExecutor &exec, mlir::Operation *op, const AccessTile &tile, bool runs,
    llvm::function_ref<mlir::LogicalResult(const CoordinateRun &)> visit);

} // namespace ktflow::interp

#endif // KTFLOW_LIB_INTERPRETER_ACCESSTILES_H

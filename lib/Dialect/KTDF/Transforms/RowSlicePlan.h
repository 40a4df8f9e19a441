//===- RowSlicePlan.h - A loop body's tensors cut into row slices -*- C++
//-*-===//
//
// The plan by which ktdf-split-row-tiles cuts a loop's row tiles and the
// tensors they carry into row slices: SplitRowTiles.cpp for a loop of
// constant trips (more trips of fewer rows), SplitRowTilesGridStride.cpp
// for a grid-stride loop of run-time trips (a loop of slices around it,
// guarded at run time by the trips that make slices pay).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_ROWSLICEPLAN_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_ROWSLICEPLAN_H

#include "OutputSlices.h"

#include "ktflow/Scheduler/ScheduleTarget.h"

namespace mlir::ktdf {

/// The first anchor coordinate of a row tile, as an expression over the
/// tile's index operands (dimensions) and symbol operands.
struct RowAnchor {
  AffineExpr expr;
  SmallVector<Value> dims, symbols;
};

/// The tensors of one loop body to cut into row slices, found from the
/// loads and stores through its row tiles (tiles anchored on the loop
/// variable, one trip's R rows after the previous trip's), backwards to
/// what computes them and forwards to every use. Values outside the loop
/// may only be splat constants, which the rewrite remakes in the body.
class RowSlicePlan : public RowValues {
public:
  RowSlicePlan(scf::ForOp loop, int64_t lowerBound, int64_t step)
      : loop(loop), iv(loop.getInductionVar()), lowerBound(lowerBound),
        step(step) {}
  /// A plan that cuts each trip's tiles into row slices where they are,
  /// for a loop whose trips are not known (a grid-stride loop of run-time
  /// bounds): its tiles may lie anywhere, the loop variable may place them
  /// along any dimension and the tiles of one trip at different rows (the
  /// parts of a straddling block), since each slice keeps its trip. Its
  /// body may be a loop over the row's column blocks (see addColumnLoop),
  /// which each slice runs whole.
  static RowSlicePlan inPlace(scf::ForOp loop) {
    RowSlicePlan plan(loop, 0, 0);
    plan.inPlaceSlices = true;
    return plan;
  }
  LogicalResult build();
  /// A row tile's anchor for trip `k` of the loop cut into `slices`: the
  /// old first coordinate at the lower bound, plus k rows of a slice.
  AffineMap slicedAnchor(ktdp::ConstructAccessTileOp tile,
                         int64_t slices) const;
  /// The loop over column blocks the in-place plan's loop holds, if any.
  scf::ForOp getColumnLoop() const { return columnLoop; }

private:
  LogicalResult addTile(ktdp::ConstructAccessTileOp tile);
  LogicalResult addDefinition(Value value);
  LogicalResult addUse(OpOperand &use);

  LogicalResult addInPlaceTile(ktdp::ConstructAccessTileOp tile);
  LogicalResult addColumnLoop(scf::ForOp inner);
  LogicalResult checkInPlaceStores();

  scf::ForOp loop;
  Value iv;
  int64_t lowerBound, step;
  bool inPlaceSlices = false;
  std::optional<RowAnchor> anchor;
  scf::ForOp columnLoop;
};

/// Cuts the plan's tiles into their row slices (`slice` builds one; the
/// stores write through it) and its values to `rows` rows, each load
/// reading its tile's slice; a constant outside the loop is remade at the
/// start of its body.
void sliceValues(
    scf::ForOp loop, const RowSlicePlan &plan, int64_t rows,
    function_ref<Value(OpBuilder &, ktdp::ConstructAccessTileOp)> slice);

/// The most slices of `rows` whole rows, at most `most`.
int64_t mostSlices(int64_t rows, int64_t most);

/// Cuts a loop of run-time trips (a grid-stride block loop) of a kernel
/// whose `points` grid points leave `idle` instances each into row slices,
/// behind a run-time choice between the sliced and the whole loop
/// (SplitRowTilesGridStride.cpp).
void sliceGridStrideLoop(scf::ForOp loop, int64_t points, int64_t idle,
                         const ktflow::sched::ScheduleTarget &target);

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_ROWSLICEPLAN_H

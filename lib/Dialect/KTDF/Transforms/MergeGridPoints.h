//===- MergeGridPoints.h - Consecutive grid points as one ------*- C++ -*-===//
//
// This file declares the rewrite ktdf-share-left-operands uses to give a
// matrix unit products of as many rows as it has: F consecutive grid points
// whose tiles lie row block after row block become one point of F times the
// rows.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_MERGEGRIDPOINTS_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_MERGEGRIDPOINTS_H

#include "OutputSlices.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace ktflow::sched {
class ScheduleTarget;
} // namespace ktflow::sched

namespace mlir::ktdf {

/// The row tiles one grid coordinate `id` places (global identity-order
/// box tiles anchored R * id rows further down for R rows) and the tensors
/// flowing from or to them, which must keep their rows apart: element-wise
/// work, fills, a product's left operand and output (its right operand
/// read whole), values a loop carries. The merge of grid points asks the
/// tile id to reach nothing but tiles. `halves` (ktdf-split-point-rows)
/// lets it reach more (a loop bound: a half keeps its point's), asks every
/// store to go through a row tile, and also takes splats, reductions and
/// broadcasts that keep dimension 0, and row-wise generics, which may read
/// their row number. `anyStride` (with `halves`: ktdf-split-output-blocks'
/// row parts) takes as row tiles those whose first coordinate moves with
/// the tile id in any way, by a multiple known only at run time too (a
/// Triton `pid * BLOCK_SIZE_M`, `pid / n * BLOCK_SIZE_M`), whatever their
/// other coordinates do: a part reads and writes rows of its point's.
/// `halves` without `anyStride` also takes gathers whose first variable
/// walks the point's rows (whyNotRowGather), a row value loaded from each.
class PointRowPlan : public RowValues {
public:
  /// `batched` (ktdf-split-output-blocks): also 3-d tiles and tensors of
  /// one batch (a leading extent of 1; their rows are dimension 1) and
  /// the `linalg.batch_matmul`s on them.
  PointRowPlan(Value id, bool halves, bool anyStride = false,
               bool batched = false)
      : id(id), halves(halves), anyStride(anyStride) {
    this->batched = batched;
  }
  /// The parts of a point's rows where `id` places its blocks along
  /// another coordinate (ktdf-split-point-rows: a point of one 64x64
  /// column block `pid * 64` holds all its rows): the row tiles are the
  /// tiles `id` places along any coordinate, each cut where it is, as
  /// `halves` with `anyStride` takes them.
  static PointRowPlan placedBlocks(Value id) {
    PointRowPlan plan(id, /*halves=*/true, /*anyStride=*/true);
    plan.anyCoordinate = true;
    return plan;
  }
  LogicalResult build(func::FuncOp func);
  /// The generics of the plan (those whose body may read its row number).
  SmallVector<linalg::GenericOp> rowIndexedGenerics() const;
  /// The gathers whose rows the plan cuts with its row tiles.
  ArrayRef<ktdp::ConstructIndirectAccessTileOp> getGathers() const {
    return gathers.getArrayRef();
  }

private:
  LogicalResult findTiles();
  LogicalResult addGather(ktdp::ConstructIndirectAccessTileOp gather);
  LogicalResult findHalvesTiles(func::FuncOp func);
  LogicalResult addTile(ktdp::ConstructAccessTileOp tile);
  LogicalResult addDefinition(Value value);
  LogicalResult addUse(OpOperand &use);

  /// Whether `tile` is one of the plan's row tiles to find (halves).
  bool placesRows(ktdp::ConstructAccessTileOp tile) const;

  Value id;
  bool halves;
  bool anyStride;
  bool anyCoordinate = false;
  llvm::SetVector<ktdp::ConstructIndirectAccessTileOp> gathers;
};

/// Why `gather` is no gather of the rows of a grid point of `rows` rows
/// that grid coordinate `id` places, or none when it is: only loaded, a
/// box of variables from 0 in identity order whose first walks `rows`, its
/// subscripts linear in the captured values and the variables, each one
/// that the first variable walks stepping 1 per row and `rows` per point
/// (`ind(%IDX[%r0 + %d0])`, r0 = rows * id), the others not moving with
/// `id`. Rows sharing an index (`(%r0 + %d0) floordiv 16`) or strided
/// ones would be read again, or not be the point's.
std::optional<std::string>
whyNotRowGather(ktdp::ConstructIndirectAccessTileOp gather, Value id,
                int64_t rows);

/// The gather of `rows` rows of `gather` (whyNotRowGather) from row
/// `offset` (an index value captured after its others), built at `b`'s
/// insertion point.
Value sliceRowGather(OpBuilder &b, ktdp::ConstructIndirectAccessTileOp gather,
                     Value offset, int64_t rows);

/// Merges `factor` consecutive points of one dimension of the launch grid
/// of `func` (extents `grid`) into one. The dimension is the one whose tile
/// id places the row tiles: global tiles (identity order, boxes) anchored
/// R * id rows further down for R rows, the tile id reaching nothing else.
/// Every tensor flowing from or to such a tile (element-wise work, fills,
/// a product's left operand, output and result, values a loop carries)
/// computes row by row and grows to `factor` * R rows; the grid dimension
/// shrinks `factor` times. Each row is computed by the same ops from the
/// same operands as before: the results are the kernel's. Fails, leaving
/// `func` unchanged, when the kernel does not have that shape.
/// The grid points to merge into one so that a product's `rows` rows fill
/// the rows of the lane's matrix unit (ceil(M / rows) for a unit of M >
/// rows rows); 1 without one.
int64_t matrixRowsFactor(const ktflow::sched::ScheduleTarget &target,
                         int64_t rows);

LogicalResult mergeGridPoints(func::FuncOp func, ArrayRef<int64_t> grid,
                              int64_t factor);

/// Cuts every point of `func` (grid `grid`) into `parts` parts of the
/// rows of `plan` (built with `halves`), the parts a new last grid
/// dimension (`first`: the first): part h loads and stores through the
/// plan's row tiles anchored `h * R/parts` rows further (gathers from
/// their row `h * R/parts`), its row values
/// have R/parts rows, and `linalg.index 0` in the plan's generics reads
/// `h * R/parts` more (added to an outside value, that value moves).
void cutPointRows(func::FuncOp func, ArrayRef<int64_t> grid,
                  const PointRowPlan &plan, int64_t parts, bool first = false);

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_MERGEGRIDPOINTS_H

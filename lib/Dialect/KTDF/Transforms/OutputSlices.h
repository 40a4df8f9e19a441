//===- OutputSlices.h - Column slices of output blocks ------*- C++ -*-===//
//
// This file declares what ktdf-split-output-blocks and
// ktdf-share-left-operands share: the analysis that finds every tensor
// flowing into a kernel's stores that can be cut into column slices (the
// right operands, outputs and accumulators of its matrix products, the
// element-wise work on them; left operands stay whole loads), the new
// grid dimension that numbers the copies of each grid point, and the
// rewrite that gives each copy its slice; the predicates on tiles and
// element-wise ops that ktdf-split-row-tiles' row slices use too; and what
// the plans of tensors share: the row values of the plans that cut rows
// (ktdf-split-row-tiles) or grow them (MergeGridPoints.cpp), their
// worklist and the retyping of their values.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_OUTPUTSLICES_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_OUTPUTSLICES_H

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::ktdf {

/// The tensors of one kernel to slice, found from its stores backwards and
/// from each sliced value forwards to all its uses. Stores into exchange
/// views (`ktdf.exchange`: values the copies share, not outputs) are not
/// followed; loads from them may be left operands. Each value is sliced
/// along one dimension: its last (the output's columns), or, `batched`,
/// the one a `linalg.transpose` moves there (a right operand K^T slices
/// the rows of the loaded K).
class OutputSlicePlan {
public:
  /// `batched`: also `linalg.batch_matmul`s of one batch on 3-d tensors
  /// of a leading unit dimension (their tiles too), and transposes.
  explicit OutputSlicePlan(bool batched = false) : batched(batched) {}

  /// Fails when some value would have to be both whole and sliced, or
  /// sliced along two dimensions, or is computed by an op the pass does
  /// not slice. The left operand of a product stays whole and must be a
  /// load, so that the copies repeat no computation.
  LogicalResult build(func::FuncOp func);
  int64_t getColumns() const { return columns; }
  ArrayRef<Value> getValues() const { return values.getArrayRef(); }
  ArrayRef<ktdp::StoreOp> getStores() const { return stores; }
  /// The dimension along which `value` (one of getValues) is sliced.
  unsigned getDim(Value value) const { return dims.lookup(value); }

private:
  /// Adds `value` sliced along `dim` (default: its last dimension).
  LogicalResult add(Value value, std::optional<unsigned> dim = std::nullopt);
  LogicalResult addDefinition(Value value);
  LogicalResult addUse(OpOperand &use);
  /// Whether `value` is sliced along its last dimension.
  bool slicedLast(Value value) const;

  bool batched;
  llvm::SetVector<Value> values;
  DenseMap<Value, unsigned> dims;
  SmallVector<Value> worklist;
  SmallVector<ktdp::StoreOp> stores;
  int64_t columns = 0;
};

/// A reduction of a 2-d tensor along its rows into one value per column
/// (`linalg.reduce` over dimension 0, or a `linalg.generic` of iterators
/// [reduction, parallel] reading its inputs whole and writing `(d0, d1) ->
/// (d1)`): each column is folded on its own, so a column slice of the
/// input gives the same slice of the result.
bool isColumnReduction(Operation *op);

/// An element-wise op on tensors of one shape (arith, math): its operands
/// and results can all be sliced the same way.
bool isElementwiseOnTensors(Operation *op);

/// A tile (built by ktdp.construct_access_tile) that can be cut into
/// slices: identity order, a box from the origin, rank 2 (or rank 1: a
/// vector of one value per column, or per row; `batched`, also rank 3 of
/// one batch: a leading extent of 1).
bool isSliceableTile(Value tile, bool batched = false);

/// A tensor of rank 3 whose first dimension is 1: one batch's matrix.
bool isUnitBatch(Type type);

/// A product computes row by row from its left operand and its output; the
/// right operand every row reads whole. `batched`: a `linalg.batch_matmul`
/// of one batch too.
bool isRowProduct(Operation *op, bool batched = false);

/// A reduction that keeps dimension 0: each row folded on its own.
bool isRowReduction(Operation *op);

/// The tensors of a plan that cuts or grows rows: static tensors of
/// `rows` rows (dimension 0; dimension 1 of a 3-d tensor of one batch
/// when the plan takes those), each taken once into the worklist.
class RowValues {
public:
  int64_t getRows() const { return rows; }
  /// The dimension of `type`'s rows.
  unsigned rowDim(Type type) const {
    return batched && isUnitBatch(type) ? 1 : 0;
  }
  ArrayRef<Value> getValues() const { return values.getArrayRef(); }
  ArrayRef<ktdp::ConstructAccessTileOp> getTiles() const {
    return tiles.getArrayRef();
  }

protected:
  /// Fails when `value` is no such tensor.
  LogicalResult add(Value value);
  /// Value `i` a loop carries: its initial value, the body's argument and
  /// yielded value and the loop's result have the same rows.
  LogicalResult addCarried(scf::ForOp loop, unsigned i);
  /// A generic computes row by row when dimension 0 is parallel and each
  /// operand either has it as its first coordinate and nowhere else (a row
  /// value) or does not use it (a value every row reads whole); its outputs
  /// are row values. `rowIndex`: its body may read `linalg.index 0` (which
  /// the plan's rewrite must then keep the kernel's row number).
  LogicalResult addRowGeneric(linalg::GenericOp generic, bool rowIndex);
  /// What a row value asks of `def` when it is a splat constant, a load
  /// (through one of `tiles`), an empty or a fill; none for other ops.
  std::optional<LogicalResult> addLeaf(Operation *def);

  llvm::SetVector<Value> values;
  /// The tiles whose rows the plan cuts or grows.
  llvm::SetVector<ktdp::ConstructAccessTileOp> tiles;
  SmallVector<Value> worklist;
  int64_t rows = 0;
  /// Takes 3-d tensors of one batch (a batch_matmul's), rows dimension 1.
  bool batched = false;
};

/// Runs the worklist of a plan of tensors: for each value taken from it,
/// what growing or cutting it asks of its definition and of each of its
/// uses, which may push more values. Fails as soon as one does.
LogicalResult propagate(SmallVectorImpl<Value> &worklist,
                        function_ref<LogicalResult(Value)> addDefinition,
                        function_ref<LogicalResult(OpOperand &)> addUse);

/// Adds to a plan (through `add`) the tensor each load through `tile`
/// gives and each store through it writes; fails on any other use.
LogicalResult addTileData(ktdp::ConstructAccessTileOp tile,
                          function_ref<LogicalResult(Value)> add);

/// `type` (a ranked tensor type) with `rows` rows (along `dim`).
RankedTensorType withRows(Type type, int64_t rows, unsigned dim = 0);

/// Gives each of `values` the type `typeOf` gives it: a computed value
/// in place; a load (through the tile `tileOf` builds), an empty or a
/// splat constant made again where it was, the old one erased.
void retypeValues(OpBuilder &b, ArrayRef<Value> values,
                  function_ref<RankedTensorType(Value)> typeOf,
                  function_ref<Value(ktdp::LoadOp)> tileOf);

/// The load (through `tile`), empty or splat constant `def` made again
/// with result type `type`, at the builder's insertion point.
Value remakeWithType(OpBuilder &b, Operation *def, RankedTensorType type,
                     Value tile);

/// Each function of `module` with a body and a launch grid, and its grid.
SmallVector<std::pair<func::FuncOp, SmallVector<int64_t>>>
gridKernels(ModuleOp module);

/// Replaces every `ktdp.get_compute_tile_id` of `func` by one op at the
/// start of its body with `rank` results (result i of each old op becomes
/// result i: grid coordinate i).
ktdp::GetComputeTileIdOp hoistTileIds(func::FuncOp func, int64_t rank);

/// Adds a last dimension of `extent` to the grid of `func` (owned by
/// `gridOwner`, extents `grid`), or a first one with `first`: every
/// `ktdp.get_compute_tile_id` becomes one at the start of the function
/// with a result more. Returns that result, the copy's number.
Value addGridDimension(func::FuncOp func, Operation *gridOwner,
                       ArrayRef<int64_t> grid, int64_t extent,
                       bool first = false);

/// Rewrites every value of `plan` into the column slice `copy` of
/// `slices` (loads and stores through tiles C/slices wide, anchored
/// `copy * C/slices` further right).
void sliceColumns(func::FuncOp func, const OutputSlicePlan &plan, Value copy,
                  int64_t slices);

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_OUTPUTSLICES_H

//===- StreamPlan.h - How a compute stage streams a tile --------*- C++ -*-===//
//
// This file declares the analysis behind --ktdf-tile-streams. A compute
// stage before tiling reads whole tiles from FIFO slots, runs a DAG of
// linalg.generic ops on them and writes whole tiles. To stream it, every
// tensor is classified by how it varies over the tile's rows and columns
// (a whole tile, one value per row, one value per column), and every op is
// placed in a pass over the row: a value that needs a row reduction can
// only be computed in a pass after the one that finishes the reduction.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_STREAMPLAN_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_STREAMPLAN_H

#include "ktflow/Dialect/KTDF/IR/KTDF.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::ktdf::detail {

/// How a tensor varies over the tile (rows x columns, leading dimensions
/// flattened into rows).
enum class Kind {
  Unknown,
  /// One element per element of the tile: streamed in chunks of a row.
  Tile,
  /// One element per column (a vector broadcast over rows): streamed too.
  Col,
  /// One element per row, or a scalar: held in a register across a row.
  Row,
};

/// What a linalg.generic of the compute stage does to the tile.
enum class OpRole {
  /// Element-wise over streamed values (result Tile or Col).
  Stream,
  /// Reduces each row of streamed values (result Row).
  RowReduction,
  /// Element-wise over Row values (result Row).
  RowOp,
  /// Reduces the rows of streamed values, column by column (result Col).
  ColReduction,
};

struct StreamPlan {
  SmallVector<int64_t> tileShape;
  int64_t rows = 1, cols = 1;

  llvm::DenseMap<Value, Kind> kinds;
  llvm::MapVector<linalg::GenericOp, OpRole> roles;
  /// Streamed values: the first pass that can compute them. Row values:
  /// the pass before which they are known (0: before the first pass).
  llvm::DenseMap<Value, int> pass;
  /// The reads and writes of the stage, in program order.
  SmallVector<ReadFromFifoOp> reads;
  SmallVector<WriteToFifoOp> writes;
  int numPasses = 0;
  /// Column reductions stream each column chunk down the rows (chunks
  /// outer, rows inner) instead of each row across its chunks.
  bool columnMajor = false;

  /// Analyses a compute stage; reports a located error naming the
  /// construct when the stage cannot be streamed.
  static FailureOr<StreamPlan> build(StageOp compute);

  Kind getKind(Value v) const { return kinds.lookup(v); }
  bool isStreamed(Value v) const {
    Kind k = getKind(v);
    return k == Kind::Tile || k == Kind::Col;
  }
  /// The pass of a reduction or streamed write.
  int passOf(Value v) const { return pass.lookup(v); }
};

} // namespace mlir::ktdf::detail

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_STREAMPLAN_H

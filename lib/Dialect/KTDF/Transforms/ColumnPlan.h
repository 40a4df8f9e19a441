//===- ColumnPlan.h - Row tensors cut into column parts ------*- C++ -*-===//
//
// This file declares the analysis of ktdf-split-wide-reductions: the
// tensors of a one-point kernel to cut into column parts (from its stores,
// or from the left operand of a contraction), the reductions along the row
// and the contractions over the cut columns whose partials the parts
// all-reduce, and the right operands of those contractions, cut along
// their rows.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_COLUMNPLAN_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_COLUMNPLAN_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::ktdf {

/// A reduction along the row: its result (one value per row) is what the
/// parts all-reduce with `combiner` (an arith op name). A contraction's
/// result (a matrix product over the cut columns) is a whole partial.
struct RowReduction {
  Operation *op;
  std::string combiner;
  bool contraction = false;
};

/// The row tensors of a kernel, cut along their last dimension: found from
/// the stores backwards and from each cut value forwards to all its uses.
class ColumnPlan {
public:
  /// From the stores, or with `fromContraction` from the left operand of
  /// the first matrix product whose left operand is computed. With
  /// `exchanges` the kernel may hold inter-tile produces and reduces of its
  /// own (a sharded kernel's all-reduce), which no cut value may reach.
  LogicalResult build(func::FuncOp func, bool fromContraction = false,
                      bool exchanges = false);
  int64_t getColumns() const { return columns; }
  ArrayRef<Value> getValues() const { return values.getArrayRef(); }
  /// Right operands of contractions: loads cut along their rows.
  ArrayRef<Value> getRowValues() const { return rowValues.getArrayRef(); }
  ArrayRef<RowReduction> getReductions() const { return reductions; }
  bool hasContraction() const {
    return llvm::any_of(reductions,
                        [](const RowReduction &r) { return r.contraction; });
  }

private:
  LogicalResult add(Value value);
  LogicalResult addWhole(Value value);
  LogicalResult addDefinition(Value value);
  LogicalResult addUse(OpOperand &use);
  LogicalResult addGeneric(linalg::GenericOp generic);
  LogicalResult addReduction(Operation *op, std::optional<StringRef> combiner,
                             Value init);
  LogicalResult addProduct(linalg::MatmulOp product);
  LogicalResult addContraction(linalg::MatmulOp product);

  llvm::SetVector<Value> values;
  /// Values every part computes whole: left operands of the products that
  /// make cut values, the partials of contractions.
  llvm::SmallPtrSet<Value, 8> whole;
  llvm::SetVector<Value> rowValues;
  llvm::SmallPtrSet<Operation *, 4> reduced;
  SmallVector<RowReduction> reductions;
  SmallVector<Value> worklist;
  int64_t columns = 0;
};

/// Rows the reductions along the row of `plan` reduce that the device could
/// run apart (the product of their loops' constant trips and their
/// tensors' rows), or nullopt when a loop's trips are not known.
std::optional<int64_t> knownRows(const ColumnPlan &plan);

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_COLUMNPLAN_H

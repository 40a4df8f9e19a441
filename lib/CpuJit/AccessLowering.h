//===- AccessLowering.h - ktdp loads and stores as loop nests ---*- C++ -*-===//
//
// This file declares the lowering of ktdp.load and ktdp.store on direct and
// indirect access tiles of memory views to loop nests of guarded element
// accesses into the views' buffers, and the guards of scf.for steps and of
// the work budget.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_CPUJIT_ACCESSLOWERING_H
#define KTFLOW_LIB_CPUJIT_ACCESSLOWERING_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IntegerSet.h"

#include <string>
#include <vector>

namespace ktflow::jit {

/// A memory view, rewritten: the buffer of its tensor argument and where
/// the view starts in it. Values are defined right after the view's op.
struct ViewLowering {
  unsigned buffer = 0;
  mlir::Value bufferValue;
  /// The view's offset minus its tensor argument's start address.
  mlir::Value relativeOffset;
  llvm::SmallVector<mlir::Value> sizes, strides;
  mlir::IntegerSet set;
  /// The values bound to the set's symbols (the dynamic sizes).
  llvm::SmallVector<mlir::Value> setSymbols;
  /// The set's lower bound per dimension: coordinate c is element
  /// `offset + Σ (c_d - lower_d) * stride_d`.
  llvm::SmallVector<int64_t> lower;
  /// A distributed view's parts, in order (all in `buffer`): a coordinate
  /// is served by the first part whose coordinate_set holds it, the other
  /// fields are then unused but for `sizes` (the rank). Empty otherwise.
  std::vector<ViewLowering> parts;
};

/// Replaces every ktdp.load and ktdp.store of `fn` by loops over the tile
/// (their access tiles, direct or indirect, and the index views of the
/// indirect ones must be views in `views`), guards every scf.for whose
/// step may not be positive and makes the kernel draw its work from the
/// work budget (WorkBudget.h); with `interleaved`, each load first yields
/// (kYieldFunctionName). Errors the interpreter reports are
/// recorded in `status` (TileFunction.h).
mlir::LogicalResult
lowerAccesses(mlir::func::FuncOp fn,
              const llvm::DenseMap<mlir::Value, ViewLowering> &views,
              mlir::Value status, bool interleaved, std::string &why);

} // namespace ktflow::jit

#endif // KTFLOW_LIB_CPUJIT_ACCESSLOWERING_H

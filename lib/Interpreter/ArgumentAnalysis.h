//===- ArgumentAnalysis.h - Roles of a kernel's arguments -------*- C++ -*-===//
//
// This file declares the static classification of a kernel's arguments:
// an index (or runtime_arg) argument from which a construct_memory_view
// offset is computed is the start address of a tensor; the access tiles
// built on its views tell whether the kernel loads and/or stores it.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_INTERPRETER_ARGUMENTANALYSIS_H
#define KTFLOW_LIB_INTERPRETER_ARGUMENTANALYSIS_H

#include "ktflow/Analysis/TensorExtent.h"
#include "ktflow/Interpreter/Arguments.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace ktflow::interp {

/// Classifies every argument of `fn` (names are left empty).
std::vector<ArgumentInfo> analyzeArguments(mlir::func::FuncOp fn);

/// Why one tile of `fn` may load what another tile stores: `op` and a
/// reason. `args` are the classified (and named) arguments of `fn`.
struct SharedMemory {
  mlir::Operation *op = nullptr;
  std::string reason;
};

/// Returns std::nullopt when no tile of `fn` can load what another tile
/// stores: no tensor is both loaded and stored, every global view's address
/// comes from one tensor argument or a constant, and no view names another
/// tile's scratchpad. The order in which tiles run then changes no loaded
/// value (only which of two tiles' stores to one element lands last).
std::optional<SharedMemory>
findSharedMemory(mlir::func::FuncOp fn, llvm::ArrayRef<ArgumentInfo> args);

/// Adds to `extent` the footprint of every view of `fn` at the start address
/// of tensor argument `position` whose sizes and strides follow from
/// constants and the values of scalar arguments (`argValue`), in program
/// order: the extent the compiler gives the tensor. Views whose sizes depend
/// on run-time values add theirs when they run. A view declaring memory
/// before its tensor is an error at the view.
mlir::LogicalResult addDeclaredFootprints(
    mlir::func::FuncOp fn, unsigned position,
    llvm::function_ref<std::optional<int64_t>(unsigned)> argValue,
    ktflow::TensorExtentBuilder &extent);

} // namespace ktflow::interp

#endif // KTFLOW_LIB_INTERPRETER_ARGUMENTANALYSIS_H

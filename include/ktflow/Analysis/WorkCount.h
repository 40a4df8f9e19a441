//===- WorkCount.h - The arithmetic a KTIR kernel performs ------*- C++ -*-===//
//
// This file declares the count of a kernel's operations by class and
// element type, taken from the kernel as written (after generalisation into
// linalg.generic) by walking every compute tile's control flow: the compute
// half of the roofline bound `ktflow run` prints, independent of any
// schedule.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_ANALYSIS_WORKCOUNT_H
#define KTFLOW_ANALYSIS_WORKCOUNT_H

#include "ktflow/Device/Roofline.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"

#include <map>

namespace ktflow {

struct WorkCount {
  /// Element operations per (class, element type).
  llvm::DenseMap<std::pair<unsigned, mlir::Type>, double> ops;
  /// False when some loop bound could not be evaluated (those loops are
  /// left out, so the count is a lower bound).
  bool complete = true;
  double total() const;
  /// Cycles the device's compute peaks need for these operations (classes
  /// the device cannot compute are left out).
  double cycles(const device::Roofline &roofline) const;
};

/// Counts the operations `kernel` (a generalised KTIR function) performs
/// over its whole grid, with runtime arguments by position.
WorkCount countWork(mlir::func::FuncOp kernel,
                    const llvm::DenseMap<unsigned, int64_t> &runtimeArgs);

} // namespace ktflow

#endif // KTFLOW_ANALYSIS_WORKCOUNT_H

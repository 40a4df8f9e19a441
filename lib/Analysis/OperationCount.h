//===- OperationCount.h - The arithmetic of one KTIR op ---------*- C++ -*-===//
//
// This file declares how the roofline count charges one operation of a
// kernel as written: which ops compute (arith, math and spyreop ops on
// floats and integers, linalg ops by their bodies) and how many element
// operations of which class and element type one execution of them is.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_ANALYSIS_OPERATIONCOUNT_H
#define KTFLOW_LIB_ANALYSIS_OPERATIONCOUNT_H

#include "ktflow/Analysis/KernelDemand.h"
#include "ktflow/Device/RooflineBound.h"

#include "mlir/IR/Operation.h"

#include <map>
#include <string>

namespace ktflow {

/// Whether `op` is an arith, math or spyreop operation a compute unit
/// performs: not a constant, a bitcast or index arithmetic (any operand or
/// result of index type), which address and control computations use.
bool isComputeOp(mlir::Operation *op);

/// Whether `op` is an `extf` every use of which is an operand of a
/// contraction charged at the narrower type (through transposes): a unit
/// that multiplies that type needs no conversion, so it is not counted.
bool isFoldedIntoProducts(mlir::Operation *op);

/// What a device description's patterns make of single compute ops: each
/// distinct op (name, element types, attributes) is rewritten once, alone
/// in a scalar probe function, and the ops that come out are counted per
/// element of the original. Scalar, because the pipeline applies the
/// patterns after ktdf-generalize has turned tensor ops into linalg bodies.
class DeviceRewrites {
public:
  using PerElement = llvm::SmallVector<device::KernelDemand::Operations>;

  explicit DeviceRewrites(DevicePatterns patterns)
      : patterns(std::move(patterns)) {}

  /// The operations one element of `op` costs as the description rewrites
  /// it, or null when it leaves `op` alone (or there is no description).
  const PerElement *lookup(mlir::Operation *op);

private:
  std::optional<PerElement> rewrite(mlir::Operation *op);

  DevicePatterns patterns;
  std::map<std::string, std::optional<PerElement>> cache;
};

/// Adds to `demand` the element operations of one execution of `op`: a
/// compute op once per element of its result; a linalg op its body's
/// compute ops once per iteration (a body op that folds into an output of
/// a reduction as a reduction at the folded value's type), a contraction
/// (matmul) one multiply-accumulate per iteration at its first operand's
/// element type, or at the narrower type both operands extend when the
/// products are exact there. With `rewrites`, an op the device's patterns
/// rewrite (a reduction's fold aside) counts as the ops it becomes. Returns
/// false, after noting the gap, for shapes it cannot count. Other ops add
/// nothing.
bool countOperations(mlir::Operation *op, device::KernelDemand &demand,
                     DeviceRewrites *rewrites = nullptr);

} // namespace ktflow

#endif // KTFLOW_LIB_ANALYSIS_OPERATIONCOUNT_H

//===- KernelDemand.h - What a KTIR kernel must do --------------*- C++ -*-===//
//
// This file declares the count behind the roofline bound
// (ktflow/Device/RooflineBound.h), taken from the kernel as the user wrote
// it, before any pass rewrites it: its operations by class and element type,
// each once per element it produces (a reduction per element it folds, a
// matrix product per multiply-accumulate), over every grid point and loop
// iteration; the distinct bytes of device memory its loads and stores
// touch; its smallest loaded and stored tiles; and the longest chain of
// operations from a load to a store. Loop bounds, branch conditions and view
// addresses are evaluated from constants, tile ids and the scalar arguments
// given; nothing is simulated, and no data is read but the index values of
// indirect tiles, when the caller has them.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_ANALYSIS_KERNELDEMAND_H
#define KTFLOW_ANALYSIS_KERNELDEMAND_H

#include "ktflow/Device/RooflineBound.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

#include <functional>
#include <optional>

namespace ktflow {

/// Integer values of scalar arguments (index, integer or runtime_arg) by
/// position.
using ScalarArgs = llvm::DenseMap<unsigned, int64_t>;

/// Where a kernel has a tensor of device memory: at the start address the
/// argument at position `position` holds, or (`literal`) at the literal
/// element address `position`.
struct TensorLocation {
  bool literal = false;
  int64_t position = 0;
};

/// The launch's value of element `element` (counted from the tensor's
/// start) of the tensor at `tensor`, or none when it is not known: the
/// index data an indirect tile reads.
using IndexValues = std::function<std::optional<int64_t>(TensorLocation tensor,
                                                         int64_t element)>;

/// Applies the device description's patterns (every checkpoint's, in
/// pipeline order) to `probe` in place; fails when they do not converge.
using DevicePatterns = std::function<mlir::LogicalResult(mlir::ModuleOp probe)>;

/// Counts what `kernel` must do over its whole launch grid. With
/// `indexValues`, the elements indirect tiles gather or scatter are counted
/// at the coordinates those values give (else they are a gap). With
/// `devicePatterns`, an operation the device's description rewrites is
/// counted as it rewrites it (an f16 `exp` a device widens: its `extf`, the
/// f32 `exp` and its `truncf`), since every schedule for the device runs
/// that.
device::KernelDemand
countKernelDemand(mlir::func::FuncOp kernel, const ScalarArgs &args,
                  const IndexValues &indexValues = {},
                  const DevicePatterns &devicePatterns = {});

/// The kernel of `module` (ktdp::selectKernel): the function `name`, else
/// its only function with a `grid`, else its only function with a body;
/// null when there is no such single function.
mlir::func::FuncOp findKernel(mlir::ModuleOp module, llvm::StringRef name = {});

/// The compute operations on the longest dependence chain from a load to a
/// store of `kernel` (one per operation as written, loop-carried values
/// not followed).
unsigned countLongestChain(mlir::func::FuncOp kernel);

} // namespace ktflow

#endif // KTFLOW_ANALYSIS_KERNELDEMAND_H

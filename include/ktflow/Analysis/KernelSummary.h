//===- KernelSummary.h - What a KTIR kernel contains ------------*- C++ -*-===//
//
// This file declares the summary `ktflow check` prints: per function, its
// grid, views per memory space, access tiles, data movement and compute.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_ANALYSIS_KERNELSUMMARY_H
#define KTFLOW_ANALYSIS_KERNELSUMMARY_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace ktflow {

struct KernelSummary {
  std::string name;
  /// Functions that other functions of the module call; a function is a
  /// kernel (an entry point) when nothing calls it or it declares a grid.
  llvm::SmallVector<std::string> callers;
  /// The launch grid, when the function (or its module) declares one.
  std::optional<llvm::SmallVector<int64_t>> grid;
  unsigned numArguments = 0;
  unsigned numRuntimeArgs = 0;
  unsigned globalViews = 0;
  unsigned ctLocalViews = 0;
  unsigned distributedViews = 0;
  unsigned accessTiles = 0;
  unsigned indirectAccessTiles = 0;
  unsigned loads = 0;
  unsigned stores = 0;
  unsigned loops = 0;
  unsigned interTileOps = 0;
  /// Compute operations (arith, math, linalg) of the function body by name,
  /// in order of first appearance. Scalar ops inside linalg bodies and
  /// inter-tile regions belong to their enclosing op and are not listed.
  llvm::MapVector<llvm::StringRef, unsigned> computeOps;
  /// Device intrinsics (spyreop), wherever they appear.
  llvm::MapVector<llvm::StringRef, unsigned> intrinsics;

  bool isKernel() const { return grid.has_value() || callers.empty(); }
};

/// Summarises every function with a body in `module`, kernels and the
/// helper functions they call.
std::vector<KernelSummary> summarizeKernels(mlir::ModuleOp module);

/// Prints `summary` as a short indented block.
void printKernelSummary(const KernelSummary &summary, llvm::raw_ostream &os);

} // namespace ktflow

#endif // KTFLOW_ANALYSIS_KERNELSUMMARY_H

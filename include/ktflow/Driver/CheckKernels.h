//===- CheckKernels.h - What `ktflow check` does ----------------*- C++ -*-===//
//
// This file declares `ktflow check` (and `ktflow.check`) on a loaded
// module: the legality rules, then a summary of every function.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DRIVER_CHECKKERNELS_H
#define KTFLOW_DRIVER_CHECKKERNELS_H

#include "ktflow/Analysis/KernelSummary.h"

#include "llvm/Support/Error.h"

namespace ktflow {

/// Checks the legality of `module` (`file` in messages and crash reports)
/// and summarises its functions. An illegal module is an error reported as
/// diagnostics; a module without a kernel an error of its own.
llvm::Expected<std::vector<KernelSummary>> checkKernels(mlir::ModuleOp module,
                                                        llvm::StringRef file);

/// The text `ktflow check` prints: `FILE: N kernels, legal`, then each
/// summary.
void printCheckReport(llvm::raw_ostream &os, llvm::StringRef file,
                      llvm::ArrayRef<KernelSummary> kernels);

} // namespace ktflow

#endif // KTFLOW_DRIVER_CHECKKERNELS_H

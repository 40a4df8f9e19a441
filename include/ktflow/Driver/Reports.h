//===- Reports.h - The JSON reports of ktflow's commands --------*- C++ -*-===//
//
// This file declares the JSON reports `ktflow CMD --json` prints and the
// Python package returns (docs/json-output.md), each opened with
// beginReport (ktflow/Support/JsonReport.h).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DRIVER_REPORTS_H
#define KTFLOW_DRIVER_REPORTS_H

#include "ktflow/Analysis/KernelSummary.h"
#include "ktflow/Bundle/Bundle.h"
#include "ktflow/Driver/KernelRun.h"
#include "ktflow/Support/JsonReport.h"

namespace ktflow {

/// What a finished launch reports (`ktflow sim`, and `run`'s start):
/// kernel, device, cycles, instructions and units (unitsToJSON).
llvm::json::Object launchReport(llvm::StringRef command,
                                const rt::Program &program,
                                const rt::Launch &launch,
                                const sim::SimStats &stats);

/// The summary (host::statsToJSON) of every tensor a finished launch wrote.
llvm::Expected<llvm::json::Array> outputSummaries(const rt::Program &program,
                                                  const rt::Launch &launch);

/// `ktflow run`: kernel, device, optimized, cycles, instructions, ratio,
/// roofline, units and (after KernelRun::check) check.
llvm::json::Object runReport(const KernelRun &run);

/// The per-unit statistics of a finished launch: one object per unit
/// program, in bundle order.
llvm::json::Array unitsToJSON(const rt::Program &program,
                              const rt::Launch &launch,
                              const sim::SimStats &stats);

/// `ktflow check`: file and one object per function of `kernels`.
llvm::json::Object checkReport(llvm::StringRef file,
                               llvm::ArrayRef<KernelSummary> kernels);

/// A bundle's metadata: kernel, device, version, programs, tensors and
/// runtime arguments (`ktflow compile` and `inspect`).
llvm::json::Object bundleToJSON(const bundle::Bundle &bundle);

/// `ktflow inspect`: file (when given) and bundle (bundleToJSON).
llvm::json::Object inspectReport(llvm::StringRef file,
                                 const bundle::Bundle &bundle);

} // namespace ktflow

#endif // KTFLOW_DRIVER_REPORTS_H

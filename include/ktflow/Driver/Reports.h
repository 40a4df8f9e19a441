//===- Reports.h - The JSON reports of ktflow's commands --------*- C++ -*-===//
//
// This file declares the JSON objects `ktflow CMD --json` prints and the
// Python package returns (docs/json-output.md): one object per command,
// opening with the schema version and the command's name, so a script can
// refuse a report it does not understand.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DRIVER_REPORTS_H
#define KTFLOW_DRIVER_REPORTS_H

#include "ktflow/Analysis/KernelSummary.h"
#include "ktflow/Bundle/Bundle.h"
#include "ktflow/Driver/KernelRun.h"
#include "ktflow/HostTensor/Tensor.h"

#include "llvm/Support/JSON.h"

namespace ktflow {

/// The version of every report's schema: raised when a field changes its
/// meaning or goes away, not when one is added.
inline constexpr int64_t kReportSchemaVersion = 1;

/// {"schema_version": kReportSchemaVersion, "command": `command`}: how every
/// report starts.
llvm::json::Object beginReport(llvm::StringRef command);

/// Writes `report` indented, then a newline.
void writeReport(llvm::raw_ostream &os, llvm::json::Object report);

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

/// {"name", "shape", "dtype", "min", "max", "mean", "checksum", "nan"}: the
/// line `ktflow interp` prints for an output.
llvm::json::Object tensorSummaryToJSON(llvm::StringRef name,
                                       llvm::ArrayRef<int64_t> shape,
                                       host::DType dtype,
                                       const host::TensorStats &stats);

} // namespace ktflow

#endif // KTFLOW_DRIVER_REPORTS_H

//===- RunReport.h - What `ktflow run` reports ------------------*- C++ -*-===//
//
// This file declares what `ktflow run` reports after the launch's own lines
// (printLaunch, ktflow/Check/LaunchBinding.h): the roofline bound of the
// kernel and the ratio of the simulated cycles to it; and, for `--json`, the
// whole report as one JSON object.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_CHECK_RUNREPORT_H
#define KTFLOW_CHECK_RUNREPORT_H

#include "ktflow/Check/DifferentialRun.h"

namespace ktflow::check {

/// Simulated cycles over the bound; 0 when the bound is 0.
double getRooflineRatio(const device::RooflineBound &bound, uint64_t cycles);

/// The bound's lines (device::printRooflineBound), then `ratio: R x the
/// roofline`.
void printRoofline(llvm::raw_ostream &os, const device::RooflineBound &bound,
                   uint64_t cycles);

/// The lines of a finished run before its checks: the launch's
/// (printLaunch, its first line ending in `note`), then printRoofline.
void printRun(llvm::raw_ostream &os, DifferentialRun &run,
              const sim::SimStats &stats, const device::RooflineBound &bound,
              llvm::StringRef note);

/// Writes {"kernel", "device", "optimized", "cycles", "ratio", "roofline"
/// (device::toJSON), "check": {"pass", "outputs": [{"name", "pass",
/// "summary"}]}}, "check" only when `checks` is given. Returns whether every
/// check passed.
bool writeRunJSON(llvm::raw_ostream &os, DifferentialRun &run,
                  const sim::SimStats &stats,
                  const device::RooflineBound &bound, bool optimized,
                  const std::vector<OutputCheck> *checks);

} // namespace ktflow::check

#endif // KTFLOW_CHECK_RUNREPORT_H

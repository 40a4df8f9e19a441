//===- RunReport.h - What `ktflow run` reports ------------------*- C++ -*-===//
//
// This file declares what `ktflow run` reports as text: the summary first
// (cycles, the roofline bound of the kernel and the ratio of the simulated
// cycles to it), then the units by role and, on request, one row per unit.
// (`--json` is ktflow/Driver/Reports.h.)
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_CHECK_RUNREPORT_H
#define KTFLOW_CHECK_RUNREPORT_H

#include "ktflow/Check/DifferentialRun.h"
#include "ktflow/Machine/Estimate.h"

namespace ktflow::check {

/// Simulated cycles over the bound; 0 when the bound is 0.
double getRooflineRatio(const device::RooflineBound &bound, uint64_t cycles);

/// `estimate: E cycles (+D%), bottleneck NAME`: the whole-kernel estimate
/// (machine::estimateKernel) and its distance from the simulated cycles.
void printEstimate(llvm::raw_ostream &os,
                   const machine::KernelEstimate &estimate, uint64_t cycles);

/// The bound's lines (device::printRooflineBound), then `ratio: R x the
/// roofline` (`ratio: none` for a launch with no work).
void printRoofline(llvm::raw_ostream &os, const device::RooflineBound &bound,
                   uint64_t cycles);

/// The lines of a finished run before its checks: `kernel K on DEVICE`
/// (and `note`), `cycles: N`, printRoofline, the instructions, one row per
/// role (sim::printRoleTable), the matrix summary, and one row per unit
/// when `everyUnit` (else a line saying how to get them).
void printRun(llvm::raw_ostream &os, DifferentialRun &run,
              const sim::SimStats &stats, const device::RooflineBound &bound,
              llvm::StringRef note, bool everyUnit);

} // namespace ktflow::check

#endif // KTFLOW_CHECK_RUNREPORT_H

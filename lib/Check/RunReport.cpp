//===- RunReport.cpp - What `ktflow run` reports --------------------------===//
//
// This file prints the report of a simulated run: the summary first
// (cycles, the roofline bound, the ratio), then the units by role and, on
// request, one row per unit.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Check/RunReport.h"
#include "ktflow/Check/LaunchBinding.h"

#include "llvm/Support/Format.h"

using namespace llvm;
using namespace ktflow;
using namespace ktflow::check;

double ktflow::check::getRooflineRatio(const device::RooflineBound &bound,
                                       uint64_t cycles) {
  return bound.cycles > 0 ? cycles / bound.cycles : 0;
}

void ktflow::check::printRoofline(raw_ostream &os,
                                  const device::RooflineBound &bound,
                                  uint64_t cycles) {
  device::printRooflineBound(os, bound);
  // A launch with no work (a run-time size 0) has a bound of 0 cycles: no
  // ratio to give.
  if (bound.cycles <= 0) {
    os << "ratio: none (no work: the roofline is 0 cycles)\n";
    return;
  }
  os << "ratio: " << format("%.2f", getRooflineRatio(bound, cycles))
     << "x the roofline\n";
}

void ktflow::check::printEstimate(raw_ostream &os,
                                  const machine::KernelEstimate &estimate,
                                  uint64_t cycles) {
  os << "estimate: " << format("%.0f", estimate.cycles) << " cycles";
  if (cycles > 0)
    os << " ("
       << format("%+.1f", 100.0 *
                              (estimate.cycles - static_cast<double>(cycles)) /
                              static_cast<double>(cycles))
       << "%)";
  // An empty launch (a run-time size 0) has no work, so no bottleneck.
  if (estimate.bottleneck.empty())
    os << ", bottleneck none" << (estimate.cycles == 0 ? " (empty launch)" : "")
       << "\n";
  else
    os << ", bottleneck " << estimate.bottleneck << "\n";
}

void ktflow::check::printRun(raw_ostream &os, DifferentialRun &run,
                             const sim::SimStats &stats,
                             const device::RooflineBound &bound, StringRef note,
                             bool everyUnit) {
  const bundle::Bundle &b = run.getProgram().getBundle();
  const machine::Executable &exe = run.getLaunch().getExecutable();
  os << "kernel " << b.kernel << " on " << b.device << note << "\n";
  for (const IndexDefault &input : run.getIndexDefaults()) {
    // Arguments print as SSA names, literal addresses as `@ADDR`.
    auto symbol = [](StringRef name) {
      return (name.starts_with("@") ? "" : "%") + name.str();
    };
    os << "input " << symbol(input.name) << ": " << input.spec << " (indexes ";
    if (!input.indexed.empty())
      os << symbol(input.indexed) << " ";
    os << "dimension " << input.dimension
       << (input.scatter ? ", a scatter: distinct" : "") << ")\n";
  }
  os << "cycles: " << stats.cycles << "\n";
  printEstimate(os, machine::estimateKernel(b.machine, exe), stats.cycles);
  printRoofline(os, bound, stats.cycles);
  os << "instructions: " << stats.instructions << "\n";
  sim::printRoleTable(os, b.machine, exe, stats);
  sim::printMatrixSummary(os, b.machine, exe, stats);
  sim::printInterconnectSummary(os, b.machine, stats);
  if (everyUnit)
    sim::printUnitTable(os, b.machine, exe, stats);
  else
    os << "(" << exe.programs.size()
       << " units; --units prints one row for each)\n";
}

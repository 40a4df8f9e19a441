//===- RunReport.cpp - What `ktflow run` reports --------------------------===//
//
// This file prints the roofline bound and the ratio of a simulated run.
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
  os << "ratio: " << format("%.2f", getRooflineRatio(bound, cycles))
     << "x the roofline\n";
}

void ktflow::check::printRun(raw_ostream &os, DifferentialRun &run,
                             const sim::SimStats &stats,
                             const device::RooflineBound &bound,
                             StringRef note) {
  printLaunch(os, run.getProgram(), run.getLaunch(), stats, note);
  printRoofline(os, bound, stats.cycles);
}

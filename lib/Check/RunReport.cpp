//===- RunReport.cpp - What `ktflow run` reports --------------------------===//
//
// This file prints the roofline bound and the ratio of a simulated run, and
// writes the run's report as JSON.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Check/RunReport.h"
#include "ktflow/Check/LaunchBinding.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

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

bool ktflow::check::writeRunJSON(raw_ostream &os, DifferentialRun &run,
                                 const sim::SimStats &stats,
                                 const device::RooflineBound &bound,
                                 bool optimized,
                                 const std::vector<OutputCheck> *checks) {
  const bundle::Bundle &b = run.getProgram().getBundle();
  json::Object report{{"kernel", b.kernel},
                      {"device", b.device},
                      {"optimized", optimized},
                      {"cycles", static_cast<int64_t>(stats.cycles)},
                      {"ratio", getRooflineRatio(bound, stats.cycles)},
                      {"roofline", device::toJSON(bound)}};
  bool allPass = true;
  if (checks) {
    json::Array outputs;
    for (const OutputCheck &check : *checks) {
      outputs.push_back(json::Object{{"name", check.label},
                                     {"pass", check.result.pass},
                                     {"summary", check.result.summary}});
      allPass &= check.result.pass;
    }
    report["check"] =
        json::Object{{"pass", allPass}, {"outputs", std::move(outputs)}};
  }
  os << formatv("{0:2}", json::Value(std::move(report))) << "\n";
  return allPass;
}

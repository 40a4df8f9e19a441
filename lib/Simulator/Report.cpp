//===- Report.cpp - Simulation statistics and Chrome traces ---------------===//
//
// This file prints the statistics of a simulation and writes its timeline as
// Chrome-trace JSON (the format chrome://tracing and Perfetto open): one
// process for the device, one thread (track) per unit instance, one complete
// ("X") event per instruction that took time and per stall. Timestamps are
// cycles, written in the viewer's microsecond field.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Simulator/Simulator.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"

using namespace ktflow::machine;
using namespace ktflow::sim;

static double ticksToCycles(Tick t) {
  return static_cast<double>(t) / kTicksPerCycle;
}

void ktflow::sim::writeChromeTrace(llvm::raw_ostream &os,
                                   const Machine &machine,
                                   const Executable &exe,
                                   const SimStats &stats,
                                   llvm::ArrayRef<TraceEvent> events) {
  llvm::json::OStream j(os);
  j.objectBegin();
  j.attribute("displayTimeUnit", "ns");
  j.attributeBegin("otherData");
  j.objectBegin();
  j.attribute("device", machine.name);
  j.attribute("cycles", static_cast<int64_t>(stats.cycles));
  j.attribute("time_unit", "1 trace microsecond = 1 device cycle");
  j.objectEnd();
  j.attributeEnd();
  j.attributeBegin("traceEvents");
  j.arrayBegin();
  j.object([&] {
    j.attribute("name", "process_name");
    j.attribute("ph", "M");
    j.attribute("pid", 0);
    j.attributeObject("args", [&] { j.attribute("name", machine.name); });
  });
  for (size_t i = 0; i < exe.programs.size(); ++i) {
    const std::string &name = machine.units[exe.programs[i].unit].name;
    j.object([&] {
      j.attribute("name", "thread_name");
      j.attribute("ph", "M");
      j.attribute("pid", 0);
      j.attribute("tid", static_cast<int64_t>(i));
      j.attributeObject("args", [&] { j.attribute("name", name); });
    });
    j.object([&] {
      j.attribute("name", "thread_sort_index");
      j.attribute("ph", "M");
      j.attribute("pid", 0);
      j.attribute("tid", static_cast<int64_t>(i));
      j.attributeObject("args",
                        [&] { j.attribute("sort_index", static_cast<int64_t>(i)); });
    });
  }
  for (const TraceEvent &e : events) {
    j.object([&] {
      std::string name = opcodeName(e.op);
      if (e.stall) {
        std::string on = "contention";
        if (e.waitOn == kWaitInFlight)
          on = "transfers in flight";
        else if (e.waitOn != kNoReg)
          on = e.waitIsSync ? "sync " + exe.syncs[e.waitOn].name
                            : "fifo " + exe.fifos[e.waitOn].name;
        name = "stall: " + on;
      }
      j.attribute("name", name);
      j.attribute("cat", e.stall ? "stall" : "busy");
      j.attribute("ph", "X");
      j.attribute("pid", 0);
      j.attribute("tid", static_cast<int64_t>(e.program));
      j.attribute("ts", ticksToCycles(e.start));
      j.attribute("dur", ticksToCycles(e.end - e.start));
      if (e.bytes)
        j.attributeObject("args", [&] {
          j.attribute("bytes", static_cast<int64_t>(e.bytes));
        });
    });
  }
  j.arrayEnd();
  j.attributeEnd();
  j.objectEnd();
  os << "\n";
}

/// Which units multiplied matrices and how well: their kinds, whether
/// they are matrix units (or vector units standing in for them), the
/// share of the run they spent in products, and the share of their peak
/// multiply-accumulate rate the products reached.
static void printMatrixSummary(llvm::raw_ostream &os, const Machine &machine,
                               const Executable &exe, const SimStats &stats) {
  std::vector<std::string> kinds;
  bool engines = true;
  size_t units = 0;
  uint64_t cycles = 0;
  double peakCycles = 0;
  for (size_t i = 0; i < exe.programs.size(); ++i) {
    const UnitStats &u = stats.units[i];
    if (!u.matrixCycles)
      continue;
    const MachineUnit &unit = machine.units[exe.programs[i].unit];
    if (std::find(kinds.begin(), kinds.end(), unit.kind) == kinds.end())
      kinds.push_back(unit.kind);
    engines = engines && (unit.roles & RoleMatrix);
    ++units;
    cycles += u.matrixCycles;
    peakCycles += u.matrixPeakCycles;
  }
  if (!units || !stats.cycles)
    return;
  std::string names;
  for (const std::string &kind : kinds)
    names += (names.empty() ? "" : ", ") + kind;
  double run = static_cast<double>(units) * stats.cycles;
  os << "matrix products: on " << units << " "
     << (engines ? "matrix unit" : "vector unit") << (units == 1 ? "" : "s")
     << " (" << names << "), " << llvm::format("%.1f", 100.0 * cycles / run)
     << "% of their cycles in products, "
     << llvm::format("%.1f", 100.0 * peakCycles / run)
     << "% of their peak multiply-accumulate rate\n";
}

void ktflow::sim::printStats(llvm::raw_ostream &os, const Machine &machine,
                             const Executable &exe, const SimStats &stats) {
  os << "cycles: " << stats.cycles << "\n";
  os << "instructions: " << stats.instructions << "\n";
  size_t width = 4;
  for (const UnitProgram &p : exe.programs)
    width = std::max(width, machine.units[p.unit].name.size());
  os << llvm::left_justify("unit", width)
     << "        busy     stalled    finished  util%          bytes  instrs\n";
  for (size_t i = 0; i < exe.programs.size(); ++i) {
    const UnitStats &u = stats.units[i];
    double util = stats.cycles ? 100.0 * u.busyCycles / stats.cycles : 0.0;
    os << llvm::left_justify(machine.units[exe.programs[i].unit].name, width)
       << llvm::format(" %11llu %11llu %11llu %6.1f %14llu %7llu\n",
                       (unsigned long long)u.busyCycles,
                       (unsigned long long)u.stalledCycles,
                       (unsigned long long)u.finishCycle, util,
                       (unsigned long long)u.bytesMoved,
                       (unsigned long long)u.instructions);
  }
  printMatrixSummary(os, machine, exe, stats);
}

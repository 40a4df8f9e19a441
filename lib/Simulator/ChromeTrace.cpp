//===- ChromeTrace.cpp - Simulation timelines as Chrome traces ------------===//
//
// This file writes the timeline of a simulation as Chrome-trace JSON (the
// format chrome://tracing and Perfetto open): one process for the device,
// one thread (track) per unit instance, one complete ("X") event per
// instruction that took time and per stall. The format's timestamps are
// microseconds and viewers print them as times; one device cycle is written
// as one nanosecond, so the numbers a viewer shows (with
// `displayTimeUnit: ns`) are cycles.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Simulator/Simulator.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"

using namespace ktflow::machine;
using namespace ktflow::sim;

/// Writes a tick count as the trace's microseconds, one cycle per
/// nanosecond, with the digits a cycle count needs (`0.064`, not
/// `0.064000000000000001`).
static void writeTraceTime(llvm::json::OStream &j, llvm::StringRef key,
                           Tick t) {
  double microseconds = static_cast<double>(t) / kTicksPerCycle / 1000.0;
  j.attributeBegin(key);
  j.rawValue([&](llvm::raw_ostream &os) {
    os << llvm::format("%.15g", microseconds);
  });
  j.attributeEnd();
}

void ktflow::sim::writeChromeTrace(llvm::raw_ostream &os,
                                   const Machine &machine,
                                   const Executable &exe, const SimStats &stats,
                                   llvm::ArrayRef<TraceEvent> events) {
  llvm::json::OStream j(os);
  j.objectBegin();
  j.attribute("displayTimeUnit", "ns");
  j.attributeBegin("otherData");
  j.objectBegin();
  j.attribute("device", machine.name);
  j.attribute("cycles", static_cast<int64_t>(stats.cycles));
  j.attribute("time_unit", "1 ns on the trace's time axis = 1 device cycle");
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
  std::vector<size_t> order = getNaturalUnitOrder(machine, exe);
  std::vector<int64_t> sortIndex(order.size());
  for (size_t rank = 0; rank < order.size(); ++rank)
    sortIndex[order[rank]] = static_cast<int64_t>(rank);
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
                        [&] { j.attribute("sort_index", sortIndex[i]); });
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
      writeTraceTime(j, "ts", e.start);
      writeTraceTime(j, "dur", e.end - e.start);
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

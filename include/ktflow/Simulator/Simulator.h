//===- Simulator.h - Cycle-level simulator of a dataflow device -*- C++ -*-===//
//
// This file declares the simulator: a deterministic discrete-event
// simulation that runs every unit program of an Executable concurrently on a
// Machine, computing real values in a MemoryImage and counting cycles. The
// timing model is documented in docs/simulator.md.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_SIMULATOR_SIMULATOR_H
#define KTFLOW_SIMULATOR_SIMULATOR_H

#include "ktflow/Machine/Machine.h"
#include "ktflow/Machine/Program.h"
#include "ktflow/Simulator/MemoryImage.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <vector>

namespace ktflow::sim {

/// Simulated time: 2^16 ticks per cycle, so that many units sharing a link
/// get fractional shares of its bandwidth without rounding each transfer.
using Tick = uint64_t;
constexpr Tick kTicksPerCycle = Tick(1) << 16;

struct SimOptions {
  /// Work budget: stop with an error after this many executed instruction
  /// steps, so that no program can make the simulator run for ever; a
  /// program whose loops with constant bounds alone exceed it is refused
  /// before it runs (boundInstructions). The default is about 15 times the
  /// largest production-size kernel measured (a 1151x8192 layernorm, 18 M).
  uint64_t maxInstructions = uint64_t(1) << 28;
  /// Wall-clock budget in seconds; 0 for none.
  double maxSeconds = 3600;
  bool recordTrace = false;
  /// Check accesses of every memory for races: a read or write of
  /// bytes another unit, not ordered before it by syncs and FIFOs, wrote
  /// (or read, for a write) is an error. Off by default: it costs 1.2-2.5x
  /// the simulation time (`ktflow run --check` and `--races` turn it on).
  /// Without it, only the writes of device memory are checked (a few
  /// percent): overlapping stores of different values that no token
  /// orders are still an error.
  bool checkRaces = false;
};

struct UnitStats {
  uint64_t busyCycles = 0;
  uint64_t stalledCycles = 0;
  uint64_t finishCycle = 0;
  uint64_t bytesMoved = 0;
  uint64_t instructions = 0;
  /// Cycles spent in matrix products, and the cycles their
  /// multiply-accumulates take at the unit's peak rate (no fill, no
  /// padded waves): their ratio is how well the products use the unit.
  uint64_t matrixCycles = 0;
  double matrixPeakCycles = 0;
};

/// One direction of one interconnect link that remote DMAs used.
struct InterconnectLinkStats {
  uint32_t fromCore = 0, toCore = 0;
  uint64_t bytes = 0;
};

struct SimStats {
  uint64_t cycles = 0;
  uint64_t instructions = 0;
  /// Indexed like Executable::programs.
  std::vector<UnitStats> units;
  /// The interconnect links data crossed, by (from core, to core); empty
  /// when no remote DMA ran.
  std::vector<InterconnectLinkStats> interconnect;
};

/// One interval of a unit's timeline.
/// TraceEvent::waitOn of a stall on the unit's own transfers in flight.
constexpr uint32_t kWaitInFlight = machine::kNoReg - 1;

struct TraceEvent {
  uint32_t program = 0;
  Tick start = 0, end = 0;
  machine::Opcode op = machine::Opcode::Halt;
  bool stall = false;
  /// What a stall waited on: a FIFO or sync index, kWaitInFlight for the
  /// unit's own transfers in flight, or kNoReg for contention.
  uint32_t waitOn = machine::kNoReg;
  bool waitIsSync = false;
  uint64_t bytes = 0;
};

/// Runs `exe` on `machine` against `memory`. Errors (deadlock, FIFO misuse,
/// out-of-bounds access, instruction limit) come back as llvm::Error with a
/// message naming the units involved.
llvm::Expected<SimStats> simulate(const machine::Machine &machine,
                                  const machine::Executable &exe,
                                  MemoryImage &memory,
                                  const SimOptions &options = {},
                                  std::vector<TraceEvent> *trace = nullptr);

/// Writes a Chrome-trace JSON timeline, one track per unit instance.
void writeChromeTrace(llvm::raw_ostream &os, const machine::Machine &machine,
                      const machine::Executable &exe, const SimStats &stats,
                      llvm::ArrayRef<TraceEvent> events);

/// The programs of `exe` ordered by their units' names the way people count
/// (`core[2]` before `core[10]`): runs of digits compare as numbers.
std::vector<size_t> getNaturalUnitOrder(const machine::Machine &machine,
                                        const machine::Executable &exe);

/// One row per unit, naturally ordered: busy, stalled and finish cycles,
/// utilisation, bytes moved, instructions.
void printUnitTable(llvm::raw_ostream &os, const machine::Machine &machine,
                    const machine::Executable &exe, const SimStats &stats);

/// One row per role (DMA, load, store, compute, matrix; each unit counted
/// once, under the first of matrix, compute, DMA, load, store it has): the
/// number of units, their mean and highest utilisation, the busiest of
/// them, and the bytes and instructions they moved and ran.
void printRoleTable(llvm::raw_ostream &os, const machine::Machine &machine,
                    const machine::Executable &exe, const SimStats &stats);

/// The line saying which units multiplied matrices and how well; nothing
/// when none did.
void printMatrixSummary(llvm::raw_ostream &os, const machine::Machine &machine,
                        const machine::Executable &exe, const SimStats &stats);

/// The line summing up what remote DMAs carried over the interconnect
/// (bytes, links, their share of their bandwidth, the busiest link);
/// nothing when none ran.
void printInterconnectSummary(llvm::raw_ostream &os,
                              const machine::Machine &machine,
                              const SimStats &stats);

/// Total cycles and instructions, printUnitTable, printMatrixSummary,
/// printInterconnectSummary.
void printStats(llvm::raw_ostream &os, const machine::Machine &machine,
                const machine::Executable &exe, const SimStats &stats);

} // namespace ktflow::sim

#endif // KTFLOW_SIMULATOR_SIMULATOR_H

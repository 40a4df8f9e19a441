//===- StatsReport.cpp - Simulation statistics as text --------------------===//
//
// This file prints what a simulation measured: totals, one row per role
// (what `ktflow run` shows by default), one row per unit (`ktflow sim`,
// `ktflow run --units`), which units multiplied matrices and what crossed
// the core interconnect. Units are listed in natural order, so `core[2]`
// comes before `core[10]`, as people count.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Simulator/Simulator.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include <algorithm>

using namespace ktflow::machine;
using namespace ktflow::sim;

/// Compares two names with every run of digits read as a number.
static bool naturalLess(llvm::StringRef a, llvm::StringRef b) {
  while (!a.empty() && !b.empty()) {
    if (llvm::isDigit(a.front()) && llvm::isDigit(b.front())) {
      size_t aDigits = a.find_if_not(llvm::isDigit);
      size_t bDigits = b.find_if_not(llvm::isDigit);
      llvm::StringRef aNumber = a.take_front(aDigits).ltrim('0');
      llvm::StringRef bNumber = b.take_front(bDigits).ltrim('0');
      if (aNumber.size() != bNumber.size())
        return aNumber.size() < bNumber.size();
      if (int c = aNumber.compare(bNumber))
        return c < 0;
      a = a.drop_front(aDigits);
      b = b.drop_front(bDigits);
      continue;
    }
    if (a.front() != b.front())
      return a.front() < b.front();
    a = a.drop_front();
    b = b.drop_front();
  }
  return a.size() < b.size();
}

std::vector<size_t> ktflow::sim::getNaturalUnitOrder(const Machine &machine,
                                                     const Executable &exe) {
  std::vector<size_t> order(exe.programs.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    return naturalLess(machine.units[exe.programs[x].unit].name,
                       machine.units[exe.programs[y].unit].name);
  });
  return order;
}

static double utilisation(const UnitStats &unit, const SimStats &stats) {
  return stats.cycles ? 100.0 * unit.busyCycles / stats.cycles : 0.0;
}

void ktflow::sim::printUnitTable(llvm::raw_ostream &os, const Machine &machine,
                                 const Executable &exe, const SimStats &stats) {
  size_t width = 4;
  for (const UnitProgram &p : exe.programs)
    width = std::max(width, machine.units[p.unit].name.size());
  os << llvm::left_justify("unit", width)
     << "        busy     stalled    finished  util%          bytes  instrs\n";
  for (size_t i : getNaturalUnitOrder(machine, exe)) {
    const UnitStats &u = stats.units[i];
    os << llvm::left_justify(machine.units[exe.programs[i].unit].name, width)
       << llvm::format(" %11llu %11llu %11llu %6.1f %14llu %7llu\n",
                       (unsigned long long)u.busyCycles,
                       (unsigned long long)u.stalledCycles,
                       (unsigned long long)u.finishCycle, utilisation(u, stats),
                       (unsigned long long)u.bytesMoved,
                       (unsigned long long)u.instructions);
  }
}

namespace {
/// The rows of the role table, in the order they print.
enum class RoleRow { Dma, Load, Store, Compute, Matrix };
constexpr RoleRow kRoleRows[] = {RoleRow::Dma, RoleRow::Load, RoleRow::Store,
                                 RoleRow::Compute, RoleRow::Matrix};

struct RoleTotals {
  size_t units = 0;
  double utilisationSum = 0;
  double busiestUtilisation = -1;
  size_t busiest = 0;
  uint64_t bytes = 0;
  uint64_t instructions = 0;
};
} // namespace

static llvm::StringRef getRoleRowName(RoleRow row) {
  switch (row) {
  case RoleRow::Dma:
    return "DMA";
  case RoleRow::Load:
    return "load";
  case RoleRow::Store:
    return "store";
  case RoleRow::Compute:
    return "compute";
  case RoleRow::Matrix:
    return "matrix";
  }
  return "";
}

/// The one row a unit counts under; none for a unit without a role.
static std::optional<RoleRow> getRoleRow(uint32_t roles) {
  if (roles & RoleMatrix)
    return RoleRow::Matrix;
  if (roles & RoleVector)
    return RoleRow::Compute;
  if (roles & RoleDma)
    return RoleRow::Dma;
  if (roles & RoleLoad)
    return RoleRow::Load;
  if (roles & RoleStore)
    return RoleRow::Store;
  return std::nullopt;
}

void ktflow::sim::printRoleTable(llvm::raw_ostream &os, const Machine &machine,
                                 const Executable &exe, const SimStats &stats) {
  RoleTotals totals[std::size(kRoleRows)];
  for (size_t i : getNaturalUnitOrder(machine, exe)) {
    std::optional<RoleRow> row =
        getRoleRow(machine.units[exe.programs[i].unit].roles);
    if (!row)
      continue;
    RoleTotals &t = totals[static_cast<size_t>(*row)];
    const UnitStats &u = stats.units[i];
    double util = utilisation(u, stats);
    ++t.units;
    t.utilisationSum += util;
    if (util > t.busiestUtilisation) {
      t.busiestUtilisation = util;
      t.busiest = i;
    }
    t.bytes += u.bytesMoved;
    t.instructions += u.instructions;
  }
  size_t width = 7;
  for (const RoleTotals &t : totals)
    if (t.units)
      width = std::max(width,
                       machine.units[exe.programs[t.busiest].unit].name.size());
  os << "role     units  util%  max%  " << llvm::left_justify("busiest", width)
     << "          bytes      instrs\n";
  for (RoleRow row : kRoleRows) {
    const RoleTotals &t = totals[static_cast<size_t>(row)];
    if (!t.units)
      continue;
    os << llvm::left_justify(getRoleRowName(row), 7)
       << llvm::format(" %6zu %6.1f %5.1f  ", t.units,
                       t.utilisationSum / t.units, t.busiestUtilisation)
       << llvm::left_justify(machine.units[exe.programs[t.busiest].unit].name,
                             width)
       << llvm::format(" %14llu %11llu\n", (unsigned long long)t.bytes,
                       (unsigned long long)t.instructions);
  }
}

void ktflow::sim::printMatrixSummary(llvm::raw_ostream &os,
                                     const Machine &machine,
                                     const Executable &exe,
                                     const SimStats &stats) {
  // Matrix engines and vector units that multiplied, each with its kinds
  // (a group split between them, ktdf-split-matrix-groups, uses both).
  struct Side {
    std::vector<std::string> kinds;
    size_t units = 0;
  } engines, vectors;
  uint64_t cycles = 0;
  double peakCycles = 0;
  for (size_t i = 0; i < exe.programs.size(); ++i) {
    const UnitStats &u = stats.units[i];
    if (!u.matrixCycles)
      continue;
    const MachineUnit &unit = machine.units[exe.programs[i].unit];
    Side &side = (unit.roles & RoleMatrix) ? engines : vectors;
    if (std::find(side.kinds.begin(), side.kinds.end(), unit.kind) ==
        side.kinds.end())
      side.kinds.push_back(unit.kind);
    ++side.units;
    cycles += u.matrixCycles;
    peakCycles += u.matrixPeakCycles;
  }
  size_t units = engines.units + vectors.units;
  if (!units || !stats.cycles)
    return;
  auto describe = [](const Side &side, const char *what) {
    std::string names;
    for (const std::string &kind : side.kinds)
      names += (names.empty() ? "" : ", ") + kind;
    return std::to_string(side.units) + " " + what +
           (side.units == 1 ? "" : "s") + " (" + names + ")";
  };
  std::string where;
  if (engines.units)
    where = describe(engines, "matrix unit");
  if (vectors.units)
    where += (where.empty() ? "" : " and ") + describe(vectors, "vector unit");
  double run = static_cast<double>(units) * stats.cycles;
  os << "matrix products: on " << where << ", "
     << llvm::format("%.1f", 100.0 * cycles / run)
     << "% of their cycles in products, "
     << llvm::format("%.1f", 100.0 * peakCycles / run)
     << "% of their peak multiply-accumulate rate\n";
}

/// A link's share of its bandwidth is its bytes over what the bandwidth
/// carries in the whole run.
void ktflow::sim::printInterconnectSummary(llvm::raw_ostream &os,
                                           const Machine &machine,
                                           const SimStats &stats) {
  if (stats.interconnect.empty() || !stats.cycles)
    return;
  uint64_t total = 0;
  const InterconnectLinkStats *busiest = nullptr;
  for (const InterconnectLinkStats &l : stats.interconnect) {
    total += l.bytes;
    if (!busiest || l.bytes > busiest->bytes)
      busiest = &l;
  }
  double capacity = machine.interconnect.linkBandwidth * stats.cycles;
  os << "interconnect: " << total << " bytes over " << stats.interconnect.size()
     << " link" << (stats.interconnect.size() == 1 ? "" : "s") << " ("
     << llvm::format("%g", machine.interconnect.linkBandwidth)
     << " B/cycle each way), "
     << llvm::format("%.1f",
                     100.0 * total / (capacity * stats.interconnect.size()))
     << "% of their bandwidth; busiest core " << busiest->fromCore
     << " -> core " << busiest->toCore << ": " << busiest->bytes << " bytes, "
     << llvm::format("%.1f", 100.0 * busiest->bytes / capacity) << "%\n";
}

void ktflow::sim::printStats(llvm::raw_ostream &os, const Machine &machine,
                             const Executable &exe, const SimStats &stats) {
  os << "cycles: " << stats.cycles << "\n";
  os << "instructions: " << stats.instructions << "\n";
  printUnitTable(os, machine, exe, stats);
  printMatrixSummary(os, machine, exe, stats);
  printInterconnectSummary(os, machine, stats);
}

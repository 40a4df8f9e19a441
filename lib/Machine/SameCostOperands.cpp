//===- SameCostOperands.cpp - Two programs' walks read the same sizes -----===//
//
// This file implements sameCostOperands (SameWalks.h). The lanes of a
// production kernel differ in the immediate that places their first grid
// point, which reaches a loop's bounds (`loop_begin s18 = s10 to s15`,
// s10 the lane's first row): every lane then runs as many trips, but the
// immediates differ where the walk reads them, and each lane was walked
// (mesh_device's sixteen tiles of layernorm_1151x8192, 16,378 trips each).
// Rather than compare the immediates, the two programs' scalars are
// stepped together as the walk steps them (ProgramWalker::walk: the same
// loops walked trip by trip or once, within the same budget) and only
// what the walk reads of them is compared: each loop's trips and the
// sizes of each transfer and index read. The walked program's side is
// stepped by the first comparison that goes through and replayed by the
// next ones (ReadTrace, SameWalks.h): each lane is compared with the same
// walked lane.
//
//===----------------------------------------------------------------------===//

#include "SameWalks.h"

using namespace ktflow::machine;
using namespace ktflow::machine::detail;

namespace {
class Lockstep {
public:
  Lockstep(const UnitProgram &from, const UnitProgram &to,
           const std::vector<bool> &read, llvm::ArrayRef<size_t> counted,
           llvm::ArrayRef<double> trips, ReadTrace &fromReads)
      : from(from), to(to), read(read), x(from.numSRegs), y(to.numSRegs),
        countedTrips(fromReads.countedTrips), next(fromReads.next),
        fromReads(fromReads), replaying(fromReads.complete) {
    // Of `from` alone: found by its first comparison, kept for the next.
    if (!next.empty())
      return;
    countedTrips.assign(from.insts.size(), -1);
    for (auto [pc, n] : llvm::zip_equal(counted, trips))
      countedTrips[pc] = n;
    next.resize(from.insts.size() + 1);
    next.back() = from.insts.size();
    for (size_t pc = from.insts.size(); pc-- > 0;)
      next[pc] = steps(pc) ? pc : next[pc + 1];
  }

  /// Whether instructions [begin, end) read the same sizes in both.
  bool walk(size_t begin, size_t end);

private:
  /// The value ProgramWalker::value reads (unknown as 0).
  static int64_t valueOf(const std::vector<KnownScalar> &regs, uint32_t reg) {
    return reg == kNoReg ? 0 : regs[reg].value_or(0);
  }
  /// What `from` reads here, `stepped` of its scalars: recorded, or
  /// replayed from the first comparison (none past its end).
  template <typename Read> std::optional<int64_t> fromRead(Read stepped) {
    if (!replaying) {
      fromReads.values.push_back(stepped());
      return fromReads.values.back();
    }
    if (at == fromReads.values.size())
      return std::nullopt;
    return fromReads.values[at++];
  }
  bool sameValue(uint32_t reg) {
    return fromRead([&] { return valueOf(x, reg); }) == valueOf(y, reg);
  }
  bool loop(size_t pc);
  /// Whether the instruction at `pc` is one the lockstep walk steps or
  /// compares (the others it skips: most compute addresses).
  bool steps(size_t pc) const {
    switch (from.insts[pc].op) {
    case Opcode::SetImm:
    case Opcode::MovS:
    case Opcode::SelectS:
    case Opcode::Alu:
      return read[pc];
    case Opcode::Halt:
    case Opcode::LoopBegin:
    case Opcode::ReadIndex:
    case Opcode::Load:
    case Opcode::Store:
    case Opcode::Dma:
    case Opcode::RemoteDma:
    case Opcode::Fill:
      return true;
    default:
      return false;
    }
  }

  const UnitProgram &from, &to;
  /// The scalar definitions that may reach what the walk reads: the others
  /// are not stepped.
  const std::vector<bool> &read;
  std::vector<KnownScalar> x, y;
  /// The trips of the loops whose bounds are constants (their registers
  /// may not be stepped), -1 for the others.
  std::vector<double> &countedTrips;
  /// Per instruction, the first at or after it that steps().
  std::vector<size_t> &next;
  double iterationsWalked = 0;
  int64_t indexReads = 0;
  /// What `from` reads, in order; whether it is replayed rather than
  /// stepped, and where.
  ReadTrace &fromReads;
  bool replaying;
  size_t at = 0;
};
} // namespace

bool Lockstep::loop(size_t pc) {
  const Inst &p = from.insts[pc], &q = to.insts[pc];
  double trips = countedTrips[pc];
  if (trips < 0) {
    std::optional<int64_t> fromTrips = fromRead([&] {
      return static_cast<int64_t>(
          ProgramWalker::tripsOf(x[p.b], x[p.c], x[p.d]));
    });
    trips = ProgramWalker::tripsOf(y[q.b], y[q.c], y[q.d]);
    if (fromTrips != static_cast<int64_t>(trips))
      return false;
  }
  // Its register is stepped only where it reaches what the walk reads.
  bool stepped = read[pc];
  if (trips > 1 && trips <= ProgramWalker::kWalkEach &&
      iterationsWalked + trips <= ProgramWalker::kWalkBudget) {
    iterationsWalked += trips;
    // A body with nothing to step or compare reads nothing in any trip.
    if (next[pc + 1] >= p.e)
      trips = 0;
    if (stepped &&
        (fromRead([&] { return x[p.b] && x[p.d]; }) != 1 || !y[q.b] || !y[q.d]))
      return false;
    for (int64_t i = 0; i < static_cast<int64_t>(trips); ++i) {
      if (stepped) {
        if (!replaying)
          x[p.a] = *x[p.b] + i * *x[p.d];
        y[q.a] = *y[q.b] + i * *y[q.d];
      }
      if (!walk(pc + 1, p.e))
        return false;
    }
  } else {
    x[p.a] = x[p.b];
    y[q.a] = y[q.b];
    if (trips > 0 && !walk(pc + 1, p.e))
      return false;
  }
  x[p.a] = std::nullopt;
  y[q.a] = std::nullopt;
  return true;
}

bool Lockstep::walk(size_t begin, size_t end) {
  for (size_t pc = next[begin]; pc < end; pc = next[pc]) {
    const Inst &p = from.insts[pc], &q = to.insts[pc];
    switch (p.op) {
    case Opcode::Halt:
      return true;
    case Opcode::SetImm:
    case Opcode::MovS:
    case Opcode::SelectS:
    case Opcode::Alu:
      if (read[pc]) {
        if (!replaying)
          (void)stepKnownScalar(p, x);
        (void)stepKnownScalar(q, y);
      }
      break;
    case Opcode::LoopBegin:
      if (!loop(pc))
        return false;
      pc = p.e + 1;
      continue;
    case Opcode::ReadIndex: {
      if (fromRead([&] { return x[p.d].has_value(); }) !=
              int64_t(y[q.d].has_value()) ||
          fromRead([&] { return x[p.d].value_or(0); }) != y[q.d].value_or(0))
        return false;
      int64_t value = 2 * indexReads++;
      if (y[q.d] && *y[q.d] > 0)
        value %= *y[q.d];
      x[p.a] = y[q.a] = value;
      break;
    }
    case Opcode::Load:
    case Opcode::Store:
      if (!sameValue(p.d))
        return false;
      break;
    case Opcode::Dma:
    case Opcode::RemoteDma:
      if (!sameValue(p.e) || !sameValue(p.f) ||
          (hasPlanes(p) && !sameValue(p.i)))
        return false;
      break;
    case Opcode::Fill:
      if (!sameValue(p.c) || !sameValue(p.d))
        return false;
      break;
    default:
      break;
    }
    ++pc;
  }
  return true;
}

bool detail::sameCostOperands(const UnitProgram &from, const UnitProgram &to,
                              const std::vector<bool> &read,
                              llvm::ArrayRef<size_t> counted,
                              llvm::ArrayRef<double> trips,
                              ReadTrace &fromReads) {
  bool same = Lockstep(from, to, read, counted, trips, fromReads)
                  .walk(0, from.insts.size());
  // A comparison stopped early recorded part of what `from` reads.
  if (!fromReads.complete) {
    fromReads.complete = same;
    if (!same)
      fromReads.values.clear();
  }
  return same;
}

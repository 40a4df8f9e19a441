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
// walked lane. A replay compares only what the differing immediates reach
// (reachOf) and steps only the scalars that reach it: the rest reads the
// same in both programs. The loops whose trips and body they do not reach
// are skipped, their end taken from the first comparison's record (the
// walk's count of iterations too, which decides whether later loops are
// walked trip by trip): layernorm_1151x8192 on mesh_device stepped each
// lane through 28,000 instructions, now 7,300.
//
//===----------------------------------------------------------------------===//

#include "SameWalks.h"

#include "llvm/ADT/BitVector.h"

using namespace ktflow::machine;
using namespace ktflow::machine::detail;

/// What the set_imm instructions `differing` reach of what the walk reads
/// of `program` (ReadTrace::Reach): their registers, and those computed
/// from them (a loop's from its start or step, an index read's from its
/// bound), forwards until nothing more is found.
static ReadTrace::Reach reachOf(const UnitProgram &program,
                                llvm::ArrayRef<size_t> counted,
                                llvm::ArrayRef<size_t> differing) {
  const std::vector<Inst> &insts = program.insts;
  llvm::BitVector reached(program.numSRegs);
  auto isReached = [&](uint32_t reg) {
    return reg != kNoReg && reg < reached.size() && reached[reg];
  };
  for (size_t pc : differing)
    if (insts[pc].a < reached.size())
      reached.set(insts[pc].a);
  for (bool grew = true; grew;) {
    grew = false;
    for (const Inst &in : insts) {
      if (!writesScalar(in) || in.a >= reached.size() || reached[in.a])
        continue;
      llvm::SmallVector<uint32_t, 3> sources = scalarSources(in);
      if (in.op == Opcode::ReadIndex)
        sources.push_back(in.d);
      if (llvm::any_of(sources, isReached)) {
        reached.set(in.a);
        grew = true;
      }
    }
  }
  ReadTrace::Reach reach;
  reach.compared.assign(insts.size(), false);
  for (auto [pc, in] : llvm::enumerate(insts))
    reach.compared[pc] = !llvm::is_contained(counted, pc) &&
                         llvm::any_of(costOperands(in), isReached);
  reach.stepped = definitionsRead(program, counted, &reach.compared);
  // Per instruction, how many before it are stepped or compared.
  std::vector<size_t> touchedBefore(insts.size() + 1, 0);
  for (size_t pc = 0; pc < insts.size(); ++pc)
    touchedBefore[pc + 1] =
        touchedBefore[pc] + (reach.stepped[pc] || reach.compared[pc] ? 1 : 0);
  reach.skipped.assign(insts.size(), false);
  for (auto [pc, in] : llvm::enumerate(insts))
    if (in.op == Opcode::LoopBegin && !reach.stepped[pc])
      reach.skipped[pc] = touchedBefore[in.e] == touchedBefore[pc + 1];
  return reach;
}

namespace {
class Lockstep {
public:
  Lockstep(const UnitProgram &from, const UnitProgram &to,
           const std::vector<bool> &read, llvm::ArrayRef<size_t> counted,
           llvm::ArrayRef<double> trips, llvm::ArrayRef<size_t> differing,
           ReadTrace &fromReads)
      : from(from), to(to), read(read), x(from.numSRegs), y(to.numSRegs),
        countedTrips(fromReads.countedTrips), next(fromReads.next),
        loops(fromReads.loops), fromReads(fromReads),
        replaying(fromReads.complete) {
    if (replaying) {
      auto [it, fresh] = fromReads.reaches.try_emplace(
          std::vector<size_t>(differing.begin(), differing.end()));
      if (fresh)
        it->second = reachOf(from, counted, differing);
      reach = &it->second;
    }
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
  /// Whether the values `from` reads at `pc` are compared: in a replay,
  /// those no differing immediate reaches are the same and are passed
  /// (`count` of them).
  bool compares(size_t pc, size_t count) {
    if (!reach || reach->compared[pc])
      return true;
    at = std::min(at + count, fromReads.values.size());
    return false;
  }
  /// Whether `to`'s scalar written at `pc` is stepped (what the differing
  /// immediates reach of the scalars read is among them).
  bool stepsTo(size_t pc) const {
    return reach ? reach->stepped[pc] : read[pc];
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
  /// The loops of the first comparison; in a replay, the next one entered.
  std::vector<ReadTrace::Loop> &loops;
  size_t nextLoop = 0;
  /// In a replay, what the differing immediates reach.
  const ReadTrace::Reach *reach = nullptr;
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
  // Where the first comparison's record of this loop goes, or in a
  // replay the record read.
  size_t entered = nextLoop;
  if (!replaying)
    loops.emplace_back();
  else if (entered == loops.size())
    return false;
  ++nextLoop;
  double trips = countedTrips[pc];
  if (trips < 0) {
    std::optional<int64_t> fromTrips = fromRead([&] {
      return static_cast<int64_t>(
          ProgramWalker::tripsOf(x[p.b], x[p.c], x[p.d]));
    });
    if (!fromTrips)
      return false;
    if (reach && !reach->compared[pc]) {
      trips = static_cast<double>(*fromTrips);
    } else {
      trips = ProgramWalker::tripsOf(y[q.b], y[q.c], y[q.d]);
      if (*fromTrips != static_cast<int64_t>(trips))
        return false;
    }
  }
  if (reach && reach->skipped[pc]) {
    // Its trips and body read what the first comparison read: the walk's
    // count of iterations and index reads taken from there.
    const ReadTrace::Loop &record = loops[entered];
    at = record.valuesEnd;
    nextLoop = record.loopsEnd;
    iterationsWalked = record.iterationsWalked;
    indexReads = record.indexReads;
    y[q.a] = std::nullopt;
    return true;
  }
  // Its register is stepped only where it reaches what the walk reads.
  bool stepped = read[pc], steppedTo = stepsTo(pc);
  if (trips > 1 && trips <= ProgramWalker::kWalkEach &&
      iterationsWalked + trips <= ProgramWalker::kWalkBudget) {
    iterationsWalked += trips;
    // A body with nothing to step or compare reads nothing in any trip.
    if (next[pc + 1] >= p.e)
      trips = 0;
    if (stepped && fromRead([&] { return x[p.b] && x[p.d]; }) != 1)
      return false;
    if (steppedTo && (!y[q.b] || !y[q.d]))
      return false;
    for (int64_t i = 0; i < static_cast<int64_t>(trips); ++i) {
      if (stepped && !replaying)
        x[p.a] = *x[p.b] + i * *x[p.d];
      if (steppedTo)
        y[q.a] = *y[q.b] + i * *y[q.d];
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
  if (!replaying)
    loops[entered] = {fromReads.values.size(), loops.size(), iterationsWalked,
                      indexReads};
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
      if (!replaying && read[pc])
        (void)stepKnownScalar(p, x);
      if (stepsTo(pc))
        (void)stepKnownScalar(q, y);
      break;
    case Opcode::LoopBegin:
      if (!loop(pc))
        return false;
      pc = p.e + 1;
      continue;
    case Opcode::ReadIndex: {
      if (compares(pc, 2) &&
          (fromRead([&] { return x[p.d].has_value(); }) !=
               int64_t(y[q.d].has_value()) ||
           fromRead([&] { return x[p.d].value_or(0); }) != y[q.d].value_or(0)))
        return false;
      int64_t value = 2 * indexReads++;
      if (y[q.d] && *y[q.d] > 0)
        value %= *y[q.d];
      x[p.a] = y[q.a] = value;
      break;
    }
    case Opcode::Load:
    case Opcode::Store:
      if (compares(pc, 1) && !sameValue(p.d))
        return false;
      break;
    case Opcode::Dma:
    case Opcode::RemoteDma:
      if (compares(pc, hasPlanes(p) ? 3 : 2) &&
          (!sameValue(p.e) || !sameValue(p.f) ||
           (hasPlanes(p) && !sameValue(p.i))))
        return false;
      break;
    case Opcode::Fill:
      if (compares(pc, 2) && (!sameValue(p.c) || !sameValue(p.d)))
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
                              llvm::ArrayRef<size_t> differing,
                              ReadTrace &fromReads) {
  bool same = Lockstep(from, to, read, counted, trips, differing, fromReads)
                  .walk(0, from.insts.size());
  // A comparison stopped early recorded part of what `from` reads.
  if (!fromReads.complete) {
    fromReads.complete = same;
    if (!same) {
      fromReads.values.clear();
      fromReads.loops.clear();
    }
  }
  return same;
}

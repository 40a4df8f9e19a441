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
// What a comparison steps and compares is compiled into a list of steps
// (ReadTrace::Step; a replay's once per set of differing immediates), and
// the registers of one value wherever they are read (set_imm, and what is
// computed from those alone) are stepped once, before the walk.
// rope_163840x128 on mesh_device, whose differing immediates reach nearly
// all its lanes step, took 132 M instructions to estimate before 9e48db1
// and 148 M after it (its bookkeeping per instruction stepped; 117 M in
// this check), now 87 M.
//
// A replay decides a loop's trips but the last at once where each value
// they read is one value over all of them (the ranges of TripRanges.h) and
// the record holds it in each (rangedTrips): rope_163840x128's lanes, whose
// every tile is clamped to its view's rows, were stepped through each of
// their 32 row blocks of each of their 20 heads (69 M instructions per
// estimate on mesh_device, 33 M now).
//
//===----------------------------------------------------------------------===//

#include "SameWalks.h"
#include "ScalarSteps.h"
#include "TripRanges.h"

#include "llvm/ADT/BitVector.h"

using namespace ktflow::machine;
using namespace ktflow::machine::detail;

namespace {
using Step = ReadTrace::Step;

/// An Alu step on `regs`, as stepKnownScalar steps its instruction.
LLVM_ATTRIBUTE_ALWAYS_INLINE void stepAlu(const Step &s,
                                          std::vector<KnownScalar> &regs) {
  const KnownScalar &b = regs[s.y], &c = regs[s.z];
  int64_t r;
  regs[s.x] =
      b && c && evaluateAluInline(static_cast<AluOp>(s.count), *b, *c, r)
          ? KnownScalar(r)
          : KnownScalar();
}

/// A SelectS step on `regs`, as stepKnownScalar steps its instruction.
LLVM_ATTRIBUTE_ALWAYS_INLINE void stepSelect(const Step &s,
                                             std::vector<KnownScalar> &regs) {
  regs[s.x] =
      regs[s.y] ? (*regs[s.y] != 0 ? regs[s.z] : regs[s.w]) : KnownScalar();
}

class Lockstep {
public:
  /// Loops of at least this many trips walked trip by trip are tried
  /// for trips decided at once (rangedTrips).
  static constexpr double kRangedFrom = 3;

  Lockstep(const UnitProgram &from, const UnitProgram &to,
           const std::vector<bool> &read, llvm::ArrayRef<size_t> counted,
           llvm::ArrayRef<double> trips, llvm::ArrayRef<size_t> differing,
           ReadTrace &fromReads)
      : from(from), to(to), read(read), x(from.numSRegs), y(to.numSRegs),
        countedTrips(fromReads.countedTrips), loops(fromReads.loops),
        fromReads(fromReads), replaying(fromReads.complete) {
    // Of `from` alone: found by its first comparison, kept for the next.
    if (countedTrips.empty()) {
      countedTrips.assign(from.insts.size(), -1);
      for (auto [pc, n] : llvm::zip_equal(counted, trips))
        countedTrips[pc] = n;
      fromReads.definedBeforeUse = definedBeforeEveryUse(from);
    }
    // A replay's steps, per set of differing immediates: found by the
    // first replay with them (compiling them for each lane cost more than
    // the walk of a lane of few steps: swiglu_ffn, attention).
    compiled = &own;
    if (replaying) {
      auto [it, fresh] = fromReads.reaches.try_emplace(
          std::vector<size_t>(differing.begin(), differing.end()));
      reach = &it->second;
      compiled = &reach->compiled;
      if (fresh) {
        *reach = reachOf(from, counted, differing);
        compile(differing);
      }
    } else {
      compile(differing);
    }
    for (uint32_t pc : compiled->once) {
      if (!replaying)
        (void)stepKnownScalarInline(from.insts[pc], x);
      (void)stepKnownScalarInline(to.insts[pc], y);
    }
  }

  /// Whether steps [begin, end) read the same sizes in both.
  bool walk(size_t begin, size_t end) {
    return replaying ? walk<true>(begin, end) : walk<false>(begin, end);
  }
  size_t size() const { return compiled->code.size(); }

private:
  /// The value ProgramWalker::value reads (unknown as 0).
  static int64_t valueOf(const std::vector<KnownScalar> &regs, uint32_t reg) {
    return reg == kNoReg ? 0 : regs[reg].value_or(0);
  }
  /// What `from` reads here, `stepped` of its scalars: recorded, or
  /// replayed from the first comparison (none past its end).
  template <bool Replaying, typename Read>
  std::optional<int64_t> fromRead(Read stepped) {
    if (!Replaying) {
      fromReads.values.push_back(stepped());
      return fromReads.values.back();
    }
    if (at == fromReads.values.size())
      return std::nullopt;
    return fromReads.values[at++];
  }
  template <bool Replaying> bool sameValue(uint32_t reg) {
    return fromRead<Replaying>([&] { return valueOf(x, reg); }) ==
           valueOf(y, reg);
  }
  /// Whether `to`'s scalar written at `pc` is stepped (what the differing
  /// immediates reach of the scalars read is among them).
  bool stepsTo(size_t pc) const {
    return reach ? reach->stepped[pc] : read[pc];
  }
  /// Whether the values `from` reads at `pc` are compared: in a replay,
  /// those no differing immediate reaches are the same and are passed.
  bool compares(size_t pc) const { return !reach || reach->compared[pc]; }
  /// The steps of instructions [begin, end) into `compiled`, a loop's
  /// body after it; the instructions that neither step nor compare are
  /// passed (most compute addresses). The set_imm instructions
  /// `differing` read `to`'s immediate as they step. `stepped`: the
  /// registers stepped once.
  void compile(size_t begin, size_t end, llvm::ArrayRef<size_t> differing,
               llvm::BitVector &stepped, ReadTrace::Compiled &into);
  void compile(llvm::ArrayRef<size_t> differing) {
    llvm::BitVector stepped(from.numSRegs);
    compile(0, from.insts.size(), differing, stepped,
            replaying ? reach->compiled : own);
  }
  /// walk and loop, compiled for a replay and for a first comparison
  /// (Replaying is `replaying`).
  template <bool Replaying> bool walk(size_t begin, size_t end);
  template <bool Replaying> bool loop(const Step &s, size_t at);
  /// In a replay, the trips of the loop at step `stepAt` (the `entered`-th
  /// loop entered) that read what the record holds, decided at once from
  /// the ranges of the body's scalars over all `trips` (BodyRanges): all
  /// but the last, the record's place moved to the last (0: none decided,
  /// each trip stepped).
  int64_t rangedTrips(const Step &s, size_t stepAt, size_t entered,
                      int64_t trips, bool steppedTo);
  /// The value an index read gives (the walk's: the next even number,
  /// modulo its bound).
  void readIndex(const Step &s) {
    const Inst &p = from.insts[s.pc], &q = to.insts[s.pc];
    int64_t value = 2 * indexReads++;
    if (y[q.d] && *y[q.d] > 0)
      value %= *y[q.d];
    x[p.a] = y[q.a] = value;
  }

  const UnitProgram &from, &to;
  /// The scalar definitions that may reach what the walk reads: the others
  /// are not stepped.
  const std::vector<bool> &read;
  std::vector<KnownScalar> x, y;
  /// The steps walked: this comparison's own, or its reach's.
  ReadTrace::Compiled own;
  const ReadTrace::Compiled *compiled;
  /// The trips of the loops whose bounds are constants (their registers
  /// may not be stepped), -1 for the others.
  std::vector<double> &countedTrips;
  /// The loops of the first comparison; in a replay, the next one entered.
  std::vector<ReadTrace::Loop> &loops;
  size_t nextLoop = 0;
  /// In a replay, what the differing immediates reach.
  ReadTrace::Reach *reach = nullptr;
  double iterationsWalked = 0;
  int64_t indexReads = 0;
  /// What `from` reads, in order; whether it is replayed rather than
  /// stepped, and where.
  ReadTrace &fromReads;
  bool replaying;
  size_t at = 0;
  BodyRanges bodyRanges;
};
} // namespace

void Lockstep::compile(size_t begin, size_t end,
                       llvm::ArrayRef<size_t> differing,
                       llvm::BitVector &stepped, ReadTrace::Compiled &into) {
  std::vector<Step> &code = into.code;
  for (size_t pc = begin; pc < end; ++pc) {
    const Inst &p = from.insts[pc];
    Step s;
    s.pc = static_cast<uint32_t>(pc);
    switch (p.op) {
    case Opcode::Halt:
      break;
    case Opcode::SetImm:
    case Opcode::MovS:
    case Opcode::SelectS:
    case Opcode::Alu:
      // In the first comparison both are stepped, in a replay `to` alone.
      if (!read[pc] || !stepsTo(pc))
        continue;
      // A register of one value wherever it is read, from registers of
      // one value: stepped here once rather than in every trip (set_imm,
      // and what is computed from set_imm alone, are two thirds of what
      // rope_163840x128's lanes step).
      if (p.a < stepped.size() && fromReads.definedBeforeUse[p.a] &&
          llvm::all_of(
              scalarSources(p),
              [&](uint32_t reg) {
                return reg < stepped.size() && stepped[reg];
              })) {
        into.once.push_back(pc);
        stepped.set(p.a);
        continue;
      }
      if (p.op == Opcode::SetImm)
        s.kind =
            llvm::is_contained(differing, pc) ? Step::SetImmOfTo : Step::SetImm;
      else
        s.kind = p.op == Opcode::MovS  ? Step::MovS
                 : p.op == Opcode::Alu ? Step::Alu
                                       : Step::SelectS;
      s.stepsFrom = !replaying;
      s.x = p.a, s.y = p.b, s.z = p.c, s.w = p.d, s.imm = p.imm,
      s.count = p.sub;
      break;
    case Opcode::LoopBegin: {
      s.kind = Step::Loop;
      size_t at = code.size();
      code.push_back(s);
      compile(pc + 1, p.e, differing, stepped, into);
      code[at].bodyEnd = static_cast<uint32_t>(code.size());
      pc = p.e;
      continue;
    }
    case Opcode::ReadIndex:
      s.kind = compares(pc) ? Step::ReadIndex : Step::PassIndex;
      break;
    case Opcode::Load:
    case Opcode::Store:
      s.kind = compares(pc) ? Step::Compare : Step::Pass;
      s.count = 1, s.x = p.d;
      break;
    case Opcode::Dma:
    case Opcode::RemoteDma:
      s.kind = compares(pc) ? Step::Compare : Step::Pass;
      s.count = hasPlanes(p) ? 3 : 2, s.x = p.e, s.y = p.f;
      if (hasPlanes(p))
        s.z = p.i;
      break;
    case Opcode::Fill:
      s.kind = compares(pc) ? Step::Compare : Step::Pass;
      s.count = 2, s.x = p.c, s.y = p.d;
      break;
    default:
      continue;
    }
    code.push_back(s);
  }
}

template <bool Replaying> bool Lockstep::loop(const Step &s, size_t stepAt) {
  size_t pc = s.pc;
  const Inst &p = from.insts[pc], &q = to.insts[pc];
  // Where the first comparison's record of this loop goes, or in a
  // replay the record read.
  size_t entered = nextLoop;
  if (!Replaying)
    loops.emplace_back();
  else if (entered == loops.size())
    return false;
  ++nextLoop;
  double trips = countedTrips[pc];
  if (trips < 0) {
    std::optional<int64_t> fromTrips = fromRead<Replaying>([&] {
      return static_cast<int64_t>(
          ProgramWalker::tripsOf(x[p.b], x[p.c], x[p.d]));
    });
    if (!fromTrips)
      return false;
    if (!compares(pc)) {
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
    if (stepAt + 1 == s.bodyEnd)
      trips = 0;
    if (stepped && fromRead<Replaying>([&] { return x[p.b] && x[p.d]; }) != 1)
      return false;
    if (steppedTo && (!y[q.b] || !y[q.d]))
      return false;
    // Trips that read one value at each read, as the record's trips do,
    // are decided at once (a loop over a lane's rows, each clamped to the
    // view's), the last stepped for the registers it leaves.
    int64_t decided = 0;
    if (Replaying && trips >= kRangedFrom)
      decided = rangedTrips(s, stepAt, entered, static_cast<int64_t>(trips),
                            steppedTo);
    for (int64_t i = decided; i < static_cast<int64_t>(trips); ++i) {
      if (stepped && !Replaying)
        x[p.a] = *x[p.b] + i * *x[p.d];
      if (steppedTo)
        y[q.a] = *y[q.b] + i * *y[q.d];
      if (!walk<Replaying>(stepAt + 1, s.bodyEnd))
        return false;
    }
  } else {
    x[p.a] = x[p.b];
    y[q.a] = y[q.b];
    if (trips > 0 && !walk<Replaying>(stepAt + 1, s.bodyEnd))
      return false;
  }
  x[p.a] = std::nullopt;
  y[q.a] = std::nullopt;
  if (!Replaying)
    loops[entered] = {fromReads.values.size(), loops.size(), iterationsWalked,
                      indexReads};
  return true;
}

int64_t Lockstep::rangedTrips(const Step &s, size_t stepAt, size_t entered,
                              int64_t trips, bool steppedTo) {
  std::vector<int8_t> &balance = reach->rangedBalance;
  if (balance.empty())
    balance.assign(to.insts.size(), 0);
  int8_t &tried = balance[s.pc];
  if (tried <= ReadTrace::Reach::kRangedGivenUp)
    return 0;
  // The ranges over all trips but the last (a loop that loads the next
  // trip's data ahead reads less in its last): its register over them,
  // where stepped (else as it is).
  int64_t ranged = trips - 1;
  const Inst &q = to.insts[s.pc];
  ScalarRange loopRange = ScalarRange::of(y[q.a]);
  if (steppedTo) {
    int64_t last;
    if (__builtin_mul_overflow(ranged - 1, *y[q.d], &last) ||
        __builtin_add_overflow(*y[q.b], last, &last))
      return 0;
    loopRange =
        ScalarRange::between(std::min(*y[q.b], last), std::max(*y[q.b], last));
  }
  BodyRanges::Recorded recorded{fromReads.values, loops,     at, entered + 1,
                                iterationsWalked, indexReads};
  BodyRanges::Result result =
      bodyRanges.evaluate(compiled->code, stepAt + 1, s.bodyEnd, to.insts, y,
                          q.a, loopRange, countedTrips, reach, read, recorded);
  if (fromReads.tripsAlike.empty())
    fromReads.tripsAlike.resize(loops.size());
  if (result != BodyRanges::Evaluated ||
      !bodyRanges.holds(recorded, ranged, fromReads.tripsAlike[entered])) {
    tried = result == BodyRanges::Never ? INT8_MIN : tried - 1;
    return 0;
  }
  // Those but the last two decided: the replay reads the record on from
  // there, as stepping them would have left it, and steps the
  // next-to-last, which writes each register the others write (their inner
  // loops run as many trips), as they leave it for the last (which may
  // not: the load ahead).
  int64_t decided = ranged - 1;
  tried = std::min<int8_t>(tried + 1, INT8_MAX - 1);
  ++fromReads.rangedLoops;
  at += decided * bodyRanges.slots().size();
  nextLoop = entered + 1 + decided * bodyRanges.loopsPerTrip();
  iterationsWalked += decided * bodyRanges.iterationsPerTrip();
  return decided;
}

template <bool Replaying> bool Lockstep::walk(size_t begin, size_t end) {
  const std::vector<Step> &code = compiled->code;
  for (size_t i = begin; i < end; ++i) {
    const Step &s = code[i];
    // A scalar step of the first comparison steps `from` too (here, not by
    // stepKnownScalar: its call per step was most of the first
    // comparison's time).
    bool both = !Replaying && s.stepsFrom;
    switch (s.kind) {
    case Step::Halt:
      return true;
    case Step::SetImm:
      if (both)
        x[s.x] = s.imm;
      y[s.x] = s.imm;
      break;
    case Step::SetImmOfTo:
      if (both)
        x[s.x] = s.imm;
      y[s.x] = to.insts[s.pc].imm;
      break;
    case Step::MovS:
      if (both)
        x[s.x] = x[s.y];
      y[s.x] = y[s.y];
      break;
    case Step::Alu:
      if (both)
        stepAlu(s, x);
      stepAlu(s, y);
      break;
    case Step::SelectS:
      if (both)
        stepSelect(s, x);
      stepSelect(s, y);
      break;
    case Step::Loop:
      if (!loop<Replaying>(s, i))
        return false;
      i = s.bodyEnd - 1;
      break;
    case Step::ReadIndex: {
      const Inst &p = from.insts[s.pc], &q = to.insts[s.pc];
      if (fromRead<Replaying>([&] { return x[p.d].has_value(); }) !=
              int64_t(y[q.d].has_value()) ||
          fromRead<Replaying>([&] { return x[p.d].value_or(0); }) !=
              y[q.d].value_or(0))
        return false;
      readIndex(s);
      break;
    }
    case Step::PassIndex:
      at = std::min(at + 2, fromReads.values.size());
      readIndex(s);
      break;
    case Step::Pass:
      at = std::min(at + s.count, fromReads.values.size());
      break;
    case Step::Compare:
      if (!sameValue<Replaying>(s.x) ||
          (s.count > 1 && !sameValue<Replaying>(s.y)) ||
          (s.count > 2 && !sameValue<Replaying>(s.z)))
        return false;
      break;
    }
  }
  return true;
}

bool detail::sameCostOperands(const UnitProgram &from, const UnitProgram &to,
                              const std::vector<bool> &read,
                              llvm::ArrayRef<size_t> counted,
                              llvm::ArrayRef<double> trips,
                              llvm::ArrayRef<size_t> differing,
                              ReadTrace &fromReads) {
  Lockstep lockstep(from, to, read, counted, trips, differing, fromReads);
  bool same = lockstep.walk(0, lockstep.size());
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

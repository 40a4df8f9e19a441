//===- TripRanges.cpp - A loop body's reads over all its trips ------------===//
//
// This file implements ScalarRange's operations and BodyRanges
// (TripRanges.h). A range is exact where it is one value: every operation
// on one value is evaluated as the lockstep check steps it; on wider ranges
// only the operations whose result is bounded by their operands' ends and
// cannot fail (overflow, division by zero) anywhere between them give a
// range, the others anything.
//
//===----------------------------------------------------------------------===//

#include "TripRanges.h"
#include "ScalarSteps.h"

#include <algorithm>

using namespace ktflow::machine;
using namespace ktflow::machine::detail;

namespace {
using Range = ScalarRange;

Range anything() { return Range{Range::Any}; }

/// [lo, hi] where both ends were found without overflow.
Range boundedBy(bool ok, int64_t lo, int64_t hi) {
  return ok ? Range::between(lo, hi) : anything();
}

/// A comparison's result: 1 where `always`, 0 where `never`, else either.
Range decided(bool always, bool never) {
  if (always)
    return Range::between(1, 1);
  return never ? Range::between(0, 0) : Range::between(0, 1);
}

/// `op` on ranges of known values, neither of one value.
Range knownAlu(AluOp op, Range b, Range c) {
  switch (op) {
  case AluOp::Add: {
    int64_t lo = 0, hi = 0;
    bool ok = !__builtin_add_overflow(b.lo, c.lo, &lo) &&
              !__builtin_add_overflow(b.hi, c.hi, &hi);
    return boundedBy(ok, lo, hi);
  }
  case AluOp::Sub: {
    int64_t lo = 0, hi = 0;
    bool ok = !__builtin_sub_overflow(b.lo, c.hi, &lo) &&
              !__builtin_sub_overflow(b.hi, c.lo, &hi);
    return boundedBy(ok, lo, hi);
  }
  case AluOp::Mul: {
    // Bilinear: its extremes are at the corners.
    int64_t corners[4];
    bool ok = !__builtin_mul_overflow(b.lo, c.lo, &corners[0]) &&
              !__builtin_mul_overflow(b.lo, c.hi, &corners[1]) &&
              !__builtin_mul_overflow(b.hi, c.lo, &corners[2]) &&
              !__builtin_mul_overflow(b.hi, c.hi, &corners[3]);
    return boundedBy(ok, *std::min_element(corners, corners + 4),
                     *std::max_element(corners, corners + 4));
  }
  case AluOp::DivS:
  case AluOp::CeilDivS:
  case AluOp::FloorDivS: {
    // By one positive value: non-decreasing in the dividend.
    if (c.lo != c.hi || c.lo <= 0)
      return anything();
    int64_t lo = 0, hi = 0;
    bool ok = evaluateAluInline(op, b.lo, c.lo, lo) &&
              evaluateAluInline(op, b.hi, c.lo, hi);
    return boundedBy(ok, lo, hi);
  }
  case AluOp::RemS:
    // Of non-negative values by one positive value: the dividend's range
    // shifted where it stays within one multiple, else any remainder.
    if (c.lo != c.hi || c.lo <= 0 || b.lo < 0)
      return anything();
    if (b.lo / c.lo == b.hi / c.lo)
      return Range::between(b.lo % c.lo, b.hi % c.lo);
    return Range::between(0, c.lo - 1);
  case AluOp::MinU:
  case AluOp::MaxU:
    // Unsigned is signed on non-negative values.
    if (b.lo < 0 || c.lo < 0)
      return anything();
    return knownAlu(op == AluOp::MinU ? AluOp::MinS : AluOp::MaxS, b, c);
  case AluOp::MinS:
    return Range::between(std::min(b.lo, c.lo), std::min(b.hi, c.hi));
  case AluOp::MaxS:
    return Range::between(std::max(b.lo, c.lo), std::max(b.hi, c.hi));
  case AluOp::Eq:
  case AluOp::Ne: {
    bool disjoint = b.hi < c.lo || c.hi < b.lo;
    return op == AluOp::Eq ? decided(false, disjoint)
                           : decided(disjoint, false);
  }
  case AluOp::Slt:
    return decided(b.hi < c.lo, b.lo >= c.hi);
  case AluOp::Sle:
    return decided(b.hi <= c.lo, b.lo > c.hi);
  case AluOp::Sgt:
    return decided(b.lo > c.hi, b.hi <= c.lo);
  case AluOp::Sge:
    return decided(b.lo >= c.hi, b.hi < c.lo);
  case AluOp::Ult:
  case AluOp::Ule:
  case AluOp::Ugt:
  case AluOp::Uge: {
    // Unsigned is signed on non-negative values; else 0 or 1.
    if (b.lo < 0 || c.lo < 0)
      return Range::between(0, 1);
    AluOp signedOp = op == AluOp::Ult   ? AluOp::Slt
                     : op == AluOp::Ule ? AluOp::Sle
                     : op == AluOp::Ugt ? AluOp::Sgt
                                        : AluOp::Sge;
    return knownAlu(signedOp, b, c);
  }
  default:
    return anything();
  }
}
} // namespace

ScalarRange detail::aluRange(AluOp op, ScalarRange b, ScalarRange c) {
  // As the lockstep check steps it: unknown where an operand is.
  if (b.kind == Range::Unknown || c.kind == Range::Unknown)
    return Range{Range::Unknown};
  if (b.kind == Range::Any || c.kind == Range::Any)
    return anything();
  if (b.lo == b.hi && c.lo == c.hi) {
    int64_t r;
    return evaluateAluInline(op, b.lo, c.lo, r) ? Range::between(r, r)
                                                : Range{Range::Unknown};
  }
  return knownAlu(op, b, c);
}

/// Either of `a` and `b`.
static ScalarRange join(ScalarRange a, ScalarRange b) {
  if (a.kind == Range::Unknown && b.kind == Range::Unknown)
    return a;
  if (a.kind != Range::Known || b.kind != Range::Known)
    return anything();
  return Range::between(std::min(a.lo, b.lo), std::max(a.hi, b.hi));
}

ScalarRange detail::selectRange(ScalarRange cond, ScalarRange t,
                                ScalarRange f) {
  if (cond.kind != Range::Known)
    return cond;
  if (cond.lo > 0 || cond.hi < 0)
    return t;
  if (cond.lo == 0 && cond.hi == 0)
    return f;
  return join(t, f);
}

std::optional<ScalarRange> BodyRanges::read(uint32_t reg) const {
  if (reg >= state.size())
    return std::nullopt;
  switch (state[reg]) {
  case 1:
    return std::nullopt;
  case 2:
    return ranges[reg];
  default:
    return Range::of((*regs)[reg]);
  }
}

void BodyRanges::write(uint32_t reg, ScalarRange range) {
  if (state[reg] == 0)
    marked.push_back(reg);
  state[reg] = 2;
  ranges[reg] = range;
}

BodyRanges::Result BodyRanges::evaluate(
    llvm::ArrayRef<ReadTrace::Step> code, size_t begin, size_t end,
    const std::vector<Inst> &to, const std::vector<KnownScalar> &regs,
    uint32_t loopReg, ScalarRange loopRange,
    llvm::ArrayRef<double> countedTrips, const ReadTrace::Reach *reach,
    const std::vector<bool> &walkedRead, const Recorded &recorded) {
  this->to = &to;
  this->regs = &regs;
  this->countedTrips = countedTrips;
  this->reach = reach;
  records = recorded.loops;
  start = recorded.start;
  firstTrip = recorded.values.drop_front(start);
  firstLoop = recorded.firstLoop;
  iterationsBefore = recorded.iterationsWalked;
  indexReads = recorded.indexReads;
  skipped.clear();
  this->walkedRead = &walkedRead;
  perTrip.clear();
  loops = 0;
  iterations = 0;
  for (uint32_t reg : marked)
    state[reg] = 0;
  marked.clear();
  if (state.size() != regs.size()) {
    state.assign(regs.size(), 0);
    ranges.assign(regs.size(), Range());
  }
  // The registers the body writes: read before their write in a trip, they
  // hold the previous trip's value, which no range here follows.
  markWritten(code, begin, end);
  if (loopReg < state.size())
    write(loopReg, loopRange);
  return body(code, begin, end);
}

BodyRanges::Result BodyRanges::body(llvm::ArrayRef<ReadTrace::Step> code,
                                    size_t begin, size_t end) {
  using Step = ReadTrace::Step;
  for (size_t i = begin; i < end; ++i) {
    const Step &s = code[i];
    switch (s.kind) {
    case Step::SetImm:
    case Step::SetImmOfTo: {
      int64_t imm = s.kind == Step::SetImm ? s.imm : (*to)[s.pc].imm;
      write(s.x, Range::between(imm, imm));
      break;
    }
    case Step::MovS: {
      std::optional<Range> source = read(s.y);
      if (!source)
        return Never;
      write(s.x, *source);
      break;
    }
    case Step::Alu: {
      std::optional<Range> b = read(s.y), c = read(s.z);
      if (!b || !c)
        return Never;
      write(s.x, aluRange(static_cast<AluOp>(s.count), *b, *c));
      break;
    }
    case Step::SelectS: {
      std::optional<Range> cond = read(s.y), t = read(s.z), f = read(s.w);
      if (!cond || !t || !f)
        return Never;
      write(s.x, selectRange(*cond, *t, *f));
      break;
    }
    case Step::Compare: {
      const uint32_t operands[] = {s.x, s.y, s.z};
      for (uint32_t reg : llvm::ArrayRef(operands).take_front(s.count)) {
        std::optional<Range> value =
            reg == kNoReg ? Range::between(0, 0) : read(reg);
        if (!value)
          return Never;
        if (!value->single())
          return NotSingle;
        perTrip.push_back({Slot::Equal, value->read()});
      }
      break;
    }
    case Step::Pass:
      perTrip.insert(perTrip.end(), s.count, Slot{Slot::Passed});
      break;
    case Step::Loop:
      if (Result inner = innerLoop(code, i); inner != Evaluated)
        return inner;
      i = s.bodyEnd - 1;
      break;
    default:
      // Index reads (each reads another value) and halts.
      return Never;
    }
  }
  return Evaluated;
}

BodyRanges::Result BodyRanges::innerLoop(llvm::ArrayRef<ReadTrace::Step> code,
                                         size_t at) {
  // As the lockstep check's loop: its trips, where not constants, a value
  // the record holds (the walked lane's, where no differing immediate
  // reaches them).
  const ReadTrace::Step &s = code[at];
  const Inst &q = (*to)[s.pc];
  ++loops;
  double trips = countedTrips[s.pc];
  if (trips < 0 && reach && !reach->compared[s.pc]) {
    if (perTrip.size() >= firstTrip.size())
      return NotSingle;
    // (Where the loop is skipped, to its record's end, they are passed.)
    int64_t recorded = firstTrip[perTrip.size()];
    trips = static_cast<double>(recorded);
    perTrip.push_back(
        {reach->skipped[s.pc] ? Slot::Passed : Slot::Equal, recorded});
  } else if (trips < 0) {
    std::optional<Range> lb = read(q.b), ub = read(q.c), step = read(q.d);
    if (!lb || !ub || !step)
      return Never;
    if (!lb->single() || !ub->single() || !step->single())
      return NotSingle;
    trips = ProgramWalker::tripsOf(lb->known(), ub->known(), step->known());
    perTrip.push_back({Slot::Equal, static_cast<int64_t>(trips)});
  }
  if (reach && reach->skipped[s.pc])
    return skippedLoop(q);
  if (trips <= 1 || trips > ProgramWalker::kWalkEach) {
    // Walked once, its register its start (a masked tile's fill, of one
    // trip or none).
    std::optional<Range> start = read(q.b);
    if (!start)
      return Never;
    write(q.a, *start);
    if (trips > 0)
      if (Result inner = body(code, at + 1, s.bodyEnd); inner != Evaluated)
        return inner;
    write(q.a, Range{Range::Unknown});
    return Evaluated;
  }
  // Walked trip by trip (the caller checks that the walk's budget holds
  // for every one): the record holds whether the walked lane's bounds were
  // known, then each trip's values, which are the ranges' over all trips.
  iterations += trips;
  if ((*walkedRead)[s.pc])
    perTrip.push_back({Slot::Equal, 1});
  if (at + 1 == s.bodyEnd) {
    write(q.a, Range{Range::Unknown});
    return Evaluated;
  }
  Range each = anything();
  if (!reach || reach->stepped[s.pc]) {
    std::optional<Range> lb = read(q.b), step = read(q.d);
    if (!lb || !step)
      return Never;
    if (lb->kind != Range::Known || step->kind != Range::Known)
      return NotSingle;
    each = aluRange(AluOp::Add, *lb,
                    aluRange(AluOp::Mul,
                             Range::between(0, static_cast<int64_t>(trips) - 1),
                             *step));
  }
  // What the body writes holds another trip's value where read before its
  // write.
  markWritten(code, at + 1, s.bodyEnd);
  write(q.a, each);
  size_t slotsBefore = perTrip.size(), loopsBefore = loops;
  double iterationsBefore = iterations;
  bool outer = repeated;
  repeated = true;
  Result inner = body(code, at + 1, s.bodyEnd);
  repeated = outer;
  if (inner != Evaluated)
    return inner;
  size_t slotsEach = perTrip.size() - slotsBefore;
  perTrip.reserve(perTrip.size() + (trips - 1) * slotsEach);
  for (int64_t t = 1; t < static_cast<int64_t>(trips); ++t)
    for (size_t j = slotsBefore; j < slotsBefore + slotsEach; ++j)
      perTrip.push_back(perTrip[j]);
  loops += (trips - 1) * (loops - loopsBefore);
  iterations += (trips - 1) * (iterations - iterationsBefore);
  write(q.a, Range{Range::Unknown});
  return Evaluated;
}

BodyRanges::Result BodyRanges::skippedLoop(const Inst &q) {
  // As the lockstep check skips it: to its record's end, taking the walk's
  // count of iterations and index reads from there. The same in every trip
  // where the records of the trips say so (the caller checks: not inside
  // an inner loop's repeated trips).
  size_t index = firstLoop + loops - 1;
  size_t position = start + perTrip.size();
  if (repeated || index >= records.size())
    return Never;
  const ReadTrace::Loop &record = records[index];
  if (record.valuesEnd < position || record.loopsEnd < index + 1 ||
      record.indexReads != indexReads)
    return NotSingle;
  perTrip.insert(perTrip.end(), record.valuesEnd - position,
                 Slot{Slot::Passed});
  loops += record.loopsEnd - (index + 1);
  iterations = record.iterationsWalked - iterationsBefore;
  skipped.push_back(index);
  write(q.a, Range{Range::Unknown});
  return Evaluated;
}

void BodyRanges::markWritten(llvm::ArrayRef<ReadTrace::Step> code, size_t begin,
                             size_t end) {
  using Step = ReadTrace::Step;
  for (const Step &s : code.slice(begin, end - begin)) {
    bool scalar = s.kind == Step::SetImm || s.kind == Step::SetImmOfTo ||
                  s.kind == Step::MovS || s.kind == Step::Alu ||
                  s.kind == Step::SelectS;
    uint32_t reg = s.kind == Step::Loop ? (*to)[s.pc].a : scalar ? s.x : kNoReg;
    if (reg >= state.size())
      continue;
    if (state[reg] == 0)
      marked.push_back(reg);
    state[reg] = 1;
  }
}

/// Whether each of `trips` trips of `width` values from `start` of
/// `values` holds the first trip's.
static bool tripsAlike(llvm::ArrayRef<int64_t> values, size_t start,
                       int64_t trips, size_t width) {
  llvm::ArrayRef<int64_t> first = values.slice(start, width);
  for (int64_t t = 1; t < trips; ++t)
    if (values.slice(start + t * width, width) != first)
      return false;
  return true;
}

bool BodyRanges::holds(const Recorded &recorded, int64_t trips,
                       ReadTrace::Alike &alike) const {
  // Each trip reads as many values and enters as many loops, which the
  // record holds, and its inner loops are walked trip by trip in each: the
  // walk's budget holds at the last (so at each).
  size_t width = perTrip.size();
  if (recorded.start + trips * width > recorded.values.size() ||
      recorded.firstLoop + trips * loops > recorded.loops.size() ||
      recorded.iterationsWalked + trips * iterations >
          ProgramWalker::kWalkBudget)
    return false;
  // The loops each trip skips end as far after their trip as the first's.
  for (size_t first : skipped) {
    const ReadTrace::Loop &inFirst = recorded.loops[first];
    for (int64_t t = 1; t < trips; ++t) {
      const ReadTrace::Loop &later = recorded.loops[first + t * loops];
      if (later.valuesEnd != inFirst.valuesEnd + t * width ||
          later.loopsEnd != inFirst.loopsEnd + t * loops ||
          later.iterationsWalked != inFirst.iterationsWalked + t * iterations ||
          later.indexReads != inFirst.indexReads)
        return false;
    }
  }
  // Where the record's trips are alike, its first stands for them all.
  if (alike.width != width)
    alike = {width, tripsAlike(recorded.values, recorded.start, trips, width)};
  const int64_t *first = recorded.values.data() + recorded.start;
  for (int64_t t = 0; t < (alike.alike ? 1 : trips); ++t) {
    const int64_t *trip = first + t * width;
    for (size_t j = 0; j < width; ++j)
      if (perTrip[j].kind == Slot::Equal && trip[j] != perTrip[j].value)
        return false;
  }
  return true;
}

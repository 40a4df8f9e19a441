//===- TripRanges.h - A loop body's reads over all its trips ----*- C++ -*-===//
//
// The lockstep check (SameCostOperands.cpp) stepped a lane through every
// trip of each loop the walk takes trip by trip, to compare what each trip
// reads (a transfer's size, an inner loop's trips) with the walked lane's
// record: rope_163840x128's DMA engines on mesh_device, whose lane's first
// row reaches every size through the clamp of each tile to its view's rows,
// spent two thirds of their estimate there. Most such reads are one value in
// every trip (the clamp leaves a whole tile): this finds, from the range of
// each scalar over all of a loop's trips (its register's first to last
// value), what the body reads where that is one value, so that a loop is
// compared with the record once rather than stepped trip by trip.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_MACHINE_TRIPRANGES_H
#define KTFLOW_LIB_MACHINE_TRIPRANGES_H

#include "SameWalks.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <vector>

namespace ktflow::machine::detail {
/// What a scalar register holds over all the trips of a loop: unknown in
/// every trip, known in every trip and within [lo, hi], or anything.
struct ScalarRange {
  enum Kind : uint8_t { Unknown, Known, Any } kind = Any;
  int64_t lo = 0, hi = 0;

  static ScalarRange of(const KnownScalar &value) {
    return value ? between(*value, *value) : ScalarRange{Unknown};
  }
  static ScalarRange between(int64_t lo, int64_t hi) { return {Known, lo, hi}; }
  /// Whether it is one value (unknown counts as one) in every trip.
  bool single() const { return kind == Unknown || (kind == Known && lo == hi); }
  /// That value as the walk reads it (unknown as 0) and as a known scalar.
  int64_t read() const { return kind == Known ? lo : 0; }
  KnownScalar known() const {
    return kind == Known ? KnownScalar(lo) : KnownScalar();
  }
  bool operator==(const ScalarRange &other) const {
    return kind == other.kind &&
           (kind != Known || (lo == other.lo && hi == other.hi));
  }
};

/// The range of an alu instruction's result over operands in `b` and `c`,
/// as the lockstep check steps it (unknown where an operand is, or where
/// the operation fails): Any where it cannot be bounded so.
ScalarRange aluRange(AluOp op, ScalarRange b, ScalarRange c);
/// The range of a select_s's result (`cond` ? `t` : `f`).
ScalarRange selectRange(ScalarRange cond, ScalarRange t, ScalarRange f);

/// What the steps of a loop body read in each trip, found from the ranges
/// of its scalars over all the loop's trips.
class BodyRanges {
public:
  /// One value a trip reads, as the walked lane's record holds it: passed
  /// (not compared), or equal to `value` in every trip (compared, or an
  /// inner loop's trips that the record gives: its first trip's).
  struct Slot {
    enum Kind : uint8_t { Passed, Equal } kind;
    int64_t value = 0;
  };
  /// Why evaluate stopped: a range it could not narrow to one value (may
  /// go through for another lane or trip), or a body it cannot evaluate
  /// (an index read, a carried register, an inner loop of several trips:
  /// never goes through).
  enum Result : uint8_t { Evaluated, NotSingle, Never };

  /// What the walked lane's record holds and where the loop's first trip
  /// starts in it: at value `start` and loop `firstLoop` (its first inner
  /// loop's record), the walk's iterations and index reads then.
  struct Recorded {
    llvm::ArrayRef<int64_t> values;
    llvm::ArrayRef<ReadTrace::Loop> loops;
    size_t start, firstLoop;
    double iterationsWalked;
    int64_t indexReads;
  };

  /// What steps [begin, end) of `code` read in each trip of their loop,
  /// whose register `loopReg` takes values in `loopRange`; the others hold
  /// their values in `regs` (`to`'s, at the loop's entry). `to` is the
  /// lane's program, `countedTrips` and `reach` as the lockstep check has
  /// them (`walkedRead` its `read`).
  Result evaluate(llvm::ArrayRef<ReadTrace::Step> code, size_t begin,
                  size_t end, const std::vector<Inst> &to,
                  const std::vector<KnownScalar> &regs, uint32_t loopReg,
                  ScalarRange loopRange, llvm::ArrayRef<double> countedTrips,
                  const ReadTrace::Reach *reach,
                  const std::vector<bool> &walkedRead,
                  const Recorded &recorded);

  /// The values one trip reads, in order, the loops it enters and the
  /// iterations its inner loops walk trip by trip (which the walk's budget
  /// must hold in every trip for them to be walked so: the caller checks).
  llvm::ArrayRef<Slot> slots() const { return perTrip; }
  size_t loopsPerTrip() const { return loops; }
  double iterationsPerTrip() const { return iterations; }
  /// The records of the inner loops the first trip skips (none of their
  /// trips or body reached): each trip's must end as far after it.
  llvm::ArrayRef<size_t> skippedLoops() const { return skipped; }

  /// Whether `recorded` holds, for each of the first `trips` trips of the
  /// loop evaluated, what the evaluated trip reads, laid out as the
  /// lockstep check would read it (as many values and inner loops per
  /// trip, its inner loops walked trip by trip within the walk's budget).
  /// `alike` is the record's: whether its trips recorded the first's
  /// values, found once per width.
  bool holds(const Recorded &recorded, int64_t trips,
             ReadTrace::Alike &alike) const;

private:
  Result body(llvm::ArrayRef<ReadTrace::Step> code, size_t begin, size_t end);
  /// The inner loop at step `at` of `code`, and one the check skips (its
  /// register `q.a`).
  Result innerLoop(llvm::ArrayRef<ReadTrace::Step> code, size_t at);
  Result skippedLoop(const Inst &q);
  /// Marks the registers steps [begin, end) write as not yet written.
  void markWritten(llvm::ArrayRef<ReadTrace::Step> code, size_t begin,
                   size_t end);
  /// The range of `reg` where the body reads it, or none (a register the
  /// body writes, read before its first write: another trip's value).
  std::optional<ScalarRange> read(uint32_t reg) const;
  void write(uint32_t reg, ScalarRange range);

  std::vector<Slot> perTrip;
  size_t loops = 0;
  double iterations = 0;
  /// Per register: written by the body (1: not yet in this trip; 2: its
  /// range in `ranges`), and those marked, to clear.
  std::vector<uint8_t> state;
  std::vector<ScalarRange> ranges;
  std::vector<uint32_t> marked;
  const std::vector<Inst> *to = nullptr;
  const std::vector<KnownScalar> *regs = nullptr;
  llvm::ArrayRef<double> countedTrips;
  const ReadTrace::Reach *reach = nullptr;
  const std::vector<bool> *walkedRead = nullptr;
  llvm::ArrayRef<int64_t> firstTrip;
  llvm::ArrayRef<ReadTrace::Loop> records;
  size_t start = 0, firstLoop = 0;
  double iterationsBefore = 0;
  int64_t indexReads = 0;
  std::vector<size_t> skipped;
  /// Whether the steps evaluated are an inner loop's, repeated per trip.
  bool repeated = false;
};
} // namespace ktflow::machine::detail

#endif // KTFLOW_LIB_MACHINE_TRIPRANGES_H

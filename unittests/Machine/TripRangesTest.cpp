//===- TripRangesTest.cpp - A loop's trips decided at once ----------------===//
//
// This file checks the ranges of scalars over a loop's trips (TripRanges.h)
// and their use by the lockstep check (SameCostOperands.cpp): a replay
// decides a loop's trips at once where each read is one value in every
// trip and the walked lane's record holds that value in every trip, and
// steps the trips otherwise (a clamp that bites in some trips, a record
// whose trips differ, a register carried from the previous trip) with the
// answer of stepping them.
//
//===----------------------------------------------------------------------===//

#include "TestMachine.h"

#include "SameWalks.h"
#include "TripRanges.h"

#include "gtest/gtest.h"

using namespace ktflow::machine;
using namespace ktflow::machine::detail;
using namespace ktflow::machine::test;

namespace {

constexpr uint32_t DDR = 0, L1 = 1, DMA = 0;

ScalarRange range(int64_t lo, int64_t hi) {
  return ScalarRange::between(lo, hi);
}
const ScalarRange kUnknown{ScalarRange::Unknown};
const ScalarRange kAny{ScalarRange::Any};

TEST(TripRangesTest, AluRangesByHand) {
  EXPECT_EQ(aluRange(AluOp::Add, range(1, 4), range(10, 20)), range(11, 24));
  EXPECT_EQ(aluRange(AluOp::Sub, range(100, 100), range(3, 7)), range(93, 97));
  EXPECT_EQ(aluRange(AluOp::Mul, range(-2, 3), range(4, 5)), range(-10, 15));
  // The clamp of a tile to its view's rows: rows left min a block, max 0.
  ScalarRange left = aluRange(AluOp::Sub, range(1000, 1000), range(8, 15));
  EXPECT_EQ(aluRange(AluOp::MinS, left, range(4, 4)), range(4, 4));
  ScalarRange tail = aluRange(
      AluOp::MinS, aluRange(AluOp::Sub, range(1000, 1000), range(994, 1001)),
      range(4, 4));
  EXPECT_EQ(tail, range(-1, 4));
  EXPECT_EQ(aluRange(AluOp::MaxS, tail, range(0, 0)), range(0, 4));
  EXPECT_EQ(aluRange(AluOp::FloorDivS, range(-7, 9), range(4, 4)),
            range(-2, 2));
  EXPECT_EQ(aluRange(AluOp::CeilDivS, range(1, 9), range(4, 4)), range(1, 3));
  EXPECT_EQ(aluRange(AluOp::RemS, range(9, 11), range(4, 4)), range(1, 3));
  EXPECT_EQ(aluRange(AluOp::RemS, range(9, 13), range(4, 4)), range(0, 3));
  EXPECT_EQ(aluRange(AluOp::Slt, range(1, 3), range(4, 9)), range(1, 1));
  EXPECT_EQ(aluRange(AluOp::Sge, range(1, 3), range(4, 9)), range(0, 0));
  EXPECT_EQ(aluRange(AluOp::Sgt, range(1, 5), range(4, 9)), range(0, 1));
  EXPECT_EQ(aluRange(AluOp::Ne, range(1, 3), range(4, 9)), range(1, 1));
  // One value each: evaluated; failing there, unknown.
  EXPECT_EQ(aluRange(AluOp::DivS, range(7, 7), range(0, 0)), kUnknown);
  EXPECT_EQ(aluRange(AluOp::Shl, range(3, 3), range(2, 2)), range(12, 12));
  // An unknown operand: unknown in every trip, whatever the other.
  EXPECT_EQ(aluRange(AluOp::Add, kUnknown, kAny), kUnknown);
  // Wider ranges that may overflow, divide by a range or by zero, or of an
  // operation not bounded by its operands' ends: anything.
  EXPECT_EQ(aluRange(AluOp::Add, range(INT64_MAX - 1, INT64_MAX), range(0, 1)),
            kAny);
  EXPECT_EQ(aluRange(AluOp::Mul, range(1, INT64_MAX), range(1, 2)), kAny);
  EXPECT_EQ(aluRange(AluOp::DivS, range(1, 9), range(0, 2)), kAny);
  EXPECT_EQ(aluRange(AluOp::Shl, range(1, 2), range(2, 2)), kAny);
  EXPECT_EQ(aluRange(AluOp::Add, range(1, 2), kAny), kAny);
}

TEST(TripRangesTest, SelectRangesByHand) {
  EXPECT_EQ(selectRange(range(1, 5), range(7, 7), range(9, 9)), range(7, 7));
  EXPECT_EQ(selectRange(range(0, 0), range(7, 7), range(9, 9)), range(9, 9));
  EXPECT_EQ(selectRange(range(0, 1), range(7, 7), range(9, 9)), range(7, 9));
  EXPECT_EQ(selectRange(range(0, 1), range(7, 7), kUnknown), kAny);
  EXPECT_EQ(selectRange(kUnknown, range(7, 7), range(9, 9)), kUnknown);
}

Inst &alu(ProgramBuilder &b, AluOp op, uint32_t a, uint32_t x, uint32_t y) {
  Inst &in = b.emit(Opcode::Alu);
  in.sub = static_cast<uint8_t>(op);
  in.a = a, in.b = x, in.c = y;
  return in;
}

/// What a lane's program differs in and how its body reads its sizes.
struct LaneShape {
  int64_t firstRow = 0, totalRows = 1000;
  /// The rows a masked tile leaves out filled, in a loop of one trip or
  /// none (as the DMA unit fills a masked load's buffer).
  bool fill = false;
  /// The DMA reads the size the previous trip computed (carried).
  bool carried = false;
};

/// A lane's DMA engine: eight trips over rows [firstRow, firstRow + 8),
/// each a DMA of its row's block of 4 rows clamped to the view's
/// `totalRows` (max(min(total - row, 4), 0) rows of 64 bytes).
UnitProgram lane(const LaneShape &shape, size_t *loopAt = nullptr) {
  ProgramBuilder b(DMA);
  uint32_t first = b.imm(shape.firstRow), last = b.imm(shape.firstRow + 8),
           one = b.imm(1), total = b.imm(shape.totalRows), block = b.imm(4),
           zero = b.imm(0), width = b.imm(64), row = b.sreg(), left = b.sreg(),
           rows = b.sreg(), bytes = b.sreg();
  Inst &loop = b.emit(Opcode::LoopBegin);
  loop.a = row, loop.b = first, loop.c = last, loop.d = one;
  size_t at = b.p.insts.size() - 1;
  auto dma = [&] {
    Inst &in = b.emit(Opcode::Dma);
    in.a = DDR, in.b = zero, in.c = L1, in.d = zero, in.e = bytes;
    in.f = in.g = in.h = kNoReg;
  };
  if (shape.carried)
    dma();
  alu(b, AluOp::Sub, left, total, row);
  alu(b, AluOp::MinS, rows, left, block);
  alu(b, AluOp::MaxS, rows, rows, zero);
  alu(b, AluOp::Mul, bytes, rows, width);
  if (!shape.carried)
    dma();
  if (shape.fill) {
    uint32_t missing = b.sreg(), any = b.sreg(), fillTrips = b.sreg(),
             fillBytes = b.sreg(), fillRow = b.sreg();
    alu(b, AluOp::Sub, missing, block, rows);
    alu(b, AluOp::Sgt, any, missing, zero);
    Inst &select = b.emit(Opcode::SelectS);
    select.a = fillTrips, select.b = any, select.c = one, select.d = zero;
    Inst &inner = b.emit(Opcode::LoopBegin);
    inner.a = fillRow, inner.b = zero, inner.c = fillTrips, inner.d = one;
    size_t innerAt = b.p.insts.size() - 1;
    alu(b, AluOp::Mul, fillBytes, missing, width);
    Inst &fill = b.emit(Opcode::Fill);
    fill.a = L1, fill.b = zero, fill.c = fillBytes, fill.d = one;
    b.loopEnd(innerAt);
  }
  b.loopEnd(at);
  b.emit(Opcode::Halt);
  if (loopAt)
    *loopAt = at;
  return b.p;
}

UnitProgram lane(int64_t firstRow, int64_t totalRows = 1000) {
  LaneShape shape;
  shape.firstRow = firstRow, shape.totalRows = totalRows;
  return lane(shape);
}

/// The comparisons of lanes with a walked one, as SameWalks makes them:
/// the first records what the walked lane reads, the next replay it.
struct Comparisons {
  explicit Comparisons(UnitProgram program) : walked(std::move(program)) {
    Constants constants(walked);
    for (auto [pc, in] : llvm::enumerate(walked.insts))
      if (in.op == Opcode::LoopBegin && constants.counts(pc)) {
        counted.push_back(pc);
        trips.push_back(constants.tripsAt(pc));
      }
    read = definitionsRead(walked, counted);
  }
  bool operator()(const UnitProgram &other) {
    std::vector<size_t> differing;
    for (size_t pc = 0; pc < walked.insts.size(); ++pc)
      if (walked.insts[pc].imm != other.insts[pc].imm && read[pc])
        differing.push_back(pc);
    return sameCostOperands(walked, other, read, counted, trips, differing,
                            trace);
  }
  UnitProgram walked;
  std::vector<size_t> counted;
  std::vector<double> trips;
  std::vector<bool> read;
  ReadTrace trace;
};

TEST(TripRangesTest, WholeBlocksAreDecidedAtOnce) {
  // Lanes far from the view's end: every trip a whole block. The first
  // comparison steps its trips (it records them); each replay decides the
  // loop at once.
  Comparisons same(lane(0));
  EXPECT_TRUE(same(lane(8)));
  EXPECT_EQ(same.trace.rangedLoops, 0u);
  EXPECT_TRUE(same(lane(16)));
  EXPECT_TRUE(same(lane(400)));
  EXPECT_EQ(same.trace.rangedLoops, 2u);
  // A lane whose last block is clamped (rows 994 to 1001 of 1000): its
  // ranges are not one value, its trips are stepped, and it reads less.
  EXPECT_FALSE(same(lane(994)));
  EXPECT_EQ(same.trace.rangedLoops, 2u);
  // The loop is still tried for the next lanes.
  EXPECT_TRUE(same(lane(24)));
  EXPECT_EQ(same.trace.rangedLoops, 3u);
}

TEST(TripRangesTest, RecordOfOtherTripsIsNotTaken) {
  // The walked lane's last blocks are clamped (rows 995 to 1002 of 1000:
  // 4, 4, 3, 2, 1, 0, 0, 0 rows), and so are a lane's of another view
  // ending as far after its rows. A lane of whole blocks reads one value
  // in every trip, but the record does not: it is not the walked lane's
  // copy.
  Comparisons same(lane(995));
  EXPECT_TRUE(same(lane(1995, 2000)));
  EXPECT_FALSE(same(lane(0)));
  EXPECT_TRUE(same(lane(2995, 3000)));
  EXPECT_FALSE(same(lane(2996, 3000)));
  EXPECT_EQ(same.trace.rangedLoops, 0u);
}

TEST(TripRangesTest, FillOfNoTripInEveryTripIsDecided) {
  // Whole blocks fill nothing: the inner loop has no trip in every trip,
  // and the loop around it is decided at once; a lane with clamped blocks
  // fills, and is stepped.
  auto fillLane = [](int64_t firstRow) {
    LaneShape shape;
    shape.firstRow = firstRow, shape.fill = true;
    return lane(shape);
  };
  Comparisons same(fillLane(0));
  EXPECT_TRUE(same(fillLane(8)));
  EXPECT_TRUE(same(fillLane(16)));
  EXPECT_EQ(same.trace.rangedLoops, 1u);
  EXPECT_FALSE(same(fillLane(994)));
  EXPECT_TRUE(same(fillLane(32)));
  EXPECT_EQ(same.trace.rangedLoops, 2u);
}

TEST(TripRangesTest, CarriedRegisterIsStepped) {
  // The DMA reads the size the previous trip computed (unknown in the
  // first): not a range over the trips, so the trips are stepped (and the
  // loop no longer tried), with stepping's answers.
  auto carriedLane = [](int64_t firstRow) {
    LaneShape shape;
    shape.firstRow = firstRow, shape.carried = true;
    return lane(shape);
  };
  size_t loopAt = 0;
  LaneShape walked;
  walked.carried = true;
  Comparisons same(lane(walked, &loopAt));
  EXPECT_TRUE(same(carriedLane(8)));
  EXPECT_TRUE(same(carriedLane(16)));
  EXPECT_FALSE(same(carriedLane(995)));
  EXPECT_TRUE(same(carriedLane(24)));
  EXPECT_EQ(same.trace.rangedLoops, 0u);
  ASSERT_EQ(same.trace.reaches.size(), 1u);
  const ReadTrace::Reach &reach = same.trace.reaches.begin()->second;
  EXPECT_EQ(reach.rangedBalance[loopAt], INT8_MIN);
}

/// A lane's engine over six heads from `firstHead` of eight row blocks
/// each, as rope's engines run: each trip waits (an inner loop the lane's
/// heads do not reach: skipped by the record) for a buffer from its second
/// trip on, loads the next head's table ahead where there is one (none in
/// the last trip), and loads its eight blocks of 4 rows clamped to the
/// view's 1000 rows, each in a loop of its own (walked trip by trip).
UnitProgram headsLane(int64_t firstHead, size_t *headLoop = nullptr) {
  ProgramBuilder b(DMA);
  uint32_t first = b.imm(firstHead), last = b.imm(firstHead + 6),
           one = b.imm(1), zero = b.imm(0), total = b.imm(1000),
           four = b.imm(4), width = b.imm(64), headRows = b.imm(32),
           waited = b.imm(0), head = b.sreg();
  Inst &loop = b.emit(Opcode::LoopBegin);
  loop.a = head, loop.b = first, loop.c = last, loop.d = one;
  size_t at = b.p.insts.size() - 1;
  auto dmaOf = [&](uint32_t bytes) {
    Inst &in = b.emit(Opcode::Dma);
    in.a = DDR, in.b = zero, in.c = L1, in.d = zero, in.e = bytes;
    in.f = in.g = in.h = kNoReg;
  };
  auto loopTo = [&](uint32_t trips) {
    uint32_t reg = b.sreg();
    Inst &in = b.emit(Opcode::LoopBegin);
    in.a = reg, in.b = zero, in.c = trips, in.d = one;
    return b.p.insts.size() - 1;
  };
  // The wait: a loop of (waited >= 1) trips, waited counting the trips.
  uint32_t again = b.sreg(), waits = b.sreg();
  alu(b, AluOp::Sge, again, waited, one);
  Inst &select = b.emit(Opcode::SelectS);
  select.a = waits, select.b = again, select.c = one, select.d = zero;
  size_t wait = loopTo(waits);
  b.emit(Opcode::SyncRecv);
  b.loopEnd(wait);
  alu(b, AluOp::Add, waited, waited, one);
  // The next head's table, ahead.
  uint32_t next = b.sreg(), more = b.sreg(), ahead = b.sreg();
  alu(b, AluOp::Add, next, head, one);
  alu(b, AluOp::Slt, more, next, last);
  Inst &pick = b.emit(Opcode::SelectS);
  pick.a = ahead, pick.b = more, pick.c = one, pick.d = zero;
  size_t table = loopTo(ahead);
  dmaOf(width);
  b.loopEnd(table);
  // The head's blocks.
  uint32_t firstRow = b.sreg(), block = b.sreg(), blockRow = b.sreg(),
           row = b.sreg(), left = b.sreg(), rows = b.sreg(), bytes = b.sreg();
  alu(b, AluOp::Mul, firstRow, head, headRows);
  uint32_t eight = b.imm(8);
  Inst &blocks = b.emit(Opcode::LoopBegin);
  blocks.a = block, blocks.b = zero, blocks.c = eight, blocks.d = one;
  size_t blocksAt = b.p.insts.size() - 1;
  alu(b, AluOp::Mul, blockRow, block, four);
  alu(b, AluOp::Add, row, firstRow, blockRow);
  alu(b, AluOp::Sub, left, total, row);
  alu(b, AluOp::MinS, rows, left, four);
  alu(b, AluOp::MaxS, rows, rows, zero);
  alu(b, AluOp::Mul, bytes, rows, width);
  dmaOf(bytes);
  b.loopEnd(blocksAt);
  b.loopEnd(at);
  b.emit(Opcode::Halt);
  if (headLoop)
    *headLoop = at;
  return b.p;
}

TEST(TripRangesTest, HeadsOfBlocksAreDecidedAtOnce) {
  // Heads 0-5 against 6-11, 12-17 and 24-29: their blocks are whole (rows
  // up to 959 of 1000). The replays decide the heads' loop at once but its
  // last two trips, whose inner loops (their blocks) are decided at once in
  // turn; the skipped waits' records end as far after each trip.
  size_t headLoop = 0;
  Comparisons same(headsLane(0, &headLoop));
  EXPECT_TRUE(same(headsLane(6)));
  EXPECT_EQ(same.trace.rangedLoops, 0u);
  EXPECT_TRUE(same(headsLane(12)));
  EXPECT_TRUE(same(headsLane(24)));
  EXPECT_EQ(same.trace.rangedLoops, 6u);
  ASSERT_EQ(same.trace.reaches.size(), 1u);
  EXPECT_EQ(same.trace.reaches.begin()->second.rangedBalance[headLoop], 2);
  // Heads 28-33 reach past the view's rows (row 1000 is head 31's block 2):
  // the heads' ranges are not one value, so their trips are stepped, the
  // blocks of heads 28-30 decided at once; head 31's are stepped and read
  // less.
  EXPECT_FALSE(same(headsLane(28)));
  EXPECT_EQ(same.trace.rangedLoops, 9u);
  // Heads 25-30 end at row 991: decided at once again.
  EXPECT_TRUE(same(headsLane(25)));
  EXPECT_EQ(same.trace.rangedLoops, 12u);
}

/// A lane's engine over six heads from `firstHead`, each loading the next
/// head's block ahead (none in the last trip) of bytes it computes there,
/// then, after the heads, a DMA of the last such size.
UnitProgram aheadLane(int64_t firstHead) {
  ProgramBuilder b(DMA);
  uint32_t first = b.imm(firstHead), last = b.imm(firstHead + 6),
           one = b.imm(1), zero = b.imm(0), total = b.imm(1000),
           four = b.imm(4), width = b.imm(64), head = b.sreg(),
           nextBytes = b.sreg();
  Inst &loop = b.emit(Opcode::LoopBegin);
  loop.a = head, loop.b = first, loop.c = last, loop.d = one;
  size_t at = b.p.insts.size() - 1;
  auto dmaOf = [&](uint32_t bytes) {
    Inst &in = b.emit(Opcode::Dma);
    in.a = DDR, in.b = zero, in.c = L1, in.d = zero, in.e = bytes;
    in.f = in.g = in.h = kNoReg;
  };
  uint32_t next = b.sreg(), more = b.sreg(), ahead = b.sreg(),
           aheadRow = b.sreg(), rows = b.sreg(), left = b.sreg();
  alu(b, AluOp::Add, next, head, one);
  alu(b, AluOp::Slt, more, next, last);
  Inst &pick = b.emit(Opcode::SelectS);
  pick.a = ahead, pick.b = more, pick.c = one, pick.d = zero;
  Inst &inner = b.emit(Opcode::LoopBegin);
  inner.a = b.sreg(), inner.b = zero, inner.c = ahead, inner.d = one;
  size_t innerAt = b.p.insts.size() - 1;
  alu(b, AluOp::Mul, aheadRow, next, four);
  alu(b, AluOp::Sub, left, total, aheadRow);
  alu(b, AluOp::MinS, rows, left, four);
  alu(b, AluOp::Mul, nextBytes, rows, width);
  dmaOf(nextBytes);
  b.loopEnd(innerAt);
  b.loopEnd(at);
  dmaOf(nextBytes);
  b.emit(Opcode::Halt);
  return b.p;
}

TEST(TripRangesTest, RegistersTheLastTripLeavesAreTheNextToLasts) {
  // The size loaded ahead is written in every trip but the last, and read
  // after the loop: it is the next-to-last trip's there, which the replay
  // steps (deciding it too would leave the size unknown, 0, against the
  // walked lane's 256).
  Comparisons same(aheadLane(0));
  EXPECT_TRUE(same(aheadLane(6)));
  EXPECT_TRUE(same(aheadLane(12)));
  EXPECT_TRUE(same(aheadLane(100)));
  EXPECT_EQ(same.trace.rangedLoops, 2u);
  // Heads 244-249: the last head loaded ahead, 249, has its rows
  // clamped (996-999 of 1000 are 4 rows; the walked lane's too): the
  // same; 245-250 loads 250's, whose rows start at the view's end.
  EXPECT_TRUE(same(aheadLane(244)));
  EXPECT_FALSE(same(aheadLane(245)));
}

} // namespace

//===- SameCostOperandsTest.cpp - The lockstep check's skipped loops ------===//
//
// This file checks the lockstep check (SameCostOperands.cpp): once a
// walked lane's reads are recorded, the next comparisons skip the loops
// that the differing immediates do not reach, and what they reach is found
// per set of differing immediates: a lane whose immediates differ in a size
// inside such a loop's body is not taken for a copy. And the registers
// stepped once before the walk are only those of one value wherever read.
//
//===----------------------------------------------------------------------===//

#include "TestMachine.h"

#include "SameWalks.h"

#include "gtest/gtest.h"

using namespace ktflow::machine;
using namespace ktflow::machine::detail;
using namespace ktflow::machine::test;

namespace {

constexpr uint32_t DDR = 0, L1 = 1, DMA = 0;

/// A lane's program: its grid loop over four rows from `firstRow`, a DMA
/// of one row per trip sized from the loop's register (what the lane's
/// first row reaches), and an inner loop of two DMAs of `innerBytes`
/// (which the first row does not reach).
struct Lane {
  UnitProgram program;
  size_t innerLoop = 0, innerBytesAt = 0;
};

Lane lane(int64_t firstRow, int64_t innerBytes) {
  ProgramBuilder b(DMA);
  Lane result;
  uint32_t first = b.imm(firstRow), last = b.imm(firstRow + 4), one = b.imm(1),
           row = b.sreg();
  Inst &grid = b.emit(Opcode::LoopBegin);
  grid.a = row, grid.b = first, grid.c = last, grid.d = one;
  size_t gridAt = b.p.insts.size() - 1;
  // A row's bytes: 64 x (last - row), the rows left (4 down to 1).
  uint32_t left = b.sreg(), rowBytes = b.sreg(), width = b.imm(64);
  Inst &sub = b.emit(Opcode::Alu);
  sub.sub = static_cast<uint8_t>(AluOp::Sub);
  sub.a = left, sub.b = last, sub.c = row;
  Inst &mul = b.emit(Opcode::Alu);
  mul.sub = static_cast<uint8_t>(AluOp::Mul);
  mul.a = rowBytes, mul.b = left, mul.c = width;
  uint32_t zero = b.imm(0);
  Inst &rowDma = b.emit(Opcode::Dma);
  rowDma.a = DDR, rowDma.b = zero, rowDma.c = L1, rowDma.d = zero;
  rowDma.e = rowBytes;
  rowDma.f = rowDma.g = rowDma.h = kNoReg;
  result.innerLoop = b.loopBegin(2);
  b.dma(DDR, 0, L1, 0, innerBytes);
  // Its set_imm of the bytes, just before the DMA.
  result.innerBytesAt = b.p.insts.size() - 2;
  b.loopEnd(result.innerLoop);
  // The grid loop's end.
  Inst &end = b.emit(Opcode::LoopEnd);
  end.a = row, end.c = last, end.d = one, end.e = gridAt;
  b.p.insts[gridAt].e = b.p.insts.size() - 1;
  b.emit(Opcode::Halt);
  result.program = b.p;
  return result;
}

/// What SameWalks finds of a walked program before comparing (SameWalks::
/// analyse).
struct Analysed {
  explicit Analysed(const UnitProgram &program) {
    Constants constants(program);
    for (auto [pc, in] : llvm::enumerate(program.insts))
      if (in.op == Opcode::LoopBegin && constants.counts(pc)) {
        counted.push_back(pc);
        trips.push_back(constants.tripsAt(pc));
      }
    read = definitionsRead(program, counted);
  }
  std::vector<size_t> counted;
  std::vector<double> trips;
  std::vector<bool> read;
};

/// The set_imm instructions whose immediates differ and may be read.
std::vector<size_t> differing(const UnitProgram &from, const UnitProgram &to,
                              const std::vector<bool> &read) {
  std::vector<size_t> result;
  for (size_t pc = 0; pc < from.insts.size(); ++pc)
    if (from.insts[pc].imm != to.insts[pc].imm && read[pc])
      result.push_back(pc);
  return result;
}

TEST(SameCostOperandsTest, SizeInASkippedLoopsBodyIsCompared) {
  Lane walked = lane(0, 128);
  // Lanes of other rows: the same sizes. A lane of the walked rows whose
  // inner DMA moves another size.
  Lane rows4 = lane(4, 128), rows8 = lane(8, 128), otherSize = lane(0, 256);
  Analysed a(walked.program);
  ReadTrace trace;
  auto same = [&](const Lane &other) {
    std::vector<size_t> changed =
        differing(walked.program, other.program, a.read);
    EXPECT_FALSE(changed.empty());
    return sameCostOperands(walked.program, other.program, a.read, a.counted,
                            a.trips, changed, trace);
  };
  // The first comparison records what the walked lane reads; the second
  // replays it, skipping the inner loop its differing immediates (the
  // first row's) do not reach.
  EXPECT_TRUE(same(rows4));
  EXPECT_TRUE(trace.complete);
  EXPECT_TRUE(same(rows8));
  ASSERT_EQ(trace.reaches.size(), 1u);
  const ReadTrace::Reach &rowsReach = trace.reaches.begin()->second;
  EXPECT_TRUE(rowsReach.skipped[walked.innerLoop]);
  // Its immediates differ in the inner DMA's size: that loop is not
  // skipped for it (what is reached is found for its own differing
  // immediates), and the sizes differ.
  EXPECT_EQ(differing(walked.program, otherSize.program, a.read),
            std::vector<size_t>{walked.innerBytesAt});
  EXPECT_FALSE(same(otherSize));
  EXPECT_EQ(trace.reaches.size(), 2u);
  // And a lane of other rows is still taken after it.
  EXPECT_TRUE(same(lane(12, 128)));
}

TEST(SameCostOperandsTest, RowSizeReachedInsideTheGridLoopIsCompared) {
  // The grid loop's rows reach the row DMA's size: a lane of as many rows
  // is the same, one whose last row differs (its first row's DMA 192
  // bytes, the walked lane's 256) is not, in a replay too.
  Lane walked = lane(0, 128), rows4 = lane(4, 128);
  Lane shorter = lane(0, 128);
  shorter.program.insts[1].imm = 3;
  Analysed a(walked.program);
  ReadTrace trace;
  auto same = [&](const Lane &other) {
    return sameCostOperands(
        walked.program, other.program, a.read, a.counted, a.trips,
        differing(walked.program, other.program, a.read), trace);
  };
  EXPECT_TRUE(same(rows4));
  EXPECT_TRUE(same(rows4));
  EXPECT_FALSE(same(shorter));
}

/// A DMA of the bytes in register `bytes`.
void dmaOf(ProgramBuilder &b, uint32_t bytes) {
  uint32_t zero = b.imm(0);
  Inst &dma = b.emit(Opcode::Dma);
  dma.a = DDR, dma.b = zero, dma.c = L1, dma.d = zero, dma.e = bytes;
  dma.f = dma.g = dma.h = kNoReg;
}

/// Whether `to` reads the sizes `from` does, in a first comparison.
bool sameAsFirst(const UnitProgram &from, const UnitProgram &to) {
  Analysed a(from);
  std::vector<size_t> changed = differing(from, to, a.read);
  EXPECT_FALSE(changed.empty());
  ReadTrace trace;
  return sameCostOperands(from, to, a.read, a.counted, a.trips, changed, trace);
}

/// The comparisons of programs with `walked`: the first records what it
/// reads, the next replay it.
struct Comparisons {
  explicit Comparisons(UnitProgram walked)
      : walked(std::move(walked)), a(this->walked) {}
  bool operator()(const UnitProgram &other) {
    return sameCostOperands(walked, other, a.read, a.counted, a.trips,
                            differing(walked, other, a.read), trace);
  }
  UnitProgram walked;
  Analysed a;
  ReadTrace trace;
};

// The registers of one value wherever they are read are stepped once,
// before the walk: not those defined in a loop of no trips and read after
// it, read before their definition in a loop, or computed from a loop's
// register (each of these reads something else than the value stepped).

/// A program that sets a size to `bytes` in a loop of `trips` and has a
/// DMA of that size read it after the loop, or (`readFirst`) in the loop
/// before the size is set.
UnitProgram sizeSetInALoop(int64_t trips, bool readFirst, int64_t bytes) {
  ProgramBuilder b(DMA);
  (void)b.sreg(); // s0, which every unused field names
  uint32_t size = b.sreg();
  size_t loop = b.loopBegin(trips);
  if (readFirst)
    dmaOf(b, size);
  b.emit(Opcode::SetImm).a = size;
  b.p.insts.back().imm = bytes;
  b.loopEnd(loop);
  if (!readFirst)
    dmaOf(b, size);
  b.emit(Opcode::Halt);
  return b.p;
}

TEST(SameCostOperandsTest, DefinitionInALoopOfNoTripsIsNotSteppedOnce) {
  // The loop never runs: both DMAs read an unknown size.
  EXPECT_TRUE(sameAsFirst(sizeSetInALoop(0, false, 128),
                          sizeSetInALoop(0, false, 256)));
}

TEST(SameCostOperandsTest, ReadBeforeItsDefinitionIsNotSteppedOnce) {
  // The DMA runs before the set_imm: both read an unknown size.
  EXPECT_TRUE(
      sameAsFirst(sizeSetInALoop(1, true, 128), sizeSetInALoop(1, true, 256)));
}

TEST(SameCostOperandsTest, ValueOfTheLoopsRegisterIsSteppedEachTrip) {
  auto program = [](int64_t firstRow) {
    ProgramBuilder b(DMA);
    uint32_t first = b.imm(firstRow), last = b.imm(firstRow + 2),
             one = b.imm(1), row = b.sreg(), bytes = b.sreg();
    Inst &loop = b.emit(Opcode::LoopBegin);
    loop.a = row, loop.b = first, loop.c = last, loop.d = one;
    size_t loopAt = b.p.insts.size() - 1;
    Inst &mul = b.emit(Opcode::Alu);
    mul.sub = static_cast<uint8_t>(AluOp::Mul);
    mul.a = bytes, mul.b = row, mul.c = one;
    dmaOf(b, bytes);
    b.loopEnd(loopAt);
    b.emit(Opcode::Halt);
    return b.p;
  };
  // Rows 0 and 1 against 4 and 5: the sizes differ.
  EXPECT_FALSE(sameAsFirst(program(0), program(4)));
}

TEST(SameCostOperandsTest, ReplayStepsEachLanesOwnImmediate) {
  // A DMA of min(k, 64) bytes, k a set_imm that differs between the lanes
  // and is defined again after the DMA (so it is stepped where it is, not
  // once before the walk).
  auto program = [](int64_t k) {
    ProgramBuilder b(DMA);
    uint32_t limit = b.imm(64), bytes = b.sreg(), kAt = b.imm(k);
    Inst &min = b.emit(Opcode::Alu);
    min.sub = static_cast<uint8_t>(AluOp::MinS);
    min.a = bytes, min.b = kAt, min.c = limit;
    dmaOf(b, bytes);
    b.emit(Opcode::SetImm).a = kAt;
    b.emit(Opcode::Halt);
    return b.p;
  };
  Comparisons same(program(128));
  EXPECT_TRUE(same(program(256)));
  EXPECT_TRUE(same.trace.complete);
  // Replays with the same differing immediate, its steps found once:
  // each lane's own immediate is stepped.
  EXPECT_TRUE(same(program(512)));
  EXPECT_FALSE(same(program(32)));
  EXPECT_EQ(same.trace.reaches.size(), 1u);
}

TEST(SameCostOperandsTest, SelectStepsTheOperandItsConditionPicks) {
  // A DMA of (k != 0 ? 64 : 128) bytes, k a set_imm that differs between
  // the lanes and is defined again after the DMA (so the select is a step
  // of the walk, not stepped once before it).
  auto program = [](int64_t k) {
    ProgramBuilder b(DMA);
    uint32_t small = b.imm(64), large = b.imm(128), bytes = b.sreg(),
             kAt = b.imm(k);
    Inst &select = b.emit(Opcode::SelectS);
    select.a = bytes, select.b = kAt, select.c = small, select.d = large;
    dmaOf(b, bytes);
    b.emit(Opcode::SetImm).a = kAt;
    b.emit(Opcode::Halt);
    return b.p;
  };
  EXPECT_TRUE(sameAsFirst(program(1), program(2)));
  EXPECT_FALSE(sameAsFirst(program(1), program(0)));
  // And in a replay.
  Comparisons same(program(1));
  EXPECT_TRUE(same(program(2)));
  EXPECT_TRUE(same(program(3)));
  EXPECT_FALSE(same(program(0)));
}

} // namespace

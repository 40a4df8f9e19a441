//===- StridedLoadEstimateTest.cpp - A load of rows and its estimate -----===//
//
// This file tests that a load of rows (sub = kTransferRows: `rows` rows of
// `size` bytes, `stride` apart) moves and is charged all its rows' bytes,
// as a contiguous load of as many bytes is: the estimate must not take the
// `size` register, a row's bytes, for the transfer's.
//
//===----------------------------------------------------------------------===//

#include "EstimateTestUtil.h"

using namespace ktflow::machine;
using namespace ktflow::sim;
using namespace ktflow::machine::test;

namespace {

/// Feeds 8 entries of 128 bytes to the vector unit, which adds each to
/// itself and sends it on to be stored: the load unit either loads 1 KiB
/// at once or, with `rows`, 16 rows of 64 bytes 128 apart.
Executable feed(bool rows) {
  Executable exe;
  exe.fifos = {{"in", LU, VEC, 5, 4, 128}, {"out", VEC, SU, 6, 4, 128}};
  ProgramBuilder lu(LU);
  if (rows) {
    uint32_t n = lu.imm(16), stride = lu.imm(128);
    lu.load(0, L1, 0, 64);
    Inst &i = lu.p.insts.back();
    i.sub = kTransferRows;
    i.e = n, i.f = stride;
  } else {
    lu.load(0, L1, 0, 1024);
  }
  exe.programs = {lu.done(), mapEntries(8, ScalarOp::AddF, /*binary=*/true)};
  ProgramBuilder su(SU);
  su.store(1, L1, 4096, 1024);
  exe.programs.push_back(su.done());
  return exe;
}

TEST(StridedLoadEstimateTest, ALoadOfRowsMovesAndIsChargedAllItsRows) {
  Machine m = coreMachine();
  Executable rows = feed(true), whole = feed(false);
  ASSERT_EQ(rows.validate(m), "");
  MemoryImage mem(m);
  auto stats = simulate(m, rows, mem);
  ASSERT_TRUE(static_cast<bool>(stats)) << llvm::toString(stats.takeError());
  EXPECT_EQ(stats->units[0].bytesMoved, 1024u);
  KernelEstimate e = estimateResources(m, rows);
  KernelEstimate w = estimateResources(m, whole);
  EXPECT_GT(w.unitBusy[0], 0);
  EXPECT_DOUBLE_EQ(e.unitBusy[0], w.unitBusy[0]);
  EXPECT_DOUBLE_EQ(e.cycles, w.cycles);
}

} // namespace

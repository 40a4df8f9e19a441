//===- ChargeToTest.cpp - A walk's memory charges, added again ------------===//
//
// This file checks ProgramWalker::Records::chargeTo, which adds a walk's
// memory charges to an estimate again (a copy of the walk for a lane, or
// the walk kept for the estimate's second pass): a sum per memory, found
// once, where every charge, sum and the memory's busy cycles are whole
// multiples of 2^-16 below 2^36, and otherwise each charge in its order,
// bit for bit as before.
//
//===----------------------------------------------------------------------===//

#include "ProgramWalker.h"

#include "gtest/gtest.h"

#include <vector>

using namespace ktflow::machine::detail;

namespace {

uint32_t same(uint32_t m) { return m; }

TEST(ChargeToTest, EachMemoryGetsItsChargesSummed) {
  ProgramWalker::Records records;
  records.memoryCharges = {{0, 1.5}, {1, 2}, {0, 0.25}};
  std::vector<double> busy = {1, 0};
  records.chargeTo(busy, same);
  EXPECT_EQ(busy, (std::vector<double>{2.75, 2}));
  // A copy that names the walk's memories the other way round.
  std::vector<double> copy = {0, 0};
  records.chargeTo(copy, [](uint32_t m) { return 1 - m; });
  EXPECT_EQ(copy, (std::vector<double>{2, 1.75}));
  // Two of the walk's memories that are one of the copy's.
  std::vector<double> one = {0.5, 0};
  records.chargeTo(one, [](uint32_t) { return 0u; });
  EXPECT_EQ(one, (std::vector<double>{4.25, 0}));
}

TEST(ChargeToTest, ChargesRecordedSinceAreSummedAgain) {
  // The sums of the first three charges must not stand for the four.
  ProgramWalker::Records records;
  records.memoryCharges = {{0, 1}, {0, 2}, {1, 3}};
  std::vector<double> busy = {0, 0};
  records.chargeTo(busy, same);
  records.memoryCharges.push_back({0, 4});
  std::vector<double> again = {0, 0};
  records.chargeTo(again, same);
  EXPECT_EQ(again, (std::vector<double>{7, 3}));
}

TEST(ChargeToTest, InexactChargesAreAddedInTheirOrder) {
  // 0.1 + 0.2 + 0.3 in order is 0.6000000000000001; 0.1 + (0.2 + 0.3) is
  // 0.6: the charges are not whole multiples of 2^-16, not summed first.
  ProgramWalker::Records records;
  records.memoryCharges = {{0, 0.2}, {0, 0.3}};
  std::vector<double> busy = {0.1};
  records.chargeTo(busy, same);
  EXPECT_EQ(busy[0], (0.1 + 0.2) + 0.3);
  EXPECT_NE(busy[0], 0.1 + (0.2 + 0.3));
}

TEST(ChargeToTest, ExactChargesOntoALargeBusyAreAddedInTheirOrder) {
  // Two charges of 2^-13 onto 2^40 (ulp 2^-12) each round to the even
  // 2^40; their sum, 2^-12, added once would not: a busy of 2^36 or more
  // is charged one by one.
  ProgramWalker::Records records;
  records.memoryCharges = {{0, 0x1p-13}, {0, 0x1p-13}};
  std::vector<double> busy = {0x1p40};
  records.chargeTo(busy, same);
  EXPECT_EQ(busy[0], 0x1p40);
}

} // namespace

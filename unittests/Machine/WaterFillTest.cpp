//===- WaterFillTest.cpp - Device-memory shares as engines finish ---------===//
//
// This file checks waterFilledShares (WaterFill.h) with hand-computed
// values: the engines still moving share the memory equally, none above
// its cap, and the bandwidth of one that finished (or has yet to start)
// goes to the others, as often as they idle.
//
//===----------------------------------------------------------------------===//

#include "WaterFill.h"

#include "gtest/gtest.h"

using namespace ktflow::machine::detail;

namespace {

TEST(WaterFillTest, EnginesWithFewerBytesLeaveTheirShare) {
  // 100 B/cycle over four engines: 25 each for 4 cycles, when the three
  // with 100 bytes finish (share 25); the fourth has 200 left, alone at
  // 100 B/cycle: 2 cycles more, 300 bytes in 6 (share 50).
  std::vector<MoveSchedule> schedules;
  std::vector<double> shares = waterFilledShares(100, {100, 100, 100, 300},
                                                 {0, 0, 0, 0}, {}, &schedules);
  EXPECT_DOUBLE_EQ(shares[0], 25);
  EXPECT_DOUBLE_EQ(shares[2], 25);
  EXPECT_DOUBLE_EQ(shares[3], 50);
  // Its first 100 bytes by 4, 200 by 5, all by 6.
  EXPECT_DOUBLE_EQ(schedules[3].timeOf(100), 4);
  EXPECT_DOUBLE_EQ(schedules[3].timeOf(200), 5);
  EXPECT_DOUBLE_EQ(schedules[3].timeOf(300), 6);
  EXPECT_DOUBLE_EQ(schedules[0].timeOf(50), 2);
}

TEST(WaterFillTest, NoEngineAboveItsCap) {
  // Caps of 40: the fourth moves its last 200 bytes at 40, not 100:
  // 4 + 5 = 9 cycles, share 300 / 9.
  std::vector<double> shares =
      waterFilledShares(100, {100, 100, 100, 300}, {40, 40, 40, 40});
  EXPECT_DOUBLE_EQ(shares[0], 25);
  EXPECT_DOUBLE_EQ(shares[3], 300.0 / 9);
}

TEST(WaterFillTest, EqualBytesGetTheEqualShare) {
  // min(cap, bandwidth / engines): 30 under 50, and 50 with no cap.
  std::vector<double> capped = waterFilledShares(100, {64, 64}, {30, 30});
  EXPECT_DOUBLE_EQ(capped[0], 30);
  EXPECT_DOUBLE_EQ(capped[1], 30);
  EXPECT_DOUBLE_EQ(waterFilledShares(100, {64, 64}, {0, 0})[1], 50);
}

TEST(WaterFillTest, AnEngineThatStartsLaterSharesFromItsStart) {
  // Engine 0 alone for 1 cycle (100 bytes), then both at 50: engine 1's
  // 100 bytes by 3 (share 100 / 2 from its start), engine 0 has 100 left
  // at 100 B/cycle: 300 bytes by 4 (share 75).
  std::vector<MoveSchedule> schedules;
  std::vector<double> shares =
      waterFilledShares(100, {300, 100}, {0, 0}, {0, 1}, &schedules);
  EXPECT_DOUBLE_EQ(shares[0], 75);
  EXPECT_DOUBLE_EQ(shares[1], 50);
  // Engine 1 starts moving at 1 and has half its bytes by 2.
  EXPECT_DOUBLE_EQ(schedules[1].timeOf(0), 1);
  EXPECT_DOUBLE_EQ(schedules[1].timeOf(50), 2);
  EXPECT_DOUBLE_EQ(schedules[1].timeOf(100), 3);
}

TEST(WaterFillTest, EnginesThatIdleShareWithTheirDuties) {
  // Two engines of 192 bytes, each idle 16 cycles besides: each moving
  // shares 32 B/cycle with 1 + the other's duty. At 24 B/cycle an engine
  // moves 8 cycles of 24, a duty of 1/3: 32 / (1 + 1/3) = 24, the fixed
  // point (s^2 - 8 s - 384 = 0), where bandwidth / engines gives 16.
  std::vector<MoveSchedule> schedules;
  std::vector<double> shares = waterFilledShares(32, {192, 192}, {0, 0}, {},
                                                 &schedules, /*idle=*/{16, 16});
  EXPECT_NEAR(shares[0], 24, 1e-4);
  EXPECT_NEAR(shares[1], 24, 1e-4);
  // Its cycles moving: 192 bytes by 8.
  EXPECT_NEAR(schedules[0].timeOf(192), 8, 1e-4);
  // Not above a cap of 20; with no idle cycles, bandwidth / engines.
  EXPECT_NEAR(
      waterFilledShares(32, {192, 192}, {20, 20}, {}, nullptr, {16, 16})[1], 20,
      1e-9);
  EXPECT_DOUBLE_EQ(
      waterFilledShares(32, {192, 192}, {0, 0}, {}, nullptr, {0, 0})[0], 16);
}

TEST(WaterFillTest, AnEngineThatNeverIdlesMovesWithTheOthersDuty) {
  // 100 B/cycle; engine 0 moves 300 bytes and idles 8 cycles, engine 1
  // moves 420 and never idles. Engine 0 always shares with engine 1:
  // 100 / 2 = 50, 6 cycles moving of 14, a duty of 3/7; engine 1 shares
  // with that duty: 100 / (1 + 3/7) = 70, its 420 bytes by 6 as well.
  std::vector<double> shares =
      waterFilledShares(100, {300, 420}, {0, 0}, {}, nullptr, {8, 0});
  EXPECT_NEAR(shares[0], 50, 1e-4);
  EXPECT_NEAR(shares[1], 70, 1e-4);
}

} // namespace

//===- FloatArgumentTest.cpp - Reading float scalar arguments -------------===//
//
// Tests of parseFloatArgument, the reading of `--arg eps=...` that the
// runtime and the interpreter share: decimals rounded once to the type, bit
// patterns in hexadecimal, and refusals.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Support/FloatArgument.h"

#include "gtest/gtest.h"

using namespace ktflow;
using llvm::APFloat;

TEST(FloatArgumentTest, DecimalsRoundOnceToTheType) {
  // 1e-5 is the f16 subnormal 168 * 2^-24 (nearest even), not a double.
  EXPECT_EQ(parseFloatArgument("1e-5", APFloat::IEEEhalf()), 168.0 / (1 << 24));
  EXPECT_EQ(parseFloatArgument("0.1", APFloat::IEEEsingle()),
            static_cast<double>(0.1f));
  // bf16 keeps 8 significant bits: 1 + 2^-9 rounds (ties to even) to 1.
  EXPECT_EQ(parseFloatArgument("1.001953125", APFloat::BFloat()), 1.0);
  EXPECT_EQ(parseFloatArgument("-2.5", APFloat::IEEEhalf()), -2.5);
}

TEST(FloatArgumentTest, HexIsTheTypesBitPattern) {
  EXPECT_EQ(parseFloatArgument("0x4400", APFloat::IEEEhalf()), 4.0);
  EXPECT_EQ(parseFloatArgument("0x1E00", APFloat::IEEEhalf()), 0.005859375);
  EXPECT_EQ(parseFloatArgument("0x3F80", APFloat::BFloat()), 1.0);
  EXPECT_EQ(parseFloatArgument("0x3F800000", APFloat::IEEEsingle()), 1.0);
  // A hexadecimal float is a number, not a bit pattern.
  EXPECT_EQ(parseFloatArgument("0x1.8p1", APFloat::IEEEhalf()), 3.0);
}

TEST(FloatArgumentTest, RefusesWhatIsNotAValueOfTheType) {
  EXPECT_EQ(parseFloatArgument("abc", APFloat::IEEEhalf()), std::nullopt);
  EXPECT_EQ(parseFloatArgument("", APFloat::IEEEhalf()), std::nullopt);
  EXPECT_EQ(parseFloatArgument("1e6", APFloat::IEEEhalf()), std::nullopt);
  EXPECT_EQ(parseFloatArgument("0x12345", APFloat::IEEEhalf()), std::nullopt);
  EXPECT_EQ(parseFloatArgument("1.5x", APFloat::IEEEsingle()), std::nullopt);
}

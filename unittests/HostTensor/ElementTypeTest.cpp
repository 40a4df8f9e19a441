//===- ElementTypeTest.cpp - Rounding to f16/bf16/df16 --------------------===//
//
// This file tests the host element types' float rounding against hand-computed
// tie, subnormal and overflow cases, and against the compiler's own
// `_Float16` / bit-level bfloat16 conversions as independent references.
//
//===----------------------------------------------------------------------===//

#include "ktflow/HostTensor/ElementType.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace ktflow::host;

namespace {

double half(double x) { return roundToDType(x, DType::F16); }
double bf(double x) { return roundToDType(x, DType::BF16); }
double df(double x) { return roundToDType(x, DType::DF16); }

TEST(ElementType, HalfTiesRoundToEven) {
  EXPECT_EQ(half(1.0 + std::ldexp(1.0, -11)), 1.0);
  EXPECT_EQ(half(1.0 + 3 * std::ldexp(1.0, -11)), 1.0 + std::ldexp(1.0, -9));
  EXPECT_EQ(half(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -30)),
            1.0 + std::ldexp(1.0, -10));
  EXPECT_EQ(half(-2049.0), -2048.0); // ulp is 2 above 2048: tie to even
  EXPECT_EQ(half(2051.0), 2052.0);
  EXPECT_EQ(half(0.1), 0.0999755859375);
}

TEST(ElementType, HalfSubnormals) {
  double tiny = std::ldexp(1.0, -24); // smallest subnormal
  EXPECT_EQ(half(tiny), tiny);
  EXPECT_EQ(half(tiny / 2), 0.0);             // tie to even zero
  EXPECT_TRUE(std::signbit(half(-tiny / 2))); // keeps the sign
  EXPECT_EQ(half(tiny * 0.75), tiny);
  EXPECT_EQ(half(tiny * 1.5), 2 * tiny); // tie to even (2)
  EXPECT_EQ(half(tiny * 2.5), 2 * tiny);
  EXPECT_EQ(half(std::ldexp(1.0, -1060)), 0.0); // double subnormal
  EXPECT_EQ(half(std::ldexp(1023.0, -24)), std::ldexp(1023.0, -24));
}

TEST(ElementType, HalfOverflowAndSpecials) {
  double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(half(65504.0), 65504.0);
  EXPECT_EQ(half(65519.99), 65504.0);
  EXPECT_EQ(half(65520.0), inf); // tie with 2^16 rounds to even (= inf)
  EXPECT_EQ(half(-1e9), -inf);
  EXPECT_EQ(half(inf), inf);
  EXPECT_TRUE(std::isnan(half(std::nan(""))));
  EXPECT_EQ(maxFinite(DType::F16), 65504.0);
}

TEST(ElementType, HalfMatchesCompilerFloat16) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> mant(-1.0, 1.0);
  std::uniform_int_distribution<int> exp(-30, 18);
  for (int i = 0; i < 200000; ++i) {
    double x = std::ldexp(mant(rng), exp(rng));
    double expected = static_cast<double>(static_cast<_Float16>(x));
    ASSERT_EQ(half(x), expected) << "x = " << x;
  }
}

TEST(ElementType, HalfBitsRoundTripEveryPattern) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    uint16_t b16 = static_cast<uint16_t>(bits);
    _Float16 h;
    std::memcpy(&h, &b16, 2);
    double expected = static_cast<double>(h);
    double value = bitsToFloat(bits, DType::F16);
    if (std::isnan(expected)) {
      ASSERT_TRUE(std::isnan(value));
      continue;
    }
    ASSERT_EQ(value, expected) << bits;
    ASSERT_EQ(std::signbit(value), std::signbit(expected));
    ASSERT_EQ(floatToBits(value, DType::F16), bits);
    ASSERT_EQ(half(value), value);
  }
}

/// bfloat16 is the upper half of a binary32; round the float's bits.
double referenceBF16(double x) {
  float f = static_cast<float>(x); // exact for the inputs used below
  uint32_t u;
  std::memcpy(&u, &f, 4);
  uint32_t lsb = (u >> 16) & 1;
  u += 0x7fff + lsb;
  u &= 0xffff0000u;
  std::memcpy(&f, &u, 4);
  return f;
}

TEST(ElementType, BFloat16) {
  EXPECT_EQ(bf(1.0 + std::ldexp(1.0, -8)), 1.0);
  EXPECT_EQ(bf(1.0 + 3 * std::ldexp(1.0, -8)), 1.0 + std::ldexp(1.0, -6));
  double bfMax = std::ldexp(2.0 - std::ldexp(1.0, -7), 127);
  EXPECT_EQ(maxFinite(DType::BF16), bfMax);
  EXPECT_EQ(bf(bfMax), bfMax);
  EXPECT_EQ(bf(3.5e38), std::numeric_limits<double>::infinity());
  std::mt19937_64 rng(3);
  std::uniform_int_distribution<uint32_t> any;
  for (int i = 0; i < 200000; ++i) {
    uint32_t u = any(rng);
    float f;
    std::memcpy(&f, &u, 4);
    if (!std::isfinite(f))
      continue;
    double expected = referenceBF16(f);
    ASSERT_EQ(bf(f), expected) << f;
  }
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    double v = bitsToFloat(bits, DType::BF16);
    if (std::isnan(v))
      continue;
    ASSERT_EQ(floatToBits(v, DType::BF16), bits);
  }
}

TEST(ElementType, DLFloat16) {
  // 9 fraction bits; no subnormals (flushed); bias 31.
  EXPECT_EQ(df(1.0 + std::ldexp(1.0, -10)), 1.0);
  EXPECT_EQ(df(1.0 + 3 * std::ldexp(1.0, -10)), 1.0 + std::ldexp(1.0, -8));
  EXPECT_EQ(df(std::ldexp(1.0, -30)), std::ldexp(1.0, -30));
  EXPECT_EQ(df(std::ldexp(1.0, -31)), 0.0);
  EXPECT_EQ(df(maxFinite(DType::DF16)), maxFinite(DType::DF16));
  EXPECT_EQ(df(std::ldexp(1.0, 34)), std::numeric_limits<double>::infinity());
  EXPECT_EQ(bitsToFloat(floatToBits(1.5, DType::DF16), DType::DF16), 1.5);
  EXPECT_EQ(floatToBits(1.0, DType::DF16), uint64_t(31) << 9);
  EXPECT_TRUE(std::isnan(bitsToFloat(0x7fff, DType::DF16)));
}

TEST(ElementType, FloatRoundsThroughBinary32) {
  EXPECT_EQ(roundToDType(0.1, DType::F32), static_cast<double>(0.1f));
  EXPECT_EQ(roundToDType(1e39, DType::F32),
            std::numeric_limits<double>::infinity());
  EXPECT_EQ(roundToDType(0.1, DType::F64), 0.1);
}

TEST(ElementType, IntegerWrapping) {
  EXPECT_EQ(wrapInt(128, DType::I8), -128);
  EXPECT_EQ(wrapInt(255, DType::I8), -1);
  EXPECT_EQ(wrapInt(3, DType::I1), 1);
  EXPECT_EQ(wrapInt(int64_t(1) << 31, DType::I32), INT32_MIN);
  EXPECT_EQ(zeroExtend(-1, DType::I16), 0xffffu);
  EXPECT_EQ(floatToInt(-3.7, DType::I32, false), -3);
  EXPECT_EQ(floatToInt(1e20, DType::I32, false), INT32_MAX);
  EXPECT_EQ(floatToInt(-5.0, DType::I8, true), 0);
  EXPECT_EQ(floatToInt(300.0, DType::I8, true), -1); // 255 wrapped to i8
  EXPECT_EQ(floatToInt(std::nan(""), DType::I64, false), 0);
}

TEST(ElementType, UnitInLastPlace) {
  EXPECT_EQ(unitInLastPlace(1.0, DType::F16), 0x1p-10);
  EXPECT_EQ(unitInLastPlace(-1.999, DType::F16), 0x1p-10);
  EXPECT_EQ(unitInLastPlace(65504.0, DType::F16), 32.0);
  EXPECT_EQ(unitInLastPlace(0.0, DType::F16), 0x1p-24); // subnormal spacing
  EXPECT_EQ(unitInLastPlace(1e-6, DType::F16), 0x1p-24);
  EXPECT_EQ(unitInLastPlace(1.0, DType::BF16), 0x1p-7);
  EXPECT_EQ(unitInLastPlace(3.0, DType::DF16), 0x1p-8);
  EXPECT_EQ(unitInLastPlace(1e-12, DType::DF16), 0x1p-39); // no subnormals
  EXPECT_EQ(unitInLastPlace(1.0, DType::F32), 0x1p-23);
  EXPECT_EQ(unitInLastPlace(1.0, DType::F64), 0x1p-52);
  // The spacing is the distance to the next value up.
  EXPECT_EQ(half(1.0 + unitInLastPlace(1.0, DType::F16)),
            1.0 + unitInLastPlace(1.0, DType::F16));
  EXPECT_EQ(half(1.0 + unitInLastPlace(1.0, DType::F16) / 2), 1.0);
}

TEST(ElementType, Names) {
  EXPECT_EQ(dtypeName(DType::BF16), "bf16");
  EXPECT_EQ(byteSize(DType::I1), 1u);
  EXPECT_EQ(byteSize(DType::DF16), 2u);
  EXPECT_EQ(bitWidth(DType::Index), 64u);
}

} // namespace

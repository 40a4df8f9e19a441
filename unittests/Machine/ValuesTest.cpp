//===- ValuesTest.cpp - Tests of the machine's element values -------------===//
//
// This file tests element rounding (f16 round-to-nearest-even, integer
// wrap-around, bf16) and the comparison micro-ops: every predicate of
// CmpF and CmpI against the C++ comparison it names, on ordered, NaN and
// negative operands, so the ISA's own predicate encoding is pinned down.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Machine/Values.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace ktflow::machine;

namespace {

TEST(ValuesTest, HalfRoundsToNearestEven) {
  EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(65520.0f), 0x7c00);
  EXPECT_EQ(floatToHalf(1.0f + 1.0f / 2048), 0x3c00); // tie to even
  EXPECT_EQ(floatToHalf(1.0f + 3.0f / 2048), 0x3c02); // tie to even (up)
  EXPECT_EQ(floatToHalf(5.9604645e-8f), 0x0001);      // smallest subnormal
  EXPECT_EQ(halfToFloat(0x3555), 0.333251953125f);
  for (uint32_t bits = 0; bits < 0x7c00; ++bits)
    ASSERT_EQ(floatToHalf(halfToFloat(bits)), bits);
  EXPECT_EQ(roundToType(ElemType::i8, 300), 44);
  EXPECT_EQ(roundToType(ElemType::bf16, 1.00390625), 1.0);
}

// A double just off a 16-bit midpoint rounds to the nearer neighbour, not
// to even: rounding it to float first would land on the midpoint exactly.
// exp(0.00729751586914) in f16 was 1.0078125 on the simulator and
// 1.0068359375 in the reference (seed 1262 of scripts/fuzz-kernels.py).
TEST(ValuesTest, SixteenBitRoundingIsSingle) {
  double midF16 = 1.0 + 7.5 / 1024; // between 1 + 7/1024 and 1 + 8/1024
  EXPECT_EQ(roundToType(ElemType::f16, midF16 - 0x1p-40), 1.0 + 7.0 / 1024);
  EXPECT_EQ(roundToType(ElemType::f16, midF16 + 0x1p-40), 1.0 + 8.0 / 1024);
  EXPECT_EQ(roundToType(ElemType::f16, -(midF16 - 0x1p-40)),
            -(1.0 + 7.0 / 1024));
  EXPECT_EQ(roundToType(ElemType::f16, midF16), 1.0 + 8.0 / 1024); // even
  EXPECT_EQ(roundToType(ElemType::f16, std::exp(0.00729751586914062)),
            1.0 + 7.0 / 1024);
  double midBf16 = 1.0 + 1.5 / 128; // between 1 + 1/128 and 1 + 2/128
  EXPECT_EQ(roundToType(ElemType::bf16, midBf16 - 0x1p-40), 1.0 + 1.0 / 128);
  EXPECT_EQ(roundToType(ElemType::bf16, midBf16 + 0x1p-40), 1.0 + 2.0 / 128);
  EXPECT_EQ(roundToType(ElemType::f16, 1e-12), 0.0);
  EXPECT_EQ(roundToType(ElemType::f16, 1e6), INFINITY);
  EXPECT_EQ(roundToType(ElemType::f16, 65504.0 + 8), 65504.0);
}

/// Evaluates one comparison micro-op on a single pair of operands.
double compare(ScalarOp op, ElemType srcType, double predicate, double a,
               double b) {
  MicroOp micro;
  micro.op = op;
  micro.type = ElemType::i1;
  micro.srcType = srcType;
  micro.imm = predicate;
  double dst = -1;
  evalMicroOp(micro, &a, &b, nullptr, &dst, 1);
  return dst;
}

TEST(ValuesTest, FloatPredicatesOrderNaNAsTheirNameSays) {
  using P = CmpFPredicate;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  struct Case {
    P predicate;
    bool lessThan, equal, greaterThan, unordered;
  };
  // Results for (1 < 2), (2 == 2), (3 > 2) and (NaN vs 2).
  const Case cases[] = {
      {P::False, false, false, false, false},
      {P::Oeq, false, true, false, false},
      {P::Ogt, false, false, true, false},
      {P::Oge, false, true, true, false},
      {P::Olt, true, false, false, false},
      {P::Ole, true, true, false, false},
      {P::One, true, false, true, false},
      {P::Ord, true, true, true, false},
      {P::Ueq, false, true, false, true},
      {P::Ugt, false, false, true, true},
      {P::Uge, false, true, true, true},
      {P::Ult, true, false, false, true},
      {P::Ule, true, true, false, true},
      {P::Une, true, false, true, true},
      {P::Uno, false, false, false, true},
      {P::True, true, true, true, true},
  };
  for (const Case &c : cases) {
    double p = static_cast<double>(c.predicate);
    SCOPED_TRACE(p);
    EXPECT_EQ(compare(ScalarOp::CmpF, ElemType::f32, p, 1, 2), c.lessThan);
    EXPECT_EQ(compare(ScalarOp::CmpF, ElemType::f32, p, 2, 2), c.equal);
    EXPECT_EQ(compare(ScalarOp::CmpF, ElemType::f32, p, 3, 2), c.greaterThan);
    EXPECT_EQ(compare(ScalarOp::CmpF, ElemType::f32, p, nan, 2), c.unordered);
  }
}

TEST(ValuesTest, IntegerPredicatesReadUnsignedAsTheSourceType) {
  using P = CmpIPredicate;
  auto cmp = [](P p, ElemType t, double a, double b) {
    return compare(ScalarOp::CmpI, t, static_cast<double>(p), a, b);
  };
  EXPECT_EQ(cmp(P::Eq, ElemType::i32, 5, 5), 1);
  EXPECT_EQ(cmp(P::Ne, ElemType::i32, 5, 5), 0);
  EXPECT_EQ(cmp(P::Slt, ElemType::i32, -1, 0), 1);
  EXPECT_EQ(cmp(P::Sle, ElemType::i32, 0, 0), 1);
  EXPECT_EQ(cmp(P::Sgt, ElemType::i32, -1, 0), 0);
  EXPECT_EQ(cmp(P::Sge, ElemType::i32, 0, -1), 1);
  // -1 is the largest unsigned value of its type.
  EXPECT_EQ(cmp(P::Ult, ElemType::i32, -1, 0), 0);
  EXPECT_EQ(cmp(P::Ule, ElemType::i32, 0, -1), 1);
  EXPECT_EQ(cmp(P::Ugt, ElemType::i8, -1, 127), 1);
  EXPECT_EQ(cmp(P::Uge, ElemType::i8, 127, -1), 0);
  // A predicate outside the encoding (a damaged bundle) compares false.
  EXPECT_EQ(cmp(static_cast<P>(10), ElemType::i32, 5, 5), 0);
  EXPECT_EQ(compare(ScalarOp::CmpF, ElemType::f32, 16, 2, 2), 0);
  EXPECT_EQ(compare(ScalarOp::CmpF, ElemType::f32, -1, 2, 2), 0);
}

} // namespace

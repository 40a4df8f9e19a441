//===- ValuesTest.cpp - Tests of the machine's element values -------------===//
//
// This file tests element rounding (f16 round-to-nearest-even, integer
// wrap-around, bf16) and the comparison micro-ops: every predicate of
// CmpF and CmpI against the C++ comparison it names, on ordered, NaN and
// negative operands, so the ISA's own predicate encoding is pinned down;
// and the float maximum and minimum, as micro-ops and reductions, on NaN,
// infinities and signed zeros against C's fmax/fmin.
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

/// One binary float micro-op on a single pair of operands.
double binary(ScalarOp op, double a, double b) {
  MicroOp micro;
  micro.op = op;
  micro.type = micro.srcType = ElemType::f32;
  double dst = -1;
  evalMicroOp(micro, &a, &b, nullptr, &dst, 1);
  return dst;
}

/// `row` reduced as the simulator's Reduce does: from its first element.
double reduceRow(ReduceKind kind, std::initializer_list<double> row) {
  double acc = *row.begin();
  for (const double *x = row.begin() + 1; x != row.end(); ++x)
    acc = reduceStep(kind, ElemType::f32, acc, *x);
  return acc;
}

// maxnumf/minnumf return the operand that is not NaN (C's fmax/fmin);
// maximumf/minimumf propagate NaN; all order -0 below +0 (the reference
// interpreter's rules, docs/interpreter.md).
TEST(ValuesTest, MaxAndMinTreatNaNAsTheirArithOpDoes) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const double values[] = {nan, -inf, -2.5, -0.0, 0.0, 1.0, inf};
  for (double a : values)
    for (double b : values) {
      SCOPED_TRACE(testing::Message() << a << ", " << b);
      bool zeros = a == 0 && b == 0, anyNaN = std::isnan(a) || std::isnan(b);
      double maxNum = binary(ScalarOp::MaxNumF, a, b);
      double minNum = binary(ScalarOp::MinNumF, a, b);
      double maxNaN = binary(ScalarOp::MaxF, a, b);
      double minNaN = binary(ScalarOp::MinF, a, b);
      if (zeros) {
        EXPECT_EQ(std::signbit(maxNum), std::signbit(a) && std::signbit(b));
        EXPECT_EQ(std::signbit(minNum), std::signbit(a) || std::signbit(b));
      }
      EXPECT_EQ(std::isnan(maxNum), std::isnan(std::fmax(a, b)));
      EXPECT_EQ(std::isnan(minNum), std::isnan(std::fmin(a, b)));
      if (!std::isnan(maxNum)) {
        EXPECT_EQ(maxNum, std::fmax(a, b));
        EXPECT_EQ(minNum, std::fmin(a, b));
      }
      EXPECT_EQ(std::isnan(maxNaN), anyNaN);
      EXPECT_EQ(std::isnan(minNaN), anyNaN);
      if (!anyNaN) {
        EXPECT_EQ(maxNaN, maxNum);
        EXPECT_EQ(minNaN, minNum);
        EXPECT_EQ(std::signbit(maxNaN), std::signbit(maxNum));
        EXPECT_EQ(std::signbit(minNaN), std::signbit(minNum));
      }
    }
}

TEST(ValuesTest, MaxNumReductionsSkipNaN) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  using K = ReduceKind;
  // A row with NaN: the largest and smallest of the others.
  EXPECT_EQ(reduceRow(K::MaxNum, {nan, 3, nan, -1, 2}), 3);
  EXPECT_EQ(reduceRow(K::MinNum, {nan, 3, nan, -1, 2}), -1);
  EXPECT_EQ(reduceRow(K::MaxNum, {-1, 2, nan}), 2);
  EXPECT_TRUE(std::isnan(reduceRow(K::Max, {nan, 3, nan, -1, 2})));
  EXPECT_TRUE(std::isnan(reduceRow(K::Min, {-1, 2, nan})));
  // A row of NaN alone is NaN: the fold into the accumulator skips it.
  EXPECT_TRUE(std::isnan(reduceRow(K::MaxNum, {nan, nan, nan})));
  EXPECT_EQ(binary(ScalarOp::MaxNumF, -inf, reduceRow(K::MaxNum, {nan, nan})),
            -inf);
  // Infinities and signed zeros.
  EXPECT_EQ(reduceRow(K::MaxNum, {-inf, nan, -inf}), -inf);
  EXPECT_EQ(reduceRow(K::MinNum, {1, inf, nan, -inf}), -inf);
  EXPECT_FALSE(std::signbit(reduceRow(K::MaxNum, {-0.0, nan, 0.0, -0.0})));
  EXPECT_TRUE(std::signbit(reduceRow(K::MinNum, {0.0, nan, -0.0, 0.0})));
  EXPECT_FALSE(std::signbit(reduceRow(K::Max, {-0.0, 0.0, -0.0})));
  EXPECT_TRUE(std::signbit(reduceRow(K::Min, {0.0, -0.0, 0.0})));
  // The identities are the infinities, as max's and min's.
  EXPECT_EQ(reduceIdentity(K::MaxNum), -inf);
  EXPECT_EQ(reduceIdentity(K::MinNum), inf);
  EXPECT_STREQ(reduceKindName(K::MaxNum), "maxnum");
  EXPECT_STREQ(scalarOpName(ScalarOp::MinNumF), "minnumf");
}

} // namespace

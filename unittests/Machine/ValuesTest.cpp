//===- ValuesTest.cpp - Tests of the machine's element values -------------===//
//
// This file tests element rounding (f16 round-to-nearest-even, integer
// wrap-around, bf16) and the comparison micro-ops: every predicate of
// CmpF and CmpI against the C++ comparison it names, on ordered, NaN and
// negative operands, so the ISA's own predicate encoding is pinned down;
// and the float maximum and minimum, as micro-ops and reductions, on NaN,
// infinities and signed zeros against C's fmax/fmin, and the select form
// with the accumulator on the compare's left against its closed form.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Machine/Values.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <random>
#include <vector>

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

/// `row` folded from `init` as a Reduce of an after-NaN kind does, the
/// chunks of `width` elements one after the other, each from the previous
/// one's result (a row streamed in chunks, a carried loop over tiles).
double foldInChunks(ReduceKind kind, double init,
                    const std::vector<double> &row, size_t width) {
  double acc = init;
  for (size_t start = 0; start < row.size(); start += width)
    for (size_t i = start; i < std::min(row.size(), start + width); ++i)
      acc = reduceStep(kind, ElemType::f32, acc, row[i]);
  return acc;
}

// cmpf ogt %acc, %x + select %c, %acc, %x (olt for the minimum): a NaN
// element makes the accumulator NaN and the next element replaces it, so
// the fold is the extremum of the init and the elements after the last
// NaN, NaN when the last element is NaN, whatever the chunks.
TEST(ValuesTest, AfterNaNFoldsKeepWhatFollowsTheLastNaN) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  using K = ReduceKind;
  // One step: the body's select.
  EXPECT_TRUE(std::isnan(reduceStep(K::MaxAfterNaN, ElemType::f32, 3, nan)));
  EXPECT_EQ(reduceStep(K::MaxAfterNaN, ElemType::f32, nan, -7), -7);
  EXPECT_EQ(reduceStep(K::MinAfterNaN, ElemType::f32, nan, 7), 7);
  EXPECT_EQ(reduceStep(K::MaxAfterNaN, ElemType::f32, 3, -7), 3);
  EXPECT_EQ(reduceStep(K::MinAfterNaN, ElemType::f32, 3, -7), -7);
  EXPECT_TRUE(std::isnan(reduceStep(K::MinAfterNaN, ElemType::f32, nan, nan)));
  // Rows: what precedes the last NaN, the init included, is forgotten.
  EXPECT_EQ(foldInChunks(K::MaxAfterNaN, -inf, {9, nan, 1, 2}, 4), 2);
  EXPECT_EQ(foldInChunks(K::MinAfterNaN, inf, {-9, nan, 1, 2}, 4), 1);
  EXPECT_EQ(foldInChunks(K::MaxAfterNaN, 50, {9, nan, 1, 2}, 1), 2);
  EXPECT_EQ(foldInChunks(K::MaxAfterNaN, 50, {9, 1, 2}, 2), 50);
  EXPECT_TRUE(std::isnan(foldInChunks(K::MaxAfterNaN, -inf, {9, 1, nan}, 2)));
  EXPECT_EQ(foldInChunks(K::MaxAfterNaN, -inf, {nan, nan, -inf}, 2), -inf);
  EXPECT_EQ(foldInChunks(K::MaxAfterNaN, -inf, {}, 2), -inf);
  EXPECT_FALSE(std::signbit(foldInChunks(K::MaxAfterNaN, -0.0, {0.0}, 1)));
  EXPECT_TRUE(std::signbit(foldInChunks(K::MinAfterNaN, 0.0, {-0.0}, 1)));

  // Random rows of NaN, infinities and small values, folded in chunks of
  // every width, against the closed form.
  std::mt19937 rng(14);
  const double pool[] = {nan, nan, -inf, inf, -3, -1, 0, 2, 5};
  for (int trial = 0; trial < 500; ++trial) {
    std::vector<double> row(rng() % 12);
    for (double &x : row)
      x = pool[rng() % std::size(pool)];
    double init = pool[2 + rng() % (std::size(pool) - 2)];
    size_t tail = 0;
    for (size_t i = 0; i < row.size(); ++i)
      if (std::isnan(row[i]))
        tail = i + 1;
    bool endsInNaN = !row.empty() && std::isnan(row.back());
    double wantMax = tail ? -inf : init, wantMin = tail ? inf : init;
    for (size_t i = tail; i < row.size(); ++i) {
      wantMax = std::max(wantMax, row[i]);
      wantMin = std::min(wantMin, row[i]);
    }
    for (size_t width = 1; width <= row.size() + 1; ++width) {
      SCOPED_TRACE(testing::Message()
                   << "trial " << trial << " width " << width);
      double max = foldInChunks(K::MaxAfterNaN, init, row, width);
      double min = foldInChunks(K::MinAfterNaN, init, row, width);
      EXPECT_EQ(std::isnan(max), endsInNaN);
      EXPECT_EQ(std::isnan(min), endsInNaN);
      if (!endsInNaN) {
        EXPECT_EQ(max, wantMax);
        EXPECT_EQ(min, wantMin);
      }
    }
  }
  EXPECT_EQ(reduceIdentity(K::MaxAfterNaN), -inf);
  EXPECT_EQ(reduceIdentity(K::MinAfterNaN), inf);
  EXPECT_STREQ(reduceKindName(K::MaxAfterNaN), "maxafternan");
  EXPECT_STREQ(reduceKindName(K::MinAfterNaN), "minafternan");
  EXPECT_TRUE(reduceHasInit(K::MinAfterNaN));
  EXPECT_FALSE(reduceHasInit(K::MaxNum));
}

} // namespace

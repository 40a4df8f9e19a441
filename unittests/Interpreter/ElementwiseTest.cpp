//===- ElementwiseTest.cpp - Semantics of element-wise kernels ------------===//
//
// This file tests the element-wise kernels against values worked out by
// hand: integer division rounding and zero divisors, wrapping, shifts,
// signed/unsigned comparison, MLIR's NaN and signed-zero rules, saturating
// float-to-int casts, i1 extension, bitcasts and per-op rounding; and that
// the kernel table has a kernel for every kind.
//
//===----------------------------------------------------------------------===//

#include "ArithMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace ktflow::interp;

namespace {

EwOp makeOp(EwKind kind, DType result, std::vector<DType> operands,
            int predicate = 0) {
  EwOp op;
  op.kind = kind;
  op.resultType = result;
  op.operandTypes.assign(operands.begin(), operands.end());
  op.predicate = predicate;
  return op;
}

/// Applies a binary integer op element-wise; returns results and the
/// reported zero-divisor index.
std::vector<int64_t> intOp(EwKind kind, DType t, std::vector<int64_t> a,
                           std::vector<int64_t> b, int64_t *zeroAt = nullptr,
                           DType result = DType::I64, int predicate = 0) {
  if (result == DType::I64)
    result = t;
  std::vector<int64_t> out(a.size());
  ColumnIn ins[2] = {{nullptr, a.data()}, {nullptr, b.data()}};
  int64_t z = runElementwise(makeOp(kind, result, {t, t}, predicate), ins,
                             {nullptr, out.data()}, a.size());
  if (zeroAt)
    *zeroAt = z;
  return out;
}

std::vector<double> floatOp(EwKind kind, DType t, std::vector<double> a,
                            std::vector<double> b) {
  std::vector<double> out(a.size());
  ColumnIn ins[2] = {{a.data(), nullptr}, {b.data(), nullptr}};
  runElementwise(makeOp(kind, t, {t, t}), ins, {out.data(), nullptr},
                 a.size());
  return out;
}

TEST(Elementwise, IntegerDivisionRounding) {
  using V = std::vector<int64_t>;
  EXPECT_EQ(intOp(EwKind::DivSI, DType::I32, {-7, 7, -8}, {2, -2, 2}),
            (V{-3, -3, -4}));
  EXPECT_EQ(intOp(EwKind::FloorDivSI, DType::I32, {-7, 7}, {2, -2}),
            (V{-4, -4}));
  EXPECT_EQ(intOp(EwKind::CeilDivSI, DType::I32, {7, -7}, {2, 2}), (V{4, -3}));
  EXPECT_EQ(intOp(EwKind::RemSI, DType::I32, {-7, 7}, {2, -2}), (V{-1, 1}));
  // i8 -1 is 255 unsigned.
  EXPECT_EQ(intOp(EwKind::DivUI, DType::I8, {-1}, {2}), (V{127}));
  EXPECT_EQ(intOp(EwKind::RemUI, DType::I8, {-1}, {16}), (V{15}));
  // INT_MIN / -1 wraps instead of trapping.
  int64_t min = std::numeric_limits<int64_t>::min();
  EXPECT_EQ(intOp(EwKind::DivSI, DType::I64, {min}, {-1}), (V{min}));
  int64_t zeroAt = -1;
  EXPECT_EQ(intOp(EwKind::DivSI, DType::Index, {4, 5, 6}, {1, 0, 3}, &zeroAt),
            (V{4, 0, 2}));
  EXPECT_EQ(zeroAt, 1);
}

TEST(Elementwise, WrappingShiftsAndBits) {
  using V = std::vector<int64_t>;
  EXPECT_EQ(intOp(EwKind::AddI, DType::I8, {127, -128}, {1, -1}),
            (V{-128, 127}));
  EXPECT_EQ(intOp(EwKind::MulI, DType::I16, {300}, {300}), (V{24464}));
  EXPECT_EQ(intOp(EwKind::ShLI, DType::I8, {1, 1}, {7, 8}), (V{-128, 0}));
  EXPECT_EQ(intOp(EwKind::ShRSI, DType::I8, {-128, -128}, {1, 10}),
            (V{-64, -1}));
  EXPECT_EQ(intOp(EwKind::ShRUI, DType::I8, {-128}, {1}), (V{64}));
  EXPECT_EQ(intOp(EwKind::MaxUI, DType::I8, {-1}, {1}), (V{-1}));
  EXPECT_EQ(intOp(EwKind::MaxSI, DType::I8, {-1}, {1}), (V{1}));
  std::vector<int64_t> one = {1}, out(1);
  ColumnIn in{nullptr, one.data()};
  runElementwise(makeOp(EwKind::Ctlz, DType::I8, {DType::I8}), in,
                 {nullptr, out.data()}, 1);
  EXPECT_EQ(out[0], 7);
}

TEST(Elementwise, SignedAndUnsignedCompare) {
  using V = std::vector<int64_t>;
  int ult = static_cast<int>(mlir::arith::CmpIPredicate::ult);
  int slt = static_cast<int>(mlir::arith::CmpIPredicate::slt);
  EXPECT_EQ(intOp(EwKind::CmpI, DType::I8, {-1}, {1}, nullptr, DType::I1, ult),
            (V{0}));
  EXPECT_EQ(intOp(EwKind::CmpI, DType::I8, {-1}, {1}, nullptr, DType::I1, slt),
            (V{1}));
}

TEST(Elementwise, NaNAndSignedZeroRules) {
  double nan = std::nan("");
  std::vector<double> r = floatOp(EwKind::MaximumF, DType::F32, {nan, -0.0, 1},
                                  {1, 0.0, nan});
  EXPECT_TRUE(std::isnan(r[0]));
  EXPECT_EQ(r[1], 0.0);
  EXPECT_FALSE(std::signbit(r[1]));
  EXPECT_TRUE(std::isnan(r[2]));
  r = floatOp(EwKind::MaxNumF, DType::F32, {nan, 2}, {1, nan});
  EXPECT_EQ(r, (std::vector<double>{1, 2}));
  r = floatOp(EwKind::MinimumF, DType::F32, {-0.0}, {0.0});
  EXPECT_TRUE(std::signbit(r[0]));
  std::vector<double> a = {nan, 1}, b = {1, 2};
  std::vector<int64_t> out(2);
  ColumnIn ins[2] = {{a.data(), nullptr}, {b.data(), nullptr}};
  runElementwise(makeOp(EwKind::CmpF, DType::I1, {DType::F32, DType::F32},
                        static_cast<int>(mlir::arith::CmpFPredicate::OLT)),
                 ins, {nullptr, out.data()}, 2);
  EXPECT_EQ(out, (std::vector<int64_t>{0, 1}));
  runElementwise(makeOp(EwKind::CmpF, DType::I1, {DType::F32, DType::F32},
                        static_cast<int>(mlir::arith::CmpFPredicate::ULT)),
                 ins, {nullptr, out.data()}, 2);
  EXPECT_EQ(out, (std::vector<int64_t>{1, 1}));
}

TEST(Elementwise, RoundsOncePerOpToTheResultType) {
  // 2048 + 1 is a tie in f16 (ulp 2): rounds to even.
  EXPECT_EQ(floatOp(EwKind::AddF, DType::F16, {2048}, {1}),
            (std::vector<double>{2048}));
  EXPECT_EQ(floatOp(EwKind::AddF, DType::F16, {2048}, {3}),
            (std::vector<double>{2052}));
  EXPECT_EQ(floatOp(EwKind::MulF, DType::F16, {300}, {300}),
            (std::vector<double>{std::numeric_limits<double>::infinity()}));
  EXPECT_EQ(floatOp(EwKind::DivF, DType::F32, {1}, {3}),
            (std::vector<double>{static_cast<double>(1.0f / 3.0f)}));
}

TEST(Elementwise, Casts) {
  std::vector<double> f = {300.0, -300.0, std::nan(""), -2.7};
  std::vector<int64_t> out(4);
  ColumnIn in{f.data(), nullptr};
  runElementwise(makeOp(EwKind::FPToSI, DType::I8, {DType::F32}), in,
                 {nullptr, out.data()}, 4);
  EXPECT_EQ(out, (std::vector<int64_t>{127, -128, 0, -2}));
  std::vector<int64_t> bit = {1};
  ColumnIn b{nullptr, bit.data()};
  runElementwise(makeOp(EwKind::ExtSI, DType::I32, {DType::I1}), b,
                 {nullptr, out.data()}, 1);
  EXPECT_EQ(out[0], -1);
  runElementwise(makeOp(EwKind::ExtUI, DType::I32, {DType::I1}), b,
                 {nullptr, out.data()}, 1);
  EXPECT_EQ(out[0], 1);
  std::vector<double> one = {1.0};
  ColumnIn h{one.data(), nullptr};
  runElementwise(makeOp(EwKind::BitcastFToI, DType::I16, {DType::F16}), h,
                 {nullptr, out.data()}, 1);
  EXPECT_EQ(out[0], 0x3C00);
  std::vector<double> back(1);
  ColumnIn bits{nullptr, out.data()};
  runElementwise(makeOp(EwKind::BitcastIToF, DType::BF16, {DType::I16}), bits,
                 {back.data(), nullptr}, 1);
  EXPECT_EQ(back[0], std::ldexp(1.0, -7)); // 0x3C00 as bfloat16 = 2^-7
  std::vector<int64_t> big = {(int64_t(1) << 24) + 1};
  ColumnIn g{nullptr, big.data()};
  runElementwise(makeOp(EwKind::SIToFP, DType::F32, {DType::I64}), g,
                 {back.data(), nullptr}, 1);
  EXPECT_EQ(back[0], 16777216.0);
}

// runElementwise computes nothing for a kind without a kernel: every kind
// the decoder can produce must have one.
TEST(Elementwise, EveryKindHasAKernel) {
  for (size_t k = 0; k < kNumEwKinds; ++k)
    EXPECT_NE(elementwiseKernels().lookup(static_cast<EwKind>(k)), nullptr)
        << "EwKind #" << k;
}

} // namespace

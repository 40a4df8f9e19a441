//===- ReorderBoundsTest.cpp - Reorder bounds through a product -----------===//
//
// This file tests the reorder bound of an all-reduce whose sums feed a
// matmul by weights of both signs (docs/interpreter.md §9): displacing the
// sums one way cancels in the product, so the bound is also measured with
// the weights made non-negative. Three f16 members are all-reduced (with
// two, every fold order rounds alike) into C (1x2), and D = C . W. It
// also tests the displacement in both directions: a later rounding that
// absorbs the move of C one way and not the other. Every value below is
// computed by hand.
//
//===----------------------------------------------------------------------===//

#include "CheckTesting.h"

#include "gtest/gtest.h"

using namespace ktflow;
using namespace ktflow::check::checktest;
using host::DType;
using host::Tensor;

namespace {

constexpr int64_t kTiles = 3;

// Column 0 of X is (1, 2^-11, 2^-11): from tile 0, 1 + 2^-11 ties to 1 and
// the sum is 1; a ring from tile 1 adds 2^-11 + 2^-11 = 2^-10 first and
// gets 1 + 2^-10. Column 1 is (1, -2^-12, -2^-12): 1 from tile 0, 1 - 2^-11
// from tile 1. The fold orders move C's elements in opposite directions, W
// subtracts them: D[0] = C[0] - C[1] is 0 in the reference, 3 * 2^-11 from
// tile 1.
const double kX[kTiles][2] = {{1, 1}, {0x1p-11, -0x1p-12}, {0x1p-11, -0x1p-12}};
const double kW[2][2] = {{1, 1}, {-1, 1}};

/// An all-reduce kernel run on the reference: its output Y, Y's reorder
/// bounds, and the check of a device's Y against them.
class AllReduceBoundTest : public ::testing::Test {
protected:
  void runKernel(const std::string &kernel,
                 llvm::ArrayRef<std::pair<std::string, Tensor>> inputs) {
    ASSERT_NO_FATAL_FAILURE(parseKernel(kernel, context, module));
    check::ReferenceBindings bindings;
    ASSERT_NO_FATAL_FAILURE(
        runReference(*module, inputs, {"y"}, bindings, expected, bounds));
  }

  check::CheckResult check(const std::vector<double> &got) const {
    return check::compareOutput(expected[0], halfBytes(got),
                                machine::ElemType::f16, expected[0].shape,
                                bounds[0]);
  }

  /// Expects the device's Y from a ring starting at each tile to pass.
  void expectEveryRingPasses(
      llvm::function_ref<std::vector<double>(int64_t first)> device) const {
    for (int64_t first = 0; first < kTiles; ++first) {
      check::CheckResult result = check(device(first));
      EXPECT_TRUE(result.pass)
          << "ring from tile " << first << ": " << result.summary;
    }
  }

  std::unique_ptr<mlir::MLIRContext> context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::vector<Tensor> expected;
  std::vector<std::vector<double>> bounds;
};

class ReorderBoundThroughAProductTest : public AllReduceBoundTest {
protected:
  void SetUp() override {
    Tensor x = Tensor::zeros(DType::F16, {kTiles, 2});
    Tensor w = Tensor::zeros(DType::F16, {2, 2});
    for (int64_t t = 0; t < kTiles; ++t)
      for (int64_t j = 0; j < 2; ++j)
        x.setDouble(t * 2 + j, kX[t][j]);
    for (int64_t k = 0; k < 2; ++k)
      for (int64_t j = 0; j < 2; ++j)
        w.setDouble(k * 2 + j, kW[k][j]);
    ASSERT_NO_FATAL_FAILURE(
        runKernel(allReduceKernel(kTiles, 2, 2, ", %w: index", kProduct, "%d"),
                  {{"x", x}, {"w", w}}));
  }

  /// The device's D on every tile: C folded by a ring from tile `first`
  /// (tile `flipped`'s member negated), then C . W rounded once.
  std::vector<double> device(int64_t first, int64_t flipped = -1) const {
    double c[2];
    for (int64_t j = 0; j < 2; ++j) {
      c[j] = 0;
      for (int64_t k = 0; k < kTiles; ++k) {
        int64_t t = (first + k) % kTiles;
        c[j] = f16(c[j] + (t == flipped ? -kX[t][j] : kX[t][j]));
      }
    }
    std::vector<double> d;
    for (int64_t t = 0; t < kTiles; ++t)
      for (int64_t j = 0; j < 2; ++j)
        d.push_back(f16(c[0] * kW[0][j] + c[1] * kW[1][j]));
    return d;
  }
};

TEST_F(ReorderBoundThroughAProductTest, TheBoundIsTheDisplacementTimesAbsW) {
  ASSERT_EQ(valuesOf(expected[0]), device(0));
  EXPECT_EQ(device(0)[0], 0);
  EXPECT_EQ(device(0)[1], 2);
  // C[j] is displaced by n * eps * sum |partial| + ulp(C[j]) = 3 * 2^-10 *
  // (1 + 2^-10) + 2^-10 (column 1: 1 + 2^-11), rounded: C = (1 + 2^-8,
  // 1 + 2^-8), each moved by 2^-8.
  double moved[2];
  for (int64_t j = 0; j < 2; ++j) {
    double magnitude = 0;
    for (int64_t t = 0; t < kTiles; ++t)
      magnitude += std::fabs(kX[t][j]);
    moved[j] = f16(1 + kTiles * 0x1p-10 * magnitude + ulpF16(1)) - 1;
    ASSERT_EQ(moved[j], 0x1p-8) << "column " << j;
  }
  // One way, D[0] moves by |2^-8 - 2^-8| = 0; by |W| . (2^-8, 2^-8) =
  // 2^-7 with W made non-negative. D[1] moves by 2^-7 both ways. The
  // matmul's own fold (2 terms, in f32) adds 2 * 2^-23 * sum |C[k] W[k, j]|
  // + ulp(D[j]), rounded: 9 * 2^-24 at D[0] = 0, 2^-9 at D[1] = 2.
  for (int64_t j = 0; j < 2; ++j) {
    double d = device(0)[j];
    double product =
        f16(d + 2 * 0x1p-23 * (std::fabs(kW[0][j]) + std::fabs(kW[1][j])) +
            ulpF16(d)) -
        d;
    EXPECT_EQ(product, j == 0 ? 9 * 0x1p-24 : 0x1p-9);
    for (int64_t t = 0; t < kTiles; ++t)
      EXPECT_EQ(bounds[0][t * 2 + j], std::fabs(kW[0][j]) * moved[0] +
                                          std::fabs(kW[1][j]) * moved[1] +
                                          product)
          << "tile " << t << ", column " << j;
  }
}

TEST_F(ReorderBoundThroughAProductTest, EveryRingPassesAWrongValueFails) {
  // The ring from tile 1 is off by 3 * 2^-11 at D[0], more than the
  // all-reduce's displacement one way (0) and the matmul's (9 * 2^-24)
  // plus one ulp of 0: that bound failed it.
  double ringError = device(1)[0] - device(0)[0];
  EXPECT_EQ(ringError, 3 * 0x1p-11);
  EXPECT_GT(ringError, 9 * 0x1p-24 + ulpF16(0));
  expectEveryRingPasses([&](int64_t first) { return device(first); });
  // The bound stays tight: D[0] off by 2^-6, or a member with its sign
  // flipped (C[0] = -1 + 2^-10), fails.
  std::vector<double> wrong = device(1);
  wrong[2] += 0x1p-6;
  expectOneElementFails(check(wrong), 6, 2);
  check::CheckResult flipped = check(device(1, 0));
  EXPECT_FALSE(flipped.pass) << flipped.summary;
}

// The sum c of three f16 members (1, -2^-12, -2^-12) all-reduced over 3
// tiles, then z = (B - c) + 8 with B = -7 - 3 * 2^-8, each op rounded to
// f16. From tile 0, c = 1 (1 - 2^-12 ties to 1, twice) and B - c = -8 -
// 3 * 2^-8 ties to -8 - 2^-6 (ulp 2^-7 past 8): z = -2^-6. From tile 1,
// c = 1 - 2^-11: B - c rounds to -8 - 2^-7 and z = -2^-7, 2^-7 away.
const double kMembers[kTiles] = {1, -0x1p-12, -0x1p-12};
const double kB = -7 - 3 * 0x1p-8;
const char *kRounded = R"(
    %b = arith.constant dense<-7.01171875> : tensor<1x1xf16>
    %k8 = arith.constant dense<8.0> : tensor<1x1xf16>
    %s = arith.subf %b, %c : tensor<1x1xf16>
    %z = arith.addf %s, %k8 : tensor<1x1xf16>
)";

class ReorderBoundThroughARoundingTest : public AllReduceBoundTest {
protected:
  void SetUp() override {
    Tensor x = Tensor::zeros(DType::F16, {kTiles, 1});
    for (int64_t t = 0; t < kTiles; ++t)
      x.setDouble(t, kMembers[t]);
    ASSERT_NO_FATAL_FAILURE(runKernel(
        allReduceKernel(kTiles, 1, 1, "", kRounded, "%z"), {{"x", x}}));
  }

  /// The device's z on every tile: c folded by a ring from tile `first`.
  std::vector<double> device(int64_t first) const {
    double c = 0;
    for (int64_t k = 0; k < kTiles; ++k)
      c = f16(c + kMembers[(first + k) % kTiles]);
    return std::vector<double>(kTiles, f16(f16(kB - c) + 8));
  }
};

TEST_F(ReorderBoundThroughARoundingTest, TheDisplacementRunsBothWays) {
  ASSERT_EQ(valuesOf(expected[0]), device(0));
  EXPECT_EQ(device(0)[0], -0x1p-6);
  EXPECT_EQ(device(1)[0], -0x1p-7);
  // c is displaced by 3 * 2^-10 * (1 + 2^-11) + ulp(1), rounded: up to
  // 1 + 2^-8, where B - c = -8 - 2^-6 exactly, the reference's value (z
  // moves by 0: one way only, the bound was ulp(z) = 2^-16 and the ring
  // from tile 1 failed); down to 1 - 2^-8, where B - c = -8 - 2^-7 and z
  // moves by 2^-7.
  double displacement = kTiles * 0x1p-10 * (1 + 0x1p-11) + ulpF16(1);
  EXPECT_EQ(f16(f16(kB - f16(1 + displacement)) + 8), device(0)[0]);
  EXPECT_EQ(f16(f16(kB - f16(1 - displacement)) + 8), -0x1p-7);
  for (int64_t t = 0; t < kTiles; ++t)
    EXPECT_EQ(bounds[0][t], 0x1p-7) << "tile " << t;
  expectEveryRingPasses([&](int64_t first) { return device(first); });
  // Two ulps of B - c off (z = 0 instead of -2^-6) fails.
  std::vector<double> wrong = device(0);
  wrong[1] += 0x1p-6;
  expectOneElementFails(check(wrong), kTiles, 1);
}

} // namespace

//===- CheckTest.cpp - The output check of `ktflow run --check` -----------===//
//
// This file tests the tolerance `ktflow run --check` derives from a
// kernel's reductions (docs/interpreter.md §9) on a kernel that normalises
// 8192-wide f16 rows by their sum: the reorder bound of the sum is
// n·ε·Σ|x| plus one ulp, computed here independently; an output without a
// reduction gets none; a device-like result that sums in chunks (computed
// here with plain loops) passes; a single wrong element fails; and an op
// the device rounds twice adds one ulp where its result goes. An f16
// all-reduce with a `linalg.add` combiner tolerates the ring's fold orders
// but not a member of the wrong sign.
//
//===----------------------------------------------------------------------===//

#include "CheckTesting.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>

using namespace ktflow;
using namespace ktflow::check::checktest;
using host::DType;
using host::Tensor;

namespace {

constexpr int64_t kRows = 4, kWidth = 8192;

// Y = X / S (S[i] = the f16 sum of row i, accumulated in f32), W = X + 1.
const char *kKernel = R"(
#sx = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 8191 >= 0)>
#sr = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
module {
  func.func @normalise(%x: index, %y: index, %s: index, %w: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %X = ktdp.construct_memory_view %x, sizes: [4, 8192], strides: [8192, 1] {coordinate_set = #sx, memory_space = #ktdp.memory_space<global>} : memref<4x8192xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [4, 8192], strides: [8192, 1] {coordinate_set = #sx, memory_space = #ktdp.memory_space<global>} : memref<4x8192xf16>
    %W = ktdp.construct_memory_view %w, sizes: [4, 8192], strides: [8192, 1] {coordinate_set = #sx, memory_space = #ktdp.memory_space<global>} : memref<4x8192xf16>
    %S = ktdp.construct_memory_view %s, sizes: [4], strides: [1] {coordinate_set = #sr, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
    %tx = ktdp.construct_access_tile %X[%c0, %c0] {access_tile_set = #sx, access_tile_order = #id2} : memref<4x8192xf16> -> !ktdp.access_tile<4x8192xindex>
    %ty = ktdp.construct_access_tile %Y[%c0, %c0] {access_tile_set = #sx, access_tile_order = #id2} : memref<4x8192xf16> -> !ktdp.access_tile<4x8192xindex>
    %tw = ktdp.construct_access_tile %W[%c0, %c0] {access_tile_set = #sx, access_tile_order = #id2} : memref<4x8192xf16> -> !ktdp.access_tile<4x8192xindex>
    %ts = ktdp.construct_access_tile %S[%c0] {access_tile_set = #sr, access_tile_order = #id1} : memref<4xf16> -> !ktdp.access_tile<4xindex>
    %v = ktdp.load %tx : <4x8192xindex> -> tensor<4x8192xf16>
    %zero = arith.constant 0.0 : f16
    %e4 = tensor.empty() : tensor<4xf16>
    %z = linalg.fill ins(%zero : f16) outs(%e4 : tensor<4xf16>) -> tensor<4xf16>
    %sum = linalg.reduce { arith.addf } ins(%v : tensor<4x8192xf16>) outs(%z : tensor<4xf16>) dimensions = [1]
    %e = tensor.empty() : tensor<4x8192xf16>
    %q = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%v, %sum : tensor<4x8192xf16>, tensor<4xf16>) outs(%e : tensor<4x8192xf16>) {
      ^bb0(%a: f16, %b: f16, %o: f16):
        %d = arith.divf %a, %b : f16
        linalg.yield %d : f16
    } -> tensor<4x8192xf16>
    %ones = arith.constant dense<1.0> : tensor<4x8192xf16>
    %p = arith.addf %v, %ones : tensor<4x8192xf16>
    ktdp.store %q, %ty : tensor<4x8192xf16>, <4x8192xindex>
    ktdp.store %sum, %ts : tensor<4xf16>, <4xindex>
    ktdp.store %p, %tw : tensor<4x8192xf16>, <4x8192xindex>
    return
  }
}
)";

class RunCheckTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(parseKernel(kKernel, context, module));
    // Positive inputs: the sum has no cancellation, Σ|x| = Σx.
    x = Tensor::zeros(DType::F16, {kRows, kWidth});
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    for (double &v : x.floats)
      v = static_cast<double>(static_cast<_Float16>(uniform(rng)));
    ASSERT_NO_FATAL_FAILURE(runReference(*module, {{"x", x}}, {"y", "s", "w"},
                                         bindings, expected, bounds));
  }

  std::unique_ptr<mlir::MLIRContext> context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  Tensor x;
  check::ReferenceBindings bindings;
  std::vector<Tensor> expected;
  std::vector<std::vector<double>> bounds;
};

TEST_F(RunCheckTest, BoundOfASumIsNEpsTimesItsMagnitude) {
  const Tensor &s = expected[1];
  for (int64_t i = 0; i < kRows; ++i) {
    double magnitude = 0;
    for (int64_t j = 0; j < kWidth; ++j)
      magnitude += x.getDouble(i * kWidth + j);
    double b = kWidth * 0x1p-23 * magnitude + ulpF16(s.getDouble(i));
    // The displaced sum is rounded to f16: within one ulp of s + b.
    EXPECT_NEAR(bounds[1][i], b, ulpF16(s.getDouble(i) + b)) << "row " << i;
    EXPECT_GT(bounds[1][i], 0);
  }
  // The quotients move with the sum; W = X + 1 reads no reduction.
  double largestY = *std::max_element(bounds[0].begin(), bounds[0].end());
  EXPECT_GT(largestY, 0);
  for (double b : bounds[2])
    EXPECT_EQ(b, 0);
}

TEST_F(RunCheckTest, ChunkedSumsPassAndOneWrongElementFails) {
  // A device-like execution: each row summed in chunks of 64 in f32, the
  // chunk sums added in f32, rounded once; then the f16 quotients.
  std::vector<double> s(kRows), y(kRows * kWidth);
  for (int64_t i = 0; i < kRows; ++i) {
    float acc = 0;
    for (int64_t c = 0; c < kWidth; c += 64) {
      float chunk = static_cast<float>(x.getDouble(i * kWidth + c));
      for (int64_t j = 1; j < 64; ++j)
        chunk += static_cast<float>(x.getDouble(i * kWidth + c + j));
      acc += chunk;
    }
    s[i] = static_cast<double>(static_cast<_Float16>(acc));
    for (int64_t j = 0; j < kWidth; ++j)
      y[i * kWidth + j] = static_cast<double>(
          static_cast<_Float16>(x.getDouble(i * kWidth + j) / s[i]));
  }
  auto check = [&](const std::vector<double> &got, unsigned o) {
    return check::compareOutput(expected[o], halfBytes(got),
                                machine::ElemType::f16, expected[o].shape,
                                bounds[o]);
  };
  EXPECT_TRUE(check(s, 1).pass) << check(s, 1).summary;
  EXPECT_TRUE(check(y, 0).pass) << check(y, 0).summary;
  // The tolerance of a quotient is a few f16 ulps, not a blanket one.
  // (Five at most: the sum displaced down moves x / s one ulp further
  // than displaced up, on some elements.)
  for (int64_t i = 0; i < kRows * kWidth; ++i)
    ASSERT_LE(bounds[0][i], 5 * ulpF16(expected[0].getDouble(i))) << i;

  std::vector<double> wrong = y;
  wrong[1234] *= 1.01;
  expectOneElementFails(check(wrong, 0), 32768, 1234);
}

TEST_F(RunCheckTest, ElementsWithoutReductionsMustAgreeToOneUlp) {
  std::vector<double> w = valuesOf(expected[2]);
  auto check = [&](const std::vector<double> &got) {
    return check::compareOutput(expected[2], halfBytes(got),
                                machine::ElemType::f16, expected[2].shape,
                                bounds[2]);
  };
  EXPECT_TRUE(check(w).pass);
  std::vector<double> oneUlp = w, twoUlps = w;
  oneUlp[77] += ulpF16(w[77]);
  twoUlps[77] += 2 * ulpF16(w[77]);
  EXPECT_TRUE(check(oneUlp).pass);
  expectOneElementFails(check(twoUlps), 32768, 77);
}

// A device that computes W = X + 1 in f32 and rounds back may sit one ulp
// of f16 from the reference there: that op displaced by one ulp adds one
// ulp to W's tolerance, and nothing to the outputs that do not read it. A
// device that does not (the test above) still fails at two ulps.
TEST_F(RunCheckTest, AnOpRoundedTwiceAddsOneUlpWhereItsResultGoes) {
  mlir::Operation *plusOne = nullptr;
  module->walk([&](mlir::arith::AddFOp op) {
    if (mlir::isa<mlir::RankedTensorType>(op.getType()))
      plusOne = op;
  });
  ASSERT_NE(plusOne, nullptr);
  auto computed = check::computeReorderBounds(
      *module, {}, bindings, {"y", "s", "w"}, expected, {plusOne});
  ASSERT_TRUE(static_cast<bool>(computed))
      << llvm::toString(computed.takeError());
  std::vector<std::vector<double>> rerounded = std::move(*computed);
  EXPECT_EQ(rerounded[0], bounds[0]);
  EXPECT_EQ(rerounded[1], bounds[1]);
  std::vector<double> w = valuesOf(expected[2]);
  for (size_t i = 0; i < w.size(); ++i)
    ASSERT_EQ(rerounded[2][i], ulpF16(w[i])) << "element " << i;
  auto check = [&](const std::vector<double> &got) {
    return check::compareOutput(expected[2], halfBytes(got),
                                machine::ElemType::f16, expected[2].shape,
                                rerounded[2]);
  };
  std::vector<double> twoUlps = w, threeUlps = w;
  twoUlps[77] += 2 * ulpF16(w[77]);
  threeUlps[77] += 3 * ulpF16(w[77]);
  EXPECT_TRUE(check(twoUlps).pass);
  EXPECT_FALSE(check(threeUlps).pass);
}

constexpr int64_t kTiles = 4, kColumns = 64;

// An all-reduce whose combiner is the linalg named op (`linalg.add`), as the
// field guide's kernels spell it: four tiles sum their f16 rows, each step
// rounded to f16. A device that folds them in another order (a ring that
// starts at another tile, computed here with plain loops) may sit a few
// ulps from the reference, and passes; one member with its sign flipped
// fails.

TEST(RunCheckAllReduceTest, ALinalgAddAllReduceToleratesAnotherOrderOnly) {
  // Y[t, :] = the f16 all-reduce over the four tiles of X[t, :].
  std::unique_ptr<mlir::MLIRContext> context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  ASSERT_NO_FATAL_FAILURE(parseKernel(
      allReduceKernel(kTiles, kColumns, kColumns), context, module));
  // Signed inputs: the sums cancel, so the orders round differently.
  Tensor x = Tensor::zeros(DType::F16, {kTiles, kColumns});
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (double &v : x.floats)
    v = f16(uniform(rng));
  check::ReferenceBindings bindings;
  std::vector<Tensor> expected;
  std::vector<std::vector<double>> bounds;
  ASSERT_NO_FATAL_FAILURE(
      runReference(*module, {{"x", x}}, {"y"}, bindings, expected, bounds));
  const std::vector<double> &bound = bounds.front();

  // The bound of the fold: n·ε·Σ|partial| plus one ulp, rounded to f16.
  auto fold = [&](int64_t c, int64_t first, int64_t flipped) {
    double acc = 0;
    for (int64_t k = 0; k < kTiles; ++k) {
      int64_t t = (first + k) % kTiles;
      double v = x.getDouble(t * kColumns + c);
      acc = f16(acc + (t == flipped ? -v : v));
    }
    return acc;
  };
  for (int64_t c = 0; c < kColumns; ++c) {
    double magnitude = 0;
    for (int64_t t = 0; t < kTiles; ++t)
      magnitude += std::fabs(x.getDouble(t * kColumns + c));
    double r = fold(c, 0, -1);
    ASSERT_EQ(expected[0].getDouble(c), r) << "column " << c;
    double b = kTiles * 0x1p-10 * magnitude + ulpF16(r);
    for (int64_t t = 0; t < kTiles; ++t)
      EXPECT_NEAR(bound[t * kColumns + c], b, ulpF16(r + b))
          << "tile " << t << ", column " << c;
  }

  auto check = [&](int64_t first, int64_t flipped) {
    std::vector<double> got(kTiles * kColumns);
    for (int64_t t = 0; t < kTiles; ++t)
      for (int64_t c = 0; c < kColumns; ++c)
        got[t * kColumns + c] = fold(c, first, flipped);
    return check::compareOutput(expected[0], halfBytes(got),
                                machine::ElemType::f16, expected[0].shape,
                                bound);
  };
  // Each rotation is a valid order; some of them differ from the
  // reference's somewhere (else this test checks nothing).
  bool anyDiffers = false;
  for (int64_t first = 0; first < kTiles; ++first) {
    check::CheckResult result = check(first, -1);
    EXPECT_TRUE(result.pass)
        << "ring from tile " << first << ": " << result.summary;
    anyDiffers |=
        result.summary.find("max abs error 0.000e+00") == std::string::npos;
  }
  EXPECT_TRUE(anyDiffers);
  check::CheckResult flipped = check(1, 2);
  EXPECT_FALSE(flipped.pass) << flipped.summary;
}

} // namespace

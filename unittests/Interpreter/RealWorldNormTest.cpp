//===- RealWorldNormTest.cpp - Real-world normalisation kernels -----------===//
//
// This file runs the softmax, row statistics, layernorm and RMSNorm kernels
// of examples/kernels/realworld and compares every output element with a
// reference written as plain loops that round where the kernel rounds (f16
// element-wise ops once per op; reductions accumulate in f32 and round once),
// at the tolerances the real-world corpus uses for these kernels.
//
//===----------------------------------------------------------------------===//

#include "RealWorldSupport.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>

using namespace ktflow::testing;
using namespace ktflow::testing::realworld;
using ktflow::host::DType;
using ktflow::host::Tensor;

namespace {

TEST(RealWorld, SoftmaxRows) {
  auto run = KernelRun::fromExample("realworld/softmax_rows.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor x = randomTensor(DType::F16, {64, 128}, 101, -4, 4);
  run->input("input_ptr", x);
  run->arg("n_rows", "64");
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref(64 * 128);
  for (int64_t r = 0; r < 64; ++r) {
    double m = -INFINITY;
    for (int64_t c = 0; c < 128; ++c)
      m = std::max(m, at(x, r, c, 128));
    std::vector<double> e(128);
    for (int64_t c = 0; c < 128; ++c)
      e[c] = expF16(f16(at(x, r, c, 128) - m));
    double s = sumF16(e);
    for (int64_t c = 0; c < 128; ++c)
      ref[r * 128 + c] = f16(e[c] / s);
  }
  expectClose(run->output("output_ptr"), ref, CorpusTolerance::normalisation(),
              "Y");
}

TEST(RealWorld, RowStats) {
  auto run = KernelRun::fromExample("realworld/row_stats.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor x = randomTensor(DType::F16, {64, 256}, 108, -4, 4);
  run->input("x_ptr", x);
  run->arg("n_rows", "64");
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> maxima(64), sums(64);
  for (int64_t r = 0; r < 64; ++r) {
    std::vector<double> row(256);
    for (int64_t c = 0; c < 256; ++c)
      row[c] = at(x, r, c, 256);
    maxima[r] = *std::max_element(row.begin(), row.end());
    sums[r] = sumF16(row);
  }
  expectClose(run->output("max_ptr"), maxima, CorpusTolerance::copy(), "MAX");
  expectClose(run->output("sum_ptr"), sums, CorpusTolerance::normalisation(),
              "SUM");
}

TEST(RealWorld, LayernormRows) {
  auto run = KernelRun::fromExample("realworld/layernorm_rows.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  const int64_t rows = 67, n = 512;
  Tensor x = randomTensor(DType::F16, {rows, n}, 102, -2, 2);
  Tensor w = randomTensor(DType::F16, {n}, 103);
  Tensor b = randomTensor(DType::F16, {n}, 104);
  run->input("X_ptr", x);
  run->input("W_ptr", w);
  run->input("B_ptr", b);
  run->arg("n_rows", "67");
  run->arg("N", "512");
  run->arg("eps", "1e-5");
  ASSERT_TRUE(run->run()) << run->errors;
  const double eps = f16(1e-5);
  std::vector<double> refY(rows * n), refMean(rows), refRstd(rows);
  for (int64_t r = 0; r < rows; ++r) {
    // The kernel folds the 4 column blocks element-wise in f16 first.
    std::vector<double> acc(128, 0.0);
    for (int64_t blk = 0; blk < n; blk += 128)
      for (int64_t j = 0; j < 128; ++j)
        acc[j] = f16(acc[j] + at(x, r, blk + j, n));
    double mean = f16(sumF16(acc) / n);
    std::vector<double> sq(128, 0.0);
    for (int64_t blk = 0; blk < n; blk += 128)
      for (int64_t j = 0; j < 128; ++j) {
        double d = f16(at(x, r, blk + j, n) - mean);
        sq[j] = f16(sq[j] + f16(d * d));
      }
    double var = f16(sumF16(sq) / n);
    double rstd = f16(1.0 / std::sqrt(f16(var + eps)));
    refMean[r] = mean;
    refRstd[r] = rstd;
    for (int64_t c = 0; c < n; ++c) {
      double d = f16(at(x, r, c, n) - mean);
      refY[r * n + c] = f16(f16(f16(d * rstd) * w.floats[c]) + b.floats[c]);
    }
  }
  Tolerance tol = CorpusTolerance::normalisation();
  expectClose(run->output("Y_ptr"), refY, tol, "Y");
  expectClose(run->output("Mean_ptr"), refMean, tol, "Mean");
  expectClose(run->output("Rstd_ptr"), refRstd, tol, "Rstd");
}

TEST(RealWorld, RmsnormBlocks) {
  auto run = KernelRun::fromExample("realworld/rmsnorm_blocks.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  const int64_t rows = 30, n = 256;
  Tensor x = randomTensor(DType::F16, {rows, n}, 105, -2, 2);
  Tensor w = randomTensor(DType::F16, {n}, 106);
  run->input("x_ptr", x);
  run->input("w_ptr", w);
  run->arg("n_rows", "30");
  run->arg("eps", "1e-5");
  ASSERT_TRUE(run->run()) << run->errors;
  const double eps = f16(1e-5);
  std::vector<double> ref(rows * n);
  for (int64_t r = 0; r < rows; ++r) {
    double acc = 0;
    for (int64_t blk = 0; blk < n; blk += 128) {
      std::vector<double> sq;
      for (int64_t j = 0; j < 128; ++j)
        sq.push_back(at(x, r, blk + j, n) * at(x, r, blk + j, n)); // exact
      acc = f16(acc + sumF16(sq));
    }
    double rstd = f16(1.0 / std::sqrt(f16(f16(acc / n) + eps)));
    for (int64_t c = 0; c < n; ++c)
      ref[r * n + c] = f16(f16(at(x, r, c, n) * rstd) * w.floats[c]);
  }
  expectClose(run->output("y_ptr"), ref, CorpusTolerance::normalisation(),
              "Y");
}

TEST(RealWorld, Rmsnorm2x2) {
  auto run = KernelRun::fromExample("realworld/rmsnorm_2x2.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  // Two column shards: X[r, 128h + j] is element h * 2048 + r * 128 + j.
  Tensor x = randomTensor(DType::F16, {2, 16, 128}, 107, -2, 2);
  Tensor w = randomTensor(DType::F16, {2, 128}, 108);
  run->input("x_ptr", x);
  run->input("w_ptr", w);
  run->arg("eps", "1e-5");
  ASSERT_TRUE(run->run()) << run->errors;
  const double eps = f16(1e-5);
  auto xAt = [&](int64_t r, int64_t c) {
    return x.floats[(c / 128) * 2048 + r * 128 + c % 128];
  };
  std::vector<double> ref(2 * 16 * 128);
  for (int64_t r = 0; r < 16; ++r) {
    // Each half's partial, then the inter-tile fold from 0 in tile order.
    double total = 0;
    for (int64_t h = 0; h < 2; ++h) {
      std::vector<double> sq;
      for (int64_t j = 0; j < 128; ++j)
        sq.push_back(f16(xAt(r, 128 * h + j) * xAt(r, 128 * h + j)));
      total = f16(total + sumF16(sq));
    }
    double rms = f16(std::sqrt(f16(f16(total / 256) + eps)));
    for (int64_t c = 0; c < 256; ++c)
      ref[(c / 128) * 2048 + r * 128 + c % 128] =
          f16(f16(xAt(r, c) / rms) * w.floats[c]);
  }
  expectClose(run->output("y_ptr"), ref, CorpusTolerance::normalisation(),
              "Y");
}

} // namespace

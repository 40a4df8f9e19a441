//===- RealWorldNormTest.cpp - Real-world normalisation kernels -----------===//
//
// This file runs the normalisation kernels of
// examples/kernels/realworld and compares every output element with a
// reference written as plain loops that round where the kernel rounds (f16
// element-wise ops once per op; reductions accumulate in f32 and round once),
// at the tolerances the real-world corpus uses for these kernels.
//
//===----------------------------------------------------------------------===//

#include "RealWorldSupport.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace ktflow::testing;
using namespace ktflow::testing::realworld;
using ktflow::interp::DType;
using ktflow::interp::Tensor;

namespace {

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

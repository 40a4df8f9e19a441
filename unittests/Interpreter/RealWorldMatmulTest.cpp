//===- RealWorldMatmulTest.cpp - Real-world matmul and FFN kernels --------===//
//
// This file runs the kernels of examples/kernels/realworld built on
// linalg.matmul (the blocked matmul and the single-core SwiGLU FFN) and
// compares every output element with a plain-loop reference: f16 products
// accumulate in f32 and round once per element, element-wise ops round once
// per op; at the tolerances the real-world corpus uses.
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

/// f16(silu(h1) * h3) the way the FFN kernels spell it: h1 * 1/(1+exp(-h1)).
Matrix swiglu(const Matrix &h1, const Matrix &h3) {
  Matrix g(h1.rows, h1.cols);
  for (size_t i = 0; i < g.data.size(); ++i) {
    double sig = f16(1.0 / f16(1.0 + expF16(-h1.data[i])));
    g.data[i] = f16(f16(h1.data[i] * sig) * h3.data[i]);
  }
  return g;
}

TEST(RealWorld, MatmulTiled) {
  auto run = KernelRun::fromExample("realworld/matmul_tiled.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor a = randomTensor(DType::F16, {64, 256}, 201);
  Tensor b = randomTensor(DType::F16, {256, 128}, 202);
  run->input("a_ptr", a);
  run->input("b_ptr", b);
  run->arg("K", "256");
  run->arg("BLOCK_SIZE_M", "32");
  run->arg("BLOCK_SIZE_N", "64");
  run->arg("BLOCK_SIZE_K", "64");
  ASSERT_TRUE(run->run()) << run->errors;
  Matrix acc(64, 128);
  for (int64_t k0 = 0; k0 < 256; k0 += 64) {
    Matrix p = matmulF16(block(a, k0, 64, 64, 256), block(b, k0 * 128, 64, 128, 128));
    for (size_t i = 0; i < acc.data.size(); ++i)
      acc.data[i] = f16(acc.data[i] + p.data[i]);
  }
  expectClose(run->output("c_ptr"), acc.data, CorpusTolerance::matmul(), "C");
}

TEST(RealWorld, SwigluFfn) {
  auto run = KernelRun::fromExample("realworld/swiglu_ffn.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor x = randomTensor(DType::F16, {8, 64}, 205);
  Tensor w1 = randomTensor(DType::F16, {64, 128}, 206, -0.25, 0.25);
  Tensor w3 = randomTensor(DType::F16, {64, 128}, 207, -0.25, 0.25);
  Tensor w2 = randomTensor(DType::F16, {128, 64}, 208, -0.25, 0.25);
  run->input("x_ptr", x);
  run->input("w1_ptr", w1);
  run->input("w3_ptr", w3);
  run->input("w2_ptr", w2);
  ASSERT_TRUE(run->run()) << run->errors;
  Matrix xm = block(x, 0, 8, 64, 64), acc(8, 64);
  for (int64_t j = 0; j < 128; j += 64) {
    Matrix h1 = matmulF16(xm, block(w1, j, 64, 64, 128));
    Matrix h3 = matmulF16(xm, block(w3, j, 64, 64, 128));
    acc = matmulF16(swiglu(h1, h3), block(w2, j * 64, 64, 64, 64), &acc);
  }
  expectClose(run->output("out_ptr"), acc.data,
              CorpusTolerance::singleCoreFfn(), "OUT");
}

} // namespace

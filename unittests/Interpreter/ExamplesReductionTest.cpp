//===- ExamplesReductionTest.cpp - Reduction and matmul example kernels ---===//
//
// This file runs the normalisation, matmul and all-reduce kernels of
// examples/kernels and compares them with references that follow each
// kernel's documented order of f32 operations.
//
//===----------------------------------------------------------------------===//

#include "KernelTestSupport.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace ktflow::testing;
using ktflow::host::DType;
using ktflow::host::Tensor;

namespace {

TEST(Examples, Softmax) {
  auto run = KernelRun::fromExample("softmax.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor x = randomTensor(DType::F16, {64, 128}, 21, -4, 4);
  run->input("x", x);
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref(64 * 128);
  for (int64_t i = 0; i < 64; ++i) {
    float m = -INFINITY;
    for (int64_t j = 0; j < 128; ++j)
      m = std::max(m, static_cast<float>(at(x, i, j, 128)));
    std::vector<float> e(128);
    float s = 0;
    for (int64_t j = 0; j < 128; ++j) {
      float d = static_cast<float>(at(x, i, j, 128)) - m;
      e[j] = std::exp(d);
      s = s + e[j];
    }
    for (int64_t j = 0; j < 128; ++j)
      ref[i * 128 + j] = f16(e[j] / s);
  }
  expectClose(run->output("y"), ref, Tolerance::half(), "Y");
}

TEST(Examples, Layernorm) {
  auto run = KernelRun::fromExample("layernorm.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor x = randomTensor(DType::F16, {64, 128}, 22, -2, 2);
  Tensor w = randomTensor(DType::F16, {128}, 23);
  Tensor b = randomTensor(DType::F16, {128}, 24);
  run->input("x", x);
  run->input("w", w);
  run->input("b", b);
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref(64 * 128);
  for (int64_t i = 0; i < 64; ++i) {
    float sum = 0;
    for (int64_t j = 0; j < 128; ++j)
      sum = sum + static_cast<float>(at(x, i, j, 128));
    float mean = sum / 128.0f;
    std::vector<float> c(128);
    float sq = 0;
    for (int64_t j = 0; j < 128; ++j) {
      c[j] = static_cast<float>(at(x, i, j, 128)) - mean;
      float p = c[j] * c[j];
      sq = p + sq;
    }
    float var = sq / 128.0f;
    float varEps = var + 1.0e-5f;
    float r = static_cast<float>(1.0 / std::sqrt(static_cast<double>(varEps)));
    for (int64_t j = 0; j < 128; ++j) {
      float n1 = c[j] * r;
      float n2 = n1 * static_cast<float>(w.floats[j]);
      float n3 = n2 + static_cast<float>(b.floats[j]);
      ref[i * 128 + j] = f16(n3);
    }
  }
  expectClose(run->output("y"), ref, Tolerance::half(), "Y");
}

TEST(Examples, Rmsnorm) {
  auto run = KernelRun::fromExample("rmsnorm.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor x = randomTensor(DType::F16, {32, 128}, 25, -2, 2);
  Tensor w = randomTensor(DType::F16, {128}, 26);
  run->input("x", x);
  run->input("w", w);
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref(32 * 128);
  for (int64_t i = 0; i < 32; ++i) {
    float sq = 0;
    for (int64_t j = 0; j < 128; ++j) {
      float v = static_cast<float>(at(x, i, j, 128));
      float p = v * v;
      sq = p + sq;
    }
    float ms = sq / 128.0f;
    float d = std::sqrt(ms + 1.0e-6f);
    for (int64_t j = 0; j < 128; ++j) {
      float q = static_cast<float>(at(x, i, j, 128)) / d;
      float p = q * static_cast<float>(w.floats[j]);
      ref[i * 128 + j] = f16(p);
    }
  }
  expectClose(run->output("y"), ref, Tolerance::half(), "Y");
}

TEST(Examples, Matmul) {
  auto run = KernelRun::fromExample("matmul.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor a = randomTensor(DType::F16, {64, 256}, 27);
  Tensor b = randomTensor(DType::F16, {256, 128}, 28);
  run->input("a", a);
  run->input("b", b);
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref(64 * 128);
  for (int64_t m = 0; m < 64; ++m)
    for (int64_t n = 0; n < 128; ++n) {
      float acc = 0;
      for (int64_t k = 0; k < 256; ++k) {
        float p = static_cast<float>(at(a, m, k, 256)) *
                  static_cast<float>(at(b, k, n, 128));
        acc = acc + p;
      }
      ref[m * 128 + n] = f16(acc);
    }
  expectClose(run->output("c"), ref, Tolerance::half(), "C");
}

TEST(Examples, BatchMatmul) {
  auto run = KernelRun::fromExample("batch_matmul.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor a = randomTensor(DType::F16, {4, 32, 64}, 29);
  Tensor bt = randomTensor(DType::F16, {4, 32, 64}, 30);
  run->input("a", a);
  run->input("bt", bt);
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref(4 * 32 * 32);
  for (int64_t bi = 0; bi < 4; ++bi)
    for (int64_t m = 0; m < 32; ++m)
      for (int64_t n = 0; n < 32; ++n) {
        float acc = 0;
        for (int64_t k = 0; k < 64; ++k) {
          float p = static_cast<float>(a.floats[(bi * 32 + m) * 64 + k]) *
                    static_cast<float>(bt.floats[(bi * 32 + n) * 64 + k]);
          acc = acc + p;
        }
        ref[(bi * 32 + m) * 32 + n] = acc;
      }
  Tensor c = run->output("c");
  EXPECT_EQ(c.dtype, DType::F32);
  expectClose(c, ref, Tolerance::single(), "C");
}

TEST(Examples, Allreduce) {
  auto run = KernelRun::fromExample("allreduce.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor x = randomTensor(DType::F16, {64, 64}, 31);
  run->input("x", x);
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<float> total(64, 0.0f);
  for (int64_t t = 0; t < 4; ++t)
    for (int64_t j = 0; j < 64; ++j) {
      float partial = 0;
      for (int64_t i = 16 * t; i < 16 * t + 16; ++i)
        partial = static_cast<float>(at(x, i, j, 64)) + partial;
      total[j] = total[j] + partial;
    }
  std::vector<double> ref(64 * 64);
  for (int64_t i = 0; i < 64; ++i)
    for (int64_t j = 0; j < 64; ++j) {
      float mean = total[j] / 64.0f;
      ref[i * 64 + j] = f16(static_cast<float>(at(x, i, j, 64)) - mean);
    }
  expectClose(run->output("y"), ref, Tolerance::half(), "Y");
}

} // namespace

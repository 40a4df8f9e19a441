//===- RealWorldMatmulTest.cpp - Real-world matmul and FFN kernels --------===//
//
// This file runs the kernels of examples/kernels/realworld built on
// linalg.matmul and linalg.batch_matmul (the blocked matmul, batched
// attention scores, the split-K product, the SwiGLU FFNs and causal
// attention, whole and with an online softmax over key blocks) and
// compares every output element with a plain-loop reference: f16
// products accumulate in f32 and round once per element, element-wise ops
// round once per op, inter-tile reductions fold in tile order from the
// identity; at the tolerances the real-world corpus uses.
//
//===----------------------------------------------------------------------===//

#include "RealWorldSupport.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace ktflow::testing;
using namespace ktflow::testing::realworld;
using ktflow::host::DType;
using ktflow::host::Tensor;

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

TEST(RealWorld, BatchScores) {
  auto run = KernelRun::fromExample("realworld/batch_scores.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor q = randomTensor(DType::F16, {4, 64, 64}, 211);
  Tensor k = randomTensor(DType::F16, {4, 64, 64}, 212);
  run->input("q_ptr", q);
  run->input("k_ptr", k);
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref;
  for (int64_t h = 0; h < 4; ++h) {
    // K^T of head h: element (d, n) is K[h, n, d].
    Matrix keys = block(k, h * 4096, 64, 64, 64), kt(64, 64);
    for (int64_t n = 0; n < 64; ++n)
      for (int64_t d = 0; d < 64; ++d)
        kt(d, n) = keys(n, d);
    Matrix s = matmulF16(block(q, h * 4096, 64, 64, 64), kt);
    ref.insert(ref.end(), s.data.begin(), s.data.end());
  }
  expectClose(run->output("s_ptr"), ref, CorpusTolerance::matmul(), "S");
}

TEST(RealWorld, SplitKPV) {
  auto run = KernelRun::fromExample("realworld/splitk_pv.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor p = randomTensor(DType::F16, {1, 512}, 203, 0, 1.0 / 256);
  Tensor v = randomTensor(DType::F16, {512, 64}, 204);
  run->input("p_ptr", p);
  run->input("v_ptr", v);
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref(64, 0.0);
  for (int64_t half = 0; half < 2; ++half)
    for (int64_t k = 0; k < 16; ++k) { // tile order within the group
      Matrix part = matmulF16(block(p, 32 * k, 1, 32, 512),
                              block(v, 32 * k * 64 + 32 * half, 32, 32, 64));
      for (int64_t c = 0; c < 32; ++c)
        ref[32 * half + c] = f16(ref[32 * half + c] + part(0, c));
    }
  expectClose(run->output("o_ptr"), ref, CorpusTolerance::matmul(), "O");
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

TEST(RealWorld, ShardedFfn) {
  auto run = KernelRun::fromExample("realworld/sharded_ffn.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  // W1 and W3: 4 column partitions of 64x64, partition k at element 4096 k.
  Tensor x = randomTensor(DType::F16, {4, 64}, 209);
  Tensor w1 = randomTensor(DType::F16, {4, 64, 64}, 210, -0.25, 0.25);
  Tensor w3 = randomTensor(DType::F16, {4, 64, 64}, 211, -0.25, 0.25);
  Tensor w2 = randomTensor(DType::F16, {256, 64}, 212, -0.25, 0.25);
  run->input("x_ptr", x);
  run->input("w1_ptr", w1);
  run->input("w3_ptr", w3);
  run->input("w2_ptr", w2);
  ASSERT_TRUE(run->run()) << run->errors;
  Matrix xm = block(x, 0, 4, 64, 64), sum(4, 64);
  for (int64_t k = 0; k < 4; ++k) {
    Matrix h1 = matmulF16(xm, block(w1, 4096 * k, 64, 64, 64));
    Matrix h3 = matmulF16(xm, block(w3, 4096 * k, 64, 64, 64));
    Matrix part = matmulF16(swiglu(h1, h3), block(w2, 4096 * k, 64, 64, 64));
    for (size_t i = 0; i < sum.data.size(); ++i)
      sum.data[i] = f16(sum.data[i] + part.data[i]);
  }
  std::vector<double> ref(4 * 64);
  for (size_t i = 0; i < ref.size(); ++i)
    ref[i] = f16(xm.data[i] + sum.data[i]);
  expectClose(run->output("out_ptr"), ref, CorpusTolerance::shardedFfn(),
              "OUT");
}

TEST(RealWorld, SdpaCausal) {
  auto run = KernelRun::fromExample("realworld/sdpa_causal.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor q = randomTensor(DType::F16, {32, 32}, 213, -2, 2);
  Tensor k = randomTensor(DType::F16, {32, 32}, 214, -2, 2);
  Tensor v = randomTensor(DType::F16, {32, 32}, 215);
  run->input("q_ptr", q);
  run->input("k_ptr", k);
  run->input("v_ptr", v);
  run->arg("scale", "0.17677669");
  ASSERT_TRUE(run->run()) << run->errors;
  const float scale = 0.17677669f;
  std::vector<double> ref(32 * 32);
  for (int64_t i = 0; i < 32; ++i) {
    std::vector<float> s(32);
    float m = -INFINITY;
    for (int64_t j = 0; j <= i; ++j) { // keys past i are masked out
      float dot = 0;
      for (int64_t d = 0; d < 32; ++d)
        dot += static_cast<float>(at(q, i, d, 32)) *
               static_cast<float>(at(k, j, d, 32));
      s[j] = dot * scale;
      m = std::max(m, s[j]);
    }
    float l = 0;
    for (int64_t j = 0; j <= i; ++j) {
      s[j] = std::exp(s[j] - m);
      l += s[j];
    }
    for (int64_t d = 0; d < 32; ++d) {
      float o = 0;
      for (int64_t j = 0; j <= i; ++j)
        o += s[j] / l * static_cast<float>(at(v, j, d, 32));
      ref[i * 32 + d] = f16(o);
    }
  }
  expectClose(run->output("o_ptr"), ref, CorpusTolerance::normalisation(),
              "O");
}

// The online softmax over key blocks against plain causal attention (one
// maximum and one sum per row over all visible keys): the same values up
// to f32 rounding.
TEST(RealWorld, FlashAttnCausal) {
  auto run = KernelRun::fromExample("realworld/flash_attn_causal.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor q = randomTensor(DType::F16, {64, 32}, 216, -2, 2);
  Tensor k = randomTensor(DType::F16, {64, 32}, 217, -2, 2);
  Tensor v = randomTensor(DType::F16, {64, 32}, 218);
  run->input("q_ptr", q);
  run->input("k_ptr", k);
  run->input("v_ptr", v);
  run->arg("scale", "0.17677669");
  ASSERT_TRUE(run->run()) << run->errors;
  const double scale = 0.17677669;
  std::vector<double> ref(64 * 32);
  for (int64_t i = 0; i < 64; ++i) {
    std::vector<double> s(i + 1);
    double m = -INFINITY;
    for (int64_t j = 0; j <= i; ++j) { // keys past i are masked out
      double dot = 0;
      for (int64_t d = 0; d < 32; ++d)
        dot += at(q, i, d, 32) * at(k, j, d, 32);
      s[j] = dot * scale;
      m = std::max(m, s[j]);
    }
    double l = 0;
    for (int64_t j = 0; j <= i; ++j) {
      s[j] = std::exp(s[j] - m);
      l += s[j];
    }
    for (int64_t d = 0; d < 32; ++d) {
      double o = 0;
      for (int64_t j = 0; j <= i; ++j)
        o += s[j] * at(v, j, d, 32);
      ref[i * 32 + d] = f16(o / l);
    }
  }
  expectClose(run->output("o_ptr"), ref, CorpusTolerance::normalisation(), "O");
}

} // namespace

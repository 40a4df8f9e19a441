//===- RealWorldMemoryTest.cpp - Real-world addressing kernels ------------===//
//
// This file runs the kernels of examples/kernels/realworld whose point is
// addressing: paged and indexed gathers through indirect access tiles,
// literal addresses, a dynamic view size with a masked tail, blocks at
// pid * BLOCK, views without a coordinate_set, a distributed view over
// device memory and two tiles' LX, and RoPE's nested loops.
// Each output is compared element by element with a plain-loop reference:
// copies exactly, arithmetic at the real-world corpus tolerance of its
// kernel kind.
//
//===----------------------------------------------------------------------===//

#include "RealWorldSupport.h"

#include "gtest/gtest.h"

using namespace ktflow::testing;
using namespace ktflow::testing::realworld;
using ktflow::host::DType;
using ktflow::host::Tensor;

namespace {

TEST(RealWorld, RopeHeads) {
  auto run = KernelRun::fromExample("realworld/rope_heads.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor x = randomTensor(DType::F16, {256, 32}, 301, -2, 2);
  Tensor cs = randomTensor(DType::F16, {64, 16}, 302);
  Tensor sn = randomTensor(DType::F16, {64, 16}, 303);
  run->input("x_ptr", x);
  run->input("cos_ptr", cs);
  run->input("sin_ptr", sn);
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref(256 * 32);
  for (int64_t h = 0; h < 4; ++h)
    for (int64_t s = 0; s < 64; ++s)
      for (int64_t j = 0; j < 16; ++j) {
        int64_t r = h * 64 + s;
        double x1 = at(x, r, j, 32), x2 = at(x, r, j + 16, 32);
        double c = at(cs, s, j, 16), si = at(sn, s, j, 16);
        ref[r * 32 + j] = f16(f16(x1 * c) - f16(x2 * si));
        ref[r * 32 + j + 16] = f16(f16(x2 * c) + f16(x1 * si));
      }
  expectClose(run->output("out_ptr"), ref, CorpusTolerance::normalisation(),
              "OUT");
}

TEST(RealWorld, VectorAddDynamicSizeMasksTheTail) {
  auto run = KernelRun::fromExample("realworld/vector_add_dyn.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  const int64_t n = 2000, padded = 2048;
  Tensor x = randomTensor(DType::F32, {n}, 304);
  Tensor y = randomTensor(DType::F32, {n}, 305);
  // The output buffer is longer than n: the masked lanes of the last block
  // must leave its tail untouched.
  Tensor out = Tensor::zeros(DType::F32, {padded});
  for (int64_t i = 0; i < padded; ++i)
    out.floats[i] = 7.0;
  run->input("x_ptr", x);
  run->input("y_ptr", y);
  run->input("output_ptr", out);
  run->arg("n_elements", "2000");
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref(padded, 7.0);
  for (int64_t i = 0; i < n; ++i)
    ref[i] = f32(x.floats[i] + y.floats[i]);
  expectClose(run->output("output_ptr"), ref, CorpusTolerance::vectorAddF32(),
              "OUT");
}

TEST(RealWorld, VectorAddStaticBlocks) {
  auto run = KernelRun::fromExample("realworld/vector_add.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor x = randomTensor(DType::F16, {4096}, 306);
  Tensor y = randomTensor(DType::F16, {4096}, 307);
  run->input("x_ptr", x);
  run->input("y_ptr", y);
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref(4096);
  for (int64_t i = 0; i < 4096; ++i)
    ref[i] = f16(x.floats[i] + y.floats[i]);
  expectClose(run->output("output_ptr"), ref, CorpusTolerance::copy(), "OUT");
}

TEST(RealWorld, PagedKvGather) {
  auto run = KernelRun::fromExample("realworld/paged_kv_gather.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor pool = randomTensor(DType::F16, {32, 4, 16, 32}, 306);
  Tensor pt = randomTensor(DType::I32, {2, 4}, 307, 0, 32);
  run->input("pool_ptr", pool);
  run->input("pt_ptr", pt);
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref(2 * 64 * 4 * 32);
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t t = 0; t < 64; ++t)
      for (int64_t h = 0; h < 4; ++h)
        for (int64_t d = 0; d < 32; ++d) {
          int64_t page = pt.ints[b * 4 + t / 16];
          ref[((b * 64 + t) * 4 + h) * 32 + d] =
              pool.floats[((page * 4 + h) * 16 + t % 16) * 32 + d];
        }
  expectClose(run->output("out_ptr"), ref, CorpusTolerance::copy(), "OUT");
}

TEST(RealWorld, IndexedAdd) {
  auto run = KernelRun::fromExample("realworld/indexed_add.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor table = randomTensor(DType::F16, {64, 128}, 308);
  Tensor idx = randomTensor(DType::I64, {32}, 309, 0, 64);
  Tensor y = randomTensor(DType::F16, {32, 64}, 310);
  run->input("table_ptr", table);
  run->input("idx_ptr", idx);
  run->input("y_ptr", y);
  run->arg("start", "32");
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref(32 * 64);
  for (int64_t r = 0; r < 32; ++r)
    for (int64_t c = 0; c < 64; ++c)
      ref[r * 64 + c] = f16(at(table, idx.ints[r], 32 + c, 128) + at(y, r, c, 64));
  expectClose(run->output("out_ptr"), ref, CorpusTolerance::normalisation(),
              "OUT");
}

TEST(RealWorld, Gather2dAtLiteralAddresses) {
  auto run = KernelRun::fromExample("realworld/gather2d_literal.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor src = randomTensor(DType::F16, {64, 64}, 311);
  Tensor rows = randomTensor(DType::I32, {32, 32}, 312, 0, 64);
  Tensor cols = randomTensor(DType::I32, {32, 32}, 313, 0, 64);
  run->input("@0", src);
  run->input("@4096", rows);
  run->input("@8192", cols);
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref(32 * 32);
  for (int64_t i = 0; i < 32 * 32; ++i)
    ref[i] = at(src, rows.ints[i], cols.ints[i], 64);
  expectClose(run->output("@32768"), ref, CorpusTolerance::copy(), "OUT");
}

TEST(RealWorld, LxMixedCopyThroughThreeMemories) {
  auto run = KernelRun::fromExample("realworld/lx_mixed_copy.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor x = randomTensor(DType::F16, {192, 64}, 315);
  run->input("x_ptr", x);
  ASSERT_TRUE(run->run()) << run->errors;
  // Each tile's copy: a wrong part-to-local mapping (the column-major LX
  // part) or a part read before its tile filled it shows here.
  std::vector<double> ref(2 * 192 * 64);
  for (int64_t t = 0; t < 2; ++t)
    for (int64_t i = 0; i < 192 * 64; ++i)
      ref[t * 192 * 64 + i] = x.floats[i];
  expectClose(run->output("y_ptr"), ref, CorpusTolerance::copy(), "Y");
}

TEST(RealWorld, BiasTwiceWithoutCoordinateSet) {
  auto run = KernelRun::fromExample("realworld/bias_twice.ktir");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor x = randomTensor(DType::F32, {4, 64}, 314);
  run->input("x_ptr", x);
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref(4 * 64);
  for (int64_t i = 0; i < 4 * 64; ++i)
    ref[i] = f32(f32(x.floats[i] + 1.0) + 1.0);
  expectClose(run->output("y_ptr"), ref, CorpusTolerance::copy(), "Y");
}

} // namespace

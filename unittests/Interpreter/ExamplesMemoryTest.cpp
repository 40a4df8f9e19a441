//===- ExamplesMemoryTest.cpp - Data-movement example kernels -------------===//
//
// This file runs the kernels of examples/kernels that move data through
// indirect tiles, distributed scratchpad views and inter-tile futures, and
// checks every element exactly.
//
//===----------------------------------------------------------------------===//

#include "KernelTestSupport.h"

#include "gtest/gtest.h"

#include <numeric>
#include <random>

using namespace ktflow::testing;
using ktflow::host::DType;
using ktflow::host::Tensor;

namespace {

TEST(Examples, PagedGather) {
  auto run = KernelRun::fromExample("paged_gather.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor x = randomTensor(DType::F16, {16, 2, 16, 64}, 41);
  Tensor idx = randomTensor(DType::I32, {2, 4}, 42, 0, 16);
  run->input("x", x);
  run->input("idx", idx);
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref(2 * 64 * 2 * 64);
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t t = 0; t < 64; ++t)
      for (int64_t h = 0; h < 2; ++h)
        for (int64_t d = 0; d < 64; ++d) {
          int64_t page = idx.ints[b * 4 + t / 16];
          ref[((b * 64 + t) * 2 + h) * 64 + d] =
              x.floats[((page * 2 + h) * 16 + t % 16) * 64 + d];
        }
  expectClose(run->output("y"), ref, Tolerance::exact(), "Y");
}

TEST(Examples, IndirectScatter) {
  auto run = KernelRun::fromExample("indirect_scatter.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor x = randomTensor(DType::F16, {32, 64}, 43);
  Tensor cache = randomTensor(DType::F16, {64, 64}, 44);
  std::vector<int64_t> perm(64);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), std::mt19937(45));
  Tensor slot = Tensor::zeros(DType::I32, {32});
  for (int64_t i = 0; i < 32; ++i)
    slot.ints[i] = perm[i];
  run->input("x", x);
  run->input("slot", slot);
  run->input("cache", cache);
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref(cache.floats.begin(), cache.floats.end());
  for (int64_t i = 0; i < 32; ++i)
    for (int64_t j = 0; j < 64; ++j)
      ref[slot.ints[i] * 64 + j] = at(x, i, j, 64);
  expectClose(run->output("cache"), ref, Tolerance::exact(), "Cache");
}

TEST(Examples, DistributedCopy) {
  auto run = KernelRun::fromExample("distributed_copy.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor a = randomTensor(DType::F16, {64, 64}, 46);
  run->input("a", a);
  ASSERT_TRUE(run->run()) << run->errors;
  expectClose(run->output("b"), a.floats, Tolerance::exact(), "B");
}

TEST(Examples, InterTileBroadcast) {
  auto run = KernelRun::fromExample("inter_tile_broadcast.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor x = randomTensor(DType::F16, {64, 64}, 47);
  Tensor v = randomTensor(DType::F16, {64}, 48);
  run->input("x", x);
  run->input("v", v);
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> y(64 * 64), h(4 * 64);
  for (int64_t i = 0; i < 64; ++i)
    for (int64_t j = 0; j < 64; ++j)
      y[i * 64 + j] = f16(at(x, i, j, 64) * v.floats[j]);
  for (int64_t t = 0; t < 4; ++t)
    for (int64_t j = 0; j < 64; ++j)
      h[t * 64 + j] = at(x, 16 * ((t + 3) % 4) + 15, j, 64);
  expectClose(run->output("y"), y, Tolerance::half(), "Y");
  expectClose(run->output("h"), h, Tolerance::exact(), "H");
}

} // namespace

//===- RealWorldAllReduceTest.cpp - Real-world inter-tile reductions ------===//
//
// This file runs the all-reduce kernels of examples/kernels/realworld (the
// trailing-type produce/reduce spelling, one group and four groups, single
// writers in scf.if) and compares their outputs with plain-loop references:
// per-tile partials accumulate in f32 and round once, the inter-tile fold
// runs in tile order from the identity.
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

TEST(RealWorld, AllreduceColumnSumsInALoop) {
  auto run = KernelRun::fromExample("realworld/allreduce_colsum.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor x = randomTensor(DType::F16, {128, 128}, 401);
  run->input("in_ptr", x);
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref(128, 0.0);
  for (int64_t c = 0; c < 128; ++c)
    for (int64_t j = 0; j < 2; ++j) {
      double total = 0;
      for (int64_t t = 0; t < 4; ++t) {
        std::vector<double> column;
        for (int64_t i = 0; i < 16; ++i)
          column.push_back(at(x, 64 * j + 16 * t + i, c, 128));
        total = f16(total + sumF16(column));
      }
      ref[c] = f16(ref[c] + total);
    }
  expectClose(run->output("out_ptr"), ref, CorpusTolerance::allReduce(), "S");
}

TEST(RealWorld, AllreduceFourGroupsOfFour) {
  auto run = KernelRun::fromExample("realworld/allreduce_groups.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor x = randomTensor(DType::F16, {128, 64}, 402, -8, 8);
  run->input("x_ptr", x);
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref(4 * 64, -INFINITY);
  for (int64_t r = 0; r < 128; ++r)
    for (int64_t c = 0; c < 64; ++c)
      ref[(r / 32) * 64 + c] = std::max(ref[(r / 32) * 64 + c], at(x, r, c, 64));
  // A maximum does not round: every element must be exact.
  expectClose(run->output("out_ptr"), ref, CorpusTolerance::copy(), "O");
}

} // namespace

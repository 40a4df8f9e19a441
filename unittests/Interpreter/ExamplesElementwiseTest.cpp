//===- ExamplesElementwiseTest.cpp - Element-wise example kernels ---------===//
//
// This file runs the element-wise kernels of examples/kernels on the
// interpreter with seeded inputs and compares every output element with a
// reference computed here with plain loops (see KernelTestSupport.h for the
// tolerance policy).
//
//===----------------------------------------------------------------------===//

#include "KernelTestSupport.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace ktflow::testing;
using ktflow::host::DType;
using ktflow::host::Tensor;

namespace {

/// C = f16(A + B) for an R x 64 add kernel.
void checkAdd(KernelRun &run, int64_t rows) {
  Tensor a = randomTensor(DType::F16, {rows, 64}, 1);
  Tensor b = randomTensor(DType::F16, {rows, 64}, 2);
  run.input("a", a);
  run.input("b", b);
  ASSERT_TRUE(run.run()) << run.errors;
  std::vector<double> ref(rows * 64);
  for (int64_t i = 0; i < rows * 64; ++i)
    ref[i] = f16(a.floats[i] + b.floats[i]);
  expectClose(run.output("c"), ref, Tolerance::half(), "C");
}

TEST(Examples, Add) {
  auto run = KernelRun::fromExample("add.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  checkAdd(*run, 96);
}

TEST(Examples, AddLoop) {
  auto run = KernelRun::fromExample("add_loop.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  checkAdd(*run, 256);
}

TEST(Examples, AddRuntimeArg) {
  for (const char *m : {"96", "128"}) {
    auto run = KernelRun::fromExample("add_runtime_arg.mlir");
    ASSERT_TRUE(run->ok()) << run->errors;
    run->arg("M_arg", m);
    checkAdd(*run, std::stoll(m));
  }
}

TEST(Examples, BroadcastAdd) {
  auto run = KernelRun::fromExample("broadcast_add.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor x = randomTensor(DType::F16, {128, 64}, 3);
  Tensor v = randomTensor(DType::F16, {64}, 4);
  run->input("x", x);
  run->input("v", v);
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref(128 * 64);
  for (int64_t i = 0; i < 128; ++i)
    for (int64_t j = 0; j < 64; ++j)
      ref[i * 64 + j] = f16(at(x, i, j, 64) + v.floats[j]);
  expectClose(run->output("y"), ref, Tolerance::half(), "Y");
}

TEST(Examples, BiasLoop) {
  auto run = KernelRun::fromExample("bias_loop.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor x = randomTensor(DType::F16, {4096, 128}, 11);
  Tensor s = randomTensor(DType::F16, {128}, 12);
  Tensor b = randomTensor(DType::F16, {128}, 13);
  run->input("x", x);
  run->input("s", s);
  run->input("b", b);
  ASSERT_TRUE(run->run()) << run->errors;
  // The multiply rounds to f16 before the add.
  std::vector<double> ref(4096 * 128);
  for (int64_t i = 0; i < 4096; ++i)
    for (int64_t j = 0; j < 128; ++j)
      ref[i * 128 + j] = f16(f16(at(x, i, j, 128) * s.floats[j]) + b.floats[j]);
  expectClose(run->output("y"), ref, Tolerance::half(), "Y");
}

TEST(Examples, IfSelect) {
  auto run = KernelRun::fromExample("if_select.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor a = randomTensor(DType::F16, {94, 64}, 5);
  Tensor b = randomTensor(DType::F16, {94, 64}, 6);
  // A NaN in A must select B (ogt is false on NaN).
  a.floats[7] = std::nan("");
  run->input("a", a);
  run->input("b", b);
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref(94 * 64);
  for (size_t i = 0; i < ref.size(); ++i)
    ref[i] = a.floats[i] > b.floats[i] ? a.floats[i] : b.floats[i];
  expectClose(run->output("c"), ref, Tolerance::exact(), "C");
}

TEST(Examples, WhileLoop) {
  auto run = KernelRun::fromExample("while_loop.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  run->arg("M_arg", "100");
  Tensor x = randomTensor(DType::F16, {100, 64}, 7);
  x.floats[3] = -0.0;
  x.floats[4] = std::nan("");
  run->input("x", x);
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref(100 * 64);
  for (size_t i = 0; i < ref.size(); ++i) {
    double v = x.floats[i];
    ref[i] = std::isnan(v) ? v : (v > 0 ? v : 0.0);
  }
  Tensor y = run->output("y");
  expectClose(y, ref, Tolerance::exact(), "Y");
  EXPECT_FALSE(std::signbit(y.floats[3])) << "maximumf(-0, +0) is +0";
}

TEST(Examples, GeluSpyreop) {
  auto run = KernelRun::fromExample("gelu_spyreop.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor x = randomTensor(DType::F16, {128, 64}, 8, -3, 3);
  Tensor g = randomTensor(DType::F16, {128, 64}, 9);
  run->input("x", x);
  run->input("g", g);
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref(128 * 64);
  const double k = std::sqrt(2.0 / 3.14159265358979323846);
  for (size_t i = 0; i < ref.size(); ++i) {
    double v = x.floats[i];
    double gelu = f16(0.5 * v * (1.0 + std::tanh(k * (v + 0.044715 * v * v * v))));
    ref[i] = f16(gelu * g.floats[i]);
  }
  expectClose(run->output("y"), ref, Tolerance::half(), "Y");
}

TEST(Examples, TwoFunctions) {
  auto run = KernelRun::fromExample("two_functions.mlir", "swiglu");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor x = randomTensor(DType::F16, {128, 64}, 10, -4, 4);
  Tensor g = randomTensor(DType::F16, {128, 64}, 11);
  run->input("x", x);
  run->input("g", g);
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref(128 * 64);
  for (size_t i = 0; i < ref.size(); ++i) {
    float v = static_cast<float>(x.floats[i]);
    float e = std::exp(-v);
    float den = e + 1.0f;
    float s = v / den;
    float p = s * static_cast<float>(g.floats[i]);
    ref[i] = f16(p);
  }
  expectClose(run->output("y"), ref, Tolerance::half(), "Y");
}

TEST(Examples, TwoFunctionsNeedsFunc) {
  auto run = KernelRun::fromExample("two_functions.mlir");
  // @swiglu is the only function with a grid: it is picked by default.
  EXPECT_TRUE(run->ok()) << run->errors;
}

TEST(Examples, Rope) {
  auto run = KernelRun::fromExample("rope.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  Tensor x = randomTensor(DType::F16, {128, 64}, 12);
  Tensor c = randomTensor(DType::F16, {128, 32}, 13);
  Tensor s = randomTensor(DType::F16, {128, 32}, 14);
  run->input("@0", x);
  run->input("@8192", c);
  run->input("@12288", s);
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref(128 * 64);
  for (int64_t p = 0; p < 128; ++p) {
    for (int64_t j = 0; j < 32; ++j) {
      float x1 = at(x, p, j, 64), x2 = at(x, p, j + 32, 64);
      float cv = at(c, p, j, 32), sv = at(s, p, j, 32);
      float a = x1 * cv, b = x2 * sv, d = x2 * cv, e = x1 * sv;
      ref[p * 64 + j] = f16(a - b);
      ref[p * 64 + j + 32] = f16(d + e);
    }
  }
  Tensor y = run->output("@16384");
  EXPECT_EQ(y.shape, (llvm::SmallVector<int64_t, 4>{128, 64}));
  expectClose(y, ref, Tolerance::half(), "Y");
}

TEST(Examples, DynamicMask) {
  auto run = KernelRun::fromExample("dynamic_mask.mlir");
  ASSERT_TRUE(run->ok()) << run->errors;
  const int64_t n = 100;
  run->arg("N_arg", "100");
  Tensor x = randomTensor(DType::F16, {n, 64}, 15);
  // Y is bigger than N rows: the masked rows 100..103 of the last block
  // must keep their initial contents.
  Tensor y0 = Tensor::zeros(DType::F16, {104, 64});
  std::fill(y0.floats.begin(), y0.floats.end(), 7.0);
  run->input("x", x);
  run->input("y", y0);
  ASSERT_TRUE(run->run()) << run->errors;
  std::vector<double> ref(104 * 64, 7.0);
  for (int64_t i = 0; i < n; ++i) {
    double m = -INFINITY;
    for (int64_t j = 0; j < 64; ++j)
      m = std::max(m, at(x, i, j, 64));
    for (int64_t j = 0; j < 64; ++j)
      ref[i * 64 + j] = f16(at(x, i, j, 64) - m);
  }
  expectClose(run->output("y"), ref, Tolerance::half(), "Y");
}

} // namespace

//===- ReductionNumericsTest.cpp - How reducing linalg ops round ----------===//
//
// This file tests the numerics policies of structured ops that reduce
// (docs/interpreter.md §4). Under the default (accumulate) policy a K=2048
// f16 linalg.matmul and an 8192-wide f16 linalg.reduce must be within one
// unit in the last place of an f32-accumulated reference computed here with
// plain loops over the compiler's `float` and `_Float16`; under
// --numerics=strict they must reproduce a reference that rounds to f16 at
// every step, and the two policies must differ where f16 steps lose bits.
//
//===----------------------------------------------------------------------===//

#include "KernelTestSupport.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace ktflow::testing;
using ktflow::host::DType;
using ktflow::host::Tensor;
using ktflow::interp::InterpreterOptions;
using ktflow::interp::NumericsPolicy;

namespace {

InterpreterOptions strict() {
  InterpreterOptions options;
  options.numerics = NumericsPolicy::Strict;
  return options;
}

/// One unit in the last place of f16 at `x` (normal range).
double ulpF16(double x) {
  int e;
  std::frexp(std::max(std::fabs(x), 0x1p-14), &e);
  return std::ldexp(1.0, e - 11);
}

/// Expects every element within one f16 ulp of `ref`, and returns the
/// largest error in ulps.
double expectWithinOneUlp(const Tensor &got, const std::vector<double> &ref) {
  EXPECT_EQ(got.numElements(), static_cast<int64_t>(ref.size()));
  double worst = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    double error = std::fabs(got.getDouble(i) - ref[i]) / ulpF16(ref[i]);
    worst = std::max(worst, error);
    EXPECT_LE(error, 1.0) << "element " << i << ": " << got.getDouble(i)
                          << " vs " << ref[i];
  }
  return worst;
}

/// C[MxN] = A[MxK] * B[KxN] in f16 through one linalg.matmul into `outs`
/// (zeros, or the C argument's contents when `addInto`).
std::string matmulKernel(int64_t m, int64_t k, int64_t n, bool addInto) {
  auto s = [](int64_t v) { return std::to_string(v); };
  std::string a = s(m) + "x" + s(k), b = s(k) + "x" + s(n),
              c = s(m) + "x" + s(n);
  auto set = [&](int64_t r, int64_t cols) {
    return "affine_set<(d0, d1) : (d0 >= 0, -d0 + " + s(r - 1) +
           " >= 0, d1 >= 0, -d1 + " + s(cols - 1) + " >= 0)>";
  };
  auto view = [&](const std::string &arg, const std::string &shape,
                  int64_t cols, const std::string &setName) {
    return "    %V" + arg + " = ktdp.construct_memory_view %" + arg +
           ", sizes: [" + shape.substr(0, shape.find('x')) + ", " + s(cols) +
           "], strides: [" + s(cols) + ", 1] {coordinate_set = " + setName +
           ", memory_space = #ktdp.memory_space<global>} : memref<" + shape +
           "xf16>\n    %T" + arg + " = ktdp.construct_access_tile %V" + arg +
           "[%c0, %c0] {access_tile_set = " + setName +
           ", access_tile_order = #id2} : memref<" + shape +
           "xf16> -> !ktdp.access_tile<" + shape + "xindex>\n";
  };
  std::string text = "#sa = " + set(m, k) + "\n#sb = " + set(k, n) +
                     "\n#sc = " + set(m, n) +
                     "\n#id2 = affine_map<(d0, d1) -> (d0, d1)>\n"
                     "module {\n  func.func @k(%a: index, %b: index, %c: "
                     "index) attributes {grid = [1]} {\n"
                     "    %c0 = arith.constant 0 : index\n" +
                     view("a", a, k, "#sa") + view("b", b, n, "#sb") +
                     view("c", c, n, "#sc") +
                     "    %x = ktdp.load %Ta : <" + a + "xindex> -> tensor<" +
                     a + "xf16>\n    %y = ktdp.load %Tb : <" + b +
                     "xindex> -> tensor<" + b + "xf16>\n";
  if (addInto)
    text += "    %init = ktdp.load %Tc : <" + c + "xindex> -> tensor<" + c +
            "xf16>\n";
  else
    text += "    %init = tensor.empty() : tensor<" + c + "xf16>\n";
  text += "    %r = linalg.matmul ins(%x, %y : tensor<" + a + "xf16>, tensor<" +
          b + "xf16>) outs(%init : tensor<" + c + "xf16>) -> tensor<" + c +
          "xf16>\n    ktdp.store %r, %Tc : tensor<" + c + "xf16>, <" + c +
          "xindex>\n    return\n  }\n}\n";
  return text;
}

/// R[i] = reduce(X[i, :]) over `width` f16 elements with `body` (a region
/// of (%in: f16, %acc: f16) yielding the new accumulator) from `init`.
std::string reduceKernel(int64_t rows, int64_t width, const std::string &body,
                         const std::string &init, const std::string &type) {
  auto s = [](int64_t v) { return std::to_string(v); };
  std::string x = s(rows) + "x" + s(width);
  return "#sx = affine_set<(d0, d1) : (d0 >= 0, -d0 + " + s(rows - 1) +
         " >= 0, d1 >= 0, -d1 + " + s(width - 1) +
         " >= 0)>\n#sr = affine_set<(d0) : (d0 >= 0, -d0 + " + s(rows - 1) +
         " >= 0)>\n#id1 = affine_map<(d0) -> (d0)>\n"
         "#id2 = affine_map<(d0, d1) -> (d0, d1)>\n"
         "module {\n  func.func @k(%x: index, %r: index) attributes {grid = "
         "[1]} {\n    %c0 = arith.constant 0 : index\n"
         "    %X = ktdp.construct_memory_view %x, sizes: [" +
         s(rows) + ", " + s(width) + "], strides: [" + s(width) +
         ", 1] {coordinate_set = #sx, memory_space = "
         "#ktdp.memory_space<global>} : memref<" +
         x + "x" + type +
         ">\n    %R = ktdp.construct_memory_view %r, sizes: [" + s(rows) +
         "], strides: [1] {coordinate_set = #sr, memory_space = "
         "#ktdp.memory_space<global>} : memref<" +
         s(rows) + "x" + type +
         ">\n    %tx = ktdp.construct_access_tile %X[%c0, %c0] "
         "{access_tile_set = #sx, access_tile_order = #id2} : memref<" +
         x + "x" + type + "> -> !ktdp.access_tile<" + x +
         "xindex>\n    %tr = ktdp.construct_access_tile %R[%c0] "
         "{access_tile_set = #sr, access_tile_order = #id1} : memref<" +
         s(rows) + "x" + type + "> -> !ktdp.access_tile<" + s(rows) +
         "xindex>\n    %v = ktdp.load %tx : <" + x + "xindex> -> tensor<" + x +
         "x" + type + ">\n    %cst = arith.constant " + init + " : " + type +
         "\n    %e = tensor.empty() : tensor<" + s(rows) + "x" + type +
         ">\n    %i = linalg.fill ins(%cst : " + type + ") outs(%e : tensor<" +
         s(rows) + "x" + type + ">) -> tensor<" + s(rows) + "x" + type +
         ">\n    %out = linalg.reduce ins(%v : tensor<" + x + "x" + type +
         ">) outs(%i : tensor<" + s(rows) + "x" + type +
         ">) dimensions = [1]\n      (%in: " + type + ", %acc: " + type +
         ") {\n" + body + "      }\n    ktdp.store %out, %tr : tensor<" +
         s(rows) + "x" + type + ">, <" + s(rows) +
         "xindex>\n    return\n  }\n}\n";
}

const char *kAddBody = "        %s = arith.addf %in, %acc : f16\n"
                       "        linalg.yield %s : f16\n";

Tensor runMatmul(const Tensor &a, const Tensor &b, const Tensor *c,
                 int64_t m, int64_t k, int64_t n,
                 InterpreterOptions options = {}) {
  auto run = KernelRun::fromText(matmulKernel(m, k, n, c != nullptr), "",
                                 options);
  EXPECT_TRUE(run->ok()) << run->errors;
  if (!run->ok())
    return Tensor();
  run->input("a", a);
  run->input("b", b);
  if (c)
    run->input("c", *c);
  EXPECT_TRUE(run->run()) << run->errors;
  return run->output("c");
}

Tensor runReduce(const std::string &text, const Tensor &x,
                 InterpreterOptions options = {}) {
  auto run = KernelRun::fromText(text, "", options);
  EXPECT_TRUE(run->ok()) << run->errors << text;
  if (!run->ok())
    return Tensor();
  run->input("x", x);
  EXPECT_TRUE(run->run()) << run->errors;
  return run->output("r");
}

TEST(ReductionNumerics, MatmulK2048AccumulatesInF32) {
  const int64_t m = 4, k = 2048, n = 8;
  Tensor a = randomTensor(DType::F16, {m, k}, 101);
  Tensor b = randomTensor(DType::F16, {k, n}, 102);
  std::vector<double> wide(m * n), narrow(m * n);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      float acc = 0;
      _Float16 acc16 = 0;
      for (int64_t l = 0; l < k; ++l) {
        float x = static_cast<float>(at(a, i, l, k));
        float y = static_cast<float>(at(b, l, j, n));
        acc += x * y; // an f16 product is exact in f32
        acc16 = static_cast<_Float16>(
            static_cast<float>(acc16) +
            static_cast<float>(static_cast<_Float16>(x * y)));
      }
      wide[i * n + j] = f16(acc);
      narrow[i * n + j] = static_cast<double>(acc16);
    }
  Tensor got = runMatmul(a, b, nullptr, m, k, n);
  expectWithinOneUlp(got, wide);

  // Strict: the body's mulf and addf each round to f16, so the result is
  // the per-step reference exactly, and far from the f32 one.
  Tensor strictGot = runMatmul(a, b, nullptr, m, k, n, strict());
  expectClose(strictGot, narrow, Tolerance::exact(), "strict matmul");
  double worst = 0;
  for (int64_t i = 0; i < m * n; ++i)
    worst = std::max(worst,
                     std::fabs(strictGot.getDouble(i) - wide[i]) /
                         ulpF16(wide[i]));
  EXPECT_GT(worst, 2.0) << "per-step f16 rounding should lose bits here";
}

TEST(ReductionNumerics, MatmulRoundsProductThenAddsIntoOuts) {
  // outs holds C0: the result is f16(C0 + f16(sum)), two roundings, as
  // numpy's matmul followed by an in-place add (ktir-cpu).
  const int64_t m = 2, k = 64, n = 4;
  Tensor a = randomTensor(DType::F16, {m, k}, 103);
  Tensor b = randomTensor(DType::F16, {k, n}, 104);
  Tensor c = randomTensor(DType::F16, {m, n}, 105, 100, 200);
  std::vector<double> ref(m * n);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      float acc = 0;
      for (int64_t l = 0; l < k; ++l)
        acc += static_cast<float>(at(a, i, l, k)) *
               static_cast<float>(at(b, l, j, n));
      ref[i * n + j] = f16(c.getDouble(i * n + j) + f16(acc));
    }
  expectClose(runMatmul(a, b, &c, m, k, n), ref, Tolerance::exact(),
              "matmul into outs");
}

TEST(ReductionNumerics, Reduce8192AccumulatesInF32) {
  const int64_t rows = 2, width = 8192;
  Tensor x = randomTensor(DType::F16, {rows, width}, 106);
  std::vector<double> wide(rows), narrow(rows);
  for (int64_t i = 0; i < rows; ++i) {
    float acc = 0;
    _Float16 acc16 = 0;
    for (int64_t j = 0; j < width; ++j) {
      acc += static_cast<float>(at(x, i, j, width));
      acc16 = static_cast<_Float16>(static_cast<float>(acc16) +
                                    static_cast<float>(at(x, i, j, width)));
    }
    wide[i] = f16(acc);
    narrow[i] = static_cast<double>(acc16);
  }
  std::string text = reduceKernel(rows, width, kAddBody, "0.0", "f16");
  expectWithinOneUlp(runReduce(text, x), wide);
  expectClose(runReduce(text, x, strict()), narrow, Tolerance::exact(),
              "strict reduce");
}

TEST(ReductionNumerics, PoliciesDifferWhereF16StepsLoseBits) {
  // 4096 ones: an f16 accumulator stalls at 2048 (2048 + 1 rounds to 2048),
  // an f32 one reaches 4096. bf16 stalls at 256.
  Tensor ones = Tensor::zeros(DType::F16, {1, 4096});
  std::fill(ones.floats.begin(), ones.floats.end(), 1.0);
  std::string text = reduceKernel(1, 4096, kAddBody, "0.0", "f16");
  EXPECT_EQ(runReduce(text, ones).getDouble(0), 4096.0);
  EXPECT_EQ(runReduce(text, ones, strict()).getDouble(0), 2048.0);

  Tensor bfOnes = Tensor::zeros(DType::BF16, {1, 1024});
  std::fill(bfOnes.floats.begin(), bfOnes.floats.end(), 1.0);
  std::string bfText = reduceKernel(
      1, 1024,
      "        %s = arith.addf %acc, %in : bf16\n"
      "        linalg.yield %s : bf16\n",
      "0.0", "bf16");
  EXPECT_EQ(runReduce(bfText, bfOnes).getDouble(0), 1024.0);
  EXPECT_EQ(runReduce(bfText, bfOnes, strict()).getDouble(0), 256.0);

  // The accumulator stays wide through an explicit extf / truncf pair on
  // its chain; strict honours the truncf at every step.
  std::string casts = reduceKernel(
      1, 4096,
      "        %a = arith.extf %acc : f16 to f32\n"
      "        %b = arith.extf %in : f16 to f32\n"
      "        %s = arith.addf %a, %b : f32\n"
      "        %t = arith.truncf %s : f32 to f16\n"
      "        linalg.yield %t : f16\n",
      "0.0", "f16");
  EXPECT_EQ(runReduce(casts, ones).getDouble(0), 4096.0);
  EXPECT_EQ(runReduce(casts, ones, strict()).getDouble(0), 2048.0);
}

TEST(ReductionNumerics, TwoOpRegionRunsWithTheWideAccumulator) {
  // The cmpf ogt + select form of a max: the comparison reads the (wide)
  // accumulator; the result is the exact maximum under both policies, and
  // the init takes part.
  const int64_t rows = 3, width = 1000;
  Tensor x = randomTensor(DType::F16, {rows, width}, 107, -50, 50);
  x.floats[width + 17] = 60000; // row 1's maximum
  std::string text = reduceKernel(
      rows, width,
      "        %c = arith.cmpf ogt, %in, %acc : f16\n"
      "        %m = arith.select %c, %in, %acc : f16\n"
      "        linalg.yield %m : f16\n",
      "49.96875", "f16");
  std::vector<double> ref(rows, 49.96875);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < width; ++j)
      ref[i] = std::max(ref[i], at(x, i, j, width));
  EXPECT_EQ(ref[1], 60000.0);
  expectClose(runReduce(text, x), ref, Tolerance::exact(), "max");
  expectClose(runReduce(text, x, strict()), ref, Tolerance::exact(),
              "strict max");
}

} // namespace

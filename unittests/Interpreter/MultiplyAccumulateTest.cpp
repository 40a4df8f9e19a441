//===- MultiplyAccumulateTest.cpp - The fused contraction loop ------------===//
//
// This file tests the interpreter's fused multiply-accumulate loop
// (LinalgColumns.cpp): which decoded bodies it takes (matchMultiplyAccumulate)
// and that contractions computed by it round exactly as the body's mulf and
// addf do one after the other: against plain loops over the compiler's
// `float` and `_Float16` (this file is built with -ffp-contract=off), on
// values where a product left unrounded, a fused multiply-add or a sum
// rounded in another type gives another result.
//
//===----------------------------------------------------------------------===//

#include "KernelTestSupport.h"
#include "Linalg.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include "gtest/gtest.h"

using namespace ktflow::testing;
using ktflow::host::DType;
using ktflow::host::Tensor;
using ktflow::interp::InterpreterOptions;
using ktflow::interp::LinalgPlan;
using ktflow::interp::MultiplyAccumulate;
using ktflow::interp::NumericsPolicy;

namespace {

std::string s(int64_t v) { return std::to_string(v); }

/// The view and access tile of a row-major `rows` x `cols` argument `%name`.
std::string view(const std::string &name, int64_t rows, int64_t cols,
                 const std::string &type) {
  std::string shape = s(rows) + "x" + s(cols);
  std::string set = "affine_set<(d0, d1) : (d0 >= 0, -d0 + " + s(rows - 1) +
                    " >= 0, d1 >= 0, -d1 + " + s(cols - 1) + " >= 0)>";
  return "    %V" + name + " = ktdp.construct_memory_view %" + name +
         ", sizes: [" + s(rows) + ", " + s(cols) + "], strides: [" + s(cols) +
         ", 1] {coordinate_set = " + set +
         ", memory_space = #ktdp.memory_space<global>} : memref<" + shape +
         "x" + type + ">\n    %T" + name + " = ktdp.construct_access_tile %V" +
         name + "[%c0, %c0] {access_tile_set = " + set +
         ", access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<" +
         shape + "x" + type + "> -> !ktdp.access_tile<" + shape + "xindex>\n";
}

/// The shape and types of C[i, j] += A[i, k] * B[k, j] as a linalg.generic
/// whose body widens f16 inputs with extf when `cType` is wider, and adds
/// the accumulator first or second.
struct Contraction {
  int64_t m = 1, k = 1, n = 1;
  std::string aType = "f32", bType = "f32", cType = "f32";
  /// B is given as N x K and read transposed (a strided column).
  bool transposedB = false;
  bool accumulatorFirst = true;
  /// mulf(B, A) rather than mulf(A, B).
  bool bFirst = false;

  std::string text() const {
    auto tensor = [](int64_t r, int64_t c, const std::string &t) {
      return "tensor<" + s(r) + "x" + s(c) + "x" + t + ">";
    };
    int64_t bRows = transposedB ? n : k, bCols = transposedB ? k : n;
    std::string bMap = transposedB ? "(d1, d2)" : "(d2, d1)";
    auto widened = [&](const std::string &arg, const std::string &type,
                       std::string &value) {
      value = arg;
      if (type == cType)
        return std::string();
      value = arg + "w";
      return "        %" + value + " = arith.extf %" + arg + " : " + type +
             " to " + cType + "\n";
    };
    std::string x, y;
    std::string body = widened("x", aType, x) + widened("y", bType, y);
    if (bFirst)
      std::swap(x, y);
    body += "        %p = arith.mulf %" + x + ", %" + y + " : " + cType + "\n";
    body += accumulatorFirst
                ? "        %r = arith.addf %acc, %p : " + cType + "\n"
                : "        %r = arith.addf %p, %acc : " + cType + "\n";
    return "module {\n  func.func @k(%a: index, %b: index, %c: index) "
           "attributes {grid = [1]} {\n    %c0 = arith.constant 0 : index\n" +
           view("a", m, k, aType) + view("b", bRows, bCols, bType) +
           view("c", m, n, cType) + "    %A = ktdp.load %Ta : <" + s(m) + "x" +
           s(k) + "xindex> -> " + tensor(m, k, aType) +
           "\n    %B = ktdp.load %Tb : <" + s(bRows) + "x" + s(bCols) +
           "xindex> -> " + tensor(bRows, bCols, bType) +
           "\n    %C = ktdp.load %Tc : <" + s(m) + "x" + s(n) + "xindex> -> " +
           tensor(m, n, cType) +
           "\n    %R = linalg.generic {indexing_maps = ["
           "affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> " +
           bMap +
           ">, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = "
           "[\"parallel\", \"parallel\", \"reduction\"]} ins(%A, %B : " +
           tensor(m, k, aType) + ", " + tensor(bRows, bCols, bType) +
           ") outs(%C : " + tensor(m, n, cType) +
           ") {\n      ^bb0(%x: " + aType + ", %y: " + bType +
           ", %acc: " + cType + "):\n" + body +
           "        linalg.yield %r : " + cType + "\n      } -> " +
           tensor(m, n, cType) +
           "\n    ktdp.store %R, %Tc : " + tensor(m, n, cType) + ", <" + s(m) +
           "x" + s(n) + "xindex>\n    return\n  }\n}\n";
  }

  /// B's element (l, j) whatever its layout.
  double bAt(const Tensor &b, int64_t l, int64_t j) const {
    return transposedB ? at(b, j, l, k) : at(b, l, j, n);
  }

  Tensor run(const Tensor &a, const Tensor &b, const Tensor &c,
             InterpreterOptions options = {}) const {
    auto kernel = KernelRun::fromText(text(), "", options);
    EXPECT_TRUE(kernel->ok()) << kernel->errors << text();
    if (!kernel->ok())
      return Tensor();
    kernel->input("a", a);
    kernel->input("b", b);
    kernel->input("c", c);
    EXPECT_TRUE(kernel->run()) << kernel->errors;
    return kernel->output("c");
  }
};

/// The plan of the kernel's one linalg op, widened as runLinalgOp does
/// under `numerics`.
std::unique_ptr<LinalgPlan> planOf(const std::string &text,
                                   NumericsPolicy numerics) {
  auto kernel = KernelRun::fromText(text);
  EXPECT_TRUE(kernel->ok()) << kernel->errors;
  std::unique_ptr<LinalgPlan> plan;
  kernel->module->walk([&](mlir::linalg::LinalgOp op) {
    std::string error;
    mlir::Operation *errorOp = nullptr;
    plan = ktflow::interp::buildLinalgPlan(op, error, errorOp);
    EXPECT_TRUE(plan) << error;
    if (plan && numerics == NumericsPolicy::Accumulate)
      ktflow::interp::widenAccumulators(
          *plan,
          mlir::isa<mlir::linalg::ContractionOpInterface>(op.getOperation()));
  });
  return plan;
}

TEST(MultiplyAccumulate, MatchesContractionBodies) {
  Contraction f32;
  std::unique_ptr<LinalgPlan> plan =
      planOf(f32.text(), NumericsPolicy::Accumulate);
  std::optional<MultiplyAccumulate> mulAcc =
      ktflow::interp::matchMultiplyAccumulate(*plan);
  ASSERT_TRUE(mulAcc);
  EXPECT_EQ(mulAcc->lhsInput, 0u);
  EXPECT_EQ(mulAcc->rhsInput, 1u);
  EXPECT_EQ(mulAcc->productType, DType::F32);
  EXPECT_EQ(mulAcc->sumType, DType::F32);
  EXPECT_FALSE(mulAcc->exactProduct) << "f32 products round to f32";
  EXPECT_TRUE(mulAcc->accumulatorFirst);

  // f16 inputs widened by extf: the product of two f16 values is exact in
  // f32; the sum is in the output's type.
  Contraction mixed;
  mixed.aType = mixed.bType = "f16";
  mixed.accumulatorFirst = false;
  plan = planOf(mixed.text(), NumericsPolicy::Accumulate);
  mulAcc = ktflow::interp::matchMultiplyAccumulate(*plan);
  ASSERT_TRUE(mulAcc);
  EXPECT_TRUE(mulAcc->exactProduct);
  EXPECT_FALSE(mulAcc->accumulatorFirst);

  // An f16 accumulator: widened to f32 under the accumulate policy, f16
  // (with an inexact f16 product) under strict.
  Contraction narrow;
  narrow.aType = narrow.bType = narrow.cType = "f16";
  plan = planOf(narrow.text(), NumericsPolicy::Accumulate);
  mulAcc = ktflow::interp::matchMultiplyAccumulate(*plan);
  ASSERT_TRUE(mulAcc);
  EXPECT_EQ(mulAcc->sumType, DType::F32);
  plan = planOf(narrow.text(), NumericsPolicy::Strict);
  mulAcc = ktflow::interp::matchMultiplyAccumulate(*plan);
  ASSERT_TRUE(mulAcc);
  EXPECT_EQ(mulAcc->productType, DType::F16);
  EXPECT_EQ(mulAcc->sumType, DType::F16);
  EXPECT_FALSE(mulAcc->exactProduct);

  // The magnitude plan of the reorder bounds folds |x * y| in f64.
  std::unique_ptr<LinalgPlan> magnitude = ktflow::interp::buildMagnitudePlan(
      *planOf(f32.text(), NumericsPolicy::Accumulate));
  ASSERT_TRUE(magnitude);
  mulAcc = ktflow::interp::matchMultiplyAccumulate(*magnitude);
  ASSERT_TRUE(mulAcc);
  EXPECT_TRUE(mulAcc->absoluteProduct);
  EXPECT_EQ(mulAcc->productType, DType::F32);
  EXPECT_EQ(mulAcc->sumType, DType::F64);
}

TEST(MultiplyAccumulate, RejectsOtherBodies) {
  Contraction c;
  std::string text = c.text();
  // acc - x * y: not an addf.
  std::string sub = text;
  sub.replace(sub.find("arith.addf %acc, %p"), 19, "arith.subf %acc, %p");
  EXPECT_FALSE(ktflow::interp::matchMultiplyAccumulate(
      *planOf(sub, NumericsPolicy::Accumulate)));
  // acc + x * acc: the product reads the accumulator.
  std::string square = text;
  square.replace(square.find("arith.mulf %x, %y"), 17, "arith.mulf %x, %acc");
  EXPECT_FALSE(ktflow::interp::matchMultiplyAccumulate(
      *planOf(square, NumericsPolicy::Accumulate)));
}

/// C + A * B with every product and every sum rounded to `T` (float or
/// _Float16), the way the body's mulf and addf do: T's arithmetic rounds
/// each op on assignment, and this file has no FMA contraction.
template <typename T>
std::vector<double> reference(const Contraction &c, const Tensor &a,
                              const Tensor &b, const Tensor &init) {
  std::vector<double> ref(c.m * c.n);
  for (int64_t i = 0; i < c.m; ++i)
    for (int64_t j = 0; j < c.n; ++j) {
      T acc = static_cast<T>(at(init, i, j, c.n));
      for (int64_t l = 0; l < c.k; ++l) {
        T product =
            static_cast<T>(at(a, i, l, c.k)) * static_cast<T>(c.bAt(b, l, j));
        acc = c.accumulatorFirst ? acc + product : product + acc;
      }
      ref[i * c.n + j] = static_cast<double>(acc);
    }
  return ref;
}

TEST(MultiplyAccumulate, RoundsTheProductBeforeTheSum) {
  // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 ties to 1 + 2^-11 in f32: added to
  // -(1 + 2^-11) the rounded product gives 0, an unrounded one (or an FMA)
  // 2^-24. The second term then adds 2^-30 to 0 or to 2^-24 (where f32
  // keeps it).
  Contraction c;
  c.m = 1, c.k = 2, c.n = 3;
  Tensor a = randomTensor(DType::F32, {1, 2}, 1);
  Tensor b = randomTensor(DType::F32, {2, 3}, 2);
  Tensor init = randomTensor(DType::F32, {1, 3}, 3);
  a.floats = {1 + 0x1p-12, 0x1p-15};
  b.floats = {1 + 0x1p-12, 1 + 0x1p-12, 1 + 0x1p-12, 0x1p-15, 0x1p-15, 0x1p-15};
  init.floats = {-(1 + 0x1p-11), -(1 + 0x1p-11), -1};
  std::vector<double> ref = reference<float>(c, a, b, init);
  EXPECT_EQ(ref[0], 0x1p-30);
  expectClose(c.run(a, b, init), ref, Tolerance::exact(), "f32 contraction");
  c.accumulatorFirst = false;
  expectClose(c.run(a, b, init), reference<float>(c, a, b, init),
              Tolerance::exact(), "product + acc");
  c.bFirst = true;
  expectClose(c.run(a, b, init), reference<float>(c, a, b, init),
              Tolerance::exact(), "B * A");
}

TEST(MultiplyAccumulate, MatchesPlainLoopsOnEveryColumnShape) {
  // Random f32 data, the sums long enough that every rounding shows: a
  // row-wide column (n = 96), a transposed B (a strided column) and a
  // narrow output the executor folds along k (combine mode); A's element
  // broadcast along the row as mulf's first operand or its second.
  for (auto [m, k, n, transposed, bFirst] :
       {std::tuple<int64_t, int64_t, int64_t, bool, bool>{5, 300, 96, false,
                                                          false},
        {5, 300, 96, false, true},
        {4, 200, 70, true, false},
        {3, 500, 2, false, false},
        {2, 333, 3, true, true}}) {
    Contraction c;
    c.m = m, c.k = k, c.n = n, c.transposedB = transposed, c.bFirst = bFirst;
    Tensor a = randomTensor(DType::F32, {m, k}, 11 + k);
    Tensor b = randomTensor(
        DType::F32, transposed ? std::vector{n, k} : std::vector{k, n}, 12 + k);
    Tensor init = randomTensor(DType::F32, {m, n}, 13 + k, -4, 4);
    expectClose(c.run(a, b, init), reference<float>(c, a, b, init),
                Tolerance::exact(),
                "f32 " + s(m) + "x" + s(k) + "x" + s(n) +
                    (transposed ? " transposed" : ""));
  }
}

/// One unit in the last place of f32 at `x` (normal, nonzero).
double ulpF32(double x) {
  int e;
  std::frexp(x, &e);
  return std::ldexp(1.0, e - 24);
}

TEST(MultiplyAccumulate, DisplacedContractionFoldsItsMagnitude) {
  // A run that displaces the contraction (the reorder bounds of
  // `ktflow run --check`) moves each result r up by
  // K * 2^-23 * (|init| + sum |round(x * y)|) + ulp(r), the magnitude
  // folded in f64 in the order of k; f32 products round, f16 ones are
  // exact. Row-wide columns and a fold along k (n = 3).
  for (auto [inputType, m, k, n] :
       {std::tuple<std::string, int64_t, int64_t, int64_t>{"f32", 2, 50, 70},
        {"f32", 3, 300, 3},
        {"f16", 2, 90, 66},
        {"f16", 4, 200, 2}}) {
    Contraction c;
    c.aType = c.bType = inputType;
    c.m = m, c.k = k, c.n = n;
    DType inputDType = inputType == "f16" ? DType::F16 : DType::F32;
    Tensor a = randomTensor(inputDType, {m, k}, 41 + k);
    Tensor b = randomTensor(inputDType, {k, n}, 42 + k);
    Tensor init = randomTensor(DType::F32, {m, n}, 43 + k);
    auto kernel = KernelRun::fromText(c.text());
    ASSERT_TRUE(kernel->ok()) << kernel->errors;
    InterpreterOptions options;
    kernel->module->walk(
        [&](mlir::linalg::GenericOp op) { options.displacedReduction = op; });
    kernel->interpreter =
        std::make_unique<ktflow::interp::Interpreter>(*kernel->module, options);
    ASSERT_FALSE(static_cast<bool>(kernel->interpreter->selectFunction("")));
    kernel->interpreter->recoverArgumentNames(c.text());
    kernel->input("a", a);
    kernel->input("b", b);
    kernel->input("c", init);
    ASSERT_TRUE(kernel->run()) << kernel->errors;
    std::vector<double> result = reference<float>(c, a, b, init);
    std::vector<double> ref(m * n);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double magnitude = std::fabs(at(init, i, j, n));
        for (int64_t l = 0; l < k; ++l)
          magnitude += std::fabs(static_cast<float>(at(a, i, l, k)) *
                                 static_cast<float>(at(b, l, j, n)));
        double r = result[i * n + j];
        ASSERT_NE(r, 0.0);
        double bound = static_cast<double>(k) * 0x1p-23 * magnitude + ulpF32(r);
        ref[i * n + j] = f32(r + bound);
      }
    expectClose(kernel->output("c"), ref, Tolerance::exact(),
                "displaced " + inputType + " " + s(m) + "x" + s(k) + "x" +
                    s(n));
  }
}

TEST(MultiplyAccumulate, StrictF16RoundsEveryStepToF16) {
  // Strict numerics keep an f16 body f16: each product and each sum rounds
  // to f16, which a loop over _Float16 reproduces.
  Contraction c;
  c.aType = c.bType = c.cType = "f16";
  c.m = 3, c.k = 400, c.n = 80;
  Tensor a = randomTensor(DType::F16, {c.m, c.k}, 21);
  Tensor b = randomTensor(DType::F16, {c.k, c.n}, 22);
  Tensor init = randomTensor(DType::F16, {c.m, c.n}, 23, -8, 8);
  InterpreterOptions strict;
  strict.numerics = NumericsPolicy::Strict;
  expectClose(c.run(a, b, init, strict), reference<_Float16>(c, a, b, init),
              Tolerance::exact(), "strict f16");
}

TEST(MultiplyAccumulate, F16InputsAccumulateInF32) {
  // f16 inputs widened into an f32 output: exact products, f32 sums.
  Contraction c;
  c.aType = c.bType = "f16";
  c.m = 4, c.k = 700, c.n = 65;
  Tensor a = randomTensor(DType::F16, {c.m, c.k}, 31, -30, 30);
  Tensor b = randomTensor(DType::F16, {c.k, c.n}, 32, -30, 30);
  Tensor init = randomTensor(DType::F32, {c.m, c.n}, 33);
  expectClose(c.run(a, b, init), reference<float>(c, a, b, init),
              Tolerance::exact(), "f16 into f32");
}

} // namespace

//===- OpsTest.cpp - Control flow, tensor and linalg ops ------------------===//
//
// This file runs small kernels that exercise ops the example kernels do not
// (scf.parallel with reductions, scf.forall with parallel_insert_slice,
// tensor slicing/padding/generation/reshaping, linalg with non-linear
// indexing maps, linalg.index, transposes, an f16 accumulation under both
// numerics policies, integer combiners) and compares them with values
// computed here.
//
//===----------------------------------------------------------------------===//

#include "KernelTestSupport.h"

#include "gtest/gtest.h"

using namespace ktflow::testing;
using ktflow::host::DType;
using ktflow::host::Tensor;

namespace {

/// Wraps `body` (which defines %result : tensor<NxT>) in a one-tile kernel
/// storing %result to its argument %out (N elements of T).
std::string kernel(const std::string &body, int64_t n, const std::string &t,
                   const std::string &extraArgs = "") {
  std::string sn = std::to_string(n), last = std::to_string(n - 1);
  return "#all = affine_set<(d0) : (d0 >= 0, -d0 + " + last +
         " >= 0)>\n#id1 = affine_map<(d0) -> (d0)>\n"
         "#id2 = affine_map<(d0, d1) -> (d0, d1)>\n"
         "module {\n  func.func @k(%out: index" +
         extraArgs + ") attributes {grid = [1]} {\n    %c0 = arith.constant 0 : index\n" +
         body + "\n    %O = ktdp.construct_memory_view %out, sizes: [" + sn +
         "], strides: [1] {coordinate_set = #all, memory_space = "
         "#ktdp.memory_space<global>} : memref<" +
         sn + "x" + t +
         ">\n    %to = ktdp.construct_access_tile %O[%c0] {access_tile_set = "
         "#all, access_tile_order = #id1} : memref<" +
         sn + "x" + t + "> -> !ktdp.access_tile<" + sn +
         "xindex>\n    ktdp.store %result, %to : tensor<" + sn + "x" + t +
         ">, !ktdp.access_tile<" + sn + "xindex>\n    return\n  }\n}\n";
}

std::vector<double> runKernel(const std::string &text,
                              std::vector<std::pair<std::string, Tensor>> in =
                                  {},
                              ktflow::interp::InterpreterOptions options = {}) {
  auto run = KernelRun::fromText(text, "", options);
  EXPECT_TRUE(run->ok()) << run->errors << text;
  if (!run->ok())
    return {};
  for (auto &[name, t] : in)
    run->input(name, t);
  EXPECT_TRUE(run->run()) << run->errors << text;
  Tensor out = run->output("out");
  std::vector<double> values;
  for (int64_t i = 0; i < out.numElements(); ++i)
    values.push_back(out.getDouble(i));
  return values;
}

TEST(Ops, ParallelReduceAndForall) {
  // Σ_{i<10} i*i by scf.parallel, then a forall writes 10*i + v into
  // element i of a 4-vector through parallel_insert_slice.
  std::string body = R"(
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c10 = arith.constant 10 : index
    %zero = arith.constant 0 : index
    %sum = scf.parallel (%i) = (%c0) to (%c10) step (%c1) init (%zero) -> index {
      %sq = arith.muli %i, %i : index
      scf.reduce(%sq : index) {
      ^bb0(%l: index, %r: index):
        %s = arith.addi %l, %r : index
        scf.reduce.return %s : index
      }
    }
    %init = tensor.empty() : tensor<4xi64>
    %result = scf.forall (%i) in (4) shared_outs(%acc = %init) -> (tensor<4xi64>) {
      %t = arith.muli %i, %c10 : index
      %v = arith.addi %t, %sum : index
      %vi = arith.index_cast %v : index to i64
      %one = tensor.from_elements %vi : tensor<1xi64>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %one into %acc[%i] [1] [1] : tensor<1xi64> into tensor<4xi64>
      }
    })";
  EXPECT_EQ(runKernel(kernel(body, 4, "i64")),
            (std::vector<double>{285, 295, 305, 315}));
}

TEST(Ops, TensorSlicingPaddingAndReshaping) {
  // generate [0..5] as 2x3, pad to 4x5 with 9 (one row/col before), take the
  // 2x2 block at (1, 1) with stride (1, 2), collapse it, concat with itself.
  std::string body = R"(
    %g = tensor.generate {
    ^bb0(%i: index, %j: index):
      %c3 = arith.constant 3 : index
      %r = arith.muli %i, %c3 : index
      %s = arith.addi %r, %j : index
      %v = arith.index_cast %s : index to i32
      tensor.yield %v : i32
    } : tensor<2x3xi32>
    %nine = arith.constant 9 : i32
    %p = tensor.pad %g low[1, 1] high[1, 1] {
    ^bb0(%i: index, %j: index):
      tensor.yield %nine : i32
    } : tensor<2x3xi32> to tensor<4x5xi32>
    %b = tensor.extract_slice %p[1, 1] [2, 2] [1, 2] : tensor<4x5xi32> to tensor<2x2xi32>
    %f = tensor.collapse_shape %b [[0, 1]] : tensor<2x2xi32> into tensor<4xi32>
    %e = tensor.empty() : tensor<8xi32>
    %lo = tensor.insert_slice %f into %e[0] [4] [1] : tensor<4xi32> into tensor<8xi32>
    %m = arith.constant 7 : i32
    %c5 = arith.constant 5 : index
    %f2 = tensor.insert %m into %f[%c0] : tensor<4xi32>
    %result = tensor.insert_slice %f2 into %lo[4] [4] [1] : tensor<4xi32> into tensor<8xi32>)";
  // Padded rows: [9 9 9 9 9], [9 0 1 2 9], [9 3 4 5 9], [9 9 9 9 9];
  // block at (1,1) step 2 in columns: [[0, 2], [3, 5]].
  EXPECT_EQ(runKernel(kernel(body, 8, "i32")),
            (std::vector<double>{0, 2, 3, 5, 7, 2, 3, 5}));
}

TEST(Ops, LinalgWithNonLinearMapsAndIndex) {
  // out[i] = in[i floordiv 2] * 10 + i.
  std::string body = R"(
    %in = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    %e = tensor.empty() : tensor<6xf32>
    %ten = arith.constant 10.0 : f32
    %result = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 floordiv 2)>, #id1], iterator_types = ["parallel"]}
        ins(%in : tensor<3xf32>) outs(%e : tensor<6xf32>) {
    ^bb0(%x: f32, %o: f32):
      %i = linalg.index 0 : index
      %ii = arith.index_cast %i : index to i32
      %fi = arith.sitofp %ii : i32 to f32
      %m = arith.mulf %x, %ten : f32
      %s = arith.addf %m, %fi : f32
      linalg.yield %s : f32
    } -> tensor<6xf32>)";
  EXPECT_EQ(runKernel(kernel(body, 6, "f32")),
            (std::vector<double>{10, 11, 22, 23, 34, 35}));
}

TEST(Ops, TransposeAndIndexInParallelLoops) {
  // t = transpose(m) for m = [[0 1 2], [3 4 5]], flattened.
  std::string body = R"(
    %m = arith.constant dense<[[0, 1, 2], [3, 4, 5]]> : tensor<2x3xi32>
    %e = tensor.empty() : tensor<3x2xi32>
    %t = linalg.transpose ins(%m : tensor<2x3xi32>) outs(%e : tensor<3x2xi32>) permutation = [1, 0]
    %result = tensor.collapse_shape %t [[0, 1]] : tensor<3x2xi32> into tensor<6xi32>)";
  EXPECT_EQ(runKernel(kernel(body, 6, "i32")),
            (std::vector<double>{0, 3, 1, 4, 2, 5}));
}

TEST(Ops, HalfAccumulatorRoundsOnceOrAtEveryStep) {
  // Summing 4096 copies of 1.0: the default policy accumulates f16 in f32
  // (4096); --numerics=strict rounds at every step and stalls at 2048
  // (2048 + 1 rounds to 2048).
  ktflow::interp::InterpreterOptions strict;
  strict.numerics = ktflow::interp::NumericsPolicy::Strict;
  std::string body = R"(
    %ones = arith.constant dense<1.0> : tensor<1x4096xf16>
    %z = arith.constant dense<0.0> : tensor<1xf16>
    %result = linalg.reduce ins(%ones : tensor<1x4096xf16>) outs(%z : tensor<1xf16>) dimensions = [1]
      (%in: f16, %acc: f16) {
        %s = arith.addf %acc, %in : f16
        linalg.yield %s : f16
      })";
  EXPECT_EQ(runKernel(kernel(body, 1, "f16")), (std::vector<double>{4096}));
  EXPECT_EQ(runKernel(kernel(body, 1, "f16"), {}, strict),
            (std::vector<double>{2048}));
  // The same sum with the reduction as the outer loop of a 2-D generic and
  // 3 parallel outputs (column mode).
  std::string columns = R"(
    %ones = arith.constant dense<1.0> : tensor<4096x3xf16>
    %z = arith.constant dense<0.0> : tensor<3xf16>
    %result = linalg.generic {indexing_maps = [#id2, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
        ins(%ones : tensor<4096x3xf16>) outs(%z : tensor<3xf16>) {
    ^bb0(%in: f16, %acc: f16):
      %s = arith.addf %in, %acc : f16
      linalg.yield %s : f16
    } -> tensor<3xf16>)";
  EXPECT_EQ(runKernel(kernel(columns, 3, "f16")),
            (std::vector<double>{4096, 4096, 4096}));
  EXPECT_EQ(runKernel(kernel(columns, 3, "f16"), {}, strict),
            (std::vector<double>{2048, 2048, 2048}));
}

TEST(Ops, IntegerAndGenericCombiners) {
  // Per row: max (maxsi) and a non-commutative fold acc = 2*acc - x.
  std::string body = R"(
    %m = arith.constant dense<[[3, -7, 5], [-1, -2, -3]]> : tensor<2x3xi32>
    %lo = arith.constant dense<-100> : tensor<2xi32>
    %mx = linalg.reduce ins(%m : tensor<2x3xi32>) outs(%lo : tensor<2xi32>) dimensions = [1]
      (%in: i32, %acc: i32) {
        %s = arith.maxsi %in, %acc : i32
        linalg.yield %s : i32
      }
    %z = arith.constant dense<0> : tensor<2xi32>
    %two = arith.constant 2 : i32
    %f = linalg.generic {indexing_maps = [#id2, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
        ins(%m : tensor<2x3xi32>) outs(%z : tensor<2xi32>) {
    ^bb0(%x: i32, %acc: i32):
      %d = arith.muli %acc, %two : i32
      %s = arith.subi %d, %x : i32
      linalg.yield %s : i32
    } -> tensor<2xi32>
    %result = tensor.concat dim(0) %mx, %f : (tensor<2xi32>, tensor<2xi32>) -> tensor<4xi32>)";
  // Row 0 fold: 0 -> -3 -> 1 -> -3; row 1: 0 -> 1 -> 4 -> 11.
  EXPECT_EQ(runKernel(kernel(body, 4, "i32")),
            (std::vector<double>{5, -1, -3, 11}));
}

TEST(Ops, WhileAndIfWithScalars) {
  // Collatz steps of 27 (111) by scf.while, then scf.if picks 2 * steps.
  std::string body = R"(
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %n0 = arith.constant 27 : index
    %r:2 = scf.while (%n = %n0, %k = %c0) : (index, index) -> (index, index) {
      %go = arith.cmpi ne, %n, %c1 : index
      scf.condition(%go) %n, %k : index, index
    } do {
    ^bb0(%n: index, %k: index):
      %rem = arith.remui %n, %c2 : index
      %even = arith.cmpi eq, %rem, %c0 : index
      %next = scf.if %even -> (index) {
        %h = arith.divui %n, %c2 : index
        scf.yield %h : index
      } else {
        %t = arith.muli %n, %c3 : index
        %u = arith.addi %t, %c1 : index
        scf.yield %u : index
      }
      %k1 = arith.addi %k, %c1 : index
      scf.yield %next, %k1 : index, index
    }
    %twice = arith.muli %r#1, %c2 : index
    %v = arith.index_cast %twice : index to i64
    %result = tensor.from_elements %v : tensor<1xi64>)";
  EXPECT_EQ(runKernel(kernel(body, 1, "i64")), (std::vector<double>{222}));
}

} // namespace

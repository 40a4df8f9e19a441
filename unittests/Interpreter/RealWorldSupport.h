//===- RealWorldSupport.h - References for the real-world kernels -*- C++ -*-===//
//
// This file holds what the tests of examples/kernels/realworld share: the
// tolerances the real-world corpus uses against numpy, by kernel kind (issue
// 10, "Acceptance"), and the reference building blocks that follow the
// interpreter's numerics policy for 16-bit floats: reductions and matrix
// products accumulate in f32 and round once per output element; element-wise
// ops round once per op. They are plain loops over the compiler's `float`
// and `_Float16`, independent of the interpreter's code.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_UNITTESTS_INTERPRETER_REALWORLDSUPPORT_H
#define KTFLOW_UNITTESTS_INTERPRETER_REALWORLDSUPPORT_H

#include "KernelTestSupport.h"

#include <vector>

namespace ktflow::testing::realworld {

/// Tolerances (rtol, atol) the corpus compares with, per kernel kind.
struct CorpusTolerance {
  /// Copies, gathers, max-reductions: every element bit-exact.
  static Tolerance copy() { return Tolerance::exact(); }
  /// Softmax, layernorm, RMSNorm, RoPE, SDPA, indexed gather-add.
  static Tolerance normalisation() { return {1e-2, 1e-2}; }
  /// The f32 vector add over a dynamic size.
  static Tolerance vectorAddF32() { return {1e-5, 1e-5}; }
  /// Inter-tile all-reduces.
  static Tolerance allReduce() { return {1e-2, 0}; }
  /// Matmuls and split-K products.
  static Tolerance matmul() { return {2e-2, 0.2}; }
  /// Single-core SwiGLU FFN.
  static Tolerance singleCoreFfn() { return {5e-2, 5e-2}; }
  /// The 4-core hidden-sharded FFN.
  static Tolerance shardedFfn() { return {0.15, 2}; }
};

/// A row-major matrix of doubles that are exact f16 or f32 values.
struct Matrix {
  int64_t rows = 0, cols = 0;
  std::vector<double> data;
  Matrix(int64_t rows, int64_t cols) : rows(rows), cols(cols), data(rows * cols) {}
  double &operator()(int64_t i, int64_t j) { return data[i * cols + j]; }
  double operator()(int64_t i, int64_t j) const { return data[i * cols + j]; }
};

/// The `rows` x `cols` block of the flat tensor `t` starting at element
/// `offset`, with row stride `stride`.
Matrix block(const host::Tensor &t, int64_t offset, int64_t rows, int64_t cols,
             int64_t stride);

/// A . B accumulated in f32 and rounded once to f16, then added into C in
/// f16 (numpy's matmul followed by an in-place add; no add when `c` is null).
Matrix matmulF16(const Matrix &a, const Matrix &b, const Matrix *c = nullptr);

/// f16(sum of `values` in f32, in order): one rounding.
double sumF16(const std::vector<double> &values);

/// f16(exp(x)).
double expF16(double x);

/// Appends `m` to `flat` row by row.
void append(std::vector<double> &flat, const Matrix &m);

} // namespace ktflow::testing::realworld

#endif // KTFLOW_UNITTESTS_INTERPRETER_REALWORLDSUPPORT_H

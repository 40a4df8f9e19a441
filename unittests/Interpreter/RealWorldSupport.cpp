//===- RealWorldSupport.cpp - References for the real-world kernels -------===//
//
// This file implements the reference building blocks of RealWorldSupport.h:
// blocks of flat tensors, the f32-accumulated f16 matrix product and sum.
//
//===----------------------------------------------------------------------===//

#include "RealWorldSupport.h"

#include <cmath>

using namespace ktflow::testing;
using namespace ktflow::testing::realworld;
using ktflow::host::Tensor;

Matrix realworld::block(const Tensor &t, int64_t offset, int64_t rows,
                        int64_t cols, int64_t stride) {
  Matrix m(rows, cols);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      m(i, j) = t.getDouble(offset + i * stride + j);
  return m;
}

Matrix realworld::matmulF16(const Matrix &a, const Matrix &b, const Matrix *c) {
  Matrix out(a.rows, b.cols);
  for (int64_t i = 0; i < a.rows; ++i)
    for (int64_t j = 0; j < b.cols; ++j) {
      float acc = 0;
      for (int64_t k = 0; k < a.cols; ++k)
        acc += static_cast<float>(a(i, k)) * static_cast<float>(b(k, j));
      out(i, j) = c ? f16((*c)(i, j) + f16(acc)) : f16(acc);
    }
  return out;
}

double realworld::sumF16(const std::vector<double> &values) {
  float acc = 0;
  for (double v : values)
    acc += static_cast<float>(v);
  return f16(acc);
}

double realworld::expF16(double x) { return f16(std::exp(x)); }

void realworld::append(std::vector<double> &flat, const Matrix &m) {
  flat.insert(flat.end(), m.data.begin(), m.data.end());
}

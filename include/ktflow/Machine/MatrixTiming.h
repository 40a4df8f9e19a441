//===- MatrixTiming.h - Cycles of a matrix product on a unit ----*- C++ -*-===//
//
// This file holds the one formula for the cycles a compute unit takes for
// an M×K by K×N matrix product (docs/simulator.md, "Matrix engine"), so the
// simulator, the scheduler's block choice and its cost estimates charge the
// same. A matrix engine of shape m×n×k computes the product in waves of one
// m×k by k×n block each, back to back, after one pipeline fill per
// instruction; a unit without a matrix shape (a vector unit) computes it
// at its multiply-accumulate rate with no fill. Header-only: it needs
// nothing but integers and the unit's rate.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_MACHINE_MATRIXTIMING_H
#define KTFLOW_MACHINE_MATRIXTIMING_H

#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

namespace ktflow::machine {

/// The block a matrix engine computes per wave; all zero for a unit
/// without one.
struct MatrixShape {
  uint32_t m = 0, n = 0, k = 0;
  bool isEngine() const { return m > 0 && n > 0 && k > 0; }
};

inline uint64_t matrixCeilDiv(uint64_t a, uint64_t b) {
  return (a + b - 1) / b;
}

/// Waves of an M×K by K×N product on `shape`: partial blocks at the edges
/// cost a whole wave (the engine pads them).
inline uint64_t matrixWaves(const MatrixShape &shape, uint64_t rows,
                            uint64_t cols, uint64_t depth) {
  return matrixCeilDiv(rows, shape.m) * matrixCeilDiv(cols, shape.n) *
         matrixCeilDiv(depth, shape.k);
}

/// Cycles before the first wave's results leave an m×n array: the
/// operands enter skewed, one row and one column per cycle.
inline uint64_t matrixFillCycles(const MatrixShape &shape) {
  return shape.isEngine() ? shape.m + shape.n - 1 : 0;
}

/// Cycles of an M×K by K×N product at `macsPerCycle`: on an engine, the
/// fill plus ceil(waves × m·n·k / rate); on a unit without a matrix shape,
/// ceil(M·N·K / rate). `macsPerCycle` must be positive.
inline uint64_t matrixProductCycles(const MatrixShape &shape,
                                    double macsPerCycle, uint64_t rows,
                                    uint64_t cols, uint64_t depth) {
  if (rows == 0 || cols == 0 || depth == 0)
    return 0;
  if (!shape.isEngine())
    return static_cast<uint64_t>(
        std::ceil(static_cast<double>(rows * cols * depth) / macsPerCycle));
  double perWave =
      static_cast<double>(uint64_t(shape.m) * shape.n * shape.k) / macsPerCycle;
  return matrixFillCycles(shape) +
         static_cast<uint64_t>(std::ceil(
             static_cast<double>(matrixWaves(shape, rows, cols, depth)) *
             perWave));
}

/// The M×K by K×N of a product of operands shaped `lhs` and `rhs`: rank 2
/// each, or rank 1 each for a dot product (a 1×K row by a K×1 column).
/// None when the shapes do not agree.
struct MatrixDims {
  uint64_t rows = 0, depth = 0, cols = 0;
};
inline std::optional<MatrixDims> matrixDims(const std::vector<uint32_t> &lhs,
                                            const std::vector<uint32_t> &rhs) {
  if (lhs.size() == 1 && rhs.size() == 1 && lhs[0] == rhs[0])
    return MatrixDims{1, lhs[0], 1};
  if (lhs.size() == 2 && rhs.size() == 2 && lhs[1] == rhs[0])
    return MatrixDims{lhs[0], lhs[1], rhs[1]};
  return std::nullopt;
}

} // namespace ktflow::machine

#endif // KTFLOW_MACHINE_MATRIXTIMING_H

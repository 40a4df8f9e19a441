//===- CompiledAffineExpr.h - Affine expressions compiled once --*- C++ -*-===//
//
// This file declares the precompiled form of an affine expression that the
// interpreter and the roofline's byte count evaluate at every element of a
// tile: an expression linear in its dimensions becomes a coefficient vector
// (a point costs a dot product); any other becomes a postfix program over
// dims, symbols and constants, evaluated without walking the uniqued
// expression tree. Both give exactly what mlir::ktdp::evaluateAffineExpr
// gives, the same operations in the same order with the same failures.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_ANALYSIS_COMPILEDAFFINEEXPR_H
#define KTFLOW_ANALYSIS_COMPILEDAFFINEEXPR_H

#include "mlir/IR/AffineExpr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace ktflow {

/// An affine expression of dims and symbols; linear in the dims when
/// `linear` (value = Σ coeffs[d] * dims[d] + rest(symbols)).
struct CompiledExpr {
  mlir::AffineExpr expr;
  bool linear = false;
  /// Coefficient of each dim; valid only when linear (the coefficients may
  /// not depend on symbols).
  llvm::SmallVector<int64_t, 4> coeffs;
  /// The dim-free part, evaluated once per symbol binding.
  mlir::AffineExpr rest;

  static CompiledExpr compile(mlir::AffineExpr expr, unsigned numDims);
  /// Evaluates at a point; std::nullopt on division by zero, overflow or a
  /// dim or symbol position out of range.
  std::optional<int64_t> eval(llvm::ArrayRef<int64_t> dims,
                              llvm::ArrayRef<int64_t> symbols) const;

private:
  /// One step of the postfix program: pushes a constant, dim or symbol,
  /// or replaces the top two values with their Add/Mul/... (the kind of an
  /// AffineBinaryOpExpr).
  struct Step {
    mlir::AffineExprKind kind;
    int64_t value; ///< The constant, or the dim or symbol position.
  };
  /// `rest` when it has no symbols (std::nullopt inside when it fails).
  std::optional<std::optional<int64_t>> restValue;
  llvm::SmallVector<Step, 8> program;
  unsigned stackDepth = 0;

  void emit(mlir::AffineExpr e, unsigned depth);
  std::optional<int64_t> run(llvm::ArrayRef<int64_t> dims,
                             llvm::ArrayRef<int64_t> symbols) const;
};

/// Whether `expr` is linear in the dims: no dim under floordiv, ceildiv or
/// mod, and no product of two dim-dependent terms.
bool isLinearInDims(mlir::AffineExpr expr);

} // namespace ktflow

#endif // KTFLOW_ANALYSIS_COMPILEDAFFINEEXPR_H

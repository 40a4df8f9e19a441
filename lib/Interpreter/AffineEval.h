//===- AffineEval.h - Fast evaluation of affine maps and sets ---*- C++ -*-===//
//
// This file declares the precompiled forms of affine expressions and integer
// sets the interpreter evaluates at run time: an expression linear in its
// dimensions becomes a coefficient vector (so a point costs a dot product),
// and a set whose every constraint is linear in at most one dimension
// becomes a box whose bounds are computed directly from the constraints.
// Everything else falls back to the generic evaluators of
// IntegerSetAnalysis.h.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_INTERPRETER_AFFINEEVAL_H
#define KTFLOW_LIB_INTERPRETER_AFFINEEVAL_H

#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/IntegerSet.h"
#include "llvm/ADT/DenseMap.h"

namespace ktflow::interp {

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
  /// Evaluates at a point; std::nullopt on division by zero.
  std::optional<int64_t> eval(llvm::ArrayRef<int64_t> dims,
                              llvm::ArrayRef<int64_t> symbols) const;
};

/// Whether `expr` is linear in the dims: no dim under floordiv, ceildiv or
/// mod, and no product of two dim-dependent terms.
bool isLinearInDims(mlir::AffineExpr expr);

/// A precompiled integer set.
class SetPlan {
public:
  explicit SetPlan(mlir::IntegerSet set);

  mlir::IntegerSet getSet() const { return set; }
  /// Every constraint is linear in at most one dim: the set is a box.
  bool isBox() const { return box; }

  /// Inclusive per-dim bounds with symbols fixed (exact for boxes, the
  /// bounding box otherwise). Fails when a dim is unbounded; an empty box
  /// has some upper < lower.
  mlir::FailureOr<mlir::ktdp::IntegerBox>
  bounds(llvm::ArrayRef<int64_t> symbols) const;

  bool contains(llvm::ArrayRef<int64_t> dims,
                llvm::ArrayRef<int64_t> symbols) const;

private:
  struct DimConstraint {
    int dim = -1; ///< -1 for a constraint on symbols only.
    mlir::AffineExpr expr;
    bool isEq = false;
  };
  mlir::IntegerSet set;
  bool box = true;
  llvm::SmallVector<DimConstraint> constraints;
};

/// Caches SetPlans by set (sets are uniqued, so the pointer is the key).
class SetPlanCache {
public:
  const SetPlan &get(mlir::IntegerSet set);

private:
  llvm::DenseMap<mlir::IntegerSet, std::unique_ptr<SetPlan>> plans;
};

/// Evaluates every result of `map` (no symbols) at `dims`.
mlir::FailureOr<llvm::SmallVector<int64_t, 4>>
evaluateMap(mlir::AffineMap map, llvm::ArrayRef<int64_t> dims,
            llvm::ArrayRef<int64_t> symbols = {});

/// For an access-tile order map: result k is dim perm[k]. Fails when the
/// map is not a permutation.
mlir::FailureOr<llvm::SmallVector<unsigned, 4>>
getOrderPermutation(mlir::AffineMap order);

} // namespace ktflow::interp

#endif // KTFLOW_LIB_INTERPRETER_AFFINEEVAL_H

//===- AffineEval.h - Fast evaluation of affine maps and sets ---*- C++ -*-===//
//
// This file declares the precompiled forms of integer sets the interpreter
// evaluates at run time (its compiled affine expressions are the shared
// ones of ktflow/Analysis/CompiledAffineExpr.h): a set whose every
// constraint is linear in at most one dimension becomes a box whose bounds
// are computed directly from the constraints. Everything else falls back to
// the generic evaluators of IntegerSetAnalysis.h.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_INTERPRETER_AFFINEEVAL_H
#define KTFLOW_LIB_INTERPRETER_AFFINEEVAL_H

#include "ktflow/Analysis/CompiledAffineExpr.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/IntegerSet.h"
#include "llvm/ADT/DenseMap.h"

namespace ktflow::interp {

using ktflow::CompiledExpr;
using ktflow::isLinearInDims;

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

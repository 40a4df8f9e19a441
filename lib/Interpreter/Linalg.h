//===- Linalg.h - Structured linalg ops in the interpreter ------*- C++ -*-===//
//
// This file declares the decoded form of a linalg structured op (named or
// generic, through the LinalgOp interface): its indexing maps and iterator
// types, and its scalar body as a straight-line program over value slots.
// The program runs on columns of iteration points, so a body op costs one
// tight loop per column rather than one dispatch per element.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_INTERPRETER_LINALG_H
#define KTFLOW_LIB_INTERPRETER_LINALG_H

#include "ArithMath.h"
#include "Values.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Value.h"

namespace ktflow::interp {

/// One op of a decoded linalg body.
struct BodyInstr {
  enum class Kind { Elementwise, Index };
  Kind kind = Kind::Elementwise;
  EwOp ew;
  /// linalg.index dimension.
  unsigned dim = 0;
  llvm::SmallVector<unsigned, 3> operands;
  unsigned result = 0;
  /// Whether the value depends on an output block argument.
  bool readsAccumulator = false;
};

/// A decoded linalg structured op.
struct LinalgPlan {
  unsigned numLoops = 0, numInputs = 0, numOutputs = 0;
  llvm::SmallVector<bool, 4> isReduction;
  /// Per operand (inputs, then outputs).
  llvm::SmallVector<mlir::AffineMap, 4> maps;
  llvm::SmallVector<llvm::SmallVector<CompiledExpr, 4>, 4> exprs;
  bool allMapsLinear = true;

  // The body. Slots: block arguments first (inputs, then outputs when the
  // body has them), then captured values, constants and op results.
  bool hasOutputArgs = true;
  llvm::SmallVector<DType, 8> slotTypes;
  llvm::SmallVector<std::pair<unsigned, mlir::Value>, 2> captured;
  llvm::SmallVector<std::pair<unsigned, Scalar>, 2> constants;
  llvm::SmallVector<BodyInstr, 8> instrs;
  llvm::SmallVector<unsigned, 2> yields;

  /// When every output is `combine(acc, x)` (or just `x`) with x
  /// independent of the accumulators: per output the instr index of the
  /// combiner (-1 for plain overwrite) and the slot of x.
  bool simpleCombine = false;
  llvm::SmallVector<int, 2> combineInstr;
  llvm::SmallVector<unsigned, 2> combineOperand;

  /// Outputs held in `wideType` while the op runs (a wide accumulator,
  /// docs/interpreter.md §4, or a magnitude): per output, its own element
  /// type, else std::nullopt. Empty when no output is held wide.
  llvm::SmallVector<std::optional<DType>, 2> wideOutputs;
  DType wideType = DType::F32;
  /// A named contraction (linalg.matmul, ...) with widened outputs: the
  /// products accumulate from zero, the sum rounds once to the output type
  /// and is then added into `outs` (one more rounding).
  bool addIntoOutputs = false;
  /// A magnitude plan (buildMagnitudePlan): each output folds
  /// |init| + Σ|x| in f64 instead of the op's result.
  bool magnitude = false;

  unsigned inputSlot(unsigned i) const { return i; }
  /// Slot of output block argument k, or -1 without output arguments.
  int outputSlot(unsigned k) const {
    return hasOutputArgs ? static_cast<int>(numInputs + k) : -1;
  }
};

/// A body that is one multiply-accumulate: its one output becomes
/// `acc + x * y` (one addf of the accumulator and one mulf), x and y float
/// inputs, each possibly widened by extf first (which changes no value), or
/// `acc + |x * y|`, the magnitude plan of one (buildMagnitudePlan). LinalgRun
/// computes such a body in one loop per column (LinalgColumns.cpp) with the
/// two roundings of the plan's types.
struct MultiplyAccumulate {
  /// The mulf's operands, as input numbers, in the mulf's order.
  unsigned lhsInput = 0, rhsInput = 0;
  DType productType = DType::F32, sumType = DType::F32;
  /// Whether rounding the product to productType changes no value: f16
  /// times f16 is exact in f32 (22 significant bits, magnitudes within
  /// 2^-48 .. 2^32), any product rounds to f64 as computed.
  bool exactProduct = false;
  /// addf(acc, product) rather than addf(product, acc).
  bool accumulatorFirst = true;
  /// The product goes through absf before the addf (into a type where its
  /// absolute value is exact).
  bool absoluteProduct = false;
};

/// The multiply-accumulate `plan`'s body is, with its current (possibly
/// widened) types, or std::nullopt.
std::optional<MultiplyAccumulate>
matchMultiplyAccumulate(const LinalgPlan &plan);

/// Decodes a LinalgOp. Returns null and sets `error` (naming the
/// offending body op in `errorOp`) when the op cannot be interpreted.
std::unique_ptr<LinalgPlan> buildLinalgPlan(mlir::Operation *op,
                                            std::string &error,
                                            mlir::Operation *&errorOp);

/// Applies the accumulate policy to a plan of an op that reduces: each
/// f16/bf16/df16 output accumulator, and every body value computed from an
/// accumulator, is held in f32 (for a named contraction, `isContraction`,
/// the products too). No-op for ops without reduction loops or 16-bit float
/// outputs.
void widenAccumulators(LinalgPlan &plan, bool isContraction);

/// The tensor of `plan.wideType` a wide output folds into: `init` exactly,
/// zeros for a plan that adds into its outputs, |init| for a magnitude plan.
std::shared_ptr<Tensor> makeWideOutput(const LinalgPlan &plan,
                                       const Tensor &init);

/// Rounds a widened output once to its element type `t` (and, for a plan
/// that adds into its outputs, adds `init` with one more rounding).
void finishWideOutput(const LinalgPlan &plan, Tensor &wide, const Tensor &init,
                      DType t);

/// Whether the op folds floats with addf or mulf: its results depend on the
/// order of the fold, which another execution (the device) may change.
bool isReorderable(const LinalgPlan &plan);

/// Whether `op` is a `ktdp.inter_tile_reduce` whose combiner is one addf or
/// mulf of its two arguments: another execution may fold the tiles'
/// partials in another order (InterTile.cpp).
bool isReorderableInterTileReduce(mlir::Operation *op);

/// For a plan whose outputs fold with addf, the plan of the same op that
/// computes, per output element, |init| + Σ|x| in f64 (x: what each point
/// adds). Null for other plans.
std::unique_ptr<LinalgPlan> buildMagnitudePlan(const LinalgPlan &plan);

/// Displaces every result of a reorderable reduction of `terms` points per
/// output element (results in `outputs`, magnitudes from the magnitude
/// plan) by its reorder bound: n·ε·(|init| + Σ|x|) for a sum, n·ε·|r| for
/// a product, plus one ulp of the result type, with ε the machine epsilon
/// of the accumulator's type (docs/interpreter.md §9).
void displaceByReorderBound(const LinalgPlan &plan, int64_t terms,
                            llvm::ArrayRef<std::shared_ptr<Tensor>> outputs,
                            llvm::ArrayRef<std::shared_ptr<Tensor>> magnitudes,
                            bool downward);

} // namespace ktflow::interp

#endif // KTFLOW_LIB_INTERPRETER_LINALG_H

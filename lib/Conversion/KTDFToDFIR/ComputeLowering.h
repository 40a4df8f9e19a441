//===- ComputeLowering.h - Compute stages to dfir vector ops ----*- C++ -*-===//
//
// This file declares the lowering of a tiled compute stage's body
// (ComputeLowering.cpp: loops, FIFO reads and writes, generics, matrix
// products) and of the scalar bodies it turns into dfir.map
// (MapBodies.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_CONVERSION_KTDFTODFIR_COMPUTELOWERING_H
#define KTFLOW_LIB_CONVERSION_KTDFTODFIR_COMPUTELOWERING_H

#include "Lowering.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::ktdf::lowering {

class ComputeLowering {
public:
  ComputeLowering(OpBuilder &b, function_ref<std::string(Value)> fifoOf,
                  const llvm::DenseMap<Value, std::string> &runtimeSymbols,
                  const ktdf_arch::UnitSpec *unit)
      : b(b), fifoOf(fifoOf), runtimeSymbols(runtimeSymbols), unit(unit) {}

  LogicalResult lowerBlock(Block &block, IRMapping &map);

private:
  /// The program value of `v`; index and integer constants defined outside
  /// the stage (where folding may have put them) are cloned on demand.
  Value get(Value v, IRMapping &map);

  /// The symbol of `v` if it is a float scalar the kernel receives at
  /// launch (a norm's epsilon) or the float value of an integer one (a
  /// layernorm's `sitofp(%N)`), which the unit reads with dfir.splat_arg.
  std::optional<std::string> floatArgument(Value v) const;

  /// `v`, a float launch scalar, over every element of `shape`.
  Value splatArgument(Location loc, Value v, ArrayRef<int64_t> shape);

  FlatSymbolRefAttr fifo(Value slot);

  LogicalResult lowerConstant(arith::ConstantOp cst, IRMapping &map);

  static std::optional<double> splatValue(Attribute attr);

  LogicalResult lowerFor(scf::ForOp loop, IRMapping &map);

  /// The vector form of input `v` of a generic over `shape`.
  FailureOr<Value> input(linalg::GenericOp op, Value v, VectorType shape,
                         IRMapping &map);

  /// A dfir.map computing `result` (a value of `body`) from `inputs`, whose
  /// elements are `args` in the body. Values the body captures must be
  /// constants or float launch scalars (each one more input, splat from
  /// the argument). `accumulator` names the input that is a reduction's
  /// loop-carried accumulator (the unit keeps it wide, dataflow-ir.md).
  FailureOr<Value> buildMap(Location loc, Block &body, Value result,
                            VectorType type, ArrayRef<Value> givenInputs,
                            ArrayRef<Value> givenArgs, IRMapping &programMap,
                            std::optional<unsigned> accumulator = {});

  /// An index constant as the f32 the map computes with.
  Value floatIndex(Location loc, Operation *constant);

  /// Clones `op` of a generic body into a map body; index arithmetic
  /// becomes the same arithmetic on f32 (IndexIdioms.h).
  LogicalResult cloneInMap(Operation &op, IRMapping &inner);

  LogicalResult lowerGeneric(linalg::GenericOp op, IRMapping &map);

  /// A whole-tile product: `dfir.matmul` of the operand tiles into the
  /// output's value, +0 for a `tensor.empty` output (the interpreter's
  /// fresh tensor). The unit sums a 16-bit accumulator's product in f32 and
  /// rounds it once before adding, as the interpreter does (outs + A·B).
  /// A batch_matmul of one batch multiplies its trailing dimensions: its
  /// tiles hold the bytes of the matrices, so the FIFO entries they come in
  /// (or the splat of their initial value) are received as matrices.
  LogicalResult lowerMatmul(Operation *op, IRMapping &map);

  /// The program value of operand `i` of the product `op` as the matrix
  /// `type`: its vector, or for a batch_matmul's 1 x r x c tile the FIFO
  /// entry or splat it comes from, retyped (the product is its only use).
  FailureOr<Value> matrixOperand(Operation *op, unsigned i, VectorType type,
                                 IRMapping &map);

  /// The vector of `result` (a value of `body`) over every element of
  /// `type`'s shape: an input passed through, a splat constant, or a map.
  FailureOr<Value> mapOver(linalg::GenericOp op, Block &body, Value result,
                           VectorType type, IRMapping &map);

  OpBuilder &b;
  /// Chunk-wide copies of row values, by row value and chunk type.
  llvm::DenseMap<std::pair<Value, Type>, Value> broadcasts;
  function_ref<std::string(Value)> fifoOf;
  const llvm::DenseMap<Value, std::string> &runtimeSymbols;
  const ktdf_arch::UnitSpec *unit;
};

} // namespace mlir::ktdf::lowering

#endif // KTFLOW_LIB_CONVERSION_KTDFTODFIR_COMPUTELOWERING_H

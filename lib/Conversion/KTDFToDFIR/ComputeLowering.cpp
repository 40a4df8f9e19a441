//===- ComputeLowering.cpp - Compute stages to dfir vector ops ------------===//
//
// This file lowers the body of a tiled compute stage. Chunk tensors
// (tensor<WxT>) become vectors of W elements and row values (tensor<T>)
// one-element vectors; FIFO reads and writes become dfir.recv / dfir.send;
// an element-wise linalg.generic becomes a dfir.map over its scalar body
// (row values broadcast to the chunk first, once per row); a reduction
// becomes a dfir.map for the contribution of each element, a dfir.reduce of
// the chunk and a dfir.map that folds the chunk's result into the
// accumulator; a matrix stage's linalg.matmul on whole tiles becomes a
// dfir.matmul.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "ktflow/Analysis/LaunchArguments.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

/// The vector a chunk or row tensor becomes.
static VectorType vectorOf(Type type) {
  auto tensor = cast<RankedTensorType>(type);
  if (tensor.getRank() == 0)
    return VectorType::get({1}, tensor.getElementType());
  return VectorType::get(tensor.getShape(), tensor.getElementType());
}

static std::optional<dfir::ReduceKind> reduceKindOf(Operation *op) {
  if (isa<arith::AddFOp, arith::AddIOp>(op))
    return dfir::ReduceKind::add;
  if (isa<arith::MulFOp, arith::MulIOp>(op))
    return dfir::ReduceKind::mul;
  if (isa<arith::MaximumFOp, arith::MaxNumFOp, arith::MaxSIOp>(op))
    return dfir::ReduceKind::max;
  if (isa<arith::MinimumFOp, arith::MinNumFOp, arith::MinSIOp>(op))
    return dfir::ReduceKind::min;
  return std::nullopt;
}

namespace {
class ComputeLowering {
public:
  ComputeLowering(OpBuilder &b, function_ref<std::string(Value)> fifoOf,
                  const llvm::DenseMap<Value, std::string> &runtimeSymbols)
      : b(b), fifoOf(fifoOf), runtimeSymbols(runtimeSymbols) {}

  LogicalResult lowerBlock(Block &block, IRMapping &map) {
    for (Operation &op : block) {
      LogicalResult result = success();
      if (auto cst = dyn_cast<arith::ConstantOp>(op))
        result = lowerConstant(cst, map);
      else if (isa<tensor::EmptyOp, scf::YieldOp>(op))
        continue;
      else if (auto loop = dyn_cast<scf::ForOp>(op))
        result = lowerFor(loop, map);
      else if (auto read = dyn_cast<ReadFromFifoOp>(op))
        map.map(read.getResult(),
                dfir::RecvOp::create(b, read.getLoc(),
                                     vectorOf(read.getType()),
                                     fifo(read.getSlot())));
      else if (auto write = dyn_cast<WriteToFifoOp>(op)) {
        Value v = map.lookupOrNull(write.getValue());
        if (!v)
          return write.emitError("the value written has no vector form");
        dfir::SendOp::create(b, write.getLoc(), fifo(write.getSlot()), v);
      }
      else if (auto generic = dyn_cast<linalg::GenericOp>(op))
        result = lowerGeneric(generic, map);
      else if (auto matmul = dyn_cast<linalg::MatmulOp>(op))
        result = lowerMatmul(matmul, map);
      else
        result = op.emitError("'") << op.getName()
                                   << "' cannot run on a compute unit yet";
      if (failed(result))
        return failure();
    }
    return success();
  }

private:
  /// The program value of `v`; index and integer constants defined outside
  /// the stage (where folding may have put them) are cloned on demand.
  Value get(Value v, IRMapping &map) {
    if (Value mapped = map.lookupOrNull(v))
      return mapped;
    auto cst = v.getDefiningOp<arith::ConstantOp>();
    if (!cst || !cst.getType().isIntOrIndex())
      return {};
    Value clone = b.clone(*cst)->getResult(0);
    map.map(v, clone);
    return clone;
  }

  /// The symbol of `v` if it is a float scalar the kernel receives at
  /// launch (a norm's epsilon) or the float value of an integer one (a
  /// layernorm's `sitofp(%N)`), which the unit reads with dfir.splat_arg.
  std::optional<std::string> floatArgument(Value v) const {
    if (!isa<FloatType>(v.getType()))
      return std::nullopt;
    if (BlockArgument integer = ktflow::getFloatOfLaunchScalar(v))
      v = integer;
    auto it = runtimeSymbols.find(v);
    if (it == runtimeSymbols.end())
      return std::nullopt;
    return it->second;
  }

  /// `v`, a float launch scalar, over every element of `shape`.
  Value splatArgument(Location loc, Value v, ArrayRef<int64_t> shape) {
    return dfir::SplatArgOp::create(
        b, loc, VectorType::get(shape, v.getType()),
        FlatSymbolRefAttr::get(b.getContext(), *floatArgument(v)));
  }

  FlatSymbolRefAttr fifo(Value slot) {
    return FlatSymbolRefAttr::get(b.getContext(), fifoOf(slot));
  }

  LogicalResult lowerConstant(arith::ConstantOp cst, IRMapping &map) {
    Type type = cst.getType();
    if (type.isIntOrIndex()) {
      map.map(cst.getResult(), b.clone(*cst)->getResult(0));
      return success();
    }
    if (auto tensor = dyn_cast<RankedTensorType>(type)) {
      auto splat = dyn_cast<SplatElementsAttr>(cst.getValue());
      auto value = splat ? splatValue(splat.getSplatValue<Attribute>())
                         : std::nullopt;
      if (!value)
        return cst.emitError("only splat constants can be vector constants");
      map.map(cst.getResult(),
              dfir::SplatOp::create(b, cst.getLoc(), vectorOf(tensor),
                                    b.getF64FloatAttr(*value)));
    }
    // Float scalars are splat where an op uses them.
    return success();
  }

  static std::optional<double> splatValue(Attribute attr) {
    if (auto f = dyn_cast<FloatAttr>(attr))
      return f.getValueAsDouble();
    if (auto i = dyn_cast<IntegerAttr>(attr))
      return static_cast<double>(i.getValue().getSExtValue());
    return std::nullopt;
  }

  LogicalResult lowerFor(scf::ForOp loop, IRMapping &map) {
    SmallVector<Value> inits;
    for (Value init : loop.getInitArgs()) {
      Value v = map.lookupOrNull(init);
      if (!v)
        return loop.emitError("loop-carried value has no vector form");
      inits.push_back(v);
    }
    Value lb = get(loop.getLowerBound(), map),
          ub = get(loop.getUpperBound(), map), step = get(loop.getStep(), map);
    if (!lb || !ub || !step)
      return loop.emitError("loop bounds of a compute stage must be "
                            "constants");
    LogicalResult result = success();
    auto lowered = scf::ForOp::create(
        b, loop.getLoc(), lb, ub, step, inits,
        [&](OpBuilder &, Location loc, Value iv, ValueRange args) {
      IRMapping inner = map;
      inner.map(loop.getInductionVar(), iv);
      for (auto [old, now] : llvm::zip(loop.getRegionIterArgs(), args))
        inner.map(old, now);
      result = lowerBlock(*loop.getBody(), inner);
      SmallVector<Value> yielded;
      for (Value v : loop.getBody()->getTerminator()->getOperands())
        yielded.push_back(inner.lookupOrDefault(v));
      scf::YieldOp::create(b, loc, yielded);
    });
    for (auto [old, now] : llvm::zip(loop.getResults(), lowered.getResults()))
      map.map(old, now);
    return result;
  }

  /// The vector form of input `v` of a generic over `shape`.
  FailureOr<Value> input(linalg::GenericOp op, Value v, VectorType shape,
                         IRMapping &map) {
    Location loc = op.getLoc();
    if (!isa<RankedTensorType>(v.getType())) {
      if (floatArgument(v))
        return splatArgument(loc, v, shape.getShape());
      auto cst = v.getDefiningOp<arith::ConstantOp>();
      auto value = cst ? splatValue(cst.getValue()) : std::nullopt;
      if (!value)
        return op.emitError("scalar operands of compute ops must be "
                            "constants");
      return dfir::SplatOp::create(
                 b, loc, VectorType::get(shape.getShape(), v.getType()),
                 b.getF64FloatAttr(*value))
          .getResult();
    }
    Value vec = map.lookupOrNull(v);
    if (!vec)
      return op.emitError("operand has no vector form on the compute unit");
    auto type = cast<VectorType>(vec.getType());
    if (type.getShape() == shape.getShape())
      return vec;
    // A row value is broadcast once, right after it is computed, not in
    // every chunk that reads it: the unit keeps the chunk-wide copy, as it
    // keeps the row value itself.
    auto wide = VectorType::get(shape.getShape(), type.getElementType());
    Value &cached = broadcasts[{vec, wide}];
    if (!cached) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointAfterValue(vec);
      cached = dfir::BroadcastOp::create(b, loc, wide, vec);
    }
    return cached;
  }

  /// A dfir.map computing `result` (a value of `body`) from `inputs`, whose
  /// elements are `args` in the body. Values the body captures must be
  /// constants or float launch scalars (each one more input, splat from
  /// the argument). `accumulator` names the input that is a reduction's
  /// loop-carried accumulator (the unit keeps it wide, dataflow-ir.md).
  FailureOr<Value> buildMap(Location loc, Block &body, Value result,
                            VectorType type, ArrayRef<Value> givenInputs,
                            ArrayRef<Value> givenArgs,
                            std::optional<unsigned> accumulator = {}) {
    SmallVector<Value> inputs(givenInputs), args(givenArgs);
    // The ops `result` depends on, in order.
    llvm::SetVector<Operation *> slice;
    SmallVector<Value> worklist{result};
    while (!worklist.empty()) {
      Value v = worklist.pop_back_val();
      // The map's inputs stand for these values: their producers stay out.
      if (llvm::is_contained(args, v))
        continue;
      Operation *def = v.getDefiningOp();
      if (!def || slice.contains(def))
        continue;
      slice.insert(def);
      worklist.append(def->operand_begin(), def->operand_end());
    }
    for (Operation *op : slice)
      for (Value operand : op->getOperands())
        if (floatArgument(operand) && !llvm::is_contained(args, operand)) {
          inputs.push_back(splatArgument(loc, operand, type.getShape()));
          args.push_back(operand);
        }
    auto map = dfir::MapOp::create(b, loc, type, inputs);
    if (accumulator)
      map.setAccumulator(*accumulator);
    OpBuilder::InsertionGuard guard(b);
    Block *block = b.createBlock(&map.getBody());
    IRMapping inner;
    for (auto [input, arg] : llvm::zip(inputs, args))
      inner.map(arg, block->addArgument(
                         cast<VectorType>(input.getType()).getElementType(),
                         loc));
    for (Operation &op : body.without_terminator())
      if (slice.contains(&op)) {
        for (Value operand : op.getOperands()) {
          if (inner.contains(operand))
            continue;
          if (isa<BlockArgument>(operand) &&
              operand.getParentBlock() == &body)
            return op.emitError("the contribution of each element depends "
                                "on the accumulator; this reduction cannot "
                                "be computed chunk by chunk");
          if (operand.getParentBlock() != &body) {
            Operation *def = operand.getDefiningOp();
            if (!def || !def->hasTrait<OpTrait::ConstantLike>())
              return op.emitError("the body uses a value from outside that "
                                  "is not a constant");
            inner.map(operand, b.clone(*def)->getResult(0));
          }
        }
        b.clone(op, inner);
      }
    for (Operation *op : slice)
      if (op->getBlock() != &body && !inner.contains(result)) {
        if (!op->hasTrait<OpTrait::ConstantLike>())
          return op->emitError("the body yields a value from outside that is "
                               "not a constant");
        inner.map(result, b.clone(*op)->getResult(0));
      }
    Value yielded = inner.lookupOrNull(result);
    if (!yielded)
      return emitError(loc, "cannot compute the yielded value on the unit");
    dfir::YieldOp::create(b, loc, yielded);
    return map.getResult();
  }

  LogicalResult lowerGeneric(linalg::GenericOp op, IRMapping &map) {
    Location loc = op.getLoc();
    Block &body = op.getRegion().front();
    auto yield = cast<linalg::YieldOp>(body.getTerminator());
    bool reduction = op.getNumReductionLoops() > 0;
    for (auto [k, init] : llvm::enumerate(op.getDpsInits())) {
      VectorType type = vectorOf(op.getResult(k).getType());
      Value result = yield.getOperand(k);
      BlockArgument acc = body.getArgument(op.getNumDpsInputs() + k);
      Value reduced;
      Operation *combine = nullptr;
      if (reduction) {
        combine = result.getDefiningOp();
        std::optional<dfir::ReduceKind> kind =
            combine ? reduceKindOf(combine) : std::nullopt;
        if (!kind || combine->getBlock() != &body ||
            !llvm::is_contained(combine->getOperands(), acc))
          return op.emitError("reduction body is not one associative op "
                              "(add, mul, max, min) folding each element "
                              "into the accumulator");
        Value contribution = combine->getOperand(0) == acc
                                 ? combine->getOperand(1)
                                 : combine->getOperand(0);
        // The per-element contribution over the whole chunk.
        int64_t width = 1;
        for (Value in : op.getDpsInputs())
          if (auto t = dyn_cast<RankedTensorType>(in.getType());
              t && t.getRank() == 1)
            width = t.getDimSize(0);
        VectorType chunk = VectorType::get({width}, type.getElementType());
        auto contrib = mapOver(op, body, contribution, chunk, map);
        if (failed(contrib))
          return failure();
        reduced = dfir::ReduceOp::create(b, loc, type, *kind, *contrib);
        Value accVec = map.lookupOrNull(init);
        if (!accVec)
          return op.emitError("accumulator has no vector form");
        // acc' = combine(acc, reduced), operands in the body's order.
        SmallVector<Value> inputs{reduced, accVec};
        SmallVector<Value> args{contribution, acc};
        auto folded = buildMap(loc, body, result, type, inputs, args,
                               /*accumulator=*/1);
        if (failed(folded))
          return failure();
        map.map(op.getResult(k), *folded);
        continue;
      }
      if (result == acc)
        return op.emitError("an element-wise body that yields its output "
                            "unchanged is not supported");
      auto value = mapOver(op, body, result, type, map);
      if (failed(value))
        return failure();
      map.map(op.getResult(k), *value);
    }
    return success();
  }

  /// A whole-tile product: `dfir.matmul` of the operand tiles into the
  /// output's value, +0 for a `tensor.empty` output (the interpreter's
  /// fresh tensor). The unit sums a 16-bit accumulator's product in f32 and
  /// rounds it once before adding, as the interpreter does (outs + A·B).
  LogicalResult lowerMatmul(linalg::MatmulOp op, IRMapping &map) {
    Value lhs = map.lookupOrNull(op.getInputs()[0]);
    Value rhs = map.lookupOrNull(op.getInputs()[1]);
    if (!lhs || !rhs)
      return op.emitError("matrix operand has no vector form on the unit");
    VectorType type = vectorOf(op.getResult(0).getType());
    Value output = op.getOutputs()[0];
    Value acc = map.lookupOrNull(output);
    if (!acc && output.getDefiningOp<tensor::EmptyOp>())
      acc = dfir::SplatOp::create(b, op.getLoc(), type, b.getF64FloatAttr(0.0));
    if (!acc)
      return op.emitError("the product's output has no vector form on the "
                          "unit");
    map.map(op.getResult(0),
            dfir::MatmulOp::create(b, op.getLoc(), type, lhs, rhs, acc));
    return success();
  }

  /// The vector of `result` (a value of `body`) over every element of
  /// `type`'s shape: an input passed through, a splat constant, or a map.
  FailureOr<Value> mapOver(linalg::GenericOp op, Block &body, Value result,
                           VectorType type, IRMapping &map) {
    SmallVector<Value> inputs, args;
    for (auto [i, in] : llvm::enumerate(op.getDpsInputs())) {
      auto v = input(op, in, type, map);
      if (failed(v))
        return failure();
      if (result == body.getArgument(i) &&
          cast<VectorType>(v->getType()) == type)
        return *v;
      inputs.push_back(*v);
      args.push_back(body.getArgument(i));
    }
    if (floatArgument(result))
      return splatArgument(op.getLoc(), result, type.getShape());
    if (auto cst = result.getDefiningOp<arith::ConstantOp>())
      if (auto value = splatValue(cst.getValue()))
        return dfir::SplatOp::create(b, op.getLoc(), type,
                                     b.getF64FloatAttr(*value))
            .getResult();
    // An element-wise body that reads its output (a column reduction
    // folding a row into per-column accumulators) takes the output's
    // current value as one more input, its accumulator.
    std::optional<unsigned> accumulator;
    if (op.getNumReductionLoops() == 0)
      for (auto [k, arg] : llvm::enumerate(
               body.getArguments().drop_front(op.getNumDpsInputs()))) {
        if (arg.use_empty())
          continue;
        Value current = map.lookupOrNull(op.getDpsInits()[k]);
        if (!current || cast<VectorType>(current.getType()) != type)
          return op.emitError("the output this body reads has no vector "
                              "form of the result's shape");
        accumulator = inputs.size();
        inputs.push_back(current);
        args.push_back(arg);
      }
    return buildMap(op.getLoc(), body, result, type, inputs, args,
                    accumulator);
  }

  OpBuilder &b;
  /// Chunk-wide copies of row values, by row value and chunk type.
  llvm::DenseMap<std::pair<Value, Type>, Value> broadcasts;
  function_ref<std::string(Value)> fifoOf;
  const llvm::DenseMap<Value, std::string> &runtimeSymbols;
};
} // namespace

LogicalResult mlir::ktdf::lowering::lowerComputeStage(
    OpBuilder &b, StageOp stage, IRMapping &map,
    function_ref<std::string(Value)> fifoOf,
    const llvm::DenseMap<Value, std::string> &runtimeSymbols) {
  return ComputeLowering(b, fifoOf, runtimeSymbols)
      .lowerBlock(stage.getBody().front(), map);
}

//===- ComputeLowering.cpp - Compute stages to dfir vector ops ------------===//
//
// This file lowers the body of a tiled compute stage. Chunk tensors
// (tensor<WxT>) become vectors of W elements and row values (tensor<T>)
// one-element vectors; FIFO reads and writes become dfir.recv / dfir.send;
// an element-wise linalg.generic becomes a dfir.map over its scalar body
// (row values broadcast to the chunk first, once per row); a reduction
// becomes a dfir.map for the contribution of each element, a dfir.reduce of
// the chunk and a dfir.map that folds the chunk's result into the
// accumulator (or, for a sum of widened products the unit multiplies
// faster, one dfir.matmul of the two chunks: DotProducts.cpp); a matrix
// stage's linalg.matmul (or batch_matmul of one batch) on whole tiles
// becomes a dfir.matmul.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "ktflow/Analysis/LaunchArguments.h"
#include "ktflow/Dialect/KTDF/Transforms/MatrixStages.h"

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

/// How a reduction body folds each element into the accumulator `acc`:
/// the kind, and the element's contribution.
struct Combine {
  dfir::ReduceKind kind;
  Value contribution;
};

/// The fold of a reduction body yielding `result`: one associative op of
/// the accumulator and the contribution, or the two-op maximum or minimum
/// of real kernels, `select(cmpf ogt, %a, %b), %a, %b)` (the larger of the
/// two; `olt` the smaller).
static std::optional<Combine> matchCombine(Value result, BlockArgument acc) {
  Operation *op = result.getDefiningOp();
  if (!op || op->getBlock() != acc.getOwner())
    return std::nullopt;
  auto other = [&](Value x, Value y) -> Value {
    if (x == acc)
      return y;
    return y == acc ? x : Value();
  };
  if (auto select = dyn_cast<arith::SelectOp>(op)) {
    auto cmp = select.getCondition().getDefiningOp<arith::CmpFOp>();
    if (!cmp || cmp.getLhs() != select.getTrueValue() ||
        cmp.getRhs() != select.getFalseValue())
      return std::nullopt;
    Value contribution = other(cmp.getLhs(), cmp.getRhs());
    if (!contribution)
      return std::nullopt;
    switch (cmp.getPredicate()) {
    case arith::CmpFPredicate::OGT:
    case arith::CmpFPredicate::OGE:
      return Combine{dfir::ReduceKind::max, contribution};
    case arith::CmpFPredicate::OLT:
    case arith::CmpFPredicate::OLE:
      return Combine{dfir::ReduceKind::min, contribution};
    default:
      return std::nullopt;
    }
  }
  if (op->getNumOperands() != 2)
    return std::nullopt;
  Value contribution = other(op->getOperand(0), op->getOperand(1));
  if (!contribution)
    return std::nullopt;
  if (isa<arith::AddFOp, arith::AddIOp>(op))
    return Combine{dfir::ReduceKind::add, contribution};
  if (isa<arith::MulFOp, arith::MulIOp>(op))
    return Combine{dfir::ReduceKind::mul, contribution};
  if (isa<arith::MaximumFOp, arith::MaxNumFOp, arith::MaxSIOp>(op))
    return Combine{dfir::ReduceKind::max, contribution};
  if (isa<arith::MinimumFOp, arith::MinNumFOp, arith::MinSIOp>(op))
    return Combine{dfir::ReduceKind::min, contribution};
  return std::nullopt;
}

namespace {
class ComputeLowering {
public:
  ComputeLowering(OpBuilder &b, function_ref<std::string(Value)> fifoOf,
                  const llvm::DenseMap<Value, std::string> &runtimeSymbols,
                  const ktdf_arch::UnitSpec *unit)
      : b(b), fifoOf(fifoOf), runtimeSymbols(runtimeSymbols), unit(unit) {}

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
      else if (isMatrixProduct(&op))
        result = lowerMatmul(&op, map);
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
                            ArrayRef<Value> givenArgs, IRMapping &programMap,
                            std::optional<unsigned> accumulator = {}) {
    SmallVector<Value> inputs(givenInputs), args(givenArgs);
    // The ops `result` depends on, in order. An index value the body
    // captures (a tile's row origin) is one more input, made by dfir.iota.
    llvm::SetVector<Operation *> slice;
    SmallVector<Value> worklist{result}, capturedIndices;
    while (!worklist.empty()) {
      Value v = worklist.pop_back_val();
      // The map's inputs stand for these values: their producers stay out.
      // So do float launch scalars (splat below) and their producers.
      if (llvm::is_contained(args, v) || floatArgument(v))
        continue;
      if (v.getType().isIndex() && !v.getDefiningOp<arith::ConstantOp>() &&
          v.getParentBlock() != &body) {
        if (!llvm::is_contained(capturedIndices, v))
          capturedIndices.push_back(v);
        continue;
      }
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
    // Index arithmetic runs in f32 (exact: ktdf-check-supported bounds it,
    // IndexIdioms.h): coordinates and captured index values are f32
    // vectors.
    auto coordinates = VectorType::get(type.getShape(), b.getF32Type());
    // `origin + linalg.index d` with the origin captured (a tile's first
    // row in a causal mask) is one dfir.iota from the origin along d, not
    // two coordinate vectors and their sum.
    llvm::SmallPtrSet<Operation *, 4> originPlusIndex;
    for (Operation *op : slice)
      if (auto add = dyn_cast<arith::AddIOp>(op))
        for (auto [x, y] : {std::pair(add.getLhs(), add.getRhs()),
                            std::pair(add.getRhs(), add.getLhs())}) {
          auto index = x.getDefiningOp<linalg::IndexOp>();
          if (!index || !llvm::is_contained(capturedIndices, y))
            continue;
          Value origin = get(y, programMap);
          if (!origin)
            break;
          inputs.push_back(dfir::IotaOp::create(
              b, loc, coordinates, origin,
              b.getI64IntegerAttr(static_cast<int64_t>(index.getDim()))));
          args.push_back(add.getResult());
          originPlusIndex.insert(add);
          break;
        }
    // Coordinates and captured values the folded sums do not cover.
    auto usedApart = [&](Value v) {
      return llvm::any_of(v.getUsers(), [&](Operation *user) {
        return slice.contains(user) && !originPlusIndex.contains(user);
      });
    };
    for (Operation *op : slice)
      if (auto index = dyn_cast<linalg::IndexOp>(op)) {
        if (!usedApart(index.getResult()))
          continue;
        Value zero = arith::ConstantIndexOp::create(b, loc, 0);
        inputs.push_back(dfir::IotaOp::create(
            b, loc, coordinates, zero,
            b.getI64IntegerAttr(static_cast<int64_t>(index.getDim()))));
        args.push_back(index.getResult());
      }
    for (Value captured : capturedIndices) {
      if (!usedApart(captured))
        continue;
      Value scalar = get(captured, programMap);
      if (!scalar)
        return emitError(loc, "an index value this body captures is not "
                              "known to the compute unit");
      inputs.push_back(
          dfir::IotaOp::create(b, loc, coordinates, scalar, IntegerAttr()));
      args.push_back(captured);
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
        if (isa<linalg::IndexOp>(op) || originPlusIndex.contains(&op))
          continue;
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
            inner.map(operand, operand.getType().isIndex()
                                   ? floatIndex(loc, def)
                                   : b.clone(*def)->getResult(0));
          }
        }
        if (failed(cloneInMap(op, inner)))
          return failure();
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

  /// An index constant as the f32 the map computes with.
  Value floatIndex(Location loc, Operation *constant) {
    APInt value =
        cast<IntegerAttr>(cast<arith::ConstantOp>(constant).getValue())
            .getValue();
    return arith::ConstantOp::create(
        b, loc, b.getF32FloatAttr(static_cast<float>(value.getSExtValue())));
  }

  /// Clones `op` of a generic body into a map body; index arithmetic
  /// becomes the same arithmetic on f32 (IndexIdioms.h).
  LogicalResult cloneInMap(Operation &op, IRMapping &inner) {
    bool index =
        llvm::any_of(op.getOperandTypes(),
                     [](Type t) { return t.isIndex(); }) ||
        llvm::any_of(op.getResultTypes(), [](Type t) { return t.isIndex(); });
    if (!index) {
      b.clone(op, inner);
      return success();
    }
    Location loc = op.getLoc();
    if (isa<arith::ConstantOp>(op)) {
      inner.map(op.getResult(0), floatIndex(loc, &op));
      return success();
    }
    Value x = inner.lookupOrNull(op.getOperand(0));
    Value y = op.getNumOperands() > 1 ? inner.lookupOrNull(op.getOperand(1))
                                      : Value();
    if (!x || !y)
      return op.emitError("index operand has no value on the unit");
    Value r;
    if (isa<arith::AddIOp>(op))
      r = arith::AddFOp::create(b, loc, x, y);
    else if (isa<arith::SubIOp>(op))
      r = arith::SubFOp::create(b, loc, x, y);
    else if (isa<arith::MulIOp>(op))
      r = arith::MulFOp::create(b, loc, x, y);
    else if (auto cmp = dyn_cast<arith::CmpIOp>(op))
      r = arith::CmpFOp::create(b, loc, orderedPredicate(cmp.getPredicate()), x,
                                y);
    else
      return op.emitError("'")
             << op.getName() << "' on index values cannot run on a compute "
             << "unit";
    inner.map(op.getResult(0), r);
    return success();
  }

  /// The ordered float comparison of integers that f32 holds exactly (and
  /// that are not negative where the predicate is unsigned).
  static arith::CmpFPredicate orderedPredicate(arith::CmpIPredicate p) {
    switch (p) {
    case arith::CmpIPredicate::eq:
      return arith::CmpFPredicate::OEQ;
    case arith::CmpIPredicate::ne:
      return arith::CmpFPredicate::ONE;
    case arith::CmpIPredicate::slt:
    case arith::CmpIPredicate::ult:
      return arith::CmpFPredicate::OLT;
    case arith::CmpIPredicate::sle:
    case arith::CmpIPredicate::ule:
      return arith::CmpFPredicate::OLE;
    case arith::CmpIPredicate::sgt:
    case arith::CmpIPredicate::ugt:
      return arith::CmpFPredicate::OGT;
    case arith::CmpIPredicate::sge:
    case arith::CmpIPredicate::uge:
      return arith::CmpFPredicate::OGE;
    }
    llvm_unreachable("unknown predicate");
  }

  LogicalResult lowerGeneric(linalg::GenericOp op, IRMapping &map) {
    Location loc = op.getLoc();
    Block &body = op.getRegion().front();
    auto yield = cast<linalg::YieldOp>(body.getTerminator());
    bool reduction = op.getNumReductionLoops() > 0;
    if (std::optional<DotReduction> dot = matchDotReduction(op, unit)) {
      // acc' = acc + a . b, one multiply-accumulate per element.
      Value lhs = map.lookupOrNull(op.getDpsInputs()[dot->lhs]);
      Value rhs = map.lookupOrNull(op.getDpsInputs()[dot->rhs]);
      Value accVec = map.lookupOrNull(op.getDpsInits()[0]);
      if (lhs && rhs && accVec && lhs.getType() == rhs.getType() &&
          cast<VectorType>(lhs.getType()).getRank() == 1 &&
          accVec.getType() == vectorOf(op.getResult(0).getType())) {
        map.map(op.getResult(0), dfir::MatmulOp::create(
                                     b, loc, accVec.getType(), lhs, rhs, accVec)
                                     .getResult());
        return success();
      }
    }
    for (auto [k, init] : llvm::enumerate(op.getDpsInits())) {
      VectorType type = vectorOf(op.getResult(k).getType());
      Value result = yield.getOperand(k);
      BlockArgument acc = body.getArgument(op.getNumDpsInputs() + k);
      Value reduced;
      if (reduction) {
        std::optional<Combine> combine = matchCombine(result, acc);
        if (!combine)
          return op.emitError("reduction body is not one associative op "
                              "(add, mul, max, min) folding each element "
                              "into the accumulator, nor a maximum or "
                              "minimum written as cmpf + select");
        Value contribution = combine->contribution;
        // The per-element contribution over the loops: a chunk (its
        // innermost dimension reduced to a row value), or a whole tile
        // whose innermost dimension a matrix stage reduces.
        VectorType chunk =
            VectorType::get(op.getStaticLoopRanges(), type.getElementType());
        auto contrib = mapOver(op, body, contribution, chunk, map);
        if (failed(contrib))
          return failure();
        reduced = dfir::ReduceOp::create(b, loc, type, combine->kind, *contrib);
        Value accVec = map.lookupOrNull(init);
        if (!accVec)
          return op.emitError("accumulator has no vector form");
        // acc' = combine(acc, reduced), operands in the body's order.
        SmallVector<Value> inputs{reduced, accVec};
        SmallVector<Value> args{contribution, acc};
        auto folded = buildMap(loc, body, result, type, inputs, args, map,
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
  /// A batch_matmul of one batch multiplies its trailing dimensions: its
  /// tiles hold the bytes of the matrices, so the FIFO entries they come in
  /// (or the splat of their initial value) are received as matrices.
  LogicalResult lowerMatmul(Operation *op, IRMapping &map) {
    auto [m, n, k] = matrixProductDims(op);
    Type inType = getElementTypeOrSelf(op->getOperand(0).getType());
    Type outType = getElementTypeOrSelf(op->getResult(0).getType());
    auto type = VectorType::get({m, n}, outType);
    FailureOr<Value> lhs =
        matrixOperand(op, 0, VectorType::get({m, k}, inType), map);
    // The right operand may be a narrower float, extended as it is read.
    Type rhsType = getElementTypeOrSelf(op->getOperand(1).getType());
    FailureOr<Value> rhs =
        matrixOperand(op, 1, VectorType::get({k, n}, rhsType), map);
    if (failed(lhs) || failed(rhs))
      return failure();
    Value output = op->getOperand(2);
    FailureOr<Value> acc = failure();
    if (output.getDefiningOp<tensor::EmptyOp>())
      acc = dfir::SplatOp::create(b, op->getLoc(), type, b.getF64FloatAttr(0.0))
                .getResult();
    else
      acc = matrixOperand(op, 2, type, map);
    if (failed(acc))
      return failure();
    if (isa<linalg::BatchMatmulOp>(op) &&
        llvm::any_of(op->getResult(0).getUsers(),
                     [](Operation *user) { return !isa<WriteToFifoOp>(user); }))
      return op->emitError("a batched product's result may only be sent "
                           "whole from the unit (an epilogue in the same "
                           "compute group is not supported yet)");
    map.map(op->getResult(0),
            dfir::MatmulOp::create(b, op->getLoc(), type, *lhs, *rhs, *acc));
    return success();
  }

  /// The program value of operand `i` of the product `op` as the matrix
  /// `type`: its vector, or for a batch_matmul's 1 x r x c tile the FIFO
  /// entry or splat it comes from, retyped (the product is its only use).
  FailureOr<Value> matrixOperand(Operation *op, unsigned i, VectorType type,
                                 IRMapping &map) {
    Value tensor = op->getOperand(i);
    Value v = map.lookupOrNull(tensor);
    if (!v)
      return op->emitError("matrix operand ")
             << i << " has no vector form on the unit";
    if (v.getType() == type)
      return v;
    Operation *def = v.getDefiningOp();
    if (!tensor.hasOneUse() || !def || !isa<dfir::RecvOp, dfir::SplatOp>(def))
      return op->emitError("operand ")
             << i << " of a batched product must come whole from the unit's "
             << "FIFO or be a fill, used by that product alone";
    v.setType(type);
    return v;
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
    return buildMap(op.getLoc(), body, result, type, inputs, args, map,
                    accumulator);
  }

  OpBuilder &b;
  /// Chunk-wide copies of row values, by row value and chunk type.
  llvm::DenseMap<std::pair<Value, Type>, Value> broadcasts;
  function_ref<std::string(Value)> fifoOf;
  const llvm::DenseMap<Value, std::string> &runtimeSymbols;
  const ktdf_arch::UnitSpec *unit;
};
} // namespace

LogicalResult mlir::ktdf::lowering::lowerComputeStage(
    OpBuilder &b, StageOp stage, IRMapping &map,
    function_ref<std::string(Value)> fifoOf,
    const llvm::DenseMap<Value, std::string> &runtimeSymbols,
    const ktdf_arch::UnitSpec *unit) {
  return ComputeLowering(b, fifoOf, runtimeSymbols, unit)
      .lowerBlock(stage.getBody().front(), map);
}

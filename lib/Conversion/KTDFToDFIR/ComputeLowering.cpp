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

#include "ComputeLowering.h"

#include "ktflow/Analysis/LaunchArguments.h"
#include "ktflow/Dialect/KTDF/Transforms/MatrixStages.h"

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
/// two; `olt` the smaller). The chunk's reduce treats NaN as the body does:
/// maxnumf/minnumf skip it (maxnum/minnum), maximumf/minimumf propagate it
/// (max/min). So does the select when the element is the compare's left
/// operand: the ordered compare is false for a NaN element, which keeps the
/// accumulator. With the accumulator on the left a NaN element replaces it
/// and the next compare replaces the NaN: the fold gives the extremum of
/// the elements after the last NaN, which depends on the accumulator only
/// when the chunk holds no NaN. maxafternan/minafternan step as that body
/// does and fold from the accumulator itself (lowerGeneric), so no chunk
/// result has to say whether it saw a NaN.
/// Whether a reduction of `kind` into `type` starts from the accumulator
/// `accVec` itself: an add or mul (integers, or floats of 32 bits or more,
/// which the unit does not accumulate wider) steps sequentially from it as
/// the kernel's loop does, so no one-element map folds the chunk's result
/// into it (a cycle a chunk on the unit; docs/scheduler.md, "Reductions
/// from the accumulator").
static bool reducesFromAccumulator(dfir::ReduceKind kind, VectorType type,
                                   Value accVec) {
  if (kind != dfir::ReduceKind::add && kind != dfir::ReduceKind::mul)
    return false;
  Type elem = type.getElementType();
  return accVec.getType() == type &&
         (!isa<FloatType>(elem) || elem.getIntOrFloatBitWidth() >= 32);
}

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
    bool skipsNaN = cmp.getLhs() == contribution;
    switch (cmp.getPredicate()) {
    case arith::CmpFPredicate::OGT:
    case arith::CmpFPredicate::OGE:
      return Combine{skipsNaN ? dfir::ReduceKind::maxnum
                              : dfir::ReduceKind::maxafternan,
                     contribution};
    case arith::CmpFPredicate::OLT:
    case arith::CmpFPredicate::OLE:
      return Combine{skipsNaN ? dfir::ReduceKind::minnum
                              : dfir::ReduceKind::minafternan,
                     contribution};
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
  if (isa<arith::MaximumFOp, arith::MaxSIOp>(op))
    return Combine{dfir::ReduceKind::max, contribution};
  if (isa<arith::MinimumFOp, arith::MinSIOp>(op))
    return Combine{dfir::ReduceKind::min, contribution};
  if (isa<arith::MaxNumFOp>(op))
    return Combine{dfir::ReduceKind::maxnum, contribution};
  if (isa<arith::MinNumFOp>(op))
    return Combine{dfir::ReduceKind::minnum, contribution};
  return std::nullopt;
}

LogicalResult ComputeLowering::lowerBlock(Block &block, IRMapping &map) {
  // A matrix product's result is sent right after the product, in the
  // order the block writes: the products of an unrolled loop (a paged
  // attention's scores, page by page) reach their reader one by one, not
  // all after the last product.
  SmallVector<WriteToFifoOp> writes(block.getOps<WriteToFifoOp>());
  size_t sent = 0;
  auto send = [&](WriteToFifoOp write) -> LogicalResult {
    Value v = map.lookupOrNull(write.getValue());
    if (!v)
      return write.emitError("the value written has no vector form");
    dfir::SendOp::create(b, write.getLoc(), fifo(write.getSlot()), v);
    return success();
  };
  auto sendProducts = [&]() -> LogicalResult {
    for (; sent < writes.size(); ++sent) {
      Value v = writes[sent].getValue();
      Operation *def = v.getDefiningOp();
      if (!def || def->getBlock() != &block || !isMatrixProduct(def) ||
          !map.lookupOrNull(v))
        return success();
      if (failed(send(writes[sent])))
        return failure();
    }
    return success();
  };
  for (Operation &op : block) {
    LogicalResult result = success();
    if (auto write = dyn_cast<WriteToFifoOp>(op)) {
      // Sent here unless it was sent after its product.
      if (sent < writes.size() && writes[sent] == write) {
        if (failed(send(write)))
          return failure();
        ++sent;
        if (failed(sendProducts()))
          return failure();
      }
      continue;
    }
    if (auto cst = dyn_cast<arith::ConstantOp>(op))
      result = lowerConstant(cst, map);
    else if (isa<tensor::EmptyOp, scf::YieldOp>(op))
      continue;
    else if (auto loop = dyn_cast<scf::ForOp>(op))
      result = lowerFor(loop, map);
    else if (auto read = dyn_cast<ReadFromFifoOp>(op))
      map.map(read.getResult(),
              dfir::RecvOp::create(b, read.getLoc(), vectorOf(read.getType()),
                                   fifo(read.getSlot())));
    else if (auto generic = dyn_cast<linalg::GenericOp>(op))
      result = lowerGeneric(generic, map);
    else if (isMatrixProduct(&op))
      result = succeeded(lowerMatmul(&op, map)) ? sendProducts() : failure();
    else
      result = op.emitError("'")
               << op.getName() << "' cannot run on a compute unit yet";
    if (failed(result))
      return failure();
  }
  return success();
}

Value ComputeLowering::get(Value v, IRMapping &map) {
  if (Value mapped = map.lookupOrNull(v))
    return mapped;
  auto cst = v.getDefiningOp<arith::ConstantOp>();
  if (!cst || !cst.getType().isIntOrIndex())
    return {};
  Value clone = b.clone(*cst)->getResult(0);
  map.map(v, clone);
  return clone;
}

std::optional<std::string> ComputeLowering::floatArgument(Value v) const {
  if (!isa<FloatType>(v.getType()))
    return std::nullopt;
  if (BlockArgument integer = ktflow::getFloatOfLaunchScalar(v))
    v = integer;
  auto it = runtimeSymbols.find(v);
  if (it == runtimeSymbols.end())
    return std::nullopt;
  return it->second;
}

Value ComputeLowering::splatArgument(Location loc, Value v,
                                     ArrayRef<int64_t> shape) {
  return dfir::SplatArgOp::create(
      b, loc, VectorType::get(shape, v.getType()),
      FlatSymbolRefAttr::get(b.getContext(), *floatArgument(v)));
}

FlatSymbolRefAttr ComputeLowering::fifo(Value slot) {
  return FlatSymbolRefAttr::get(b.getContext(), fifoOf(slot));
}

LogicalResult ComputeLowering::lowerConstant(arith::ConstantOp cst,
                                             IRMapping &map) {
  Type type = cst.getType();
  if (type.isIntOrIndex()) {
    map.map(cst.getResult(), b.clone(*cst)->getResult(0));
    return success();
  }
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    auto splat = dyn_cast<SplatElementsAttr>(cst.getValue());
    auto value =
        splat ? splatValue(splat.getSplatValue<Attribute>()) : std::nullopt;
    if (!value)
      return cst.emitError("only splat constants can be vector constants");
    map.map(cst.getResult(),
            dfir::SplatOp::create(b, cst.getLoc(), vectorOf(tensor),
                                  b.getF64FloatAttr(*value)));
  }
  // Float scalars are splat where an op uses them.
  return success();
}

std::optional<double> ComputeLowering::splatValue(Attribute attr) {
  if (auto f = dyn_cast<FloatAttr>(attr))
    return f.getValueAsDouble();
  if (auto i = dyn_cast<IntegerAttr>(attr))
    return static_cast<double>(i.getValue().getSExtValue());
  return std::nullopt;
}

LogicalResult ComputeLowering::lowerFor(scf::ForOp loop, IRMapping &map) {
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

FailureOr<Value> ComputeLowering::input(linalg::GenericOp op, Value v,
                                        VectorType shape, IRMapping &map) {
  Location loc = op.getLoc();
  if (!isa<RankedTensorType>(v.getType())) {
    if (floatArgument(v))
      return splatArgument(loc, v, shape.getShape());
    auto cst = v.getDefiningOp<arith::ConstantOp>();
    auto value = cst ? splatValue(cst.getValue()) : std::nullopt;
    if (!value)
      return op.emitError("scalar operands of compute ops must be "
                          "constants");
    return dfir::SplatOp::create(b, loc,
                                 VectorType::get(shape.getShape(), v.getType()),
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

LogicalResult ComputeLowering::lowerGeneric(linalg::GenericOp op,
                                            IRMapping &map) {
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
      map.map(op.getResult(0),
              dfir::MatmulOp::create(b, loc, accVec.getType(), lhs, rhs, accVec)
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
      Value accVec = map.lookupOrNull(init);
      if (!accVec)
        return op.emitError("accumulator has no vector form");
      // The select form with the accumulator on the left, and a wide add
      // or mul, fold the chunk from the accumulator: the reduce's result
      // is the new accumulator.
      if (combine->kind == dfir::ReduceKind::maxafternan ||
          combine->kind == dfir::ReduceKind::minafternan ||
          reducesFromAccumulator(combine->kind, type, accVec)) {
        if (accVec.getType() != type)
          return op.emitError("the accumulator's vector form ")
                 << accVec.getType() << " is not the result's " << type;
        map.map(op.getResult(k),
                dfir::ReduceOp::create(b, loc, type, combine->kind, *contrib,
                                       accVec)
                    .getResult());
        continue;
      }
      reduced = dfir::ReduceOp::create(b, loc, type, combine->kind, *contrib,
                                       Value());
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

LogicalResult ComputeLowering::lowerMatmul(Operation *op, IRMapping &map) {
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

FailureOr<Value> ComputeLowering::matrixOperand(Operation *op, unsigned i,
                                                VectorType type,
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

FailureOr<Value> ComputeLowering::mapOver(linalg::GenericOp op, Block &body,
                                          Value result, VectorType type,
                                          IRMapping &map) {
  SmallVector<Value> inputs, args;
  for (auto [i, in] : llvm::enumerate(op.getDpsInputs())) {
    auto v = input(op, in, type, map);
    if (failed(v))
      return failure();
    if (result == body.getArgument(i) && cast<VectorType>(v->getType()) == type)
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

LogicalResult mlir::ktdf::lowering::lowerComputeStage(
    OpBuilder &b, StageOp stage, IRMapping &map,
    function_ref<std::string(Value)> fifoOf,
    const llvm::DenseMap<Value, std::string> &runtimeSymbols,
    const ktdf_arch::UnitSpec *unit) {
  return ComputeLowering(b, fifoOf, runtimeSymbols, unit)
      .lowerBlock(stage.getBody().front(), map);
}

//===- MapBodies.cpp - Scalar bodies to dfir.map --------------------------===//
//
// This file builds the dfir.map of a compute stage's element-wise or
// reduction body (ComputeLowering.h): the ops the yielded value depends on,
// cloned into the map's body; the body's launch scalars splat from their
// arguments; the coordinates and captured index values it reads as
// dfir.iota inputs, with index arithmetic on f32 (IndexIdioms.h).
//
//===----------------------------------------------------------------------===//

#include "ComputeLowering.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

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

FailureOr<Value>
ComputeLowering::buildMap(Location loc, Block &body, Value result,
                          VectorType type, ArrayRef<Value> givenInputs,
                          ArrayRef<Value> givenArgs, IRMapping &programMap,
                          std::optional<unsigned> accumulator) {
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
    inner.map(arg,
              block->addArgument(
                  cast<VectorType>(input.getType()).getElementType(), loc));
  for (Operation &op : body.without_terminator())
    if (slice.contains(&op)) {
      if (isa<linalg::IndexOp>(op) || originPlusIndex.contains(&op))
        continue;
      for (Value operand : op.getOperands()) {
        if (inner.contains(operand))
          continue;
        if (isa<BlockArgument>(operand) && operand.getParentBlock() == &body)
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

Value ComputeLowering::floatIndex(Location loc, Operation *constant) {
  APInt value = cast<IntegerAttr>(cast<arith::ConstantOp>(constant).getValue())
                    .getValue();
  return arith::ConstantOp::create(
      b, loc, b.getF32FloatAttr(static_cast<float>(value.getSExtValue())));
}

LogicalResult ComputeLowering::cloneInMap(Operation &op, IRMapping &inner) {
  bool index =
      llvm::any_of(op.getOperandTypes(), [](Type t) { return t.isIndex(); }) ||
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
  Value y =
      op.getNumOperands() > 1 ? inner.lookupOrNull(op.getOperand(1)) : Value();
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

//===- MapBodyEmitter.cpp - dfir.map bodies to micro-programs -------------===//
//
// This file lowers the scalar body of a `dfir.map` (arith, math and spyreop
// operations) to the machine's micro-ops, applied element-wise, and
// checks that the executing unit can compute each of them on its type.
// The program emitter hands it the registers of the map's inputs and
// encodes the Map instruction around the result.
//
//===----------------------------------------------------------------------===//

#include "EmitterState.h"

#include "ktflow/Device/ChargedType.h"
#include "ktflow/Device/ScalarInstruction.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::bundle;
using namespace ktflow::bundle::detail;
using machine::ScalarOp;

static machine::CmpFPredicate machinePredicate(arith::CmpFPredicate p) {
  using A = arith::CmpFPredicate;
  using M = machine::CmpFPredicate;
  switch (p) {
  case A::AlwaysFalse:
    return M::False;
  case A::OEQ:
    return M::Oeq;
  case A::OGT:
    return M::Ogt;
  case A::OGE:
    return M::Oge;
  case A::OLT:
    return M::Olt;
  case A::OLE:
    return M::Ole;
  case A::ONE:
    return M::One;
  case A::ORD:
    return M::Ord;
  case A::UEQ:
    return M::Ueq;
  case A::UGT:
    return M::Ugt;
  case A::UGE:
    return M::Uge;
  case A::ULT:
    return M::Ult;
  case A::ULE:
    return M::Ule;
  case A::UNE:
    return M::Une;
  case A::UNO:
    return M::Uno;
  case A::AlwaysTrue:
    return M::True;
  }
  llvm_unreachable("unknown arith.cmpf predicate");
}

static machine::CmpIPredicate machinePredicate(arith::CmpIPredicate p) {
  using A = arith::CmpIPredicate;
  using M = machine::CmpIPredicate;
  switch (p) {
  case A::eq:
    return M::Eq;
  case A::ne:
    return M::Ne;
  case A::slt:
    return M::Slt;
  case A::sle:
    return M::Sle;
  case A::sgt:
    return M::Sgt;
  case A::sge:
    return M::Sge;
  case A::ult:
    return M::Ult;
  case A::ule:
    return M::Ule;
  case A::ugt:
    return M::Ugt;
  case A::uge:
    return M::Uge;
  }
  llvm_unreachable("unknown arith.cmpi predicate");
}

FailureOr<machine::MicroOp> MapBodyEmitter::emitMicroOp(Operation &inner) {
  auto kind = device::getScalarInstruction(&inner);
  if (!kind || inner.getNumResults() != 1 || inner.getNumRegions() != 0)
    return inner.emitError("operation '")
           << inner.getName() << "' is not supported in a dfir.map body";
  Type resultType = inner.getResult(0).getType();
  auto type = toElemType(resultType);
  if (!type || resultType.isIndex())
    return inner.emitError("type ") << resultType << " is not supported";
  machine::MicroOp micro;
  micro.op = *kind;
  micro.type = micro.srcType = *type;
  if (inner.getNumOperands() > 0) {
    auto src = toElemType(inner.getOperand(0).getType());
    if (!src)
      return inner.emitError("type ")
             << inner.getOperand(0).getType() << " is not supported";
    micro.srcType = *src;
  }
  uint32_t *operands[] = {&micro.a, &micro.b, &micro.c};
  if (inner.getNumOperands() != machine::scalarOpArity(*kind))
    return inner.emitError("unexpected operand count");
  for (auto [i, operand] : llvm::enumerate(inner.getOperands())) {
    auto it = slots.find(operand);
    if (it == slots.end())
      return inner.emitError("operand ")
             << i << " is not defined in this dfir.map body";
    *operands[i] = it->second;
  }
  if (auto c = dyn_cast<arith::ConstantOp>(inner)) {
    if (auto f = dyn_cast<FloatAttr>(c.getValue()))
      micro.imm = f.getValueAsDouble();
    else if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
      micro.imm = static_cast<double>(i.getValue().getSExtValue());
    else
      return inner.emitError("unsupported constant");
  } else if (auto cmp = dyn_cast<arith::CmpFOp>(inner)) {
    micro.imm = static_cast<double>(machinePredicate(cmp.getPredicate()));
  } else if (auto cmp = dyn_cast<arith::CmpIOp>(inner)) {
    micro.imm = static_cast<double>(machinePredicate(cmp.getPredicate()));
  }
  if (*kind != ScalarOp::Const) {
    if (failed(checkCompute(&inner, unit, machine::scalarOpClass(*kind),
                            device::chargedType(micro, unit))))
      return failure();
  }
  return micro;
}

FailureOr<machine::MapBody> MapBodyEmitter::emit(dfir::MapOp op,
                                                 ArrayRef<uint32_t> inputRegs) {
  machine::MapBody body;
  Block &block = op.getBody().front();
  for (auto [reg, arg] : llvm::zip(inputRegs, block.getArguments())) {
    slots[arg] = body.inputs.size();
    body.inputs.push_back(reg);
  }
  uint32_t next = body.inputs.size();
  for (Operation &inner : block.without_terminator()) {
    FailureOr<machine::MicroOp> micro = emitMicroOp(inner);
    if (failed(micro))
      return failure();
    micro->dst = next;
    slots[inner.getResult(0)] = next++;
    body.ops.push_back(*micro);
  }
  auto yield = cast<dfir::YieldOp>(block.getTerminator());
  auto it = slots.find(yield.getValue());
  if (it == slots.end())
    return yield.emitError("yields a value not defined in the body");
  body.resultSlot = it->second;
  body.numSlots = next;
  return body;
}

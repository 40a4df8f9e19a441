//===- LinalgPlan.cpp - Decoding linalg structured ops --------------------===//
//
// This file decodes a linalg structured op once into a LinalgPlan: the
// maps compiled for fast offset computation, the body turned into slot
// instructions, and the analysis of how the body uses its accumulators,
// which decides how the executor may batch iteration points.
//
//===----------------------------------------------------------------------===//

#include "Linalg.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace ktflow::interp;

static std::optional<Scalar> constantScalar(arith::ConstantOp constant) {
  std::optional<DType> dtype = dtypeFromType(constant.getType());
  if (!dtype)
    return std::nullopt;
  if (auto i = dyn_cast<IntegerAttr>(constant.getValue()))
    return Scalar::ofInt(i.getValue().getSExtValue(), *dtype);
  if (auto f = dyn_cast<FloatAttr>(constant.getValue())) {
    APFloat value = f.getValue();
    bool losesInfo;
    value.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                  &losesInfo);
    return Scalar::ofFloat(value.convertToDouble(), *dtype);
  }
  return std::nullopt;
}

std::unique_ptr<LinalgPlan>
ktflow::interp::buildLinalgPlan(Operation *op, std::string &error,
                                Operation *&errorOp) {
  errorOp = op;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp) {
    error = "is not a linalg structured op";
    return nullptr;
  }
  if (!linalgOp.hasPureTensorSemantics()) {
    error = "has buffer operands; the interpreter runs linalg on tensors only";
    return nullptr;
  }
  auto plan = std::make_unique<LinalgPlan>();
  plan->numLoops = linalgOp.getNumLoops();
  plan->numInputs = linalgOp.getNumDpsInputs();
  plan->numOutputs = linalgOp.getNumDpsInits();
  for (utils::IteratorType it : linalgOp.getIteratorTypesArray())
    plan->isReduction.push_back(it == utils::IteratorType::reduction);
  for (AffineMap map : linalgOp.getIndexingMapsArray()) {
    if (map.getNumSymbols() != 0) {
      error = "has indexing maps with symbols";
      return nullptr;
    }
    plan->maps.push_back(map);
    auto &compiled = plan->exprs.emplace_back();
    for (AffineExpr expr : map.getResults()) {
      compiled.push_back(CompiledExpr::compile(expr, plan->numLoops));
      plan->allMapsLinear &= compiled.back().linear;
    }
  }
  if (plan->maps.size() != plan->numInputs + plan->numOutputs) {
    error = "has an unexpected number of indexing maps";
    return nullptr;
  }

  Block *body = linalgOp.getBlock();
  if (!body) {
    error = "has no body";
    return nullptr;
  }
  unsigned numArgs = body->getNumArguments();
  if (numArgs == plan->numInputs + plan->numOutputs)
    plan->hasOutputArgs = true;
  else if (numArgs == plan->numInputs)
    plan->hasOutputArgs = false;
  else {
    error = "has a body with an unexpected number of arguments";
    return nullptr;
  }

  DenseMap<Value, unsigned> slots;
  SmallVector<bool, 16> dependsOnAcc;
  auto addSlot = [&](Value v, bool acc) -> std::optional<unsigned> {
    std::optional<DType> t = dtypeFromType(v.getType());
    if (!t)
      return std::nullopt;
    unsigned slot = plan->slotTypes.size();
    plan->slotTypes.push_back(*t);
    dependsOnAcc.push_back(acc);
    slots[v] = slot;
    return slot;
  };
  for (BlockArgument arg : body->getArguments()) {
    if (!addSlot(arg, arg.getArgNumber() >= plan->numInputs)) {
      error = "has a body argument of unsupported type";
      return nullptr;
    }
  }
  auto slotOf = [&](Value v) -> std::optional<unsigned> {
    auto it = slots.find(v);
    if (it != slots.end())
      return it->second;
    // Values from outside the body are bound when the op runs.
    std::optional<unsigned> slot = addSlot(v, false);
    if (slot)
      plan->captured.push_back({*slot, v});
    return slot;
  };

  for (Operation &bodyOp : body->without_terminator()) {
    errorOp = &bodyOp;
    if (auto constant = dyn_cast<arith::ConstantOp>(bodyOp)) {
      std::optional<Scalar> value = constantScalar(constant);
      std::optional<unsigned> slot =
          value ? addSlot(constant, false) : std::nullopt;
      if (!slot) {
        error = "is a constant the interpreter cannot use in a linalg body";
        return nullptr;
      }
      plan->constants.push_back({*slot, *value});
      continue;
    }
    BodyInstr instr;
    if (auto index = dyn_cast<linalg::IndexOp>(bodyOp)) {
      instr.kind = BodyInstr::Kind::Index;
      instr.dim = index.getDim();
      if (instr.dim >= plan->numLoops) {
        error = "indexes a loop the op does not have";
        return nullptr;
      }
    } else {
      std::optional<EwOp> ew = decodeElementwise(&bodyOp, 0, error);
      if (!ew || bodyOp.getNumResults() != 1) {
        error = "unknown op '" + bodyOp.getName().getStringRef().str() +
                "': the interpreter does not support it in a linalg body";
        return nullptr;
      }
      instr.ew = *ew;
      for (Value operand : bodyOp.getOperands()) {
        std::optional<unsigned> slot = slotOf(operand);
        if (!slot) {
          error = "has an operand of unsupported type";
          return nullptr;
        }
        instr.operands.push_back(*slot);
        instr.readsAccumulator |= dependsOnAcc[*slot];
      }
    }
    std::optional<unsigned> result =
        addSlot(bodyOp.getResult(0), instr.readsAccumulator);
    if (!result) {
      error = "has a result of unsupported type";
      return nullptr;
    }
    instr.result = *result;
    plan->instrs.push_back(instr);
  }
  errorOp = body->getTerminator();
  for (Value yielded : body->getTerminator()->getOperands()) {
    std::optional<unsigned> slot = slotOf(yielded);
    if (!slot) {
      error = "yields a value of unsupported type";
      return nullptr;
    }
    plan->yields.push_back(*slot);
  }
  if (plan->yields.size() != plan->numOutputs) {
    error = "yields " + std::to_string(plan->yields.size()) +
            " values for " + std::to_string(plan->numOutputs) + " outputs";
    return nullptr;
  }
  errorOp = op;

  // Simple combine: only the final combiners may read accumulators, each
  // reads its own accumulator exactly once, and its other operand does not.
  plan->simpleCombine = true;
  SmallVector<int, 16> producer(plan->slotTypes.size(), -1);
  for (auto [i, instr] : llvm::enumerate(plan->instrs))
    producer[instr.result] = static_cast<int>(i);
  SmallVector<int, 16> combiners;
  for (unsigned k = 0; k < plan->numOutputs && plan->simpleCombine; ++k) {
    unsigned y = plan->yields[k];
    int acc = plan->outputSlot(k);
    if (!dependsOnAcc[y]) {
      plan->combineInstr.push_back(-1);
      plan->combineOperand.push_back(y);
      continue;
    }
    int p = producer[y];
    if (p < 0) {
      plan->simpleCombine = false;
      break;
    }
    const BodyInstr &instr = plan->instrs[p];
    if (instr.kind != BodyInstr::Kind::Elementwise ||
        instr.operands.size() != 2 ||
        !body->getArgument(acc).hasOneUse()) {
      plan->simpleCombine = false;
      break;
    }
    unsigned a = instr.operands[0], b = instr.operands[1];
    unsigned other = a == static_cast<unsigned>(acc) ? b : a;
    if ((a != static_cast<unsigned>(acc) && b != static_cast<unsigned>(acc)) ||
        dependsOnAcc[other]) {
      plan->simpleCombine = false;
      break;
    }
    // The accumulator must be the first operand for order-sensitive ops.
    if (a != static_cast<unsigned>(acc) &&
        !llvm::is_contained({EwKind::AddF, EwKind::MulF, EwKind::MaximumF,
                             EwKind::MinimumF, EwKind::MaxNumF,
                             EwKind::MinNumF, EwKind::AddI, EwKind::MulI,
                             EwKind::MaxSI, EwKind::MinSI, EwKind::MaxUI,
                             EwKind::MinUI, EwKind::AndI, EwKind::OrI,
                             EwKind::XOrI},
                            instr.ew.kind)) {
      plan->simpleCombine = false;
      break;
    }
    plan->combineInstr.push_back(p);
    plan->combineOperand.push_back(other);
    combiners.push_back(p);
  }
  if (plan->simpleCombine)
    for (auto [i, instr] : llvm::enumerate(plan->instrs))
      if (instr.readsAccumulator &&
          !llvm::is_contained(combiners, static_cast<int>(i)))
        plan->simpleCombine = false;
  return plan;
}

std::optional<MultiplyAccumulate>
ktflow::interp::matchMultiplyAccumulate(const LinalgPlan &plan) {
  if (plan.numOutputs != 1 || !plan.hasOutputArgs || plan.yields.size() != 1)
    return std::nullopt;
  unsigned acc = plan.outputSlot(0);
  if (!isFloat(plan.slotTypes[acc]))
    return std::nullopt;
  // The input each widened slot holds, unchanged.
  SmallVector<int, 16> inputOf(plan.slotTypes.size(), -1);
  for (unsigned o = 0; o < plan.numInputs; ++o)
    if (isFloat(plan.slotTypes[o]))
      inputOf[o] = static_cast<int>(o);
  const BodyInstr *mul = nullptr, *abs = nullptr, *add = nullptr;
  for (const BodyInstr &instr : plan.instrs) {
    if (instr.kind != BodyInstr::Kind::Elementwise)
      return std::nullopt;
    switch (instr.ew.kind) {
    case EwKind::ExtF:
      if (instr.operands.size() != 1 || inputOf[instr.operands[0]] < 0)
        return std::nullopt;
      inputOf[instr.result] = inputOf[instr.operands[0]];
      break;
    case EwKind::MulF:
      if (mul || add)
        return std::nullopt;
      mul = &instr;
      break;
    case EwKind::AbsF:
      if (abs || !mul || add)
        return std::nullopt;
      abs = &instr;
      break;
    case EwKind::AddF:
      if (add || !mul)
        return std::nullopt;
      add = &instr;
      break;
    default:
      return std::nullopt;
    }
  }
  if (!mul || !add || mul->operands.size() != 2 || add->operands.size() != 2 ||
      plan.yields[0] != add->result)
    return std::nullopt;
  int lhs = inputOf[mul->operands[0]], rhs = inputOf[mul->operands[1]];
  if (lhs < 0 || rhs < 0)
    return std::nullopt;
  MultiplyAccumulate mulAcc;
  mulAcc.lhsInput = lhs;
  mulAcc.rhsInput = rhs;
  mulAcc.productType = mul->ew.resultType;
  mulAcc.sumType = add->ew.resultType;
  mulAcc.exactProduct =
      mulAcc.productType == DType::F64 ||
      (mulAcc.productType == DType::F32 && plan.slotTypes[lhs] == DType::F16 &&
       plan.slotTypes[rhs] == DType::F16);
  unsigned product = mul->result;
  if (abs) {
    // |x * y| in the absf's type: exact when that type holds the product.
    DType absType = abs->ew.resultType;
    if (abs->operands.size() != 1 || abs->operands[0] != product ||
        (absType != DType::F64 && absType != mulAcc.productType))
      return std::nullopt;
    mulAcc.absoluteProduct = true;
    product = abs->result;
  }
  if (add->operands[0] == acc && add->operands[1] == product)
    mulAcc.accumulatorFirst = true;
  else if (add->operands[0] == product && add->operands[1] == acc)
    mulAcc.accumulatorFirst = false;
  else
    return std::nullopt;
  if (!isFloat(mulAcc.productType) || mulAcc.sumType != plan.slotTypes[acc])
    return std::nullopt;
  return mulAcc;
}

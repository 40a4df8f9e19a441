//===- LinalgNumerics.cpp - Wide accumulators of reducing linalg ops ------===//
//
// This file implements the accumulate numerics policy of structured ops
// that reduce (docs/interpreter.md §4): a 16-bit float accumulator is held
// in f32 while the op folds its iteration points, and rounded once per
// output element at the end, the way numpy and matrix or vector hardware
// reduce f16. Per-element work that does not read an accumulator keeps
// rounding once per op. The policy is a rewrite of the decoded plan's types
// plus an f32 output tensor, so the executor's loops are the same for both
// policies. It also implements the reorder bounds of `ktflow run --check`
// (docs/interpreter.md §9): which reductions depend on the order of their
// fold, the magnitude Σ|x| of a sum (the same op rewritten to fold |x| in
// f64), and the displacement of a reduction's results by their bound.
//
//===----------------------------------------------------------------------===//

#include "Linalg.h"

#include "ktflow/Interpreter/Interpreter.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <cmath>

using namespace ktflow::interp;

static bool isNarrowFloat(DType t) {
  return t == DType::F16 || t == DType::BF16 || t == DType::DF16;
}

static bool isCast(EwKind kind) {
  switch (kind) {
  case EwKind::ExtF:
  case EwKind::TruncF:
  case EwKind::SIToFP:
  case EwKind::UIToFP:
  case EwKind::FPToSI:
  case EwKind::FPToUI:
  case EwKind::BitcastFToI:
  case EwKind::BitcastIToF:
    return true;
  default:
    return false;
  }
}

void ktflow::interp::widenAccumulators(LinalgPlan &plan, bool isContraction) {
  if (!plan.hasOutputArgs || !llvm::is_contained(plan.isReduction, true))
    return;
  llvm::SmallVector<bool, 16> wide(plan.slotTypes.size(), false);
  bool any = false;
  for (unsigned k = 0; k < plan.numOutputs; ++k) {
    unsigned slot = plan.outputSlot(k);
    if (isNarrowFloat(plan.slotTypes[slot]))
      wide[slot] = any = true;
  }
  if (!any)
    return;
  // Which instructions compute in the accumulation type: those that read an
  // accumulator and, in a contraction, every arithmetic op (the products of
  // 16-bit values are exact in f32, as in a matrix unit).
  auto widened = [&](const BodyInstr &instr) {
    return instr.kind == BodyInstr::Kind::Elementwise &&
           (instr.readsAccumulator ||
            (isContraction && !isCast(instr.ew.kind)));
  };
  // A bit pattern cannot be reinterpreted at another width: such bodies
  // keep their literal types.
  for (const BodyInstr &instr : plan.instrs)
    if (widened(instr) && (instr.ew.kind == EwKind::BitcastFToI ||
                           instr.ew.kind == EwKind::BitcastIToF))
      return;
  for (BodyInstr &instr : plan.instrs) {
    if (!widened(instr))
      continue;
    for (auto [i, operand] : llvm::enumerate(instr.operands))
      if (wide[operand] && i < instr.ew.operandTypes.size())
        instr.ew.operandTypes[i] = DType::F32;
    if (isNarrowFloat(instr.ew.resultType)) {
      instr.ew.resultType = DType::F32;
      wide[instr.result] = true;
    }
  }
  plan.wideOutputs.assign(plan.numOutputs, std::nullopt);
  for (unsigned k = 0; k < plan.numOutputs; ++k) {
    unsigned slot = plan.outputSlot(k);
    if (wide[slot])
      plan.wideOutputs[k] = plan.slotTypes[slot];
  }
  for (auto [slot, isWide] : llvm::enumerate(wide))
    if (isWide)
      plan.slotTypes[slot] = DType::F32;
  // matmul is `outs + A·B`: the product rounds before it meets `outs`
  // (numpy's and ktir-cpu's matmul, then an in-place add).
  plan.addIntoOutputs =
      isContraction && plan.simpleCombine &&
      llvm::all_of(plan.combineInstr, [&](int i) {
        return i >= 0 && plan.instrs[i].ew.kind == EwKind::AddF;
      });
}

std::shared_ptr<Tensor> ktflow::interp::makeWideOutput(const LinalgPlan &plan,
                                                       const Tensor &init) {
  auto wide = std::make_shared<Tensor>();
  wide->dtype = plan.wideType;
  wide->shape = init.shape;
  if (plan.magnitude) {
    wide->floats.resize(init.floats.size());
    for (size_t i = 0; i < init.floats.size(); ++i)
      wide->floats[i] = std::fabs(init.floats[i]);
  } else if (plan.addIntoOutputs) {
    wide->floats.assign(init.floats.size(), 0.0);
  } else {
    wide->floats = init.floats; // 16-bit values are exact in f32
  }
  return wide;
}

void ktflow::interp::finishWideOutput(const LinalgPlan &plan, Tensor &wide,
                                      const Tensor &init, DType t) {
  roundArray(t, wide.floats.data(), wide.floats.size());
  if (plan.addIntoOutputs) {
    for (size_t i = 0; i < wide.floats.size(); ++i)
      wide.floats[i] += init.floats[i];
    roundArray(t, wide.floats.data(), wide.floats.size());
  }
  wide.dtype = t;
}

bool ktflow::interp::isReorderable(const LinalgPlan &plan) {
  if (!plan.simpleCombine)
    return false;
  return llvm::any_of(plan.combineInstr, [&](int i) {
    if (i < 0)
      return false;
    const EwOp &ew = plan.instrs[i].ew;
    return isFloat(ew.resultType) &&
           (ew.kind == EwKind::AddF || ew.kind == EwKind::MulF);
  });
}

std::unique_ptr<LinalgPlan>
ktflow::interp::buildMagnitudePlan(const LinalgPlan &plan) {
  if (!plan.simpleCombine || plan.numOutputs == 0)
    return nullptr;
  auto mag = std::make_unique<LinalgPlan>(plan);
  mag->wideOutputs.assign(plan.numOutputs, std::nullopt);
  for (unsigned k = 0; k < plan.numOutputs; ++k) {
    int p = mag->combineInstr[k];
    if (p < 0 || mag->instrs[p].ew.kind != EwKind::AddF)
      return nullptr;
    // |x| into a new f64 slot, right before the combiner.
    unsigned x = mag->combineOperand[k];
    unsigned absSlot = mag->slotTypes.size();
    mag->slotTypes.push_back(DType::F64);
    BodyInstr abs;
    abs.ew.kind = EwKind::AbsF;
    abs.ew.resultType = DType::F64;
    abs.ew.operandTypes = {mag->slotTypes[x]};
    abs.operands = {x};
    abs.result = absSlot;
    mag->instrs.insert(mag->instrs.begin() + p, abs);
    for (int &c : mag->combineInstr)
      if (c >= p)
        ++c;
    BodyInstr &combine = mag->instrs[p + 1];
    for (unsigned &operand : combine.operands)
      if (operand == x)
        operand = absSlot;
    combine.ew.resultType = DType::F64;
    combine.ew.operandTypes.assign(combine.operands.size(), DType::F64);
    mag->slotTypes[combine.result] = DType::F64;
    unsigned out = mag->outputSlot(k);
    mag->wideOutputs[k] = plan.wideOutputs.empty() || !plan.wideOutputs[k]
                              ? plan.slotTypes[out]
                              : *plan.wideOutputs[k];
    mag->slotTypes[out] = DType::F64;
    mag->combineOperand[k] = absSlot;
  }
  mag->wideType = DType::F64;
  mag->addIntoOutputs = false;
  mag->magnitude = true;
  return mag;
}

void ktflow::interp::displaceByReorderBound(
    const LinalgPlan &plan, int64_t terms,
    llvm::ArrayRef<std::shared_ptr<Tensor>> outputs,
    llvm::ArrayRef<std::shared_ptr<Tensor>> magnitudes, bool downward) {
  for (unsigned k = 0; k < plan.numOutputs; ++k) {
    int p = plan.combineInstr[k];
    Tensor &out = *outputs[k];
    if (p < 0 || !isFloat(out.dtype))
      continue;
    EwKind kind = plan.instrs[p].ew.kind;
    if (kind != EwKind::AddF && kind != EwKind::MulF)
      continue;
    // The accumulator's type: f32 when widened, else the output's own.
    DType acc = plan.slotTypes[plan.outputSlot(k)];
    double eps = unitInLastPlace(1.0, acc);
    for (size_t i = 0; i < out.floats.size(); ++i) {
      double r = out.floats[i];
      double size = kind == EwKind::AddF && k < magnitudes.size()
                        ? magnitudes[k]->floats[i]
                        : std::fabs(r);
      double bound = static_cast<double>(terms) * eps * size +
                     unitInLastPlace(r, out.dtype);
      out.floats[i] = roundToDType(downward ? r - bound : r + bound, out.dtype);
    }
  }
}

std::vector<mlir::Operation *>
ktflow::interp::findReorderableReductions(mlir::ModuleOp module) {
  std::vector<mlir::Operation *> ops;
  module.walk([&](mlir::linalg::LinalgOp op) {
    if (op.getNumReductionLoops() == 0)
      return;
    std::string error;
    mlir::Operation *errorOp = nullptr;
    std::unique_ptr<LinalgPlan> plan = buildLinalgPlan(op, error, errorOp);
    if (plan && isReorderable(*plan))
      ops.push_back(op);
  });
  // Inter-tile reductions of addf or mulf: the device may fold the tiles'
  // partials in another order than ascending tiles (InterTile.cpp).
  module.walk([&](mlir::Operation *op) {
    if (isReorderableInterTileReduce(op))
      ops.push_back(op);
  });
  return ops;
}

//===- LinalgNumerics.cpp - Wide accumulators of reducing linalg ops ------===//
//
// This file implements the accumulate numerics policy of structured ops
// that reduce (docs/interpreter.md §4): a 16-bit float accumulator is held
// in f32 while the op folds its iteration points, and rounded once per
// output element at the end, the way numpy and matrix or vector hardware
// reduce f16. Per-element work that does not read an accumulator keeps
// rounding once per op. The policy is a rewrite of the decoded plan's types
// plus an f32 output tensor, so the executor's loops are the same for both
// policies.
//
//===----------------------------------------------------------------------===//

#include "Linalg.h"

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
  wide->dtype = DType::F32;
  wide->shape = init.shape;
  if (plan.addIntoOutputs)
    wide->floats.assign(init.floats.size(), 0.0);
  else
    wide->floats = init.floats; // 16-bit values are exact in f32
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

//===- MatrixStages.h - Compute stages that multiply matrices ---*- C++ -*-===//
//
// This file declares the test the scheduling passes share for a compute
// stage that multiplies matrices (it holds a linalg.matmul, or a
// linalg.batch_matmul of one batch, which is a matmul of its trailing
// dimensions): such a stage
// runs on the lane's matrix unit where the lane has one that can run it,
// else on its vector unit, and works on whole tiles — the unit multiplies the
// tiles received in waves of its block (docs/simulator.md, "Matrix engine") —
// instead of streaming rows in chunks, and it is not coarsened.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDF_TRANSFORMS_MATRIXSTAGES_H
#define KTFLOW_DIALECT_KTDF_TRANSFORMS_MATRIXSTAGES_H

#include "ktflow/Dialect/KTDF/IR/KTDF.h"
#include "ktflow/Dialect/KTDFArch/IR/NodeSpec.h"
#include "ktflow/Machine/MatrixTiming.h"
#include "ktflow/Scheduler/ScheduleTarget.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <array>

namespace mlir::ktdf {

/// Whether `op` is a matrix product the scheduler runs on whole tiles: a
/// linalg.matmul, or a linalg.batch_matmul (whose tiles hold one batch
/// each, ktdf-check-supported makes sure; the unit multiplies its trailing
/// two dimensions).
inline bool isMatrixProduct(Operation *op) {
  return isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op);
}

/// The (m, n, k) of the matrix product `op` (isMatrixProduct): the
/// trailing two dimensions of its operands, m x k times k x n.
inline std::array<int64_t, 3> matrixProductDims(Operation *op) {
  auto lhs = cast<RankedTensorType>(op->getOperand(0).getType());
  auto rhs = cast<RankedTensorType>(op->getOperand(1).getType());
  int64_t rank = lhs.getRank();
  return {lhs.getDimSize(rank - 2), rhs.getDimSize(rank - 1),
          lhs.getDimSize(rank - 1)};
}

/// Whether `stage` is a compute stage holding a matrix product.
inline bool isMatrixStage(StageOp stage) {
  if (!stage || !stage.isCompute())
    return false;
  bool found = false;
  stage.walk([&](Operation *op) { found |= isMatrixProduct(op); });
  return found;
}

/// The rate at which `unit` multiplies the operands of the matrix product
/// `op`, if it multiplies their type.
inline std::optional<double> matrixRate(Operation *op,
                                        const ktdf_arch::UnitSpec &unit) {
  Type element = getElementTypeOrSelf(op->getOperand(0).getType());
  std::optional<double> rate =
      unit.getThroughput(ktdf_arch::OpClass::Matrix, element);
  if (!rate || *rate <= 0)
    return std::nullopt;
  return rate;
}

/// The block a matrix engine `unit` multiplies in; the empty shape for a
/// unit that is not one (a vector unit, MatrixTiming.h).
inline ktflow::machine::MatrixShape
matrixBlockOf(const ktdf_arch::UnitSpec &unit) {
  if (!unit.matrix)
    return {};
  return {static_cast<uint32_t>(unit.matrix->m),
          static_cast<uint32_t>(unit.matrix->n),
          static_cast<uint32_t>(unit.matrix->k)};
}

/// Whether a matrix unit with `unit`'s features can run the matrix stage
/// `stage`: it multiplies every product's operand type, and the stage
/// does no element-wise work but fills (the unit has no element-wise
/// datapath; a stage that does runs on the vector unit instead).
inline bool matrixUnitCanRun(StageOp stage, const ktdf_arch::UnitSpec &unit) {
  WalkResult walk = stage.walk([&](Operation *op) {
    if (isMatrixProduct(op))
      return matrixRate(op, unit) ? WalkResult::skip()
                                  : WalkResult::interrupt();
    if (auto generic = dyn_cast<linalg::GenericOp>(op))
      return llvm::any_of(
                 generic.getDpsInputs(),
                 [](Value v) { return isa<RankedTensorType>(v.getType()); })
                 ? WalkResult::interrupt()
                 : WalkResult::skip();
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

/// The cycles `unit` takes for the products of the matrix stage `stage`
/// (MatrixTiming.h: an engine in waves of its block after a fill, a vector
/// unit at its multiply-accumulate rate), or none when it does not
/// multiply one of their operand types.
inline std::optional<uint64_t>
matrixStageCycles(StageOp stage, const ktdf_arch::UnitSpec &unit) {
  ktflow::machine::MatrixShape block = matrixBlockOf(unit);
  uint64_t cycles = 0;
  WalkResult walk = stage.walk([&](Operation *op) {
    if (!isMatrixProduct(op))
      return WalkResult::advance();
    std::optional<double> rate = matrixRate(op, unit);
    if (!rate)
      return WalkResult::interrupt();
    auto [m, n, k] = matrixProductDims(op);
    cycles += ktflow::machine::matrixProductCycles(block, *rate, m, n, k);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return std::nullopt;
  return cycles;
}

/// The features of the matrix engine the compute stage `stage` is bound
/// to on `target`, or null for a stage bound to no unit of `target` or to a
/// unit without a matrix engine.
inline const ktdf_arch::UnitSpec *
matrixUnitOf(StageOp stage, const ktflow::sched::ScheduleTarget &target) {
  if (!stage.isCompute() || !stage.getUnit())
    return nullptr;
  std::optional<ktflow::device::NodeId> node =
      target.findNode(*stage.getUnit());
  if (!node)
    return nullptr;
  const auto &spec = target.getModel().getNode(*node).unit;
  return spec && spec->matrix ? &*spec : nullptr;
}

/// Whether `pipeline` computes in a matrix stage.
inline bool hasMatrixStage(PipelineOp pipeline) {
  for (auto stage : pipeline.getBody().front().getOps<StageOp>())
    if (isMatrixStage(stage))
      return true;
  return false;
}

} // namespace mlir::ktdf

#endif // KTFLOW_DIALECT_KTDF_TRANSFORMS_MATRIXSTAGES_H

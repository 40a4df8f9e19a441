//===- SplitOutputBlocks.cpp - A product's output block over idle lanes ---===//
//
// This file implements --ktdf-split-output-blocks. A Triton-style matmul
// gives each grid point one output block and walks K inside it; with fewer
// points than the device has instances (the [2, 16] grid of the 64x2048 .
// 2048x8192 product on spyre_like's 32 cores x 2 corelets) half the matrix
// engines idle, and ktdf-spread-iterations cannot help: the K loop carries
// the accumulator. The columns of the block are independent, though: the
// pass adds a last grid dimension of extent S and gives copy j of each point
// the j-th of S column slices of every tensor that flows into the stores
// (the right operand of each product, its output, the accumulator, the
// element-wise ops on them), while the left operands stay whole. Every
// output element is then computed by one copy, from the same operands in
// the same order: the numerics are the kernel's.
//
// It applies only where nothing but loads is left whole (a left operand
// computed from other values would be computed S times: an attention's
// probabilities, a SwiGLU's gate), so the copies add DMA traffic for the
// left operands and no compute. The slicing itself is OutputSlices.h's,
// which ktdf-share-left-operands shares.
//
//===----------------------------------------------------------------------===//

#include "OutputSlices.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"
#include "ktflow/Scheduler/ScheduleTarget.h"
#include "ktflow/Scheduler/ScheduleTargetPass.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFSPLITOUTPUTBLOCKS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

namespace {
struct SplitOutputBlocksPass
    : public ktflow::sched::WithScheduleTarget<
          ktdf::impl::KTDFSplitOutputBlocksBase<SplitOutputBlocksPass>> {
  using Base::Base;
  void runOnOperation() override {
    bool products = false, reductions = false;
    getOperation().walk([&](Operation *op) {
      products |= isa<linalg::MatmulOp>(op);
      reductions |= isColumnReduction(op);
    });
    if (!products && !reductions)
      return markAllAnalysesPreserved();
    const ktflow::sched::ScheduleTarget *target = requireScheduleTarget();
    if (!target)
      return;
    int64_t instances = target->getNumLaneInstances(useLanes);
    for (auto [func, grid] : gridKernels(getOperation())) {
      bool matmul =
          func->walk([](linalg::MatmulOp) { return WalkResult::interrupt(); })
              .wasInterrupted();
      bool reduction = func->walk([](Operation *op) {
                             return isColumnReduction(op)
                                        ? WalkResult::interrupt()
                                        : WalkResult::advance();
                           })
                           .wasInterrupted();
      if (!matmul && !reduction)
        continue;
      // A column reduction's slices only need rows of a few DMA words; a
      // product's right operand slices feed the matrix unit.
      int64_t narrowest = matmul ? minColumns : minReductionColumns;
      OutputSlicePlan plan;
      if (failed(plan.build(func)))
        continue;
      // The widest power of two that idle instances allow and the columns
      // divide into slices of at least `minColumns`.
      int64_t idle = instances / ktdp::getNumTiles(grid);
      if (maxFactor > 0)
        idle = std::min<int64_t>(idle, maxFactor);
      int64_t slices = 1;
      while (slices * 2 <= idle && plan.getColumns() % (slices * 2) == 0 &&
             plan.getColumns() / (slices * 2) >= narrowest)
        slices *= 2;
      if (slices < 2)
        continue;
      Value copy =
          addGridDimension(func, ktdp::getGridOwner(func), grid, slices);
      sliceColumns(func, plan, copy, slices);
    }
  }
};
} // namespace

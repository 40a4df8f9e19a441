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
// Blocks of few columns (matmul_tiled's [2, 2] grid of 32x64 blocks on 64
// PTs) give too few slices; their rows are independent too, each reading
// its row of the left operand and the whole right operand. When every
// store goes through a tile whose rows move with a tile id (by any stride,
// a Triton `pid_m * BLOCK_SIZE_M` too) and the rows keep apart
// (PointRowPlan, MergeGridPoints.h), the copies are R parts of the rows
// times C slices of the columns, each part still filling the matrix
// unit's rows.
//
// A batched product of one head a tile (batch_scores: a batch_matmul of
// 1x32x64 tiles, K^T a linalg.transpose of the loaded keys) is cut the
// same way: the 3-d tiles' rows are their dimension 1, and a slice of the
// transpose's columns is the transpose of a slice of the keys' rows, so
// each copy loads and transposes only its keys.
//
//===----------------------------------------------------------------------===//

#include "MergeGridPoints.h"
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

/// The narrowest column slice of a block whose rows are cut too: a row of
/// 16 f16 is 32 bytes of the right operand a DMA run. On matmul_tiled's
/// 32x64 blocks, spyre_like ran 4x4 parts of 8x16 in 1,275 cycles, 2x8 of
/// 16x8 in 1,278 and 1x16 of 32x4 in 1,810 (the left operand loaded whole
/// 16 times). A kernel whose rows cannot be cut keeps `min-columns`.
static constexpr int64_t kMinBlockColumns = 16;

/// How many copies of a grid point share its output block: `rows` parts
/// of its rows times `columns` slices of its columns.
struct BlockCut {
  int64_t rows = 1, columns = 1;
  int64_t copies() const { return rows * columns; }
};

/// The row plan of a grid coordinate whose tile id places `func`'s output
/// rows, or nullopt: every store through a row tile, the products' left
/// operands and outputs row values, their right operands read whole.
static std::optional<PointRowPlan> findRowPlan(func::FuncOp func) {
  SmallVector<ktdp::GetComputeTileIdOp> ids;
  func.walk([&](ktdp::GetComputeTileIdOp op) { ids.push_back(op); });
  if (ids.size() != 1 || ids.front()->getBlock() != &func.getBody().front())
    return std::nullopt;
  for (Value id : ids.front().getResults()) {
    PointRowPlan plan(id, /*halves=*/true, /*anyStride=*/true,
                      /*batched=*/true);
    if (succeeded(plan.build(func)))
      return plan;
  }
  return std::nullopt;
}

/// A matrix product: a matmul, or a batch_matmul (one batch a tile).
static bool isProduct(Operation *op) {
  return isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op);
}

namespace {
struct SplitOutputBlocksPass
    : public ktflow::sched::WithScheduleTarget<
          ktdf::impl::KTDFSplitOutputBlocksBase<SplitOutputBlocksPass>> {
  using Base::Base;

  /// The cut of `rows` x `columns` output blocks over `idle` copies of a
  /// point (powers of two). Columns alone (`rows` 0: the rows cannot be
  /// cut): the widest that leaves slices of at least `narrowest` columns.
  /// With rows: the most copies whose parts fill the matrix unit's rows
  /// (a part of fewer rows than the unit would pad every wave) and whose
  /// slices are at least kMinBlockColumns wide; of those, the one that
  /// loads the fewest operand bytes a copy (m/R rows of the left operand
  /// and n/C columns of the right, K each: the smallest m/R + n/C); then
  /// the most row parts (a part's rows of the left operand are one run,
  /// a slice of the right operand one run a row).
  BlockCut chooseCut(int64_t idle, int64_t rows, int64_t columns,
                     int64_t narrowest,
                     const ktflow::sched::ScheduleTarget &target) const {
    BlockCut best;
    if (rows == 0) {
      while (best.columns * 2 <= idle && columns % (best.columns * 2) == 0 &&
             columns / (best.columns * 2) >= narrowest)
        best.columns *= 2;
      return best;
    }
    auto loads = [&](BlockCut cut) {
      return rows / cut.rows + columns / cut.columns;
    };
    for (BlockCut cut;
         cut.rows <= idle && rows % cut.rows == 0 &&
         (cut.rows == 1 || matrixRowsFactor(target, rows / cut.rows) == 1);
         cut.rows *= 2)
      for (cut.columns = 1;
           cut.copies() <= idle && columns % cut.columns == 0 &&
           columns / cut.columns >= kMinBlockColumns;
           cut.columns *= 2)
        if (cut.copies() > best.copies() ||
            (cut.copies() == best.copies() &&
             (loads(cut) < loads(best) ||
              (loads(cut) == loads(best) && cut.rows > best.rows))))
          best = cut;
    return best;
  }

  void runOnOperation() override {
    bool products = false, reductions = false;
    getOperation().walk([&](Operation *op) {
      products |= isProduct(op);
      reductions |= isColumnReduction(op);
    });
    if (!products && !reductions)
      return markAllAnalysesPreserved();
    const ktflow::sched::ScheduleTarget *target = requireScheduleTarget();
    if (!target)
      return;
    int64_t instances = target->getNumLaneInstances(useLanes);
    for (auto [func, grid] : gridKernels(getOperation())) {
      bool matmul = func->walk([](Operation *op) {
                          return isProduct(op) ? WalkResult::interrupt()
                                               : WalkResult::advance();
                        })
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
      OutputSlicePlan plan(/*batched=*/true);
      if (failed(plan.build(func)))
        continue;
      int64_t idle = instances / ktdp::getNumTiles(grid);
      if (maxFactor > 0)
        idle = std::min<int64_t>(idle, maxFactor);
      // A column reduction folds the rows: only products' rows are cut.
      std::optional<PointRowPlan> rowPlan;
      if (matmul && !reduction)
        rowPlan = findRowPlan(func);
      BlockCut cut = chooseCut(idle, rowPlan ? rowPlan->getRows() : 0,
                               plan.getColumns(), narrowest, *target);
      SmallVector<int64_t> cutGrid(grid);
      if (cut.rows > 1) {
        cutPointRows(func, grid, *rowPlan, cut.rows);
        cutGrid.push_back(cut.rows);
        // The row cut made its values again; their columns are the same.
        plan = OutputSlicePlan(/*batched=*/true);
        if (failed(plan.build(func))) {
          func.emitError("ktdf-split-output-blocks: the row cut lost the "
                         "column slices");
          return signalPassFailure();
        }
      }
      if (cut.columns < 2)
        continue;
      Value copy = addGridDimension(func, ktdp::getGridOwner(func), cutGrid,
                                    cut.columns);
      sliceColumns(func, plan, copy, cut.columns);
    }
  }
};
} // namespace

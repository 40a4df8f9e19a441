//===- MergedLoads.h - One transfer for a lane's executions -----*- C++ -*-===//
//
// This file declares what ktdf-row-blocks and the lowering share about a
// DMA load stage whose tiles of consecutive executions of a lane move as
// one transfer into consecutive copies of its buffer.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDF_TRANSFORMS_MERGEDLOADS_H
#define KTFLOW_DIALECT_KTDF_TRANSFORMS_MERGEDLOADS_H

#include "ktflow/Dialect/KTDF/IR/KTDF.h"
#include "ktflow/Scheduler/ScheduleTarget.h"

namespace mlir::ktdf {

/// The i64 array attribute ktdf-row-blocks puts on a DMA load stage of a
/// pipeline of the grid's body, on an engine several lanes of a core
/// share: per lane of the core, how many consecutive executions (grid
/// points) one transfer of the lane loads (1: each its own). The lowering
/// merges only where it proves the tiles contiguous.
constexpr llvm::StringLiteral kMergedExecutionsAttrName =
    "ktdf.merged_executions";

/// How ktdf-row-blocks chooses the merges (its `merge-loads` option).
enum class MergeLoads : int64_t { CostModel = 0, None = 1, All = 2 };

/// Marks the load stages of `pipeline` (in the grid's body, `executions`
/// per lane) whose merges the cost model's walk of the shared load engine
/// finds faster (sched::chooseMergedLoads), or per `mode`.
void decideMergedLoads(const ktflow::sched::ScheduleTarget &target,
                       PipelineOp pipeline, int64_t executions,
                       MergeLoads mode);

} // namespace mlir::ktdf

#endif // KTFLOW_DIALECT_KTDF_TRANSFORMS_MERGEDLOADS_H

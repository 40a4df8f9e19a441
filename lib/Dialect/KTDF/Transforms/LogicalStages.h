//===- LogicalStages.h - A mapped pipeline's stages, for routing -*- C++
//-*-===//
//
// This file declares the part of ktdf-route-transfers that reads a
// pipeline as mapping left it (LogicalStages.cpp): its logical loads,
// compute stage and stores, checked and put in the order the routed feed
// stage moves them.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_LOGICALSTAGES_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_LOGICALSTAGES_H

#include "ktflow/Dialect/KTDF/IR/KTDF.h"
#include "ktflow/Scheduler/ScheduleTarget.h"

namespace mlir::ktdf {

/// The only data transfer of a mapping-stage body, if that is all it holds.
DataTransferOp soleTransfer(StageOp stage);

/// Whether `kind` is the memory the compute unit is fed from and drained
/// into (its scratchpad), where the kernel's own scratchpad views live.
bool isComputeScratchpad(const ktflow::sched::ScheduleTarget &target,
                         StringRef kind);

/// The stages of a pipeline as mapping left them: logical loads (device
/// memory to a FIFO slot of the compute unit), one compute stage, logical
/// stores (back), in program order.
struct LogicalStages {
  SmallVector<StageOp> loads, stores;
  StageOp compute;
};

/// Sorts the stages of `pipeline` into loads, the compute stage and stores;
/// refuses what ktdf-route-transfers cannot route.
FailureOr<LogicalStages>
classifyStages(const ktflow::sched::ScheduleTarget &target,
               PipelineOp pipeline);

/// In a compute stage on whole tiles (one with a matrix product), the
/// reads of loop-carried views move to just before their first use and the
/// loads follow the order of the reads (one FIFO carries them in order).
void readCarriedLast(LogicalStages &stages);

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_LOGICALSTAGES_H

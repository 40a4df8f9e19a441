//===- Coarsening.h - The pieces of --ktdf-coarsen --------------*- C++ -*-===//
//
// This file declares the analysis and the cost query of --ktdf-coarsen.
// CoarsenAnalysis.cpp finds the loop or grid dimension that drives a group
// of sibling pipelines and the tiles of each that move with it, one tile
// height per iteration; CoarsenCost.cpp describes the pipelines to the cost
// model (bytes per DMA stage, compute cycles, route latencies, buffer
// bytes) so it can choose the factor F. Coarsen.cpp runs the pass and
// rewrites the IR to merge F iterations.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_COARSENING_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_COARSENING_H

#include "ktflow/Dialect/KTDF/IR/KTDF.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Scheduler/CostModel.h"
#include "ktflow/Scheduler/ScheduleTarget.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <optional>

namespace mlir::ktdf::coarsen {

/// The loop, or the one wide grid dimension, that drives pipelines.
struct Driver {
  Value iv;
  int64_t step = 1, trips = 0, perInstance = 0;
  /// A loop whose trip count is only known at run time: the last merged
  /// iteration may be partial, its transfers and row loops limited to the
  /// rows that remain.
  bool dynamic = false;
  ParallelOp parallel;
  scf::ForOp loop;
  unsigned gridDim = 0;
};

/// The driver `parent` (a ktdf.parallel or an scf.for) is, if it is one:
/// a grid with one dimension over 1, or a loop with a constant lower bound
/// and positive step and a trip count known or bounded; at least 2 trips.
std::optional<Driver> analyzeDriver(Operation *parent);

/// The 2-d tiles of `pipeline` that move with the driver, each by its own
/// height along its first dimension (rows are what the streamed stages
/// iterate over); none when some tile moves otherwise or a 2-d tile
/// stays put (it would have to be repeated F times).
std::optional<SmallVector<ktdp::ConstructAccessTileOp>>
findMovingTiles(PipelineOp pipeline, const Driver &d);

/// What the cost model needs to choose F for `pipelines` (siblings under
/// driver `d`) among the candidates up to `bound`: their DMA bytes,
/// compute cycles and buffer bytes per iteration, and the first lane's
/// route latencies, bandwidth and DMA unit sharing.
ktflow::sched::CoarsenQuery
describeCoarsening(const ktflow::sched::ScheduleTarget &target,
                   ArrayRef<PipelineOp> pipelines, const Driver &d,
                   int64_t bound);

/// The latency of the datapaths of `chain` between the buffer the feed
/// reads (or the drain writes) and the compute unit.
double fifoLatency(const ktflow::sched::ScheduleTarget &target,
                   const ktflow::sched::HopChain &chain);

/// Cycles the compute unit spends on one execution of `pipeline`'s compute
/// stage, as the lowering and the simulator charge them.
double estimateCompute(const ktflow::sched::ScheduleTarget &target,
                       PipelineOp pipeline);

/// The device memory's bandwidth over the DMA engines that move data at
/// once when the grid around `pipeline` starts (infinite where the memory
/// states none).
double deviceMemoryShare(const ktflow::sched::ScheduleTarget &target,
                         PipelineOp pipeline, int64_t lanesPerEngine);

} // namespace mlir::ktdf::coarsen

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_COARSENING_H

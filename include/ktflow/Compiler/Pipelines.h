//===- Pipelines.h - The scheduler's pass pipeline --------------*- C++ -*-===//
//
// This file declares the three pipeline builders of the scheduler —
// mapping (KTIR to ScheduleIR), scheduling (ScheduleIR to ScheduleIR) and
// lowering (ScheduleIR to DataflowIR) — with the device's PDL checkpoints
// between them, and their registration as named pipelines of ktflow-opt.
// docs/scheduler.md states the IR contract at each group boundary.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_COMPILER_PIPELINES_H
#define KTFLOW_COMPILER_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <string>

namespace ktflow {

/// The schedule choices `--tune` varies (ktflow/Driver/Tune.h), as pass
/// options; each default leaves the choice to the cost model or the pass.
struct ScheduleKnobs {
  /// ktdf-tile-streams `chunk-scale`: the cost model's chunk times 2^N.
  int64_t chunkScale = 0;
  /// ktdf-coarsen `factor` (1 merges nothing) and `factor-scale`.
  int64_t coarsenFactor = 0;
  int64_t coarsenScale = 0;
  /// ktdf-spread-iterations and ktdf-split-output-blocks `max-factor` (1
  /// spreads or splits nothing).
  int64_t spreadFactor = 0;
  int64_t splitFactor = 0;
  /// ktdf-distribute `use-lanes`.
  bool useLanes = true;
  /// ktdf-share-left-operands `merge-points`.
  bool mergePoints = true;
  /// Whether ktdf-hoist-invariant-transfers runs, and its `grid` and
  /// `spans`.
  bool hoist = true;
  bool hoistGrid = true;
  bool spans = true;
  /// ktdf-row-blocks `merge-loads`: off loads each execution's tile on its
  /// own where the cost model would merge a lane's executions.
  bool mergeLoads = true;
};

struct CompileOptions {
  /// False for -O0: the simplest legal schedule (one SIMD width per chunk,
  /// single buffering, one lane per core), the baseline optimisations are
  /// measured against.
  bool optimize = true;
  /// Elements per chunk; 0 lets the cost model choose.
  int64_t chunk = 0;
  /// Copies of each pipeline buffer; 0 lets the cost model choose.
  int64_t depth = 0;
  /// Row tensors over this many bytes are computed in column chunks
  /// (ktdf-stream-wide-rows), which also moves gathers over it in
  /// chunks; 0 keeps both whole. compile() sets it itself
  /// when a kernel's scratchpad is over capacity.
  int64_t maxRowBytes = 0;
  /// Choices the tuner makes instead of the cost model (-O1 and up).
  ScheduleKnobs knobs;
  /// The kernel function to compile (`--func`); empty for the module's
  /// only kernel.
  std::string function;
  /// Called on compile()'s pass manager before it runs; the driver applies
  /// the standard `--mlir-print-ir-*` and `--mlir-timing` options here.
  std::function<mlir::LogicalResult(mlir::PassManager &)> instrument;
};

/// `options`' depth, chunk and knobs that differ from the defaults, as
/// `name=value` words (`depth=3 spans=off`), or `default`.
std::string describeSchedule(const CompileOptions &options);
/// Sets in `options` the choices `words` names, as describeSchedule
/// spells them (`--schedule`: one candidate of `--tune` compiled alone).
llvm::Error parseSchedule(llvm::StringRef words, CompileOptions &options);

/// KTIR -> ScheduleIR, from checkpoint pre_mapping to the initial pipelines.
void buildMappingPipeline(mlir::OpPassManager &pm,
                          const CompileOptions &options);
/// ScheduleIR -> ScheduleIR, checkpoints pre_scheduling and post_scheduling.
void buildSchedulingPipeline(mlir::OpPassManager &pm,
                             const CompileOptions &options);
/// ScheduleIR -> DataflowIR, then checkpoint post_lowering. It takes no
/// CompileOptions: the lowering reads nothing but the ScheduleIR, which
/// `--tune` relies on (a candidate whose ScheduleIR an earlier one had takes
/// that one's bundle, CompileToBundle.h lowerSchedule). A lowering choice
/// belongs in the scheduling group, where it shows in the ScheduleIR.
void buildLoweringPipeline(mlir::OpPassManager &pm);
/// The three groups in order.
void buildCompilePipeline(mlir::OpPassManager &pm,
                          const CompileOptions &options);

/// Registers `ktdf-mapping`, `ktdf-scheduling`, `ktdf-lowering` and
/// `ktdf-compile` as pass pipelines (each but `ktdf-lowering`, which has
/// none, with the options `O0`, `func` and `max-row-bytes`).
void registerCompilePipelines();

} // namespace ktflow

#endif // KTFLOW_COMPILER_PIPELINES_H

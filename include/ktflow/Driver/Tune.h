//===- Tune.h - Search the scheduler's choices for a kernel -----*- C++ -*-===//
//
// This file declares what `ktflow compile --tune` and `ktflow run --tune`
// do: enumerate candidate schedules of one kernel on one device from the
// knobs the pass pipeline already has (CompileOptions' depth and
// ScheduleKnobs: chunk width, coarsening, buffer depth, spreading, output
// splits, lanes, hoisting and row spans), compile each to a bundle, rank
// the candidates with the analytic whole-kernel estimate
// (ktflow/Machine/Estimate.h: no simulation; milliseconds at production
// sizes, bench/README.md), simulate the best few distinct schedules and
// the default one, and keep the fastest.
// The search is deterministic: candidates come in a fixed order, and ties
// (equal estimates, equal cycles) go to the earlier candidate.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DRIVER_TUNE_H
#define KTFLOW_DRIVER_TUNE_H

#include "ktflow/Check/DifferentialRun.h"
#include "ktflow/Compiler/CompileToBundle.h"
#include "ktflow/Compiler/Pipelines.h"
#include "ktflow/Interpreter/Interpreter.h"
#include "ktflow/Simulator/Simulator.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ktflow {

struct TuneOptions {
  /// The schedule the tuner starts from (candidate 0, the default); must
  /// optimise (-O1 and up).
  CompileOptions base;
  /// `NAME=VALUE` runtime arguments: the estimate and the simulations need
  /// the launch's values.
  std::vector<std::string> arguments;
  /// `NAME=SPEC` inputs of the simulations (`random` for the others).
  std::vector<std::string> inputs;
  uint64_t seed = 0;
  /// Distinct schedules simulated besides the default, best estimates
  /// first.
  unsigned simulate = 3;
  sim::SimOptions simulator;
  /// The simulations' runs (check::DifferentialRun): the interpreter's
  /// options, the kernel as written that it clones (null: the module
  /// tuned), and whether the chosen candidate's is kept (TuneResult::run).
  /// `run --tune` gives its own and keeps it, to report and check it.
  interp::InterpreterOptions interpreter;
  mlir::ModuleOp asWritten;
  bool keepRun = false;
  /// The kernel's file, in crash reports.
  std::string subject;
  /// Keep each candidate's bundle bytes in TuneCandidate::bytes
  /// (`ktflow compile --tune-bundles`, to compare them with each schedule
  /// compiled alone).
  bool keepBundles = false;
};

struct TuneCandidate {
  CompileOptions options;
  /// describeSchedule(options).
  std::string schedule;
  /// Empty when it compiled; else the first error's message.
  std::string error;
  /// The error is ktdf-allocate-scratchpad's "scratchpad over capacity"
  /// (forced depths whose copies do not fit): a choice the device cannot
  /// hold, listed as not offered rather than as a failure.
  bool overCapacity = false;
  double estimate = 0;
  std::string bottleneck;
  /// The earlier candidate whose bundle is the same, if any.
  std::optional<size_t> sameAs;
  /// Simulated cycles, for the candidates simulated.
  std::optional<uint64_t> cycles;
  /// The bundle, with TuneOptions::keepBundles, where it compiled.
  std::vector<uint8_t> bytes;
};

struct TuneResult {
  std::vector<TuneCandidate> candidates;
  /// The fastest simulated candidate (0, the default, when none beats it).
  size_t chosen = 0;
  /// Wall-clock milliseconds of the whole search.
  double milliseconds = 0;
  /// Of them, those spent compiling the candidates to bundles, loading
  /// and linking the bundles, estimating them (the cost model) and
  /// simulating the few measured (--json's "phases_ms").
  double compileMs = 0, linkMs = 0, estimateMs = 0, simulateMs = 0;

  /// The chosen candidate's bundle and device, as compileToBundle compiles
  /// its options (without CompileOptions::instrument): what `--tune` writes
  /// or runs, not compiled again. Its device model points into
  /// `compiledModule`, the module it was compiled in.
  std::optional<CompiledBundle> compiled;
  mlir::OwningOpRef<mlir::ModuleOp> compiledModule;
  /// The chosen candidate's simulated run and its statistics, with
  /// TuneOptions::keepRun: the simulation of `compiled` that `run --tune`
  /// reports, not made again.
  std::unique_ptr<check::DifferentialRun> run;
  sim::SimStats stats;

  const TuneCandidate &getChosen() const { return candidates[chosen]; }
  /// The default's cycles over the chosen one's, minus 1 (0.05: 5 % faster).
  double getGain() const;
};

/// Tunes the kernel `module` (as written, its target set; left unchanged).
/// A candidate that does not compile is recorded with its error; when none
/// compiles, the default is compiled again so that its diagnostics are
/// reported, and the result is a failure. Errors carry exit statuses
/// (ktflow/Support/ExitStatus.h).
llvm::Expected<TuneResult> tuneSchedule(mlir::ModuleOp module,
                                        const TuneOptions &options);

/// The search as text: one row per candidate, then the choice and the gain.
void printTuneResult(llvm::raw_ostream &os, const TuneResult &result);
/// The same as JSON (docs/json-output.md, `tune`).
llvm::json::Object tuneToJSON(const TuneResult &result);

} // namespace ktflow

#endif // KTFLOW_DRIVER_TUNE_H

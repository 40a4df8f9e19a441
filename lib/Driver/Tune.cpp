//===- Tune.cpp - Search the scheduler's choices for a kernel -------------===//
//
// This file implements `--tune` (Tune.h). The candidates are the default
// schedule, one change of one knob at a time from it, and the combination
// of the best change of every knob that lowered the estimate. Each is
// compiled to a bundle with its diagnostics held, linked with the launch's
// runtime arguments and estimated; a candidate whose ScheduleIR or bundle
// an earlier one had is the same as that one (not lowered, linked,
// estimated or simulated again). The simulator only measures
// the few best estimates and the default, so that the gain reported is
// measured.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Driver/Tune.h"

#include "ktflow/Check/DifferentialRun.h"
#include "ktflow/Compiler/Compile.h"
#include "ktflow/Compiler/CompileToBundle.h"
#include "ktflow/Machine/Estimate.h"
#include "ktflow/Runtime/Runtime.h"
#include "ktflow/Support/ExitStatus.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <chrono>
#include <functional>

using namespace llvm;
using namespace ktflow;

double TuneResult::getGain() const {
  const std::optional<uint64_t> &base = candidates.front().cycles;
  const std::optional<uint64_t> &best = getChosen().cycles;
  if (!base || !best || *best == 0)
    return 0;
  return static_cast<double>(*base) / static_cast<double>(*best) - 1;
}

namespace {
/// One change to the default schedule, and the knob it turns.
struct Variation {
  const char *knob;
  std::function<void(CompileOptions &)> apply;
};

/// Milliseconds since `start`.
double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

/// A candidate's bundle and its encoding, kept until the simulations are
/// done, and the module it was compiled in (whose device the bundle's
/// model points into), kept while the candidate may be chosen; empty for a
/// candidate that did not compile or whose bundle is an earlier one's
/// (TuneCandidate::sameAs).
struct Compiled {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::optional<CompiledBundle> built;
  std::vector<uint8_t> bytes;
};
} // namespace

/// The first round: every knob turned alone, in a fixed order.
static std::vector<Variation> getVariations(const CompileOptions &base) {
  std::vector<Variation> list;
  if (base.chunk == 0)
    for (int64_t scale : {-1, 1})
      list.push_back(
          {"chunk", [=](CompileOptions &o) { o.knobs.chunkScale = scale; }});
  // Deepest first: the estimate assumes that stages overlap, which more
  // copies make likelier, so among depths it cannot tell apart (ties go to
  // the earlier candidate) the deeper ones are simulated first.
  if (base.depth == 0)
    for (int64_t depth : {4, 3, 2, 1})
      list.push_back({"depth", [=](CompileOptions &o) { o.depth = depth; }});
  list.push_back(
      {"coarsen", [](CompileOptions &o) { o.knobs.coarsenFactor = 1; }});
  for (int64_t scale : {-1, 1})
    list.push_back(
        {"coarsen", [=](CompileOptions &o) { o.knobs.coarsenScale = scale; }});
  for (int64_t factor : {1, 2, 4})
    list.push_back(
        {"spread", [=](CompileOptions &o) { o.knobs.spreadFactor = factor; }});
  list.push_back({"split", [](CompileOptions &o) { o.knobs.splitFactor = 1; }});
  list.push_back(
      {"lanes", [](CompileOptions &o) { o.knobs.useLanes = false; }});
  list.push_back({"hoist", [](CompileOptions &o) { o.knobs.hoist = false; }});
  list.push_back(
      {"hoist", [](CompileOptions &o) { o.knobs.hoistGrid = false; }});
  list.push_back({"hoist", [](CompileOptions &o) { o.knobs.spans = false; }});
  list.push_back(
      {"merge", [](CompileOptions &o) { o.knobs.mergePoints = false; }});
  list.push_back(
      {"merge-loads", [](CompileOptions &o) { o.knobs.mergeLoads = false; }});
  return list;
}

/// `NAME=VALUE` bound in `launch` where the bundle has a runtime argument
/// NAME (the simulations check the others against the kernel).
static Error bindArguments(rt::Launch &launch, const rt::Program &program,
                           ArrayRef<std::string> arguments) {
  for (StringRef spec : arguments) {
    auto [name, value] = spec.split('=');
    if (program.findRuntimeArg(name))
      if (Error e = launch.bindRuntimeArg(name, value))
        return e;
  }
  return Error::success();
}

namespace {
/// The ScheduleIR of the candidates compiled so far, printed, and the
/// candidate each was first lowered for. The lowering group and the
/// emitter read nothing but the IR, so a candidate whose ScheduleIR is an
/// earlier one's has its bundle: most knobs leave most kernels' schedules
/// as they are (11 of layernorm_1151x8192's 20 candidates on spyre_like),
/// and the lowering and emitter are 95-99 % of a compile.
using Schedules = llvm::StringMap<size_t>;
} // namespace

/// The text that tells ScheduleIR apart: every op in generic form, with
/// its attributes, properties and locations.
static std::string printSchedule(mlir::ModuleOp module) {
  std::string text;
  raw_string_ostream os(text);
  module->print(os, mlir::OpPrintingFlags()
                        .enableDebugInfo()
                        .printGenericOpForm()
                        .assumeVerified());
  return text;
}

/// Compiles candidate `i` of the kernel `module` to out's bundle, or
/// records its first error: in two steps (compileToBundle.h); where a step
/// fails, compileToBundle again, whose diagnostics and retries are those of
/// a compile of this candidate alone. Returns the earlier candidate whose
/// ScheduleIR it has, whose bundle is its own, instead of lowering it.
static std::optional<size_t> compileCandidate(mlir::ModuleOp module,
                                              const TuneOptions &tune, size_t i,
                                              TuneCandidate &c, Compiled &out,
                                              Schedules &schedules) {
  CompileOptions options = c.options;
  options.instrument = nullptr;
  mlir::ScopedDiagnosticHandler hold(
      module.getContext(), [&](mlir::Diagnostic &d) {
        if (d.getSeverity() == mlir::DiagnosticSeverity::Error &&
            c.error.empty()) {
          c.error = d.str();
          c.overCapacity = isScratchpadOverCapacity(d);
        }
        return mlir::success();
      });
  mlir::OwningOpRef<mlir::ModuleOp> copy = module.clone();
  mlir::FailureOr<CompiledBundle> built = mlir::failure();
  if (succeeded(compile(*copy, options, CompileStage::Schedule))) {
    std::string schedule = printSchedule(*copy);
    auto seen = schedules.find(schedule);
    if (seen != schedules.end()) {
      c.error.clear();
      c.overCapacity = false;
      return seen->second;
    }
    if (succeeded(lowerSchedule(*copy, tune.subject)))
      built = emitCompiledBundle(*copy, tune.subject);
    if (succeeded(built))
      schedules.try_emplace(schedule, i);
  }
  if (failed(built)) {
    c.error.clear();
    c.overCapacity = false;
    copy = module.clone();
    built = compileToBundle(*copy, options, tune.subject);
    if (failed(built)) {
      if (c.error.empty())
        c.error = "does not compile";
      return std::nullopt;
    }
  }
  c.error.clear();
  c.overCapacity = false;
  out.bytes = bundle::writeBundle(built->bundle);
  out.built = std::move(*built);
  out.module = std::move(copy);
  return std::nullopt;
}

/// Links candidate `c`'s bundle with the launch's arguments and estimates
/// it; an error (returned) is one every candidate would meet: an unbound
/// argument.
static Error estimateCandidate(const TuneOptions &tune, TuneCandidate &c,
                               const Compiled &compiled, TuneResult &result) {
  auto start = std::chrono::steady_clock::now();
  Expected<rt::Program> program = rt::Program::loadBytes(compiled.bytes);
  if (!program)
    return program.takeError();
  rt::Launch launch(*program);
  if (Error e = bindArguments(launch, *program, tune.arguments))
    return e;
  if (Error e = launch.link())
    return createStringError("--tune needs the launch's runtime arguments "
                             "(--arg NAME=VALUE): " +
                             toString(std::move(e)));
  result.linkMs += msSince(start);
  start = std::chrono::steady_clock::now();
  machine::KernelEstimate estimate = machine::estimateKernel(
      program->getBundle().machine, launch.getExecutable());
  c.estimate = estimate.cycles;
  c.bottleneck = estimate.bottleneck;
  result.estimateMs += msSince(start);
  return Error::success();
}

/// Simulates `bundle` with the run's arguments and inputs in `run`.
static Expected<sim::SimStats>
simulateCandidate(mlir::ModuleOp module, const TuneOptions &tune,
                  const bundle::Bundle &bundle,
                  std::unique_ptr<check::DifferentialRun> &run) {
  auto created =
      check::DifferentialRun::create(tune.asWritten ? tune.asWritten : module,
                                     tune.interpreter, tune.base.function);
  if (!created)
    return created.takeError();
  run = std::move(*created);
  if (Error e = run->bind(bundle, tune.arguments, tune.inputs, tune.seed))
    return std::move(e);
  auto stats = run->simulate(tune.simulator);
  if (!stats)
    return make_error<StatusError>(kSimulationErrorExitCode,
                                   toString(stats.takeError()));
  return stats;
}

/// Adds a candidate with `options` unless one has the same schedule.
static void addCandidate(TuneResult &result, const CompileOptions &options) {
  std::string schedule = describeSchedule(options);
  for (const TuneCandidate &c : result.candidates)
    if (c.schedule == schedule)
      return;
  TuneCandidate c;
  c.options = options;
  c.schedule = std::move(schedule);
  result.candidates.push_back(std::move(c));
}

/// Compiles and estimates candidates [from, end) of `result`. A candidate
/// whose bundle is an earlier one's, found by its ScheduleIR or by the
/// bytes of its bundle, is the same as the first candidate of that bundle
/// and has its estimate (the estimate reads the bundle and the arguments
/// alone).
static Error compileFrom(mlir::ModuleOp module, const TuneOptions &tune,
                         TuneResult &result, std::vector<Compiled> &compiled,
                         Schedules &schedules, size_t from) {
  compiled.resize(result.candidates.size());
  for (size_t i = from; i < result.candidates.size(); ++i) {
    TuneCandidate &c = result.candidates[i];
    auto start = std::chrono::steady_clock::now();
    std::optional<size_t> same =
        compileCandidate(module, tune, i, c, compiled[i], schedules);
    result.compileMs += msSince(start);
    if (!c.error.empty())
      continue;
    // The first bundle of a schedule is the first of its bytes or the same
    // as that one.
    if (same)
      c.sameAs = result.candidates[*same].sameAs.value_or(*same);
    else
      for (size_t j = 0; j < i; ++j)
        if (compiled[j].built && compiled[j].bytes == compiled[i].bytes) {
          c.sameAs = j;
          break;
        }
    if (c.sameAs) {
      const TuneCandidate &first = result.candidates[*c.sameAs];
      c.estimate = first.estimate;
      c.bottleneck = first.bottleneck;
      compiled[i] = Compiled();
    } else if (Error e = estimateCandidate(tune, c, compiled[i], result)) {
      return e;
    }
  }
  return Error::success();
}

/// The second round: the best change of each knob that lowered the
/// default's estimate, all applied together (when there are two or more).
static std::optional<CompileOptions>
combineBest(const TuneResult &result, ArrayRef<Variation> variations) {
  const TuneCandidate &base = result.candidates.front();
  if (!base.error.empty())
    return std::nullopt;
  std::vector<std::pair<const char *, size_t>> best;
  for (size_t i = 1; i < result.candidates.size(); ++i) {
    const TuneCandidate &c = result.candidates[i];
    if (!c.error.empty() || c.sameAs || c.estimate >= base.estimate)
      continue;
    // Candidate i is variation i - 1 (the first round adds every one).
    const char *knob = variations[i - 1].knob;
    auto it = llvm::find_if(best, [&](auto &b) { return b.first == knob; });
    if (it == best.end())
      best.push_back({knob, i});
    else if (c.estimate < result.candidates[it->second].estimate)
      it->second = i;
  }
  if (best.size() < 2)
    return std::nullopt;
  CompileOptions options = base.options;
  for (auto [knob, i] : best)
    variations[i - 1].apply(options);
  return options;
}

Expected<TuneResult> ktflow::tuneSchedule(mlir::ModuleOp module,
                                          const TuneOptions &tune) {
  auto start = std::chrono::steady_clock::now();
  TuneResult result;
  std::vector<Variation> variations = getVariations(tune.base);
  auto add = [&](const CompileOptions &options, std::string schedule) {
    TuneCandidate c;
    c.options = options;
    c.schedule = std::move(schedule);
    result.candidates.push_back(std::move(c));
  };
  add(tune.base, "default");
  for (const Variation &v : variations) {
    CompileOptions options = tune.base;
    v.apply(options);
    add(options, describeSchedule(options));
  }
  std::vector<Compiled> compiled;
  Schedules schedules;
  if (Error e = compileFrom(module, tune, result, compiled, schedules, 0))
    return std::move(e);
  if (std::optional<CompileOptions> combined =
          combineBest(result, variations)) {
    size_t before = result.candidates.size();
    addCandidate(result, *combined);
    if (Error e =
            compileFrom(module, tune, result, compiled, schedules, before))
      return std::move(e);
  }
  if (llvm::all_of(result.candidates,
                   [](const TuneCandidate &c) { return !c.error.empty(); })) {
    // Reported as a plain compile reports it: located.
    mlir::OwningOpRef<mlir::ModuleOp> copy = module.clone();
    (void)compileToBundle(*copy, tune.base, tune.subject);
    return make_error<StatusError>(
        kUserErrorExitCode,
        formatv("--tune: none of the {0} candidate schedules compiles (the "
                "default schedule's errors above)",
                result.candidates.size())
            .str());
  }

  // The default, then the best estimates among distinct schedules.
  std::vector<size_t> ranked;
  for (size_t i = 0; i < result.candidates.size(); ++i)
    if (result.candidates[i].error.empty() && !result.candidates[i].sameAs)
      ranked.push_back(i);
  std::stable_sort(ranked.begin(), ranked.end(), [&](size_t a, size_t b) {
    return result.candidates[a].estimate < result.candidates[b].estimate;
  });
  std::vector<size_t> measure;
  if (result.candidates.front().error.empty())
    measure.push_back(0);
  size_t limit = measure.size() + tune.simulate;
  for (size_t i : ranked)
    if (i != 0 && measure.size() < limit)
      measure.push_back(i);
  for (auto [i, c] : llvm::enumerate(compiled))
    if (!llvm::is_contained(measure, i))
      c.module = nullptr;
  for (size_t i : measure) {
    auto simulated = std::chrono::steady_clock::now();
    std::unique_ptr<check::DifferentialRun> run;
    Expected<sim::SimStats> stats =
        simulateCandidate(module, tune, compiled[i].built->bundle, run);
    result.simulateMs += msSince(simulated);
    if (!stats) {
      result.candidates[i].error =
          "does not simulate: " + toString(stats.takeError());
      continue;
    }
    uint64_t cycles = stats->cycles;
    result.candidates[i].cycles = cycles;
    const TuneCandidate &chosen = result.candidates[result.chosen];
    if (!chosen.cycles || cycles < *chosen.cycles ||
        (cycles == *chosen.cycles && i < result.chosen)) {
      result.chosen = i;
      if (tune.keepRun) {
        result.run = std::move(run);
        result.stats = std::move(*stats);
      }
    }
  }
  if (!result.getChosen().cycles)
    return make_error<StatusError>(kSimulationErrorExitCode,
                                   "no tuned schedule simulates: " +
                                       result.getChosen().error);
  if (tune.keepBundles)
    for (auto [i, c] : llvm::enumerate(result.candidates))
      if (c.error.empty())
        c.bytes = compiled[c.sameAs.value_or(i)].bytes;
  result.compiled = std::move(compiled[result.chosen].built);
  result.compiledModule = std::move(compiled[result.chosen].module);
  result.milliseconds = msSince(start);
  return result;
}

void ktflow::printTuneResult(raw_ostream &os, const TuneResult &result) {
  size_t built = 0, distinct = 0, simulated = 0, over = 0;
  for (const TuneCandidate &c : result.candidates) {
    built += c.error.empty() || c.cycles;
    distinct += c.error.empty() && !c.sameAs;
    simulated += c.cycles.has_value();
    over += c.overCapacity;
  }
  os << "tune: " << result.candidates.size() << " candidates, ";
  if (over)
    os << over << " not offered (over capacity), ";
  os << built << " compiled, " << distinct << " distinct, " << simulated
     << " simulated (" << format("%.0f", result.milliseconds) << " ms)\n";
  os << "    # schedule                         estimate     cycles\n";
  for (auto [i, c] : llvm::enumerate(result.candidates)) {
    os << format("  %3zu ", i) << left_justify(c.schedule, 30) << " ";
    if (!c.error.empty() && !c.cycles) {
      StringRef first = StringRef(c.error).split('\n').first;
      // The bytes needed and held are in --json's "not_offered".
      if (c.overCapacity)
        os << "not offered: over capacity\n";
      else
        os << "error: " << first << "\n";
      continue;
    }
    if (c.sameAs) {
      os << "same as #" << *c.sameAs << "\n";
      continue;
    }
    os << format("%10.0f", c.estimate);
    if (c.cycles)
      os << format(" %10llu", (unsigned long long)*c.cycles);
    os << (i == result.chosen ? "  chosen" : "") << "\n";
  }
  const TuneCandidate &chosen = result.getChosen();
  os << "tuned: #" << result.chosen << " " << chosen.schedule << ", "
     << *chosen.cycles << " cycles";
  if (const std::optional<uint64_t> &base = result.candidates.front().cycles)
    os << " against " << *base << " by default ("
       << format("%.1f", 100 * result.getGain()) << "% faster)";
  os << "\n";
}

json::Object ktflow::tuneToJSON(const TuneResult &result) {
  json::Array candidates;
  for (auto [i, c] : llvm::enumerate(result.candidates)) {
    json::Object o{{"index", static_cast<int64_t>(i)},
                   {"schedule", c.schedule}};
    if (c.overCapacity)
      o["not_offered"] = c.error;
    else if (!c.error.empty())
      o["error"] = c.error;
    if (c.error.empty() || c.cycles) {
      o["estimate"] = std::llround(c.estimate);
      o["bottleneck"] = c.bottleneck;
    }
    if (c.sameAs)
      o["same_as"] = static_cast<int64_t>(*c.sameAs);
    if (c.cycles)
      o["cycles"] = static_cast<int64_t>(*c.cycles);
    candidates.push_back(std::move(o));
  }
  json::Object report{
      {"candidates", std::move(candidates)},
      {"chosen", static_cast<int64_t>(result.chosen)},
      {"schedule", result.getChosen().schedule},
      {"cycles", static_cast<int64_t>(result.getChosen().cycles.value_or(0))},
      {"gain", result.getGain()},
      {"ms", result.milliseconds},
      {"phases_ms", json::Object{{"compile", result.compileMs},
                                 {"link", result.linkMs},
                                 {"estimate", result.estimateMs},
                                 {"simulate", result.simulateMs}}}};
  if (const std::optional<uint64_t> &base = result.candidates.front().cycles)
    report["default_cycles"] = static_cast<int64_t>(*base);
  return report;
}

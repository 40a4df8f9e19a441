//===- Engine.cpp - Which engine runs a bound kernel ----------------------===//
//
// This file implements the engine choice of `ktflow interp` (Engine.h):
// the options only the interpreter implements pin it; otherwise `jit` and
// `auto` try the compiled tier, and a kernel the tier does not lower, or a
// run that hit an error the interpreter reports at its op, runs on the
// interpreter (under `jit`, the former is an error). The tier's outputs
// are printed (or reported as JSON) and written from its native buffers,
// as the interpreter's printOutputs and writeOutputFiles do for its own.
//
//===----------------------------------------------------------------------===//

#include "ktflow/CpuJit/Engine.h"

#include "ktflow/CpuJit/CpuJit.h"
#include "ktflow/HostTensor/GeneratedPages.h"
#include "ktflow/HostTensor/NativeTensor.h"
#include "ktflow/Support/CrashRecovery.h"
#include "ktflow/Support/JsonReport.h"

#include "PhaseTimer.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace ktflow;
using namespace ktflow::jit;

static int fail(const Twine &message) {
  WithColor::error(errs(), "ktflow") << message << "\n";
  return 1;
}

/// The `interp` JSON report: the function, the engine that ran it and one
/// summary per output.
static json::Object interpReport(const interp::Interpreter &interpreter,
                                 StringRef engine, json::Array outputs) {
  json::Object report = beginReport("interp");
  report["function"] = interpreter.getFunctionName().str();
  report["engine"] = engine.str();
  report["outputs"] = std::move(outputs);
  return report;
}

/// Prints and writes the outputs of a run of the compiled tier.
static int reportCompiledRun(const JitResult &run,
                             const interp::Interpreter &interpreter,
                             ArrayRef<interp::OutputFile> files, bool json,
                             raw_ostream &os) {
  PhaseTimer phases;
  json::Array summaries;
  for (const auto &[position, name] : run.outputs) {
    const host::NativeTensor &tensor = run.tensors.at(position);
    if (!json)
      host::printTensorSummary(os, name, tensor);
    else
      summaries.push_back(host::statsToJSON(name, tensor.getShape(),
                                            tensor.getDType(),
                                            host::computeStats(tensor)));
  }
  if (json)
    writeReport(os, interpReport(interpreter, "jit", std::move(summaries)));
  phases.end("output summaries");
  for (const interp::OutputFile &file : files) {
    // Literal-address regions by their `@ADDR` name, arguments by name or
    // position.
    auto literal = llvm::find_if(run.outputs, [&](const auto &output) {
      return StringRef(file.name).starts_with("@") &&
             output.second == file.name;
    });
    Expected<unsigned> position = literal != run.outputs.end()
                                      ? Expected<unsigned>(literal->first)
                                      : interpreter.resolveArgument(file.name);
    auto it = position ? run.tensors.find(*position) : run.tensors.end();
    if (!position)
      consumeError(position.takeError());
    if (it == run.tensors.end())
      return fail("--output " + file.name + ": '" + file.name +
                  "' names no memory the kernel accessed");
    // write(2) fails on pages of generated values not touched yet.
    host::generateUntouchedPages(it->second);
    if (Error err = host::writeNpyFile(file.path, it->second))
      return fail(toString(std::move(err)));
  }
  if (!files.empty())
    phases.end("output files");
  return 0;
}

/// Runs the kernel on the compiled tier when `options` ask for it and it
/// can; returns the exit code, or std::nullopt when the interpreter runs.
static std::optional<int> tryCompiledTier(mlir::ModuleOp module,
                                          const interp::Interpreter &bound,
                                          const EngineOptions &options,
                                          ArrayRef<interp::OutputFile> files,
                                          raw_ostream &os) {
  const std::string &interpreterOnly = options.interpreterOnlyOption;
  if (options.engine == Engine::Jit && !interpreterOnly.empty())
    return fail(interpreterOnly +
                " applies to the interpreter only (--engine=interp)");
  if (options.engine == Engine::Interp || !interpreterOnly.empty()) {
    if (options.explicitEngine)
      WithColor::note(errs(), "ktflow")
          << "engine: interp"
          << (interpreterOnly.empty() ? "" : " (" + interpreterOnly + ")")
          << "\n";
    return std::nullopt;
  }
  CrashPhase phase("compile and run", options.input);
  JitResult run = runCompiled(module, bound, options.numerics);
  if (run.ran) {
    WithColor::note(errs(), "ktflow")
        << "engine: jit (compiled in "
        << format("%.0f", run.compileSeconds * 1e3)
        << (run.fromCache ? " ms from the cache, ran in " : " ms, ran in ")
        << format("%.0f", run.runSeconds * 1e3) << " ms"
        << (run.tilesInOrder.empty()
                ? Twine()
                : Twine("; tiles rerun in order: ") + run.tilesInOrder)
        << ")\n";
    return reportCompiledRun(run, bound, files, options.json, os);
  }
  // A run that hit an error is rerun on the interpreter, which reports it
  // at the op; a kernel that does not lower is an error only under jit.
  if (options.engine == Engine::Jit &&
      StringRef(run.reason).starts_with("not lowerable"))
    return fail("--engine=jit: " + run.reason);
  WithColor::note(errs(), "ktflow")
      << "engine: interp (jit: " << run.reason << ")\n";
  return std::nullopt;
}

int ktflow::jit::runOnEngine(mlir::ModuleOp module,
                             interp::Interpreter &interpreter,
                             const EngineOptions &options,
                             ArrayRef<interp::OutputFile> files,
                             raw_ostream &os) {
  if (std::optional<int> status =
          tryCompiledTier(module, interpreter, options, files, os))
    return *status;
  CrashPhase phase("interpret", options.input);
  if (mlir::failed(interpreter.run()))
    return 1;
  if (!options.json) {
    interp::printOutputs(os, interpreter);
  } else {
    json::Array summaries;
    for (const interp::OutputTensor &out : interpreter.getOutputs())
      summaries.push_back(host::statsToJSON(out.name, out.tensor.shape,
                                            out.tensor.dtype,
                                            host::computeStats(out.tensor)));
    json::Object report =
        interpReport(interpreter, "interp", std::move(summaries));
    const interp::InterpreterOptions &limits = interpreter.getOptions();
    if (limits.chargeIntermediates)
      report["scratchpad_peak_bytes"] =
          interpreter.getStatistics().peakIntermediateBytes;
    writeReport(os, std::move(report));
  }
  if (Error err = interp::writeOutputFiles(interpreter, files))
    return fail(toString(std::move(err)));
  return 0;
}

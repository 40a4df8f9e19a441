//===- RunCommand.cpp - `ktflow run` --------------------------------------===//
//
// This file implements `ktflow run KERNEL`: compile a KTIR kernel, simulate
// its bundle, print cycles, the roofline, the ratio and unit utilisation (or,
// with
// `--json`, one JSON object, ktflow/Driver/Reports.h); with `--check`,
// compare the outputs with the interpreter's (ktflow/Driver/KernelRun.h);
// with `--tune`, of the fastest candidate schedule (ktflow/Driver/Tune.h),
// the bundle the search compiled.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "ktflow/Check/LaunchBinding.h"
#include "ktflow/Check/ReferenceCache.h"
#include "ktflow/Check/RunReport.h"
#include "ktflow/Compiler/Compile.h"
#include "ktflow/Driver/KernelRun.h"
#include "ktflow/Driver/Reports.h"
#include "ktflow/Driver/Tune.h"
#include "ktflow/Registration/Registration.h"
#include "ktflow/Support/ExitStatus.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace ktflow;
using namespace ktflow::check;
using ktflow::driver::runCommand;

cl::SubCommand ktflow::driver::runCommand(
    "run", "Compile a KTIR kernel, simulate it and optionally check it "
           "against the reference interpreter");

static cl::opt<std::string> runInput(cl::Positional, cl::Required,
                                     cl::desc("<kernel.mlir>"),
                                     cl::sub(runCommand));
static cl::opt<std::string>
    runArch("arch",
            cl::desc("Device description (default: the kernel's "
                     "ktdf_arch.target)"),
            cl::value_desc("file"), cl::sub(runCommand));
static cl::list<std::string>
    runOutputs("output",
               cl::desc("Write a tensor as the simulation left it to a .npy "
                        "file"),
               cl::value_desc("NAME=FILE.npy"), cl::sub(runCommand));
static cl::opt<bool>
    checkFlag("check",
             cl::desc("Compare every output with the reference interpreter"),
             cl::sub(runCommand));
static cl::opt<std::string> runReferenceCache(
    "reference-cache",
    cl::desc("Keep the check's results that do not depend on the device (the "
             "reference interpreter's outputs and reorder bounds) in a "
             "directory, and reuse those an earlier run of the same kernel, "
             "inputs and ktflow stored there (default: "
             "$KTFLOW_REFERENCE_CACHE, else none)"),
    cl::value_desc("dir"), cl::sub(runCommand));
static cl::opt<bool> runCheckStats(
    "check-stats",
    cl::desc("Print to stderr how many interpreter runs the check made and "
             "how many results it read from the reference cache"),
    cl::Hidden, cl::sub(runCommand));
static cl::opt<bool> runRaces(
    "races",
    cl::desc("Check every memory access of the simulation for races, the "
             "scratchpads' and device-memory reads too (on with --check; "
             "1.2-2.5x the simulation time); without it only the writes of "
             "device memory are checked"),
    cl::sub(runCommand));
static cl::list<std::string> runExpected(
    "expected",
    cl::desc("Compare a tensor with a .npy file of the answer (any element "
             "type, same shape), within --rtol and --atol"),
    cl::value_desc("NAME=FILE.npy"), cl::sub(runCommand));
static cl::opt<double> runRtol(
    "rtol", cl::init(-1),
    cl::desc("Relative tolerance of --expected (default: "
             "torch.testing.assert_close's for the tensor's type, 1e-3 for "
             "f16, 1.3e-6 for f32)"),
    cl::sub(runCommand));
static cl::opt<double>
    runAtol("atol", cl::init(-1),
            cl::desc("Absolute tolerance of --expected (default: "
                     "torch.testing.assert_close's, 1e-5 for f16 and f32)"),
            cl::sub(runCommand));
static cl::opt<bool> runJson("json", cl::desc("Print one JSON object"),
                             cl::sub(runCommand));
static cl::opt<std::string>
    runTrace("trace", cl::desc("Write a Chrome-trace JSON timeline"),
             cl::value_desc("file"), cl::sub(runCommand));
static cl::opt<std::string>
    runFunc("func",
            cl::desc("The kernel function to compile and check (default: the "
                     "module's only kernel)"),
            cl::value_desc("NAME"), cl::sub(runCommand));
static cl::opt<bool>
    runUnits("units",
             cl::desc("Print one row of statistics per unit, not only the "
                      "totals per role"),
             cl::sub(runCommand));
static cl::opt<unsigned> runOptLevel("O", cl::Prefix, cl::init(2),
                                     cl::desc(driver::kOptLevelHelp),
                                     cl::value_desc("level"),
                                     cl::sub(runCommand));
static cl::opt<std::string> runSchedule("schedule",
                                        cl::desc(driver::kScheduleHelp),
                                        cl::value_desc("words"),
                                        cl::sub(runCommand));
static cl::opt<interp::NumericsPolicy> runNumerics(
    "numerics",
    cl::desc("How the reference interpreter's reductions round 16-bit "
             "floats (with --check)"),
    driver::numericsPolicyValues(),
    cl::init(interp::NumericsPolicy::Accumulate), cl::sub(runCommand));
static cl::opt<uint64_t> runMaxInstructions(
    "max-instructions", cl::init(sim::SimOptions().maxInstructions),
    cl::desc("Work budget of the simulation, in instruction steps (default "
             "2^28)"),
    cl::sub(runCommand));
static cl::opt<uint64_t> runMaxElementOps(
    "max-element-ops",
    cl::init(interp::InterpreterOptions().maxElementOps),
    cl::desc("Work budget of the reference interpreter (--check), in element "
             "operations (default 2^34)"),
    cl::sub(runCommand));
static cl::opt<double> runMaxSeconds(
    "max-seconds", cl::init(sim::SimOptions().maxSeconds),
    cl::desc("Wall-clock budget of the simulation and of the interpretation, "
             "each, in seconds; 0 for none (default 3600)"),
    cl::sub(runCommand));
static cl::opt<int64_t> runMaxMemoryBytes(
    "max-memory-bytes", cl::init(0),
    cl::desc("Memory ceiling of the reference interpreter (--check), in "
             "bytes of touched memory pages; 0 for half the machine's "
             "memory (the default)"),
    cl::sub(runCommand));

static cl::opt<bool> runTune(
    "tune",
    cl::desc("Search candidate schedules first: rank them with the analytic "
             "estimate, simulate the best few and run the fastest"),
    cl::sub(runCommand));
static cl::opt<unsigned> runTuneSimulate(
    "tune-simulate", cl::init(TuneOptions().simulate),
    cl::desc("Schedules --tune simulates besides the default (default 3)"),
    cl::value_desc("N"), cl::sub(runCommand));

static int fail(const Twine &message) {
  WithColor::error(errs(), "ktflow") << message << "\n";
  return 1;
}

/// One line per comparison, then `PASS` or `FAIL` for all of them.
static void printVerdicts(raw_ostream &os, const KernelRun &run) {
  auto print = [&](StringRef kind, const std::vector<OutputCheck> &outputs) {
    for (const OutputCheck &c : outputs)
      os << kind << " " << c.label << ": " << c.result.summary
         << (c.result.pass ? " PASS" : " FAIL") << "\n";
  };
  if (run.checks)
    print("check", *run.checks);
  if (run.expected)
    print("expected", *run.expected);
  os << (run.passed() ? "PASS" : "FAIL") << "\n";
}

int ktflow::driver::runRun() {
  if (!(runMaxSeconds >= 0))
    return fail("--max-seconds must be a number of seconds, 0 for none");
  if (runMaxMemoryBytes < 0)
    return fail("--max-memory-bytes must be a number of bytes, 0 for the "
                "default");
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  ModuleLoader loader(context);
  mlir::OwningOpRef<mlir::ModuleOp> module = loader.load(runInput);
  if (!module)
    return 1;
  KernelRunOptions options;
  options.devicePath = runArch;
  std::optional<CompileOptions> compileOptions =
      driver::getCompileOptions(runOptLevel, runFunc, runSchedule);
  if (!compileOptions)
    return 1;
  options.compile = std::move(*compileOptions);
  options.arguments = driver::launchArgs;
  options.inputs = driver::launchInputs;
  options.seed = driver::launchSeed;
  options.interpreter.numerics = runNumerics;
  options.interpreter.maxElementOps = runMaxElementOps;
  options.interpreter.maxSeconds = runMaxSeconds;
  options.interpreter.maxMemoryBytes = runMaxMemoryBytes;
  options.referenceCache = getReferenceCacheDirectory(runReferenceCache);
  options.simulator.maxInstructions = runMaxInstructions;
  options.simulator.maxSeconds = runMaxSeconds;
  options.simulator.recordTrace = !runTrace.empty();
  options.simulator.checkRaces = runRaces || checkFlag;
  options.subject = runInput;
  std::optional<TuneResult> tuned;
  if (runTune) {
    if (!options.compile.optimize)
      return fail("--tune searches the cost model's choices; it needs -O1 "
                  "or higher");
    if (!runSchedule.empty())
      return fail("--schedule compiles one schedule; --tune searches them");
    mlir::OwningOpRef<mlir::ModuleOp> target = module->clone();
    if (!runArch.empty() && failed(setTarget(*target, runArch, loader)))
      return 1;
    TuneOptions tune;
    tune.base = options.compile;
    tune.arguments = driver::launchArgs;
    tune.inputs = driver::launchInputs;
    tune.seed = driver::launchSeed;
    tune.simulate = runTuneSimulate;
    tune.simulator = options.simulator;
    tune.interpreter = options.interpreter;
    tune.asWritten = *module;
    tune.keepRun = true;
    tune.subject = runInput;
    Expected<TuneResult> result = tuneSchedule(*target, tune);
    if (!result)
      return reportError(result.takeError());
    tuned = std::move(*result);
    auto instrument = std::move(options.compile.instrument);
    options.compile = tuned->getChosen().options;
    options.compile.instrument = std::move(instrument);
    // The search compiled the chosen schedule already, without the --mlir-*
    // flags: with them, it is compiled again for what they print.
    if (tuned->compiled && !driver::mlirFlagsGiven())
      options.compiled = &*tuned->compiled;
    if (!runJson)
      printTuneResult(outs(), *tuned);
  }
  // The search simulated its choice with this run's options: reported as
  // it is (with the bundle it compiled), not simulated again.
  Expected<KernelRun> run =
      options.compiled && tuned->run
          ? KernelRun::simulated(*module, loader, options,
                                 std::move(tuned->run), std::move(tuned->stats))
          : KernelRun::simulate(*module, loader, options);
  if (!run)
    return reportError(run.takeError());
  std::vector<std::pair<uint32_t, std::string>> outputs;
  for (StringRef spec : runOutputs) {
    auto [name, path] = spec.split('=');
    if (path.empty())
      return fail("--output expects NAME=FILE.npy, got '" + spec + "'");
    Expected<uint32_t> t =
        check::findTensor(run->run->getProgram(), name, "output");
    if (!t)
      return reportError(t.takeError());
    outputs.push_back({*t, path.str()});
  }
  // Compared before anything is printed, so that a bad name or file is an
  // error instead of a report.
  if (!runExpected.empty())
    if (Error e = run->compareExpected(runExpected, runRtol, runAtol))
      return reportError(std::move(e));
  if (!runJson)
    printRun(outs(), *run->run, run->stats, run->bound,
             runOptLevel == 0 ? " (-O0)" : "", runUnits);
  for (auto &[t, path] : outputs)
    if (Error e = check::writeTensor(run->run->getProgram(),
                                     run->run->getLaunch(), t, path))
      return reportError(std::move(e));
  if (!runTrace.empty())
    if (Error e = run->run->writeTrace(runTrace, run->stats))
      return reportError(std::move(e));
  if (checkFlag) {
    if (Error e = run->check())
      return reportError(std::move(e));
    if (runCheckStats) {
      const CheckCounts &counts = run->run->getCheckCounts();
      errs() << "check: " << counts.interpreterRuns << " interpreter runs, "
             << counts.cachedResults << " results from the reference cache\n";
    }
  }
  bool compared = run->checks || run->expected;
  if (runJson) {
    json::Object report = runReport(*run);
    if (tuned)
      report["tune"] = tuneToJSON(*tuned);
    writeReport(outs(), std::move(report));
  } else if (compared)
    printVerdicts(outs(), *run);
  return !compared || run->passed() ? 0 : kCheckFailedExitCode;
}

//===- CompileCommand.cpp - `ktflow compile` ------------------------------===//
//
// This file implements `ktflow compile KERNEL --arch DEVICE [-o OUT]
// [--emit=schedule|dataflow|bundle] [-O<level>] [--tune --arg N=V
// --input N=SPEC --seed S]`: run the scheduler's pipeline on a KTIR kernel
// for a device and write the scheduled ScheduleIR, the DataflowIR or the
// program bundle; with `--tune`, of the fastest of the candidate schedules
// ktflow/Driver/Tune.h searches, simulated with `run`'s launch options (its
// bundle the one the search compiled).
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "ktflow/Compiler/Compile.h"
#include "ktflow/Compiler/CompileToBundle.h"
#include "ktflow/Driver/Reports.h"
#include "ktflow/Driver/Tune.h"
#include "ktflow/Registration/Registration.h"
#include "ktflow/Support/CrashRecovery.h"
#include "ktflow/Support/ExitStatus.h"
#include "ktflow/Support/OutputFile.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace ktflow;
using ktflow::driver::compileCommand;

cl::SubCommand ktflow::driver::compileCommand(
    "compile", "Compile a KTIR kernel for a device");

static cl::opt<std::string> compileInput(cl::Positional, cl::Required,
                                         cl::desc("<kernel.mlir>"),
                                         cl::sub(compileCommand));
static cl::opt<std::string>
    compileArch("arch",
                cl::desc("Device description (default: the kernel's "
                         "ktdf_arch.target)"),
                cl::value_desc("file"), cl::sub(compileCommand));
static cl::opt<std::string>
    compileOutput("o", cl::desc("Output file (default: stdout for IR, "
                                "KERNEL.ktfb for a bundle)"),
                  cl::value_desc("file"), cl::sub(compileCommand));
enum class EmitKind { Schedule, Dataflow, Bundle };
static cl::opt<EmitKind> compileEmit(
    "emit", cl::desc("What to write"), cl::init(EmitKind::Bundle),
    cl::values(clEnumValN(EmitKind::Schedule, "schedule",
                          "scheduled ScheduleIR (after mapping and "
                          "scheduling)"),
               clEnumValN(EmitKind::Dataflow, "dataflow", "DataflowIR"),
               clEnumValN(EmitKind::Bundle, "bundle", "a program bundle")),
    cl::sub(compileCommand));
static cl::opt<std::string>
    compileFunc("func",
                cl::desc("The kernel function to compile (default: the "
                         "module's only kernel)"),
                cl::value_desc("NAME"), cl::sub(compileCommand));
static cl::opt<unsigned> compileOptLevel("O", cl::Prefix, cl::init(2),
                                         cl::desc(driver::kOptLevelHelp),
                                         cl::value_desc("level"),
                                         cl::sub(compileCommand));
static cl::opt<std::string> compileSchedule("schedule",
                                            cl::desc(driver::kScheduleHelp),
                                            cl::value_desc("words"),
                                            cl::sub(compileCommand));

static cl::opt<bool>
    compileJson("json",
                cl::desc("Describe the bundle written as one JSON object "
                         "(docs/json-output.md) instead of the 'wrote' line"),
                cl::sub(compileCommand));

static cl::opt<bool> compileTune(
    "tune",
    cl::desc("Search candidate schedules: rank them with the analytic "
             "estimate, simulate the best few and keep the fastest"),
    cl::sub(compileCommand));
static cl::opt<unsigned> compileTuneSimulate(
    "tune-simulate", cl::init(TuneOptions().simulate),
    cl::desc("Schedules --tune simulates besides the default (default 3)"),
    cl::value_desc("N"), cl::sub(compileCommand));

static cl::opt<std::string> compileTuneBundles(
    "tune-bundles",
    cl::desc("Also write each --tune candidate's bundle to DIR/N.ktfb (N its "
             "row), to compare with the schedule compiled alone"),
    cl::value_desc("DIR"), cl::Hidden, cl::sub(compileCommand));

static int fail(const Twine &message) {
  WithColor::error(errs(), "ktflow") << message << "\n";
  return 1;
}

/// Each candidate's bundle, as --tune-bundles asks.
static Error writeCandidateBundles(const TuneResult &tuned) {
  if (std::error_code ec = sys::fs::create_directories(compileTuneBundles))
    return createStringError(ec, "cannot create '" + compileTuneBundles +
                                     "': " + ec.message());
  for (auto [i, c] : llvm::enumerate(tuned.candidates)) {
    if (c.bytes.empty())
      continue;
    SmallString<128> path(compileTuneBundles.getValue());
    sys::path::append(path, std::to_string(i) + ".ktfb");
    if (Error e = writeOutputFile(path, [&](raw_ostream &os) {
          os.write(reinterpret_cast<const char *>(c.bytes.data()),
                   c.bytes.size());
        }))
      return e;
  }
  return Error::success();
}

/// Writes `bundle` to -o, by default KERNEL.ktfb in the current directory.
static int writeBundle(const bundle::Bundle &bundle,
                       const CompileOptions &options, const TuneResult *tuned) {
  CrashPhase phase("emit", compileInput);
  std::string out = compileOutput;
  if (out.empty()) {
    SmallString<128> path(sys::path::filename(compileInput.getValue()));
    sys::path::replace_extension(path, "ktfb");
    out = path.str().str();
  }
  Expected<size_t> bytes = writeBundleFile(bundle, out);
  if (!bytes)
    return fail(toString(bytes.takeError()));
  if (compileJson) {
    json::Object report = beginReport("compile");
    report["output"] = out;
    report["bytes"] = static_cast<int64_t>(*bytes);
    report["optimized"] = options.optimize;
    report["bundle"] = bundleToJSON(bundle);
    if (tuned)
      report["tune"] = tuneToJSON(*tuned);
    writeReport(outs(), std::move(report));
    return 0;
  }
  outs() << "wrote " << out << ": kernel " << bundle.kernel << " for "
         << bundle.device << ", " << bundle.programs.size()
         << " unit programs, " << *bytes << " bytes\n";
  return 0;
}

int ktflow::driver::runCompile() {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  ModuleLoader loader(context);
  mlir::OwningOpRef<mlir::ModuleOp> module = loader.load(compileInput);
  if (!module)
    return 1;
  if (!compileArch.empty() &&
      failed(setTarget(*module, compileArch, loader)))
    return 1;
  std::optional<CompileOptions> options =
      driver::getCompileOptions(compileOptLevel, compileFunc, compileSchedule);
  if (!options)
    return 1;
  if (compileJson && compileEmit != EmitKind::Bundle)
    return fail("--json describes a bundle; it needs --emit=bundle");
  if (!driver::launchArgs.empty() && !compileTune)
    return fail("--arg binds runtime arguments for --tune; compiling needs "
                "none");
  if ((!driver::launchInputs.empty() ||
       driver::launchSeed.getNumOccurrences()) &&
      !compileTune)
    return fail("--input and --seed fill the tensors of --tune's "
                "simulations; compiling needs none");
  std::optional<TuneResult> tuned;
  if (compileTune) {
    if (!options->optimize)
      return fail("--tune searches the cost model's choices; it needs -O1 "
                  "or higher");
    if (!compileSchedule.empty())
      return fail("--schedule compiles one schedule; --tune searches them");
    TuneOptions tune;
    tune.base = *options;
    tune.arguments = driver::launchArgs;
    tune.inputs = driver::launchInputs;
    tune.seed = driver::launchSeed;
    tune.simulate = compileTuneSimulate;
    tune.subject = compileInput;
    tune.keepBundles = !compileTuneBundles.empty();
    Expected<TuneResult> result = tuneSchedule(*module, tune);
    if (!result)
      return reportError(result.takeError());
    tuned = std::move(*result);
    if (tune.keepBundles)
      if (Error e = writeCandidateBundles(*tuned))
        return fail(toString(std::move(e)));
    CompileOptions chosen = tuned->getChosen().options;
    chosen.instrument = options->instrument;
    *options = std::move(chosen);
    // The search goes where the IR does not: stderr when it is on stdout.
    if (!compileJson)
      printTuneResult(compileEmit != EmitKind::Bundle && compileOutput.empty()
                          ? errs()
                          : outs(),
                      *tuned);
  }
  if (compileEmit == EmitKind::Bundle) {
    // The search compiled the chosen schedule's bundle already, without the
    // --mlir-* flags: with them, it is compiled again for what they print.
    if (tuned && tuned->compiled && !driver::mlirFlagsGiven())
      return writeBundle(tuned->compiled->bundle, *options, &*tuned);
    mlir::FailureOr<CompiledBundle> compiled =
        compileToBundle(*module, *options, compileInput);
    if (failed(compiled))
      return 1;
    return writeBundle(compiled->bundle, *options, tuned ? &*tuned : nullptr);
  }
  {
    CrashPhase phase("passes", compileInput);
    CompileStage stage = compileEmit == EmitKind::Schedule
                             ? CompileStage::Schedule
                             : CompileStage::Dataflow;
    if (failed(compile(*module, *options, stage)))
      return 1;
  }
  CrashPhase phase("emit", compileInput);
  std::string out = compileOutput.empty() ? "-" : compileOutput.getValue();
  if (Error error = writeOutputFile(
          out, [&](raw_ostream &os) { module->print(os); }, sys::fs::OF_Text))
    return fail(toString(std::move(error)));
  return 0;
}

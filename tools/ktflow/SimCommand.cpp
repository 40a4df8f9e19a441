//===- SimCommand.cpp - `ktflow sim` --------------------------------------===//
//
// This file implements `ktflow sim BUNDLE [--arch DEVICE] [--arg N=V ...]
// [--input NAME=FILE.npy|random|randn|zeros|range:LO:HI|seq:LO:HI|value:V ...]
// [--output NAME=FILE.npy ...] [--print NAME ...] [--trace FILE]`: launch a
// program bundle on the cycle-level simulator through the runtime, then
// print cycles and per-unit statistics (or, with `--json`, one JSON object)
// and write or print the outputs.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "ktflow/Check/LaunchBinding.h"
#include "ktflow/Driver/Reports.h"
#include "ktflow/Machine/FromDevice.h"
#include "ktflow/Registration/Registration.h"
#include "ktflow/Runtime/Runtime.h"
#include "ktflow/Support/CrashRecovery.h"
#include "ktflow/Support/ExitStatus.h"
#include "ktflow/Support/OutputFile.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace ktflow;

cl::SubCommand ktflow::driver::simCommand(
    "sim", "Run a program bundle on the cycle-level simulator");

static cl::opt<std::string> simInput(cl::Positional, cl::Required,
                                     cl::desc("<bundle>"),
                                     cl::sub(ktflow::driver::simCommand));
static cl::opt<std::string>
    simArch("arch",
            cl::desc("Refuse to run unless the bundle was built for this "
                     "device description"),
            cl::value_desc("file"), cl::sub(ktflow::driver::simCommand));
static cl::list<std::string>
    simInputs("input",
              cl::desc("NAME=FILE.npy|random|randn|zeros|range:LO:HI|"
                       "seq:LO:HI|value:V"),
              cl::value_desc("spec"), cl::sub(ktflow::driver::simCommand));
static cl::list<std::string>
    simOutputs("output", cl::desc("NAME=FILE.npy: write a tensor after the run"),
               cl::value_desc("spec"), cl::sub(ktflow::driver::simCommand));
static cl::list<std::string>
    simArgs("arg", cl::desc("NAME=VALUE: bind a runtime argument"),
            cl::value_desc("spec"), cl::sub(ktflow::driver::simCommand));
static cl::list<std::string>
    simPrint("print", cl::desc("Print every element of a tensor after the run"),
             cl::value_desc("name"), cl::sub(ktflow::driver::simCommand));
static cl::opt<std::string>
    simTrace("trace", cl::desc("Write a Chrome-trace JSON timeline"),
             cl::value_desc("file"), cl::sub(ktflow::driver::simCommand));
static cl::opt<uint64_t> simSeed("seed", cl::init(0),
                                 cl::desc("Seed of random inputs"),
                                 cl::sub(ktflow::driver::simCommand));
static cl::opt<uint64_t> simMaxInstructions(
    "max-instructions", cl::init(sim::SimOptions().maxInstructions),
    cl::desc("Work budget: stop after this many simulated instruction steps "
             "(default 2^28)"),
    cl::sub(ktflow::driver::simCommand));
static cl::opt<double> simMaxSeconds(
    "max-seconds", cl::init(sim::SimOptions().maxSeconds),
    cl::desc("Wall-clock budget in seconds, 0 for none (default 3600)"),
    cl::sub(ktflow::driver::simCommand));

static cl::opt<bool>
    simRaces("races",
             cl::desc("Check every memory access for races, the "
                      "scratchpads' and device-memory reads too (1.2-2.5x "
                      "the simulation time); without it only the writes of "
                      "device memory are checked"),
             cl::sub(ktflow::driver::simCommand));

static cl::opt<bool>
    simJson("json",
            cl::desc("Print one JSON object (docs/json-output.md): cycles, "
                     "units and a summary of every output"),
            cl::sub(ktflow::driver::simCommand));

static int fail(const Twine &message) {
  WithColor::error(errs(), "ktflow") << message << "\n";
  return 1;
}

int ktflow::driver::runSim() {
  CrashPhase phase("simulate", simInput);
  if (!(simMaxSeconds >= 0))
    return fail("--max-seconds must be a number of seconds, 0 for none");
  if (simJson && !simPrint.empty())
    return fail("--print prints elements, which --json leaves out; write "
                "them with --output");
  auto program = rt::Program::loadFile(simInput);
  if (!program)
    return fail(toString(program.takeError()));
  if (!simArch.empty()) {
    mlir::DialectRegistry registry;
    registerAllDialects(registry);
    mlir::MLIRContext context(registry);
    ModuleLoader loader(context);
    mlir::FailureOr<machine::Machine> machine =
        machine::loadMachine(loader, simArch);
    if (failed(machine))
      return 1;
    if (Error e = program->checkDevice(*machine))
      return fail(simInput + ": " + toString(std::move(e)));
  }

  rt::Launch launch(*program);
  if (Error e = check::bindRuntimeArgs(launch, simArgs))
    return fail(toString(std::move(e)));
  if (Error e = check::bindTensors(*program, launch, simInputs, simSeed))
    return fail(toString(std::move(e)));
  std::vector<std::pair<uint32_t, std::string>> outputs;
  std::vector<uint32_t> printed;
  for (StringRef spec : simOutputs) {
    auto [name, path] = spec.split('=');
    auto t = check::findTensor(*program, name, "output");
    if (!t)
      return fail(toString(t.takeError()));
    outputs.push_back({*t, path.str()});
  }
  for (StringRef name : simPrint) {
    auto t = check::findTensor(*program, name, "print");
    if (!t)
      return fail(toString(t.takeError()));
    printed.push_back(*t);
  }

  sim::SimOptions options;
  options.maxInstructions = simMaxInstructions;
  options.maxSeconds = simMaxSeconds;
  options.recordTrace = !simTrace.empty();
  options.checkRaces = simRaces;
  std::vector<sim::TraceEvent> trace;
  auto stats = launch.run(options, &trace);
  if (!stats) {
    fail(simInput + ": simulation failed: " + toString(stats.takeError()));
    return kSimulationErrorExitCode;
  }
  if (simJson) {
    json::Object report = launchReport("sim", *program, launch, *stats);
    Expected<json::Array> summaries = outputSummaries(*program, launch);
    if (!summaries)
      return fail(toString(summaries.takeError()));
    report["outputs"] = std::move(*summaries);
    writeReport(outs(), std::move(report));
  } else {
    check::printLaunch(outs(), *program, launch, *stats);
  }
  for (auto &[t, path] : outputs)
    if (Error e = check::writeTensor(*program, launch, t, path))
      return fail(toString(std::move(e)));
  for (uint32_t t : printed)
    if (Error e = check::printTensor(outs(), *program, launch, t))
      return fail(toString(std::move(e)));
  if (!simTrace.empty())
    if (Error e = check::writeTrace(simTrace, *program, launch, *stats, trace))
      return fail(toString(std::move(e)));
  return 0;
}

//===- SweepCommand.cpp - `ktflow sweep` ----------------------------------===//
//
// This file implements `ktflow sweep KERNEL... --arch DEVICE... [-O 0,2]
// [--arg N=V] [--check] [-j N] [--format md|csv|json]`: one `ktflow run`
// per kernel x device x optimisation level, run as separate processes (a
// kernel that crashes the compiler costs one row, not the sweep), N at a
// time, merged into one table. `--emit-jobs --out DIR` writes the jobs for
// GNU parallel or a Slurm job array instead; `--merge DIR` tabulates what
// they left (Sweep.h describes the directory).
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "Sweep.h"

#include "ktflow/Registration/Registration.h"
#include "ktflow/Support/ArgumentNames.h"
#include "ktflow/Support/ModuleLoader.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/WithColor.h"

#include <chrono>
#include <thread>

using namespace llvm;
using namespace ktflow;
using namespace ktflow::driver;

cl::SubCommand ktflow::driver::sweepCommand(
    "sweep", "Run kernels x devices x optimisation levels, one table");

static cl::list<std::string> sweepKernels(cl::Positional,
                                          cl::desc("<kernel.mlir>..."),
                                          cl::sub(sweepCommand));
static cl::list<std::string>
    sweepArchs("arch", cl::desc("Device descriptions (repeat, or a,b,c)"),
               cl::value_desc("file"), cl::CommaSeparated,
               cl::sub(sweepCommand));
static cl::list<unsigned> sweepOptLevels(
    "O", cl::desc("Optimisation levels (default 2; e.g. -O 0,2)"),
    cl::value_desc("levels"), cl::CommaSeparated, cl::sub(sweepCommand));
static cl::list<std::string>
    sweepArgs("arg",
              cl::desc("NAME=VALUE for every kernel with an argument NAME"),
              cl::value_desc("NAME=VALUE"), cl::sub(sweepCommand));
static cl::opt<bool> sweepCheck("check",
                                cl::desc("Compare every run with the "
                                         "interpreter"),
                                cl::sub(sweepCommand));
static cl::opt<unsigned>
    sweepJobs("j",
              cl::desc("Runs at a time (default: one per hardware "
                       "thread)"),
              cl::value_desc("N"), cl::Prefix, cl::sub(sweepCommand));
static cl::opt<SweepFormat> sweepFormat(
    "format", cl::desc("The table's format"), cl::init(SweepFormat::Markdown),
    cl::values(clEnumValN(SweepFormat::Markdown, "md", "a Markdown table"),
               clEnumValN(SweepFormat::Csv, "csv", "comma-separated values"),
               clEnumValN(SweepFormat::Json, "json",
                          "one JSON object (docs/json-output.md)")),
    cl::sub(sweepCommand));
static cl::opt<bool> sweepJson("json", cl::desc("The same as --format=json"),
                               cl::sub(sweepCommand));
static cl::opt<std::string>
    sweepOut("out",
             cl::desc("Job directory to keep (default: a temporary one, "
                      "removed after)"),
             cl::value_desc("dir"), cl::sub(sweepCommand));
static cl::opt<bool>
    sweepEmitJobs("emit-jobs",
                  cl::desc("Write the jobs into --out for GNU parallel or "
                           "Slurm (jobs.txt, slurm.sh) and run nothing"),
                  cl::sub(sweepCommand));
static cl::opt<std::string>
    sweepMerge("merge",
               cl::desc("Print the table of a job directory whose jobs ran"),
               cl::value_desc("dir"), cl::sub(sweepCommand));

static int fail(const Twine &message) {
  WithColor::error(errs(), "ktflow") << message << "\n";
  return 1;
}

static std::string absolute(StringRef path) {
  SmallString<256> full(path);
  sys::fs::make_absolute(full);
  return full.str().str();
}

/// The names of the arguments of the functions in `kernel`; empty when it
/// does not load (its run reports why).
static StringSet<> argumentNames(StringRef kernel) {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  ModuleLoader loader(context, nulls());
  StringSet<> names;
  if (mlir::OwningOpRef<mlir::ModuleOp> module = loader.load(kernel))
    module->walk([&](mlir::func::FuncOp func) {
      for (mlir::BlockArgument argument : func.getArguments())
        names.insert(getArgumentName(argument));
    });
  return names;
}

static std::vector<SweepJob> listJobs() {
  std::vector<unsigned> levels(sweepOptLevels.begin(), sweepOptLevels.end());
  if (levels.empty())
    levels.push_back(2);
  std::vector<SweepJob> jobs;
  for (const std::string &kernel : sweepKernels) {
    StringSet<> names = argumentNames(kernel);
    std::vector<std::string> arguments;
    for (const std::string &argument : sweepArgs)
      if (names.contains(StringRef(argument).split('=').first))
        arguments.push_back(argument);
    for (const std::string &device : sweepArchs)
      for (unsigned level : levels)
        jobs.push_back({absolute(kernel), absolute(device), level, arguments});
  }
  return jobs;
}

/// Runs every command with /bin/sh, `parallelism` at a time.
static Error runCommands(ArrayRef<std::string> commands, unsigned parallelism) {
  std::vector<sys::ProcessInfo> running;
  size_t next = 0;
  while (next < commands.size() || !running.empty()) {
    while (next < commands.size() && running.size() < parallelism) {
      std::string message;
      bool failed = false;
      sys::ProcessInfo process =
          sys::ExecuteNoWait("/bin/sh", {"/bin/sh", "-c", commands[next]},
                             std::nullopt, {}, 0, &message, &failed);
      if (failed)
        return createStringError("cannot start '%s': %s",
                                 commands[next].c_str(), message.c_str());
      running.push_back(process);
      ++next;
    }
    bool finished = false;
    for (size_t i = 0; i < running.size();) {
      sys::ProcessInfo done = sys::Wait(running[i], 0u, nullptr, nullptr,
                                        /*Polling=*/true);
      if (done.Pid == running[i].Pid) {
        running.erase(running.begin() + i);
        finished = true;
      } else {
        ++i;
      }
    }
    if (!finished)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return Error::success();
}

int ktflow::driver::runSweep() {
  SweepFormat format = sweepJson ? SweepFormat::Json : sweepFormat.getValue();
  if (!sweepMerge.empty()) {
    if (Error error = printSweepTable(sweepMerge, format, outs()))
      return fail(toString(std::move(error)));
    return 0;
  }
  if (sweepKernels.empty() || sweepArchs.empty())
    return fail("sweep needs kernels and at least one --arch device");
  for (unsigned level : sweepOptLevels)
    if (level > 3)
      return fail("-O " + Twine(level) +
                  " is not an optimisation level: use 0, 1, 2 or 3");
  for (StringRef argument : sweepArgs)
    if (!argument.contains('='))
      return fail("--arg " + argument + " is not NAME=VALUE");
  if (sweepEmitJobs && sweepOut.empty())
    return fail("--emit-jobs writes the jobs into --out DIR; give one");

  SmallString<256> directory(sweepOut);
  bool temporary = directory.empty();
  if (temporary) {
    if (std::error_code ec =
            sys::fs::createUniqueDirectory("ktflow-sweep", directory))
      return fail("cannot create a temporary directory: " + ec.message());
  }
  std::string self = sys::fs::getMainExecutable(
      "ktflow", reinterpret_cast<void *>(&ktflow::driver::runSweep));
  Expected<std::vector<std::string>> commands =
      writeJobDirectory(absolute(directory), self, listJobs(), sweepCheck);
  if (!commands)
    return fail(toString(commands.takeError()));
  if (sweepEmitJobs) {
    std::string dir = absolute(directory);
    outs() << "wrote " << commands->size() << " jobs to " << dir
           << "/jobs.txt\n"
           << "run them with:  parallel < " << dir << "/jobs.txt\n"
           << "           or:  sbatch " << dir << "/slurm.sh\n"
           << "then:           ktflow sweep --merge " << dir << "\n";
    return 0;
  }
  unsigned parallelism = sweepJobs
                             ? sweepJobs.getValue()
                             : hardware_concurrency().compute_thread_count();
  if (Error error = runCommands(*commands, std::max(1u, parallelism)))
    return fail(toString(std::move(error)));
  Error printed = printSweepTable(directory, format, outs());
  if (temporary)
    sys::fs::remove_directories(directory);
  if (printed)
    return fail(toString(std::move(printed)));
  return 0;
}

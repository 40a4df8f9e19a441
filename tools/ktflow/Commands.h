//===- Commands.h - The ktflow driver's subcommands -------------*- C++ -*-===//
//
// This file declares the subcommands of the `ktflow` driver. Each lives in
// its own file with its own llvm::cl::SubCommand and options; `run*`
// functions return the process exit code.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_TOOLS_KTFLOW_COMMANDS_H
#define KTFLOW_TOOLS_KTFLOW_COMMANDS_H

#include "ktflow/Compiler/Pipelines.h"

#include "llvm/Support/CommandLine.h"

#include <optional>

namespace ktflow::driver {

/// `ktflow check FILE`: parse, verify, check legality, summarise.
extern llvm::cl::SubCommand checkCommand;
int runCheck();

/// `ktflow arch-info FILE`: summarise an architecture description.
extern llvm::cl::SubCommand archInfoCommand;
int runArchInfo();

/// `ktflow emit FILE --arch DEVICE`: DataflowIR to a program bundle.
extern llvm::cl::SubCommand emitCommand;
int runEmit();

/// `ktflow inspect BUNDLE`: print a program bundle.
extern llvm::cl::SubCommand inspectCommand;
int runInspect();

/// `ktflow sim BUNDLE`: run a bundle on the cycle-level simulator.
extern llvm::cl::SubCommand simCommand;
int runSim();

/// `ktflow interp FILE`: run a kernel on the reference interpreter.
extern llvm::cl::SubCommand interpCommand;
int runInterp();

/// The values of `--numerics` (interp::NumericsPolicy), for every
/// subcommand that runs the interpreter.
llvm::cl::ValuesClass numericsPolicyValues();

/// `ktflow compile KERNEL --arch DEVICE`: the scheduler's pipeline.
extern llvm::cl::SubCommand compileCommand;
int runCompile();

/// `ktflow run KERNEL --arch DEVICE [--check]`: compile, simulate, verify.
extern llvm::cl::SubCommand runCommand;
int runRun();

/// `ktflow sweep KERNEL... --arch DEVICE...`: many runs, one table.
extern llvm::cl::SubCommand sweepCommand;
int runSweep();

/// The help of `-O<level>` on the commands that compile.
inline constexpr const char *kOptLevelHelp =
    "Optimisation level: -O0 the simplest legal schedule (no cost model, "
    "single buffering, one lane per core); -O1, -O2 (the default) and -O3 "
    "the cost model's schedule, the same today";

/// Registers MLIR's pass manager, timing and IR printing flags as options of
/// `compile` and `run`; call before parsing the command line.
void registerCompilerFlags();

/// How `compile` and `run` compile at `-O<optLevel>` with `--func
/// function` and `--schedule schedule` (a `--tune` row's words, -O1 and
/// up), the `--mlir-*` flags applied to the pass manager; none, after an
/// error.
std::optional<CompileOptions> getCompileOptions(unsigned optLevel,
                                                llvm::StringRef function,
                                                llvm::StringRef schedule);
/// Whether a `--mlir-*` flag was given: `--tune` then compiles its choice
/// again, with them, instead of taking the bundle the search compiled
/// without them.
bool mlirFlagsGiven();

/// What `run` and `compile --tune` launch with (`--arg`, `--input`,
/// `--seed`): one set of options registered on both commands, since a tune
/// simulates candidates with the launch `run` would make.
extern llvm::cl::list<std::string> launchArgs;
extern llvm::cl::list<std::string> launchInputs;
extern llvm::cl::opt<uint64_t> launchSeed;

/// The help of `--schedule` on the commands that compile.
inline constexpr const char *kScheduleHelp =
    "Compile one schedule of those --tune lists, by its words (e.g. "
    "'lanes=off chunk-scale=1')";

} // namespace ktflow::driver

#endif // KTFLOW_TOOLS_KTFLOW_COMMANDS_H

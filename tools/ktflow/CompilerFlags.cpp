//===- CompilerFlags.cpp - Flags of the commands that compile -------------===//
//
// This file implements what `ktflow compile` and `ktflow run` share about
// compiling: `-O<level>`, `--schedule` and MLIR's standard pass manager,
// timing and IR printing flags (`--mlir-print-ir-after-all`,
// `--mlir-print-ir-before=`, `--mlir-timing`, ...). MLIR registers those as
// options of the whole tool; they are moved to the two subcommands, the only
// ones that run passes.
//
// The launch's options (`--arg`, `--input`, `--seed`) are registered on
// both too: `compile --tune` simulates candidates as `run` would.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "ktflow/Registration/Registration.h"

#include "mlir/IR/AsmState.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

cl::list<std::string> ktflow::driver::launchArgs(
    "arg",
    cl::desc("Value of a runtime argument (compile: for --tune, whose "
             "estimate and simulations need the launch's)"),
    cl::value_desc("NAME=VALUE"));
cl::list<std::string> ktflow::driver::launchInputs(
    "input",
    cl::desc("Contents of a tensor argument (by SSA name or position; "
             "@ADDR: global memory at a literal address; lx<K>@ADDR: tile "
             "K's scratchpad there): FILE.npy, random, randn, zeros, "
             "value:V, range:LO:HI or seq:LO:HI (default random; compile: "
             "for --tune's simulations)"),
    cl::value_desc("NAME=SPEC"));
cl::opt<uint64_t>
    ktflow::driver::launchSeed("seed", cl::init(0),
                               cl::desc("Seed of generated inputs"));

/// The MLIR flags `ktflow compile --help` lists; the others parse as well
/// and `--help-hidden` lists them.
static constexpr StringLiteral kListedMlirFlags[] = {
    "mlir-print-ir-after-all", "mlir-print-ir-before-all",
    "mlir-print-ir-after", "mlir-print-ir-before", "mlir-timing"};

/// The `--mlir-*` flags registerCompilerFlags moved to the two commands.
static SmallVector<cl::Option *> mlirFlags;

bool ktflow::driver::mlirFlagsGiven() {
  return any_of(mlirFlags,
                [](cl::Option *option) { return option->getNumOccurrences(); });
}

void ktflow::driver::registerCompilerFlags() {
  // --mlir-print-ir-before=PASS names a registered pass.
  registerAllPasses();
  mlir::registerPassManagerCLOptions();
  mlir::registerDefaultTimingManagerCLOptions();
  mlir::registerAsmPrinterCLOptions();
  SmallVector<cl::Option *> moved;
  for (auto &entry : cl::getRegisteredOptions(cl::SubCommand::getTopLevel()))
    if (entry.first.starts_with("mlir-")) {
      moved.push_back(entry.second);
      mlirFlags.push_back(entry.second);
      entry.second->setHiddenFlag(
          is_contained(kListedMlirFlags, entry.second->ArgStr) ? cl::NotHidden
                                                               : cl::Hidden);
    }
  // The launch's options as well: defined once, here, they cannot name the
  // two subcommands (other files' statics, maybe not constructed yet) when
  // they are constructed, and ktflow.cpp hides them with the library's
  // options. (A cl::list's `&` is its vector's: cast to the option first.)
  for (cl::Option *option : {&static_cast<cl::Option &>(launchArgs),
                             &static_cast<cl::Option &>(launchInputs),
                             &static_cast<cl::Option &>(launchSeed)}) {
    option->setHiddenFlag(cl::NotHidden);
    moved.push_back(option);
  }
  for (cl::Option *option : moved) {
    option->removeArgument();
    option->Subs.clear();
    option->addSubCommand(compileCommand);
    option->addSubCommand(runCommand);
    option->addArgument();
  }
}

std::optional<ktflow::CompileOptions>
ktflow::driver::getCompileOptions(unsigned optLevel, StringRef function,
                                  StringRef schedule) {
  if (optLevel > 3) {
    WithColor::error(errs(), "ktflow")
        << "-O" << optLevel << " is not an optimisation level: use -O0, -O1, "
        << "-O2 or -O3\n";
    return std::nullopt;
  }
  CompileOptions options;
  options.optimize = optLevel > 0;
  options.function = function.str();
  if (!schedule.empty() && !options.optimize) {
    WithColor::error(errs(), "ktflow")
        << "--schedule sets the cost model's choices; it needs -O1 or "
           "higher\n";
    return std::nullopt;
  }
  if (Error e = parseSchedule(schedule, options)) {
    WithColor::error(errs(), "ktflow")
        << "--schedule: " << toString(std::move(e)) << "\n";
    return std::nullopt;
  }
  options.instrument = [](mlir::PassManager &pm) {
    if (failed(mlir::applyPassManagerCLOptions(pm)))
      return mlir::failure();
    mlir::applyDefaultTimingPassManagerCLOptions(pm);
    return mlir::success();
  };
  return options;
}

//===- CompilerFlags.cpp - Flags of the commands that compile -------------===//
//
// This file implements what `ktflow compile` and `ktflow run` share about
// compiling: `-O<level>`, `--schedule` and MLIR's standard pass manager,
// timing and IR printing flags (`--mlir-print-ir-after-all`,
// `--mlir-print-ir-before=`, `--mlir-timing`, ...). MLIR registers those as
// options of the whole tool; they are moved to the two subcommands, the only
// ones that run passes.
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

/// The MLIR flags `ktflow compile --help` lists; the others parse as well
/// and `--help-hidden` lists them.
static constexpr StringLiteral kListedMlirFlags[] = {
    "mlir-print-ir-after-all", "mlir-print-ir-before-all",
    "mlir-print-ir-after", "mlir-print-ir-before", "mlir-timing"};

void ktflow::driver::registerCompilerFlags() {
  // --mlir-print-ir-before=PASS names a registered pass.
  registerAllPasses();
  mlir::registerPassManagerCLOptions();
  mlir::registerDefaultTimingManagerCLOptions();
  mlir::registerAsmPrinterCLOptions();
  SmallVector<cl::Option *> mlirOptions;
  for (auto &entry : cl::getRegisteredOptions(cl::SubCommand::getTopLevel()))
    if (entry.first.starts_with("mlir-"))
      mlirOptions.push_back(entry.second);
  for (cl::Option *option : mlirOptions) {
    option->removeArgument();
    option->Subs.clear();
    option->addSubCommand(compileCommand);
    option->addSubCommand(runCommand);
    option->setHiddenFlag(is_contained(kListedMlirFlags, option->ArgStr)
                              ? cl::NotHidden
                              : cl::Hidden);
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

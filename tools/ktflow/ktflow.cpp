//===- ktflow.cpp - The ktflow user driver --------------------------------===//
//
// This file implements `ktflow`, the user-facing driver. Each subcommand is
// an llvm::cl::SubCommand declared in Commands.h.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "ktflow/Support/CrashRecovery.h"
#include "ktflow/Support/OutputFile.h"
#include "ktflow/Support/Version.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"

using namespace ktflow::driver;

static llvm::cl::opt<bool> crashDiagnostics(
    "crash-diagnostics",
    llvm::cl::desc("On an internal error (exit status 70), print LLVM's "
                   "stack dump as well as the one-line report"),
    llvm::cl::sub(llvm::cl::SubCommand::getAll()));

/// Runs the subcommand the command line selected.
static int runSelectedCommand() {
  if (checkCommand)
    return runCheck();
  if (interpCommand)
    return runInterp();
  if (archInfoCommand)
    return runArchInfo();
  if (emitCommand)
    return runEmit();
  if (inspectCommand)
    return runInspect();
  if (simCommand)
    return runSim();
  if (compileCommand)
    return runCompile();
  if (runCommand)
    return runRun();
  if (sweepCommand)
    return runSweep();
  llvm::WithColor::error(llvm::errs(), "ktflow")
      << "no command given; run 'ktflow --help' for the list\n";
  return 1;
}

/// Hides from `ktflow --help` the hundreds of options every tool linked to
/// LLVM registers (back-end and optimiser flags ktflow never reads); they
/// still parse and `--help-hidden` still lists them. Subcommand options,
/// --help, --version and --crash-diagnostics stay visible.
static void hideLibraryOptions() {
  for (auto &entry :
       llvm::cl::getRegisteredOptions(llvm::cl::SubCommand::getTopLevel())) {
    llvm::cl::Option *option = entry.second;
    if (option != &crashDiagnostics &&
        !llvm::is_contained({"help", "help-list", "version"}, entry.first))
      option->setHiddenFlag(llvm::cl::Hidden);
  }
}

int main(int argc, char **argv) {
  ktflow::installCrashReporter("ktflow");
  llvm::InitLLVM initLLVM(argc, argv);
  llvm::cl::SetVersionPrinter(
      [](llvm::raw_ostream &os) { ktflow::printVersion(os); });
  hideLibraryOptions();
  registerCompilerFlags();
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "ktflow: compile, simulate and verify KTIR kernels on dataflow "
      "devices\n\n"
      "  ktflow check FILE     parse, verify and summarise a KTIR kernel\n"
      "  ktflow interp FILE [--arg N=V] [--input N=SPEC] [--output N=F.npy]\n"
      "                        run a kernel on the reference interpreter\n"
      "  ktflow arch-info FILE summarise a device description [--json]\n"
      "  ktflow emit FILE --arch DEVICE  DataflowIR to a program bundle\n"
      "  ktflow inspect BUNDLE           print a program bundle\n"
      "  ktflow sim BUNDLE [--input N=SPEC] [--output N=FILE.npy] [--trace F]\n"
      "                                  run a bundle on the simulator\n"
      "  ktflow compile KERNEL --arch DEVICE "
      "[--emit=schedule|dataflow|bundle]\n"
      "                        [-O0|-O2] [-o OUT]  compile a kernel for a "
      "device\n"
      "  ktflow run KERNEL --arch DEVICE [--input N=SPEC] [--arg N=V] "
      "[--check]\n"
      "                        [--units] [--output N=F.npy] [--trace F]\n"
      "                        compile, simulate, compare with the "
      "interpreter\n"
      "  ktflow sweep KERNEL... --arch DEVICE... [-O 0,2] [-j N] "
      "[--format md|csv|json]\n"
      "                        [--emit-jobs --out DIR | --merge DIR]\n"
      "                        run kernel x device x level, one table\n"
      "\n"
      "  --json on every command prints one JSON object; docs/quickstart.md\n"
      "  walks through the commands.\n");
  int status =
      ktflow::runWithCrashRecovery(runSelectedCommand, crashDiagnostics);
  if (llvm::Error error = ktflow::flushStdout()) {
    llvm::WithColor::error(llvm::errs(), "ktflow")
        << llvm::toString(std::move(error)) << "\n";
    return status ? status : 1;
  }
  return status;
}

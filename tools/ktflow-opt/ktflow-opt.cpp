//===- ktflow-opt.cpp - The ktflow optimizer driver -----------------------===//
//
// This file implements ktflow-opt: MlirOptMain with every ktflow dialect,
// the upstream dialects KTIR uses, and every ktflow pass. lit tests drive
// each pass through it. With the tests built it also registers the test
// passes (test/lib/TestPasses.h), which no other tool has.
//
// `--arch FILE` points the kernel at a device description before the
// pipeline runs, as `ktflow compile --arch` does.
//
// It runs under crash recovery (CrashRecovery.h): a crash inside MLIR's
// parser, verifier, printer or a pass is one `ktflow-opt: error: internal
// error in ...` line and exit status 70. To name the running pass it sets up
// the pass manager itself, so it opens the files as mlir-opt's MlirOptMain
// does and hands the buffer to the MlirOptMain that takes one.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Compiler/Passes.h"
#include "ktflow/Registration/Registration.h"
#include "ktflow/Support/CrashRecovery.h"
#include "ktflow/Support/OutputFile.h"
#ifdef KTFLOW_INCLUDE_TEST_PASSES
#include "TestPasses.h"
#endif

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cstdio>

using namespace mlir;

static llvm::cl::opt<bool> crashDiagnostics(
    "crash-diagnostics",
    llvm::cl::desc("On an internal error (exit status 70), print LLVM's "
                   "stack dump as well as the one-line report"));
static llvm::cl::opt<std::string>
    arch("arch",
         llvm::cl::desc("Device description the kernel targets, as for "
                        "`ktflow compile --arch` (runs --ktdf-set-target "
                        "before the pipeline)"),
         llvm::cl::value_desc("file"));

/// mlir-opt's MlirOptMain(argc, argv, input, output, registry), with the
/// running pass reported on a crash.
static LogicalResult optMain(llvm::StringRef inputFilename,
                             llvm::StringRef outputFilename,
                             DialectRegistry &registry) {
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects()) {
    llvm::outs() << "Available Dialects: ";
    llvm::interleave(registry.getDialectNames(), llvm::outs(), ",");
    llvm::outs() << "\n";
    return success();
  }
  if (config.shouldListPasses()) {
    printRegisteredPasses();
    return success();
  }
  MlirOptMainConfig pipeline = config;
  config.setPassPipelineSetupFn([pipeline](PassManager &pm) {
    ktflow::trackPassesForCrashReports(pm);
    if (!arch.empty()) {
      KTDFSetTargetOptions options;
      options.arch = arch;
      pm.addPass(createKTDFSetTarget(options));
    }
    return pipeline.setupPassPipeline(pm);
  });

  if (inputFilename == "-" &&
      llvm::sys::Process::FileDescriptorIsDisplayed(fileno(stdin)))
    llvm::errs() << "(processing input from stdin now, hit ctrl-c/ctrl-d to "
                    "interrupt)\n";
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> file =
      openInputFile(inputFilename, &errorMessage);
  if (!file) {
    llvm::errs() << errorMessage << "\n";
    return failure();
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return failure();
  }
  // Parsing, verifying and printing are upstream's and not told apart.
  ktflow::CrashPhase phase("parse, verify or print", inputFilename);
  if (failed(MlirOptMain(output->os(), std::move(file), registry, config)))
    return failure();
  output->os().flush();
  if (llvm::Error error = ktflow::takeWriteError(output->os(), outputFilename)) {
    llvm::errs() << "ktflow-opt: error: " << llvm::toString(std::move(error))
                 << "\n";
    return failure();
  }
  output->keep();
  return success();
}

int main(int argc, char **argv) {
  ktflow::installCrashReporter("ktflow-opt");
  llvm::InitLLVM initLLVM(argc, argv);
  ktflow::registerAllPasses();
#ifdef KTFLOW_INCLUDE_TEST_PASSES
  ktflow::test::registerTestPasses();
#endif
  DialectRegistry registry;
  ktflow::registerAllDialects(registry);
  std::pair<std::string, std::string> files = registerAndParseCLIOptions(
      argc, argv, "ktflow optimizer driver\n", registry);
  return ktflow::runWithCrashRecovery(
      [&] {
        return asMainReturnCode(optMain(files.first, files.second, registry));
      },
      crashDiagnostics);
}

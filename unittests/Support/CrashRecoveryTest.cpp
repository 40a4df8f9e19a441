//===- CrashRecoveryTest.cpp - Tests of the one-line crash report ---------===//
//
// This file tests, in death tests (each crash runs in a child process), that
// a crash under runWithCrashRecovery ends the process with status 70 and
// one line naming the phase, the signal and the subject or running pass,
// also for a crash in a pass on one of MLIR's worker threads; and that a
// crash while parsing after a reported error is an ordinary failure.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Support/CrashRecovery.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "gtest/gtest.h"

#include <csignal>
#include <thread>

using namespace ktflow;
using namespace mlir;

namespace {

/// A function pass that crashes, on every function or (`onlyOffThread`)
/// only on threads other than `home`.
struct CrashingPass
    : public PassWrapper<CrashingPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CrashingPass)
  CrashingPass(std::thread::id home, bool onlyOffThread)
      : home(home), onlyOffThread(onlyOffThread) {}
  StringRef getArgument() const override { return "crash-for-test"; }
  void runOnOperation() override {
    if (!onlyOffThread || std::this_thread::get_id() != home)
      std::raise(SIGSEGV);
  }
  std::thread::id home;
  bool onlyOffThread;
};

/// Runs CrashingPass on a module of `numFunctions` empty functions.
int runCrashingPipeline(bool multithreaded, int numFunctions,
                        bool onlyOffThread) {
  MLIRContext context;
  context.loadDialect<func::FuncDialect>();
  if (!multithreaded)
    context.disableMultithreading();
  trackPassesForCrashReports(context);
  OpBuilder builder(&context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(builder.getUnknownLoc());
  builder.setInsertionPointToEnd(module->getBody());
  for (int i = 0; i < numFunctions; ++i) {
    auto fn = func::FuncOp::create(builder, builder.getUnknownLoc(),
                                   "f" + std::to_string(i),
                                   builder.getFunctionType({}, {}));
    OpBuilder body = OpBuilder::atBlockEnd(fn.addEntryBlock());
    func::ReturnOp::create(body, builder.getUnknownLoc());
  }
  CrashPhase phase("passes", "module.mlir");
  PassManager pm(&context);
  pm.addNestedPass<func::FuncOp>(
      std::make_unique<CrashingPass>(std::this_thread::get_id(),
                                     onlyOffThread));
  return failed(pm.run(*module)) ? 1 : 0;
}

class CrashRecoveryTest : public ::testing::Test {
protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

TEST_F(CrashRecoveryTest, NamesPhaseSignalAndSubject) {
  EXPECT_EXIT(
      {
        installCrashReporter("ktflow");
        runWithCrashRecovery(
            [] {
              CrashPhase phase("simulate", "add.ktfb");
              std::raise(SIGSEGV);
              return 0;
            },
            /*crashDiagnostics=*/false);
      },
      ::testing::ExitedWithCode(kInternalErrorExitCode),
      "^ktflow: error: internal error in simulate \\(segmentation fault in "
      "'add.ktfb'\\); rerun with --crash-diagnostics for a stack dump\n$");
}

TEST_F(CrashRecoveryTest, InnermostPhaseWins) {
  EXPECT_EXIT(
      {
        runWithCrashRecovery(
            [] {
              CrashPhase outer("emit", "k.mlir");
              { CrashPhase inner("interpret", "x.mlir"); }
              std::raise(SIGABRT);
              return 0;
            },
            false);
      },
      ::testing::ExitedWithCode(kInternalErrorExitCode),
      "internal error in emit \\(abort in 'k.mlir'\\)");
}

TEST_F(CrashRecoveryTest, NoCrashReturnsTheBodysStatus) {
  EXPECT_EQ(runWithCrashRecovery([] { return 3; }, false), 3);
}

TEST_F(CrashRecoveryTest, ParserCrashAfterAnErrorIsThatError) {
  EXPECT_EXIT(
      {
        runWithCrashRecovery(
            [] {
              CrashPhase phase("parse", "bad.mlir");
              CrashPhase::noteErrorReported();
              std::raise(SIGSEGV);
              return 0;
            },
            false);
      },
      ::testing::ExitedWithCode(1), "^$");
}

TEST_F(CrashRecoveryTest, ParserCrashWithoutAnErrorIsInternal) {
  EXPECT_EXIT(
      {
        runWithCrashRecovery(
            [] {
              CrashPhase phase("parse", "bad.mlir");
              std::raise(SIGSEGV);
              return 0;
            },
            false);
      },
      ::testing::ExitedWithCode(kInternalErrorExitCode),
      "internal error in parse \\(segmentation fault in 'bad.mlir'\\)");
}

TEST_F(CrashRecoveryTest, AnErrorInAnEndedPhaseDoesNotCount) {
  EXPECT_EXIT(
      {
        runWithCrashRecovery(
            [] {
              CrashPhase phase("parse", "bad.mlir");
              { CrashPhase verify("verify", "bad.mlir");
                CrashPhase::noteErrorReported(); }
              std::raise(SIGSEGV);
              return 0;
            },
            false);
      },
      ::testing::ExitedWithCode(kInternalErrorExitCode),
      "internal error in parse");
}

TEST_F(CrashRecoveryTest, NamesTheRunningPass) {
  EXPECT_EXIT(
      {
        runWithCrashRecovery(
            [] { return runCrashingPipeline(false, 1, false); }, false);
      },
      ::testing::ExitedWithCode(kInternalErrorExitCode),
      "^ktflow: error: internal error in passes \\(segmentation fault in "
      "pass 'crash-for-test'\\)");
}

TEST_F(CrashRecoveryTest, CrashOnAWorkerThread) {
  // With several functions and threading on, MLIR runs the nested pass on
  // its thread pool, outside the recovery context.
  EXPECT_EXIT(
      {
        installCrashReporter("ktflow");
        runWithCrashRecovery(
            [] { return runCrashingPipeline(true, 8, true); }, false);
      },
      ::testing::ExitedWithCode(kInternalErrorExitCode),
      "^ktflow: error: internal error in passes \\(segmentation fault on a "
      "worker thread in pass 'crash-for-test'\\); rerun with "
      "--crash-diagnostics");
}

} // namespace

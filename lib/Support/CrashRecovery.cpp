//===- CrashRecovery.cpp - A crash becomes one clean error line -----------===//
//
// The phase is process-wide (only the tool's main work thread sets it); the
// running pass is per thread, so a crash on a worker thread names the pass
// that thread was running.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Support/CrashRecovery.h"
#include "ktflow/Support/LargeStack.h"

#include "mlir/IR/Action.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

#include <atomic>
#include <csignal>
#include <cstring>
#include <unistd.h>

using namespace llvm;
using namespace ktflow;

namespace {

/// What the tool is doing. Never destroyed: a crash during static
/// destruction still finds it.
struct CrashState {
  std::string toolName = "ktflow";
  std::string phase, subject;
  std::atomic<bool> errorReported{false};
  std::atomic<bool> crashDiagnostics{false};
};

CrashState &getState() {
  static CrashState *state = new CrashState;
  return *state;
}

/// The argument of the innermost pass this thread runs ("" when none), a
/// copy so it outlives the pass object.
thread_local char runningPass[96];

/// Sets this thread's running pass for its lifetime, restoring the previous.
class PassScope {
public:
  explicit PassScope(StringRef argument) {
    std::memcpy(saved, runningPass, sizeof(saved));
    size_t n = std::min(argument.size(), sizeof(runningPass) - 1);
    std::memcpy(runningPass, argument.data(), n);
    runningPass[n] = '\0';
  }
  ~PassScope() { std::memcpy(runningPass, saved, sizeof(saved)); }

private:
  char saved[sizeof(runningPass)];
};

/// The same for a pass manager, through its instrumentation.
class PassTracker : public mlir::PassInstrumentation {
public:
  void runBeforePass(mlir::Pass *pass, mlir::Operation *) override {
    if (!pass->getArgument().empty())
      scopes.emplace_back(std::make_unique<PassScope>(pass->getArgument()));
  }
  void runAfterPass(mlir::Pass *pass, mlir::Operation *) override {
    if (!pass->getArgument().empty() && !scopes.empty())
      scopes.pop_back();
  }
  void runAfterPassFailed(mlir::Pass *pass, mlir::Operation *op) override {
    runAfterPass(pass, op);
  }

private:
  /// Passes nest on one thread (a pipeline inside a pass) and run on
  /// several threads at once, each with its own stack.
  static thread_local std::vector<std::unique_ptr<PassScope>> scopes;
};
thread_local std::vector<std::unique_ptr<PassScope>> PassTracker::scopes;

const char *describeSignal(int signal) {
  switch (signal) {
  case SIGSEGV: return "segmentation fault";
  case SIGBUS: return "bus error";
  case SIGILL: return "illegal instruction";
  case SIGFPE: return "arithmetic exception";
  case SIGABRT: return "abort";
  case SIGTRAP: return "trap";
  default: return "crash";
  }
}

/// Prints the one-line report of a crash by `signal` (0: unknown) on the
/// calling thread.
void printReport(int signal, bool onWorkerThread) {
  CrashState &state = getState();
  StringRef phase = state.phase.empty() ? StringRef(state.toolName)
                                        : StringRef(state.phase);
  std::string what = describeSignal(signal);
  if (onWorkerThread)
    what += " on a worker thread";
  if (runningPass[0]) {
    phase = "passes";
    what += std::string(" in pass '") + runningPass + "'";
  } else if (!state.subject.empty()) {
    what += " in '" + state.subject + "'";
  }
  outs().flush();
  WithColor::error(errs(), state.toolName)
      << "internal error in " << phase << " (" << what << ")"
      << (state.crashDiagnostics
              ? ""
              : "; rerun with --crash-diagnostics for a stack dump")
      << "\n";
  errs().flush();
}

/// LLVM's signal callback for a crash the recovery context does not cover:
/// one on a thread other than the tool's work thread.
void reportUnrecoveredCrash(void *) {
  if (getState().crashDiagnostics)
    return; // LLVM's stack dump follows.
  printReport(/*signal=*/0, /*onWorkerThread=*/true);
  sys::Process::Exit(kInternalErrorExitCode, /*NoCleanup=*/true);
}

/// The signals a crash raises, and the handlers (the recovery context's) that
/// handleCrashSignal passes a crash on the work thread to.
constexpr int kCrashSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT,
                                 SIGTRAP};
struct sigaction chainedActions[NSIG];
std::atomic<bool> workerCrashReported{false};

void chainCrashSignal(int signal, siginfo_t *info, void *context) {
  const struct sigaction &chained = chainedActions[signal];
  if (chained.sa_flags & SA_SIGINFO)
    chained.sa_sigaction(signal, info, context);
  else if (chained.sa_handler != SIG_DFL && chained.sa_handler != SIG_IGN)
    chained.sa_handler(signal);
}

/// Takes every crash signal. The work thread's crash goes to its recovery
/// context. A crash on a worker thread is reported here, once: several pool
/// threads often crash together, and LLVM's own handler restores the default
/// action before it reports, so a second crashing thread would end the
/// process by the raw signal in between.
void handleCrashSignal(int signal, siginfo_t *info, void *context) {
  if (CrashRecoveryContext::GetCurrent() || getState().crashDiagnostics)
    return chainCrashSignal(signal, info, context);
  if (workerCrashReported.exchange(true)) {
    while (true)
      pause(); // The first crashing thread ends the process.
  }
  printReport(signal, /*onWorkerThread=*/true);
  _exit(kInternalErrorExitCode);
}

/// Installs handleCrashSignal over the recovery context's handlers, once.
void installCrashSignalHandlers() {
  static bool installed = [] {
    struct sigaction action = {};
    action.sa_sigaction = handleCrashSignal;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    for (int signal : kCrashSignals)
      sigaction(signal, &action, &chainedActions[signal]);
    return true;
  }();
  (void)installed;
}

} // namespace

CrashPhase::CrashPhase(StringRef phase, StringRef subject) {
  CrashState &state = getState();
  savedPhase = std::move(state.phase);
  savedSubject = std::move(state.subject);
  savedErrorReported = state.errorReported.exchange(false);
  state.phase = phase.str();
  state.subject = subject.str();
}

CrashPhase::~CrashPhase() {
  CrashState &state = getState();
  state.phase = std::move(savedPhase);
  state.subject = std::move(savedSubject);
  state.errorReported = savedErrorReported;
}

void CrashPhase::noteErrorReported() { getState().errorReported = true; }

void ktflow::trackPassesForCrashReports(mlir::MLIRContext &context) {
  context.registerActionHandler(
      [](function_ref<void()> transform, const mlir::tracing::Action &action) {
        auto *execution = dyn_cast<mlir::PassExecutionAction>(&action);
        if (!execution || execution->getPass().getArgument().empty())
          return transform();
        PassScope scope(execution->getPass().getArgument());
        transform();
      });
}

void ktflow::trackPassesForCrashReports(mlir::PassManager &pm) {
  pm.addInstrumentation(std::make_unique<PassTracker>());
}

void ktflow::installCrashReporter(StringRef toolName) {
  getState().toolName = toolName.str();
  sys::AddSignalHandler(reportUnrecoveredCrash, nullptr);
}

int ktflow::runWithCrashRecovery(function_ref<int()> body,
                                 bool crashDiagnostics) {
  CrashState &state = getState();
  state.crashDiagnostics = crashDiagnostics;
  CrashRecoveryContext::Enable();
  installCrashSignalHandlers();
  int status = 0;
  // The report is printed on the work thread itself, where the pass it was
  // running is still recorded.
  llvm::thread worker(std::optional<unsigned>(kLargeStackBytes), [&] {
    CrashRecoveryContext context;
    context.DumpStackAndCleanupOnFailure = crashDiagnostics;
    if (context.RunSafely([&] { status = body(); }))
      return;
    int signal = context.RetCode > 128 ? context.RetCode - 128 : 0;
    // A parser that crashes after reporting an error at the input has
    // already said what is wrong with it.
    if (state.phase == "parse" && state.errorReported && !crashDiagnostics) {
      status = 1;
    } else {
      printReport(signal, /*onWorkerThread=*/false);
      status = kInternalErrorExitCode;
    }
    // The crash left locks, half-built IR and stack objects behind: end
    // here, without destructors.
    outs().flush();
    errs().flush();
    sys::Process::Exit(status, /*NoCleanup=*/true);
  });
  worker.join();
  return status;
}

//===- CrashRecovery.h - A crash becomes one clean error line ---*- C++ -*-===//
//
// This file declares how ktflow's tools report a crash inside MLIR's parser,
// verifier or passes, or inside ktflow itself: instead of a stack dump and
// death by signal, one line
//
//   ktflow: error: internal error in <phase> (<signal> in <subject>); ...
//
// and exit status 70 (EX_SOFTWARE). The tool's work runs under LLVM's
// CrashRecoveryContext, as clang's does; a crash on another thread (MLIR's
// thread pool) is reported the same way by a signal callback. Code marks
// what it is doing with a CrashPhase; the passes of a tracked context name
// themselves. `--crash-diagnostics` restores LLVM's stack dump.
//
// A crash while parsing, after the parser has already reported an error at
// the input, is the input's fault: some upstream custom parsers carry on
// after a failed sub-parse and crash on what they did not get (linalg's
// `dimensions = [...]` with an out-of-range or malformed integer is one).
// That becomes an ordinary parse failure, exit status 1.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_SUPPORT_CRASHRECOVERY_H
#define KTFLOW_SUPPORT_CRASHRECOVERY_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir {
class MLIRContext;
class PassManager;
} // namespace mlir

namespace ktflow {

/// The exit status of a tool after an internal error (sysexits' EX_SOFTWARE).
inline constexpr int kInternalErrorExitCode = 70;

/// Marks, for as long as it lives, what the tool is doing: `phase` (parse,
/// verify, passes, emit, simulate, interpret, ...) on `subject` (a file, a
/// kernel), for the report of a crash. Phases nest; the innermost is shown.
class CrashPhase {
public:
  CrashPhase(llvm::StringRef phase, llvm::StringRef subject = "");
  ~CrashPhase();
  CrashPhase(const CrashPhase &) = delete;
  CrashPhase &operator=(const CrashPhase &) = delete;

  /// Records that the current phase has reported an error diagnostic.
  static void noteErrorReported();

private:
  std::string savedPhase, savedSubject;
  bool savedErrorReported;
};

/// Makes every pass `context` runs name itself in a crash report.
void trackPassesForCrashReports(mlir::MLIRContext &context);

/// Makes every pass `pm` runs name itself in a crash report (for a pass
/// manager whose context the tool does not create).
void trackPassesForCrashReports(mlir::PassManager &pm);

/// Registers the report of crashes on threads outside the recovery context.
/// Call first thing in main, before llvm::InitLLVM, so the report comes
/// before (and, without --crash-diagnostics, instead of) LLVM's stack dump.
void installCrashReporter(llvm::StringRef toolName);

/// Runs `body` on a thread with a kLargeStackBytes stack (LargeStack.h) under
/// a CrashRecoveryContext and returns its status. After a crash it prints
/// the one-line report and ends the process without running destructors of
/// the state the crash left behind: status kInternalErrorExitCode, or 1 for
/// a parser crash after a reported error. With `crashDiagnostics`, LLVM's
/// stack dump is printed as well.
int runWithCrashRecovery(llvm::function_ref<int()> body,
                         bool crashDiagnostics);

} // namespace ktflow

#endif // KTFLOW_SUPPORT_CRASHRECOVERY_H

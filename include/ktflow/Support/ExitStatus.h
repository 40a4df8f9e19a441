//===- ExitStatus.h - What ktflow's exit status says ------------*- C++ -*-===//
//
// This file declares the exit statuses of the `ktflow` tool (README.md,
// "Errors and exit status") and the error that carries one out of the
// libraries the tool and the Python package share: a wrong answer, a
// simulation that deadlocks and a kernel that does not compile must be told
// apart by scripts without reading the text.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_SUPPORT_EXITSTATUS_H
#define KTFLOW_SUPPORT_EXITSTATUS_H

#include "ktflow/Support/CrashRecovery.h"

#include "llvm/Support/Error.h"

namespace ktflow {

/// Bad input, a kernel that does not compile, a bad option, a failed write.
inline constexpr int kUserErrorExitCode = 1;
/// `run --check` compared the outputs and at least one is wrong.
inline constexpr int kCheckFailedExitCode = 2;
/// The simulation failed: a deadlock, a fault, a budget exhausted.
inline constexpr int kSimulationErrorExitCode = 3;
// kInternalErrorExitCode (70, CrashRecovery.h): a crash.

/// An error with the exit status it gives; an empty message means it was
/// reported already (as diagnostics).
class StatusError : public llvm::ErrorInfo<StatusError> {
public:
  static char ID;
  StatusError(int status, std::string message)
      : status(status), message(std::move(message)) {}
  int getStatus() const { return status; }
  const std::string &getMessage() const { return message; }
  void log(llvm::raw_ostream &os) const override { os << message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  int status;
  std::string message;
};

/// A StatusError for a failure reported already as diagnostics.
inline llvm::Error reportedError(int status = kUserErrorExitCode) {
  return llvm::make_error<StatusError>(status, "");
}

/// Prints `error` as `ktflow: error: MESSAGE` (nothing when it was reported
/// already) and returns its exit status (kUserErrorExitCode unless it is a
/// StatusError that says otherwise).
int reportError(llvm::Error error);

} // namespace ktflow

#endif // KTFLOW_SUPPORT_EXITSTATUS_H

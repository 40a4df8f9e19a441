//===- ExitStatus.cpp - What ktflow's exit status says --------------------===//
//
// This file prints an error carrying an exit status and returns the status.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Support/ExitStatus.h"

#include "llvm/Support/WithColor.h"

using namespace llvm;

char ktflow::StatusError::ID = 0;

int ktflow::reportError(Error error) {
  int status = kUserErrorExitCode;
  handleAllErrors(
      std::move(error),
      [&](const StatusError &e) {
        status = e.getStatus();
        if (!e.getMessage().empty())
          WithColor::error(errs(), "ktflow") << e.getMessage() << "\n";
      },
      [&](const ErrorInfoBase &e) {
        WithColor::error(errs(), "ktflow") << e.message() << "\n";
      });
  return status;
}

//===- Commands.h - The ktflow driver's subcommands -------------*- C++ -*-===//
//
// This file declares the subcommands of the `ktflow` driver. Each lives in
// its own file with its own llvm::cl::SubCommand and options; `run*`
// functions return the process exit code.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_TOOLS_KTFLOW_COMMANDS_H
#define KTFLOW_TOOLS_KTFLOW_COMMANDS_H

#include "llvm/Support/CommandLine.h"

namespace ktflow::driver {

/// `ktflow check FILE`: parse, verify, check legality, summarise.
extern llvm::cl::SubCommand checkCommand;
int runCheck();

/// `ktflow arch-info FILE`: summarise an architecture description.
extern llvm::cl::SubCommand archInfoCommand;
int runArchInfo();

} // namespace ktflow::driver

#endif // KTFLOW_TOOLS_KTFLOW_COMMANDS_H

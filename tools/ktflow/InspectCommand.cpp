//===- InspectCommand.cpp - `ktflow inspect` ------------------------------===//
//
// This file implements `ktflow inspect BUNDLE`: print a program bundle's
// metadata and disassembled unit programs.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "ktflow/Runtime/Runtime.h"
#include "ktflow/Support/CrashRecovery.h"

#include "llvm/Support/WithColor.h"

using namespace llvm;

cl::SubCommand ktflow::driver::inspectCommand(
    "inspect", "Print a program bundle readably");

static cl::opt<std::string> inspectInput(cl::Positional, cl::Required,
                                         cl::desc("<bundle>"),
                                         cl::sub(ktflow::driver::inspectCommand));

int ktflow::driver::runInspect() {
  CrashPhase phase("inspect", inspectInput);
  auto program = rt::Program::loadFile(inspectInput);
  if (!program) {
    WithColor::error(errs(), "ktflow") << toString(program.takeError()) << "\n";
    return 1;
  }
  outs() << inspectInput << ":\n";
  bundle::printBundle(outs(), program->getBundle());
  return 0;
}

//===- InspectCommand.cpp - `ktflow inspect` ------------------------------===//
//
// This file implements `ktflow inspect BUNDLE`: print a program bundle's
// metadata and disassembled unit programs (or, with `--json`, the
// metadata as one JSON object).
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "ktflow/Driver/Reports.h"
#include "ktflow/Runtime/Runtime.h"
#include "ktflow/Support/CrashRecovery.h"

#include "llvm/Support/WithColor.h"

using namespace llvm;

cl::SubCommand ktflow::driver::inspectCommand(
    "inspect", "Print a program bundle readably");

static cl::opt<std::string> inspectInput(cl::Positional, cl::Required,
                                         cl::desc("<bundle>"),
                                         cl::sub(ktflow::driver::inspectCommand));

static cl::opt<bool>
    inspectJson("json",
                cl::desc("Print the bundle's metadata as one JSON object "
                         "(docs/json-output.md) instead of the listing"),
                cl::sub(ktflow::driver::inspectCommand));

int ktflow::driver::runInspect() {
  CrashPhase phase("inspect", inspectInput);
  auto program = rt::Program::loadFile(inspectInput);
  if (!program) {
    WithColor::error(errs(), "ktflow") << toString(program.takeError()) << "\n";
    return 1;
  }
  if (inspectJson) {
    ktflow::writeReport(
        outs(), ktflow::inspectReport(inspectInput, program->getBundle()));
    return 0;
  }
  outs() << inspectInput << ":\n";
  bundle::printBundle(outs(), program->getBundle());
  return 0;
}

//===- Bindings.h - Binding a kernel from command-line text -----*- C++ -*-===//
//
// This file declares how `ktflow interp` binds the interpreter from text:
// `--arg NAME=VALUE` scalars, `--input NAME=SPEC` tensor contents and
// `--output NAME=FILE.npy` files, with errors that quote the option as
// written, and how it prints and writes the outputs after the run.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_INTERPRETER_BINDINGS_H
#define KTFLOW_INTERPRETER_BINDINGS_H

#include "ktflow/Interpreter/Interpreter.h"

#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace ktflow::interp {

/// Binds every `NAME=VALUE` of `scalars` with setScalar, then every
/// `NAME=SPEC` of `inputs` (host::InputSpec::parse) with setInput, in
/// order. NAME is an SSA name, a position or (inputs) `@ADDR`. Errors quote
/// the option: "--arg n=x: 'n' expects an integer, got 'x'".
llvm::Error bindArguments(Interpreter &interpreter,
                          llvm::ArrayRef<std::string> scalars,
                          llvm::ArrayRef<std::string> inputs);

/// A tensor to write to a .npy file after the run.
struct OutputFile {
  /// An SSA name, a position or `@ADDR`.
  std::string name;
  std::string path;
};

/// Parses `NAME=FILE.npy` assignments, checking that every NAME but
/// `@ADDR` (whose memory exists only once the kernel has run) names an
/// argument of the selected function.
llvm::Expected<std::vector<OutputFile>>
parseOutputFiles(const Interpreter &interpreter,
                 llvm::ArrayRef<std::string> outputs);

/// Writes every file of `files` after the run.
llvm::Error writeOutputFiles(const Interpreter &interpreter,
                             llvm::ArrayRef<OutputFile> files);

/// Prints one host::printTensorSummary line per output after the run, then,
/// when the run charged intermediates to the scratchpad, their peak.
void printOutputs(llvm::raw_ostream &os, const Interpreter &interpreter);

} // namespace ktflow::interp

#endif // KTFLOW_INTERPRETER_BINDINGS_H

//===- InterpCommand.cpp - `ktflow interp` --------------------------------===//
//
// This file implements `ktflow interp KERNEL.mlir`: run a KTIR kernel on the
// reference interpreter and print one line per output tensor (every tensor
// argument, or literal-address memory, that a store wrote), optionally
// writing tensors to .npy files.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "ktflow/HostTensor/Npy.h"
#include "ktflow/Interpreter/Interpreter.h"
#include "ktflow/Registration/Registration.h"
#include "ktflow/Support/CrashRecovery.h"
#include "ktflow/Support/ModuleLoader.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"

#include <malloc.h>

using namespace llvm;
using ktflow::driver::interpCommand;

cl::SubCommand ktflow::driver::interpCommand(
    "interp", "Run a KTIR kernel on the reference interpreter and print its "
              "outputs");

static cl::opt<std::string> interpInput(cl::Positional, cl::Required,
                                        cl::desc("<kernel.mlir>"),
                                        cl::sub(interpCommand));
static cl::opt<std::string>
    interpFunc("func", cl::desc("Function to run (default: the kernel)"),
               cl::value_desc("NAME"), cl::sub(interpCommand));
static cl::list<std::string>
    interpArgs("arg",
               cl::desc("Value of a scalar or runtime_arg argument, by SSA "
                        "name or position"),
               cl::value_desc("NAME=VALUE"), cl::sub(interpCommand));
static cl::list<std::string> interpInputs(
    "input",
    cl::desc("Initial contents of a tensor argument: FILE.npy, random, "
             "randn, zeros, value:V, range:LO:HI or seq:LO:HI"),
    cl::value_desc("NAME=SPEC"), cl::sub(interpCommand));
static cl::list<std::string>
    interpOutputs("output", cl::desc("Write a tensor argument to a .npy file"),
                  cl::value_desc("NAME=FILE.npy"), cl::sub(interpCommand));
static cl::opt<uint64_t>
    interpSeed("seed", cl::desc("Seed of the random inputs (default 0)"),
               cl::init(0), cl::sub(interpCommand));
static cl::opt<int64_t> interpScratchpad(
    "scratchpad-bytes",
    cl::desc("Capacity of each tile's scratchpad (default 2 MiB); when "
             "given, each tile's live intermediate tensors must fit it too, "
             "each freed at its last use"),
    cl::init(2 << 20), cl::sub(interpCommand));

cl::ValuesClass ktflow::driver::numericsPolicyValues() {
  using ktflow::interp::NumericsPolicy;
  return cl::values(
      clEnumValN(NumericsPolicy::Accumulate, "accumulate",
                 "reductions hold 16-bit floats in f32 and round once per "
                 "output element (default)"),
      clEnumValN(NumericsPolicy::Strict, "strict",
                 "every op of a linalg body rounds to its own type"));
}

static cl::opt<ktflow::interp::NumericsPolicy> interpNumerics(
    "numerics", cl::desc("How reductions round 16-bit floats"),
    ktflow::driver::numericsPolicyValues(),
    cl::init(ktflow::interp::NumericsPolicy::Accumulate),
    cl::sub(interpCommand));

static cl::opt<uint64_t> interpMaxElementOps(
    "max-element-ops",
    cl::desc("Work budget: stop after this many element operations "
             "(default 2^34)"),
    cl::init(ktflow::interp::InterpreterOptions().maxElementOps),
    cl::sub(interpCommand));
static cl::opt<double> interpMaxSeconds(
    "max-seconds",
    cl::desc("Wall-clock budget in seconds, 0 for none (default 3600)"),
    cl::init(ktflow::interp::InterpreterOptions().maxSeconds),
    cl::sub(interpCommand));

static cl::opt<int64_t> interpMaxMemoryBytes(
    "max-memory-bytes", cl::init(0),
    cl::desc("Memory ceiling, in bytes of touched memory pages; 0 for half "
             "the machine's memory (the default)"),
    cl::sub(interpCommand));

static int fail(const Twine &message) {
  WithColor::error(errs(), "ktflow") << message << "\n";
  return 1;
}

static int fail(Error error) { return fail(toString(std::move(error))); }

/// Splits "NAME=VALUE", reporting `flag` on malformed input.
static std::optional<std::pair<StringRef, StringRef>>
splitAssignment(StringRef text, StringRef flag) {
  auto [name, value] = text.split('=');
  if (name.empty() || value.empty() || !text.contains('=')) {
    fail("--" + flag + " expects NAME=VALUE, got '" + text + "'");
    return std::nullopt;
  }
  return std::make_pair(name, value);
}

static void printTensorLine(StringRef name, const ktflow::host::Tensor &t) {
  ktflow::host::TensorStats stats = ktflow::host::computeStats(t);
  outs() << name << ": shape=" << ktflow::host::formatShape(t.shape)
         << " dtype=" << ktflow::host::dtypeName(t.dtype)
         << " min=" << format("%.6g", stats.min)
         << " max=" << format("%.6g", stats.max)
         << " mean=" << format("%.6g", stats.mean)
         << " checksum=" << format_hex(stats.checksum, 18);
  if (stats.nanCount)
    outs() << " nan=" << stats.nanCount;
  outs() << "\n";
}

int ktflow::driver::runInterp() {
  if (interpScratchpad <= 0)
    return fail("--scratchpad-bytes must be positive");
  if (!(interpMaxSeconds >= 0))
    return fail("--max-seconds must be a number of seconds, 0 for none");
  if (interpMaxMemoryBytes < 0)
    return fail("--max-memory-bytes must be a number of bytes, 0 for the "
                "default");
  // Every interpreted op allocates and frees tensors of up to megabytes:
  // keep freed memory in the heap instead of unmapping and faulting it back.
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  ModuleLoader loader(context);
  mlir::OwningOpRef<mlir::ModuleOp> module = loader.load(interpInput);
  if (!module)
    return 1;

  interp::InterpreterOptions options;
  options.scratchpadBytes = interpScratchpad;
  // Giving the capacity asks for the intermediates to fit it as well.
  options.chargeIntermediates = interpScratchpad.getNumOccurrences() > 0;
  options.seed = interpSeed;
  options.numerics = interpNumerics;
  options.maxElementOps = interpMaxElementOps;
  options.maxSeconds = interpMaxSeconds;
  options.maxMemoryBytes = interpMaxMemoryBytes;
  interp::Interpreter interpreter(*module, options);
  if (Error err = interpreter.selectFunction(interpFunc))
    return fail(std::move(err));
  if (ErrorOr<std::unique_ptr<MemoryBuffer>> source =
          MemoryBuffer::getFileOrSTDIN(interpInput))
    interpreter.recoverArgumentNames((*source)->getBuffer());

  for (const std::string &arg : interpArgs) {
    auto assignment = splitAssignment(arg, "arg");
    if (!assignment)
      return 1;
    if (Error err = interpreter.setScalar(assignment->first,
                                          assignment->second))
      return fail("--arg " + arg + ": " + toString(std::move(err)));
  }
  for (const std::string &input : interpInputs) {
    auto assignment = splitAssignment(input, "input");
    if (!assignment)
      return 1;
    Expected<host::InputSpec> spec = host::InputSpec::parse(assignment->second);
    if (!spec)
      return fail("--input " + input + ": " + toString(spec.takeError()));
    if (Error err = interpreter.setInput(assignment->first, std::move(*spec)))
      return fail("--input " + input + ": " + toString(std::move(err)));
  }
  SmallVector<std::pair<std::string, std::string>> outputFiles;
  for (const std::string &output : interpOutputs) {
    auto assignment = splitAssignment(output, "output");
    if (!assignment)
      return 1;
    if (!assignment->first.starts_with("@"))
      if (Expected<unsigned> position =
              interpreter.resolveArgument(assignment->first);
          !position)
        return fail("--output " + output + ": " +
                    toString(position.takeError()));
    outputFiles.push_back({assignment->first.str(), assignment->second.str()});
  }

  CrashPhase phase("interpret", interpInput);
  if (mlir::failed(interpreter.run()))
    return 1;

  for (const interp::OutputTensor &out : interpreter.getOutputs())
    printTensorLine(out.name, out.tensor);
  if (options.chargeIntermediates)
    outs() << "scratchpad: intermediates peak at "
           << interpreter.getStatistics().peakIntermediateBytes
           << " bytes on one tile, of " << options.scratchpadBytes << "\n";
  for (const auto &[name, path] : outputFiles) {
    Expected<host::Tensor> tensor = interpreter.getTensor(name);
    if (!tensor)
      return fail("--output " + name + ": " + toString(tensor.takeError()));
    if (Error err = host::writeNpyFile(path, *tensor))
      return fail(std::move(err));
  }
  return 0;
}

//===- InterpCommand.cpp - `ktflow interp` --------------------------------===//
//
// This file implements `ktflow interp KERNEL.mlir`: run a KTIR kernel on the
// reference interpreter, or its compiled tier (ktflow/CpuJit/Engine.h
// chooses), and print one line per output tensor (every tensor argument,
// or literal-address memory, that a store wrote), optionally writing
// tensors to .npy files.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "ktflow/CpuJit/Engine.h"
#include "ktflow/Interpreter/Bindings.h"
#include "ktflow/Registration/Registration.h"
#include "ktflow/Support/ModuleLoader.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/WithColor.h"

#include <malloc.h>

using namespace llvm;
using namespace ktflow;
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
    cl::desc("Initial contents of a tensor argument (NAME: its name or "
             "position; @ADDR: global memory at a literal address; "
             "lx<K>@ADDR: tile K's scratchpad there): FILE.npy, random, "
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

static cl::opt<jit::Engine> interpEngine(
    "engine", cl::desc("Which engine runs the kernel"),
    cl::values(clEnumValN(jit::Engine::Auto, "auto",
                          "the compiled tier where the kernel lowers, the "
                          "interpreter otherwise (default)"),
               clEnumValN(jit::Engine::Jit, "jit",
                          "the compiled tier (an error where the kernel "
                          "does not lower)"),
               clEnumValN(jit::Engine::Interp, "interp",
                          "the tree-walking interpreter")),
    cl::init(jit::Engine::Auto), cl::sub(interpCommand));

static cl::opt<bool>
    interpJson("json",
               cl::desc("Print one JSON object (docs/json-output.md) instead "
                        "of the output lines"),
               cl::sub(interpCommand));

static int fail(const Twine &message) {
  WithColor::error(errs(), "ktflow") << message << "\n";
  return 1;
}

static int fail(Error error) { return fail(toString(std::move(error))); }

/// The first option given that only the interpreter implements.
static std::string interpreterOnlyOption() {
  // The wall-clock budget, the accounting of intermediates and the initial
  // contents of scratchpads are the interpreter's (both engines keep the
  // work budget and the memory ceiling).
  if (interpMaxSeconds.getNumOccurrences())
    return "--max-seconds";
  if (interpScratchpad.getNumOccurrences())
    return "--scratchpad-bytes";
  // The compiled tier's scratchpads start as zeros.
  for (StringRef input : interpInputs) {
    StringRef name = input.split('=').first;
    auto scratchpad = interp::parseScratchpadInputName(name);
    if (!scratchpad)
      consumeError(scratchpad.takeError());
    else if (*scratchpad)
      return "--input " + name.str();
  }
  return "";
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
  if (Error err = interp::bindArguments(interpreter, interpArgs, interpInputs))
    return fail(std::move(err));
  auto outputFiles = interp::parseOutputFiles(interpreter, interpOutputs);
  if (!outputFiles)
    return fail(outputFiles.takeError());

  jit::EngineOptions engine;
  engine.engine = interpEngine;
  engine.explicitEngine = interpEngine.getNumOccurrences() > 0;
  engine.interpreterOnlyOption = interpreterOnlyOption();
  engine.numerics = interpNumerics;
  engine.input = interpInput;
  engine.json = interpJson;
  return jit::runOnEngine(*module, interpreter, engine, *outputFiles, outs());
}

//===- RunCommand.cpp - `ktflow run` --------------------------------------===//
//
// This file implements `ktflow run KERNEL [--arch DEVICE] [--input N=SPEC]
// [--arg N=V] [--check] [--trace FILE] [-O0] [--seed S]`: compile a KTIR
// kernel, emit its bundle, run it on the simulator and print cycles, the
// roofline lower bound, their ratio and per-unit utilisation; with
// `--check`, run the reference interpreter on the same inputs and compare
// every output within the reorder bound of its reductions plus one unit in
// the last place (ktflow/Check/Check.h).
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "ktflow/Analysis/WorkCount.h"
#include "ktflow/Check/Check.h"
#include "ktflow/Compiler/Compile.h"
#include "ktflow/Compiler/CompileToBundle.h"
#include "ktflow/Device/Roofline.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Interpreter/Interpreter.h"
#include "ktflow/Registration/Registration.h"
#include "ktflow/Runtime/Runtime.h"
#include "ktflow/Support/CrashRecovery.h"
#include "ktflow/Support/OutputFile.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"

#include <random>

using namespace llvm;
using namespace ktflow;
using namespace ktflow::check;
using ktflow::driver::runCommand;

cl::SubCommand ktflow::driver::runCommand(
    "run", "Compile a KTIR kernel, simulate it and optionally check it "
           "against the reference interpreter");

static cl::opt<std::string> runInput(cl::Positional, cl::Required,
                                     cl::desc("<kernel.mlir>"),
                                     cl::sub(runCommand));
static cl::opt<std::string>
    runArch("arch",
            cl::desc("Device description (default: the kernel's "
                     "ktdf_arch.target)"),
            cl::value_desc("file"), cl::sub(runCommand));
static cl::list<std::string> runInputs(
    "input",
    cl::desc("Contents of a tensor argument (by SSA name or position): "
             "FILE.npy, random, randn, zeros, value:V, range:LO:HI or "
             "seq:LO:HI (default random)"),
    cl::value_desc("NAME=SPEC"), cl::sub(runCommand));
static cl::list<std::string>
    runArgs("arg", cl::desc("Value of a runtime argument"),
            cl::value_desc("NAME=VALUE"), cl::sub(runCommand));
static cl::opt<bool>
    checkFlag("check",
             cl::desc("Compare every output with the reference interpreter"),
             cl::sub(runCommand));
static cl::opt<std::string>
    runTrace("trace", cl::desc("Write a Chrome-trace JSON timeline"),
             cl::value_desc("file"), cl::sub(runCommand));
static cl::opt<bool> runO0("O0", cl::desc("Compile with -O0"),
                           cl::sub(runCommand));
static cl::opt<interp::NumericsPolicy> runNumerics(
    "numerics",
    cl::desc("How the reference interpreter's reductions round 16-bit "
             "floats (with --check)"),
    driver::numericsPolicyValues(),
    cl::init(interp::NumericsPolicy::Accumulate), cl::sub(runCommand));
static cl::opt<uint64_t> runSeed("seed", cl::init(0),
                                 cl::desc("Seed of generated inputs"),
                                 cl::sub(runCommand));

static cl::opt<uint64_t> runMaxInstructions(
    "max-instructions", cl::init(sim::SimOptions().maxInstructions),
    cl::desc("Work budget of the simulation, in instruction steps (default "
             "2^28)"),
    cl::sub(runCommand));
static cl::opt<uint64_t> runMaxElementOps(
    "max-element-ops",
    cl::init(interp::InterpreterOptions().maxElementOps),
    cl::desc("Work budget of the reference interpreter (--check), in element "
             "operations (default 2^34)"),
    cl::sub(runCommand));
static cl::opt<double> runMaxSeconds(
    "max-seconds", cl::init(sim::SimOptions().maxSeconds),
    cl::desc("Wall-clock budget of the simulation and of the interpretation, "
             "each, in seconds; 0 for none (default 3600)"),
    cl::sub(runCommand));

static cl::opt<int64_t> runMaxMemoryBytes(
    "max-memory-bytes", cl::init(0),
    cl::desc("Memory ceiling of the reference interpreter (--check), in "
             "bytes of touched memory pages; 0 for half the machine's "
             "memory (the default)"),
    cl::sub(runCommand));

static int fail(const Twine &message) {
  WithColor::error(errs(), "ktflow") << message << "\n";
  return 1;
}

/// "NAME=VALUE" split, or an error naming `flag`.
static Expected<std::pair<StringRef, StringRef>> splitSpec(StringRef text,
                                                           StringRef flag) {
  auto [name, value] = text.split('=');
  if (name.empty() || value.empty())
    return createStringError("--%s expects NAME=VALUE, got '%s'",
                             flag.str().c_str(), text.str().c_str());
  return std::make_pair(name, value);
}

/// The interpreter's name of a bundle tensor: "argN" is argument N,
/// "litA" the memory at literal address A ("@A").
static std::string interpreterName(StringRef symbol) {
  if (symbol.consume_front("lit"))
    return "@" + symbol.str();
  symbol.consume_front("arg");
  return symbol.str();
}

int ktflow::driver::runRun() {
  if (!(runMaxSeconds >= 0))
    return fail("--max-seconds must be a number of seconds, 0 for none");
  if (runMaxMemoryBytes < 0)
    return fail("--max-memory-bytes must be a number of bytes, 0 for the "
                "default");
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  ModuleLoader loader(context);
  mlir::OwningOpRef<mlir::ModuleOp> module = loader.load(runInput);
  if (!module)
    return 1;
  // The interpreter runs the kernel as written.
  mlir::OwningOpRef<mlir::ModuleOp> reference = module->clone();
  interp::InterpreterOptions interpOptions;
  interpOptions.numerics = runNumerics;
  interpOptions.maxElementOps = runMaxElementOps;
  interpOptions.maxSeconds = runMaxSeconds;
  interpOptions.maxMemoryBytes = runMaxMemoryBytes;
  interp::Interpreter interpreter(*reference, interpOptions);
  if (Error e = interpreter.selectFunction())
    return fail(toString(std::move(e)));
  std::string sourceText;
  if (auto source = MemoryBuffer::getFileOrSTDIN(runInput))
    sourceText = (*source)->getBuffer().str();
  interpreter.recoverArgumentNames(sourceText);
  // What the interpreter is given, to give the reorder-bound runs too.
  ReferenceBindings bindings;

  // The operations the kernel performs, counted on its generalised form.
  mlir::OwningOpRef<mlir::ModuleOp> counted = module->clone();
  {
    CrashPhase phase("passes", runInput);
    mlir::PassManager pm(&context);
    pm.addPass(mlir::ktdf::createKTDFGeneralize());
    if (failed(pm.run(*counted)))
      return 1;
  }
  if (!runArch.empty() && failed(setTarget(*module, runArch, loader)))
    return 1;
  CompileOptions options;
  options.optimize = !runO0;
  mlir::FailureOr<CompiledBundle> compiled =
      compileToBundle(*module, options, runInput);
  if (failed(compiled))
    return 1;
  std::optional<CrashPhase> phase;
  phase.emplace("emit", runInput);
  auto program = rt::Program::loadBytes(bundle::writeBundle(compiled->bundle));
  if (!program)
    return fail(toString(program.takeError()));
  const bundle::Bundle &b = program->getBundle();
  rt::Launch launch(*program);

  // Runtime arguments go to both executions.
  for (StringRef spec : runArgs) {
    auto nv = splitSpec(spec, "arg");
    if (!nv)
      return fail(toString(nv.takeError()));
    auto position = interpreter.resolveArgument(nv->first);
    if (!position)
      return fail("--arg " + spec + ": " + toString(position.takeError()));
    int64_t value;
    if (nv->second.getAsInteger(10, value))
      return fail("--arg " + spec + ": expected an integer");
    if (Error e = interpreter.setScalar(nv->first, nv->second))
      return fail("--arg " + spec + ": " + toString(std::move(e)));
    bindings.scalars.push_back({nv->first.str(), nv->second.str()});
    std::string symbol = "arg" + std::to_string(*position);
    if (program->findRuntimeArg(symbol))
      if (Error e = launch.setRuntimeArg(symbol, value))
        return fail("--arg " + spec + ": " + toString(std::move(e)));
  }
  for (const bundle::RuntimeArg &arg : b.runtimeArgs) {
    unsigned position = 0;
    StringRef symbol = arg.name;
    bool bound = llvm::any_of(runArgs, [&](StringRef spec) {
      auto position = interpreter.resolveArgument(spec.split('=').first);
      if (!position) {
        consumeError(position.takeError());
        return false;
      }
      return "arg" + std::to_string(*position) == symbol;
    });
    if (!bound && symbol.starts_with("arg") &&
        !symbol.drop_front(3).getAsInteger(10, position) &&
        position < interpreter.getArguments().size()) {
      std::string name = interpreter.getArguments()[position].name;
      return fail("runtime argument '" + name + "' needs --arg " + name +
                  "=VALUE (a multiple of " + std::to_string(arg.granularity) +
                  ", at most " + std::to_string(arg.upperbound) + ")");
    }
  }
  StringMap<std::string> specs;
  for (StringRef spec : runInputs) {
    auto nv = splitSpec(spec, "input");
    if (!nv)
      return fail(toString(nv.takeError()));
    if (nv->first.starts_with("@")) {
      specs["lit" + nv->first.drop_front().str()] = nv->second.str();
      continue;
    }
    auto position = interpreter.resolveArgument(nv->first);
    if (!position)
      return fail("--input " + spec + ": " + toString(position.takeError()));
    specs["arg" + std::to_string(*position)] = nv->second.str();
  }

  // Inputs are generated once and given to both executions.
  std::mt19937_64 rng(runSeed);
  // An output starts as zeros unless --input gives its initial contents
  // (which the rows a kernel does not write keep).
  for (uint32_t t = 0; t < b.tensors.size(); ++t) {
    StringRef name = b.tensors[t].name;
    std::string spec = specs.lookup(name);
    if (b.tensors[t].role == bundle::TensorRole::Output && spec.empty())
      continue;
    auto shape = launch.getShape(t);
    if (!shape)
      return fail(toString(shape.takeError()));
    auto tensor = makeTensor(spec.empty() ? "random" : spec,
                             b.tensors[t].elem, *shape, rng);
    if (!tensor)
      return fail("input '" + name + "': " + toString(tensor.takeError()));
    if (Error e = launch.setTensor(t, toBytes(*tensor, b.tensors[t].elem)))
      return fail(toString(std::move(e)));
    interp::InputSpec input = interp::InputSpec::fromTensor(*tensor);
    if (Error e = interpreter.setInput(interpreterName(name), input))
      return fail("input '" + name + "': " + toString(std::move(e)));
    bindings.inputs.push_back({interpreterName(name), input});
  }

  phase.emplace("simulate", runInput);
  sim::SimOptions simOptions;
  simOptions.maxInstructions = runMaxInstructions;
  simOptions.maxSeconds = runMaxSeconds;
  simOptions.recordTrace = !runTrace.empty();
  std::vector<sim::TraceEvent> trace;
  auto stats = launch.run(simOptions, &trace);
  if (!stats)
    return fail("simulation failed: " + toString(stats.takeError()));

  device::Roofline roofline(compiled->device);
  RooflineBound bound = computeRoofline(b, launch, roofline);
  DenseMap<unsigned, int64_t> argValues;
  for (StringRef spec : runArgs) {
    auto [name, value] = spec.split('=');
    int64_t v;
    auto position = interpreter.resolveArgument(name);
    if (!position) {
      consumeError(position.takeError());
      continue;
    }
    if (!value.getAsInteger(10, v))
      argValues[*position] = v;
  }
  WorkCount work;
  for (auto func : counted->getOps<mlir::func::FuncOp>())
    if (func->hasAttr("grid"))
      work = countWork(func, argValues);
  double computeCycles = work.cycles(roofline);
  double memoryCycles = bound.cycles;
  bound.cycles = std::max(memoryCycles, computeCycles);
  outs() << "kernel " << b.kernel << " on " << b.device
         << (runO0 ? " (-O0)" : "") << "\n";
  sim::printStats(outs(), b.machine, launch.getExecutable(), *stats);
  outs() << "roofline: " << format("%.0f", bound.cycles) << " cycles ("
         << bound.bytes << " bytes of device memory at "
         << format("%g", bound.bytesPerCycle) << " B/cycle: "
         << format("%.0f", memoryCycles) << " cycles; "
         << format("%.0f", work.total()) << " operations at the compute "
         << "peaks: " << format("%.0f", computeCycles) << " cycles"
         << (work.complete ? "" : ", some loops not counted") << ")\n";
  outs() << "ratio: "
         << format("%.2f", bound.cycles > 0 ? stats->cycles / bound.cycles : 0)
         << "x the roofline\n";

  if (!runTrace.empty())
    if (Error e = writeOutputFile(
            runTrace,
            [&](raw_ostream &os) {
              sim::writeChromeTrace(os, b.machine, launch.getExecutable(),
                                    *stats, trace);
            },
            sys::fs::OF_Text))
      return fail(toString(std::move(e)));
  if (!checkFlag)
    return 0;

  phase.emplace("interpret", runInput);
  if (failed(interpreter.run()))
    return fail("the reference interpreter failed");
  std::vector<uint32_t> checked;
  std::vector<std::string> names;
  std::vector<interp::Tensor> expected;
  for (uint32_t t = 0; t < b.tensors.size(); ++t) {
    if (b.tensors[t].role == bundle::TensorRole::Input)
      continue;
    auto tensor = interpreter.getTensor(interpreterName(b.tensors[t].name));
    if (!tensor)
      return fail("cannot read output '" + b.tensors[t].name +
                  "': " + toString(tensor.takeError()));
    checked.push_back(t);
    names.push_back(interpreterName(b.tensors[t].name));
    expected.push_back(std::move(*tensor));
  }
  auto bounds = computeReorderBounds(*reference, sourceText, interpOptions,
                                     bindings, names, expected);
  if (!bounds)
    return fail("reorder bounds: " + toString(bounds.takeError()));
  bool allPass = true;
  for (auto [i, t] : llvm::enumerate(checked)) {
    StringRef name = b.tensors[t].name;
    auto bytes = launch.readTensor(t);
    auto shape = launch.getShape(t);
    if (!bytes || !shape)
      return fail("cannot read output '" + name + "'");
    CheckResult result = compareOutput(expected[i], *bytes, b.tensors[t].elem,
                                       *shape, (*bounds)[i]);
    unsigned position = 0;
    std::string label = name.starts_with("lit") ? interpreterName(name)
                                                : name.str();
    if (name.starts_with("arg") &&
        !name.drop_front(3).getAsInteger(10, position) &&
        position < interpreter.getArguments().size() &&
        !interpreter.getArguments()[position].name.empty())
      label = interpreter.getArguments()[position].name;
    outs() << "check " << label << ": "
           << result.summary << (result.pass ? " PASS" : " FAIL") << "\n";
    allPass &= result.pass;
  }
  outs() << (allPass ? "PASS" : "FAIL") << "\n";
  return allPass ? 0 : 1;
}

//===- SimCommand.cpp - `ktflow sim` --------------------------------------===//
//
// This file implements `ktflow sim BUNDLE [--arch DEVICE] [--arg N=V ...]
// [--input NAME=FILE.npy|random|randn|zeros|range:LO:HI|seq:LO:HI|value:V ...]
// [--output NAME=FILE.npy ...] [--print NAME ...] [--trace FILE]`: launch a
// program bundle on the cycle-level simulator through the runtime, then
// print cycles and per-unit statistics and write or print the outputs.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "ktflow/Check/Check.h"
#include "ktflow/Interpreter/Npy.h"
#include "ktflow/Machine/FromDevice.h"
#include "ktflow/Machine/Values.h"
#include "ktflow/Registration/Registration.h"
#include "ktflow/Runtime/Runtime.h"
#include "ktflow/Support/CrashRecovery.h"
#include "ktflow/Support/OutputFile.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/WithColor.h"

#include <random>

using namespace llvm;
using namespace ktflow;

cl::SubCommand ktflow::driver::simCommand(
    "sim", "Run a program bundle on the cycle-level simulator");

static cl::opt<std::string> simInput(cl::Positional, cl::Required,
                                     cl::desc("<bundle>"),
                                     cl::sub(ktflow::driver::simCommand));
static cl::opt<std::string>
    simArch("arch",
            cl::desc("Refuse to run unless the bundle was built for this "
                     "device description"),
            cl::value_desc("file"), cl::sub(ktflow::driver::simCommand));
static cl::list<std::string>
    simInputs("input",
              cl::desc("NAME=FILE.npy|random|randn|zeros|range:LO:HI|"
                       "seq:LO:HI|value:V"),
              cl::value_desc("spec"), cl::sub(ktflow::driver::simCommand));
static cl::list<std::string>
    simOutputs("output", cl::desc("NAME=FILE.npy: write a tensor after the run"),
               cl::value_desc("spec"), cl::sub(ktflow::driver::simCommand));
static cl::list<std::string>
    simArgs("arg", cl::desc("NAME=VALUE: bind a runtime argument"),
            cl::value_desc("spec"), cl::sub(ktflow::driver::simCommand));
static cl::list<std::string>
    simPrint("print", cl::desc("Print every element of a tensor after the run"),
             cl::value_desc("name"), cl::sub(ktflow::driver::simCommand));
static cl::opt<std::string>
    simTrace("trace", cl::desc("Write a Chrome-trace JSON timeline"),
             cl::value_desc("file"), cl::sub(ktflow::driver::simCommand));
static cl::opt<uint64_t> simSeed("seed", cl::init(0),
                                 cl::desc("Seed of random inputs"),
                                 cl::sub(ktflow::driver::simCommand));
static cl::opt<uint64_t> simMaxInstructions(
    "max-instructions", cl::init(sim::SimOptions().maxInstructions),
    cl::desc("Work budget: stop after this many simulated instruction steps "
             "(default 2^28)"),
    cl::sub(ktflow::driver::simCommand));
static cl::opt<double> simMaxSeconds(
    "max-seconds", cl::init(sim::SimOptions().maxSeconds),
    cl::desc("Wall-clock budget in seconds, 0 for none (default 3600)"),
    cl::sub(ktflow::driver::simCommand));

static int fail(const Twine &message) {
  WithColor::error(errs(), "ktflow") << message << "\n";
  return 1;
}

/// The bytes of input `name` (of `elem` and `shape`) as `spec` describes,
/// generated as `ktflow run` generates them.
static Expected<std::vector<uint8_t>> makeInput(StringRef name, StringRef spec,
                                                machine::ElemType elem,
                                                ArrayRef<int64_t> shape,
                                                std::mt19937_64 &rng) {
  Expected<interp::Tensor> tensor = check::makeTensor(spec, elem, shape, rng);
  if (!tensor)
    return createStringError("input '%s': %s", name.str().c_str(),
                             toString(tensor.takeError()).c_str());
  return check::toBytes(*tensor, elem);
}

static std::pair<StringRef, StringRef> splitSpec(StringRef spec) {
  return spec.split('=');
}

int ktflow::driver::runSim() {
  CrashPhase phase("simulate", simInput);
  if (!(simMaxSeconds >= 0))
    return fail("--max-seconds must be a number of seconds, 0 for none");
  auto program = rt::Program::loadFile(simInput);
  if (!program)
    return fail(toString(program.takeError()));
  const bundle::Bundle &b = program->getBundle();
  if (!simArch.empty()) {
    mlir::DialectRegistry registry;
    registerAllDialects(registry);
    mlir::MLIRContext context(registry);
    ModuleLoader loader(context);
    mlir::FailureOr<machine::Machine> machine =
        machine::loadMachine(loader, simArch);
    if (failed(machine))
      return 1;
    if (Error e = program->checkDevice(*machine))
      return fail(simInput + ": " + toString(std::move(e)));
  }

  rt::Launch launch(*program);
  for (StringRef spec : simArgs) {
    auto [name, value] = splitSpec(spec);
    int64_t v;
    if (value.getAsInteger(10, v))
      return fail("--arg expects NAME=INTEGER, got '" + spec + "'");
    if (Error e = launch.setRuntimeArg(name, v))
      return fail(toString(std::move(e)));
  }
  std::mt19937_64 rng(simSeed);
  std::vector<bool> given(b.tensors.size(), false);
  for (StringRef spec : simInputs) {
    auto [name, what] = splitSpec(spec);
    auto t = program->findTensor(name);
    if (!t || what.empty())
      return fail(!t ? "the kernel has no tensor '" + name + "'"
                     : "--input expects NAME=SPEC, got '" + spec + "'");
    auto shape = launch.getShape(*t);
    if (!shape)
      return fail(toString(shape.takeError()));
    auto bytes = makeInput(name, what, b.tensors[*t].elem, *shape, rng);
    if (!bytes)
      return fail(toString(bytes.takeError()));
    if (Error e = launch.setTensor(*t, *bytes))
      return fail(toString(std::move(e)));
    given[*t] = true;
  }
  for (size_t t = 0; t < b.tensors.size(); ++t)
    if (!given[t] && b.tensors[t].role != bundle::TensorRole::Output)
      return fail("input tensor '" + b.tensors[t].name +
                  "' needs --input " + b.tensors[t].name +
                  "=FILE.npy|random|zeros");
  for (StringRef list : {"output", "print"})
    for (StringRef spec : list == "output" ? simOutputs : simPrint) {
      StringRef name = list == "output" ? splitSpec(spec).first : spec;
      if (!program->findTensor(name))
        return fail("--" + list + ": the kernel has no tensor '" + name + "'");
    }

  sim::SimOptions options;
  options.maxInstructions = simMaxInstructions;
  options.maxSeconds = simMaxSeconds;
  options.recordTrace = !simTrace.empty();
  std::vector<sim::TraceEvent> trace;
  auto stats = launch.run(options, &trace);
  if (!stats)
    return fail(simInput + ": simulation failed: " +
                toString(stats.takeError()));
  outs() << "kernel " << b.kernel << " on " << b.device << "\n";
  sim::printStats(outs(), b.machine, launch.getExecutable(), *stats);

  for (StringRef spec : simOutputs) {
    auto [name, path] = splitSpec(spec);
    uint32_t t = *program->findTensor(name);
    auto bytes = launch.readTensor(t);
    auto shape = launch.getShape(t);
    if (!bytes || !shape)
      return fail(!bytes ? toString(bytes.takeError())
                         : toString(shape.takeError()));
    if (Error e = interp::writeNpyFile(
            path, check::fromBytes(*bytes, b.tensors[t].elem, *shape)))
      return fail(toString(std::move(e)));
  }
  for (StringRef name : simPrint) {
    uint32_t t = *program->findTensor(name);
    auto bytes = launch.readTensor(t);
    if (!bytes)
      return fail(toString(bytes.takeError()));
    machine::ElemType elem = b.tensors[t].elem;
    unsigned width = machine::elemBytes(elem);
    outs() << name << " =";
    for (size_t i = 0; i < bytes->size() / width; ++i) {
      if (i % 16 == 0)
        outs() << "\n ";
      outs() << " " << machine::loadElement(elem, bytes->data() + i * width);
    }
    outs() << "\n";
  }
  if (!simTrace.empty())
    if (Error e = writeOutputFile(
            simTrace,
            [&](raw_ostream &os) {
              sim::writeChromeTrace(os, b.machine, launch.getExecutable(),
                                    *stats, trace);
            },
            sys::fs::OF_Text))
      return fail(toString(std::move(e)));
  return 0;
}

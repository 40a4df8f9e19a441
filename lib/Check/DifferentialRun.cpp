//===- DifferentialRun.cpp - A simulated run and its reference ------------===//
//
// This file binds a launch of a bundle and the reference interpreter to the
// same arguments and inputs, bounds the kernel's cycles (its roofline) and
// compares the outputs: what `ktflow run` does between compiling and printing.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Check/DifferentialRun.h"
#include "ktflow/Check/LaunchBinding.h"

#include "ktflow/Analysis/KernelDemand.h"
#include "ktflow/Support/Assignment.h"
#include "ktflow/Support/CrashRecovery.h"

#include "llvm/Support/MemoryBuffer.h"

#include <random>

using namespace llvm;
using namespace ktflow;
using namespace ktflow::check;

/// `message` prefixed by the assignment it is about.
static Error about(StringRef flag, StringRef spec, const Twine &message) {
  return createStringError("--" + flag + " " + spec + ": " + message);
}

/// The interpreter's name of a bundle tensor: "argN" is argument N,
/// "litA" the memory at literal address A ("@A").
static std::string interpreterName(StringRef symbol) {
  if (symbol.consume_front("lit"))
    return "@" + symbol.str();
  symbol.consume_front("arg");
  return symbol.str();
}

Expected<std::unique_ptr<DifferentialRun>>
DifferentialRun::create(mlir::ModuleOp module, StringRef sourcePath,
                        const interp::InterpreterOptions &options,
                        StringRef function) {
  std::unique_ptr<DifferentialRun> run(new DifferentialRun);
  run->reference = module.clone();
  if (auto buffer = MemoryBuffer::getFileOrSTDIN(sourcePath))
    run->source = (*buffer)->getBuffer().str();
  run->options = options;
  run->interpreter =
      std::make_unique<interp::Interpreter>(*run->reference, options);
  if (Error e = run->interpreter->selectFunction(function))
    return std::move(e);
  run->bindings.function = function.str();
  run->interpreter->recoverArgumentNames(run->source);
  return run;
}

DifferentialRun::~DifferentialRun() = default;

Error DifferentialRun::load(const bundle::Bundle &bundle) {
  auto loaded = rt::Program::loadBytes(bundle::writeBundle(bundle));
  if (!loaded)
    return loaded.takeError();
  program.emplace(std::move(*loaded));
  launch = std::make_unique<rt::Launch>(*program);
  return Error::success();
}

Error DifferentialRun::bind(const bundle::Bundle &bundle,
                            ArrayRef<std::string> arguments,
                            ArrayRef<std::string> inputs, uint64_t seed) {
  if (Error e = load(bundle))
    return e;
  if (Error e = bindArguments(arguments))
    return e;
  return bindInputs(inputs, seed);
}

Error DifferentialRun::bindArguments(ArrayRef<std::string> assignments) {
  for (StringRef spec : assignments) {
    auto nv = parseAssignment(spec, "arg");
    if (!nv)
      return nv.takeError();
    auto position = interpreter->resolveArgument(nv->name);
    if (!position)
      return about("arg", spec, toString(position.takeError()));
    int64_t value;
    if (nv->value.getAsInteger(10, value))
      return about("arg", spec, "expected an integer");
    if (Error e = interpreter->setScalar(nv->name, nv->value))
      return about("arg", spec, toString(std::move(e)));
    bindings.scalars.push_back({nv->name.str(), nv->value.str()});
    argValues[*position] = value;
    std::string symbol = "arg" + std::to_string(*position);
    if (program->findRuntimeArg(symbol))
      if (Error e = launch->setRuntimeArg(symbol, value))
        return about("arg", spec, toString(std::move(e)));
  }
  ArrayRef<interp::ArgumentInfo> arguments = interpreter->getArguments();
  for (const bundle::RuntimeArg &arg : program->getBundle().runtimeArgs) {
    unsigned position = 0;
    StringRef symbol = arg.name;
    bool bound = llvm::any_of(argValues, [&](auto &bound) {
      return "arg" + std::to_string(bound.first) == symbol;
    });
    if (!bound && symbol.starts_with("arg") &&
        !symbol.drop_front(3).getAsInteger(10, position) &&
        position < arguments.size()) {
      const std::string &name = arguments[position].name;
      if (arg.lowerbound != 1)
        return createStringError("scalar argument '%s' needs --arg %s=VALUE",
                                 name.c_str(), name.c_str());
      return createStringError(
          "runtime argument '%s' needs --arg %s=VALUE (a multiple of %lld, at "
          "most %lld)",
          name.c_str(), name.c_str(), (long long)arg.granularity,
          (long long)arg.upperbound);
    }
  }
  return Error::success();
}

Error DifferentialRun::bindInputs(ArrayRef<std::string> assignments,
                                  uint64_t seed) {
  StringMap<std::string> specs;
  for (StringRef spec : assignments) {
    auto nv = parseAssignment(spec, "input");
    if (!nv)
      return nv.takeError();
    if (nv->name.starts_with("@")) {
      specs["lit" + nv->name.drop_front().str()] = nv->value.str();
      continue;
    }
    auto position = interpreter->resolveArgument(nv->name);
    if (!position)
      return about("input", spec, toString(position.takeError()));
    specs["arg" + std::to_string(*position)] = nv->value.str();
  }
  // Inputs are generated once and given to both executions.
  std::mt19937_64 rng(seed);
  const bundle::Bundle &b = program->getBundle();
  for (uint32_t t = 0; t < b.tensors.size(); ++t) {
    StringRef name = b.tensors[t].name;
    std::string spec = specs.lookup(name);
    if (b.tensors[t].role == bundle::TensorRole::Output && spec.empty())
      continue;
    auto shape = launch->getShape(t);
    if (!shape)
      return shape.takeError();
    auto tensor = makeTensor(spec.empty() ? "random" : spec, b.tensors[t].elem,
                             *shape, rng);
    if (!tensor)
      return createStringError("input '" + name +
                               "': " + toString(tensor.takeError()));
    if (Error e = launch->setTensor(t, toBytes(*tensor, b.tensors[t].elem)))
      return e;
    host::InputSpec input = host::InputSpec::fromTensor(*tensor);
    if (Error e = interpreter->setInput(interpreterName(name), input))
      return createStringError("input '" + name +
                               "': " + toString(std::move(e)));
    bindings.inputs.push_back({interpreterName(name), input});
  }
  return Error::success();
}

Expected<sim::SimStats>
DifferentialRun::simulate(const sim::SimOptions &options) {
  auto stats = launch->run(options, &trace);
  if (!stats)
    return createStringError("simulation failed: " +
                             toString(stats.takeError()));
  return stats;
}

Error DifferentialRun::writeTrace(StringRef path, const sim::SimStats &stats) {
  return check::writeTrace(path, *program, *launch, stats, trace);
}

device::RooflineBound
DifferentialRun::computeRoofline(const device::DeviceModel &device,
                                 device::NodeId deviceMemory) const {
  device::KernelDemand demand;
  if (mlir::func::FuncOp kernel = findKernel(*reference, bindings.function))
    demand = countKernelDemand(kernel, argValues);
  else
    demand.addGap("the kernel (the module has no single kernel function)");
  device::Roofline roofline(device);
  return device::computeRooflineBound(device, roofline, deviceMemory, demand);
}

Expected<std::vector<OutputCheck>> DifferentialRun::checkOutputs() {
  if (failed(interpreter->run()))
    return createStringError("the reference interpreter failed");
  const bundle::Bundle &b = program->getBundle();
  std::vector<uint32_t> checked;
  std::vector<std::string> names;
  std::vector<host::Tensor> expected;
  for (uint32_t t = 0; t < b.tensors.size(); ++t) {
    if (b.tensors[t].role == bundle::TensorRole::Input)
      continue;
    auto tensor = interpreter->getTensor(interpreterName(b.tensors[t].name));
    if (!tensor)
      return createStringError("cannot read output '" + b.tensors[t].name +
                               "': " + toString(tensor.takeError()));
    checked.push_back(t);
    names.push_back(interpreterName(b.tensors[t].name));
    expected.push_back(std::move(*tensor));
  }
  auto bounds = computeReorderBounds(*reference, source, options, bindings,
                                     names, expected);
  if (!bounds)
    return createStringError("reorder bounds: " + toString(bounds.takeError()));
  ArrayRef<interp::ArgumentInfo> arguments = interpreter->getArguments();
  std::vector<OutputCheck> results;
  for (auto [i, t] : llvm::enumerate(checked)) {
    StringRef name = b.tensors[t].name;
    auto bytes = launch->readTensor(t);
    auto shape = launch->getShape(t);
    if (!bytes || !shape) {
      consumeError(bytes.takeError());
      consumeError(shape.takeError());
      return createStringError("cannot read output '" + name + "'");
    }
    OutputCheck check;
    check.tensor = t;
    check.result = compareOutput(expected[i], *bytes, b.tensors[t].elem, *shape,
                                 (*bounds)[i]);
    unsigned position = 0;
    check.label = name.starts_with("lit") ? interpreterName(name) : name.str();
    if (name.starts_with("arg") &&
        !name.drop_front(3).getAsInteger(10, position) &&
        position < arguments.size() && !arguments[position].name.empty())
      check.label = arguments[position].name;
    results.push_back(std::move(check));
  }
  return results;
}

bool ktflow::check::printChecks(raw_ostream &os, ArrayRef<OutputCheck> checks) {
  bool allPass = true;
  for (const OutputCheck &check : checks) {
    os << "check " << check.label << ": " << check.result.summary
       << (check.result.pass ? " PASS" : " FAIL") << "\n";
    allPass &= check.result.pass;
  }
  os << (allPass ? "PASS" : "FAIL") << "\n";
  return allPass;
}

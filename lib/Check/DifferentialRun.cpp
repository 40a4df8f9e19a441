//===- DifferentialRun.cpp - A simulated run and its reference ------------===//
//
// This file binds a launch of a bundle and the reference interpreter to the
// same arguments and inputs, bounds the kernel's cycles (its roofline) and
// compares the outputs: what `ktflow run` does between compiling and printing.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Check/DifferentialRun.h"
#include "ktflow/Check/LaunchBinding.h"
#include "ktflow/Check/ReferenceCache.h"

#include "ktflow/Analysis/KernelDemand.h"
#include "ktflow/Support/Assignment.h"

#include "mlir/IR/Diagnostics.h"

#include <cstring>
#include <map>
#include <memory>

using namespace llvm;
using namespace ktflow;
using namespace ktflow::check;

/// `message` prefixed by the assignment it is about.
static Error about(StringRef flag, StringRef spec, const Twine &message) {
  return createStringError("--" + flag + " " + spec + ": " + message);
}

/// The interpreter's name of a bundle tensor: the position of its argument,
/// else the kernel's name: `@ADDR` at a literal address, `lx<K>@ADDR` in
/// tile K's scratchpad (only tensors of arguments have source names).
static std::string interpreterName(const bundle::TensorArg &tensor) {
  if (tensor.argument != bundle::kNoArg)
    return std::to_string(tensor.argument);
  return bundle::getKernelName(tensor);
}

/// The element address of a bundle tensor at a literal address of device
/// memory (not an argument's, not in a tile's scratchpad), if it is one.
static std::optional<int64_t>
literalDeviceAddress(const bundle::TensorArg &tensor) {
  if (tensor.argument != bundle::kNoArg || !tensor.address || tensor.tile)
    return std::nullopt;
  return static_cast<int64_t>(*tensor.address);
}

Expected<std::unique_ptr<DifferentialRun>>
DifferentialRun::create(mlir::ModuleOp module,
                        const interp::InterpreterOptions &options,
                        StringRef function) {
  std::unique_ptr<DifferentialRun> run(new DifferentialRun);
  run->reference = module.clone();
  run->options = options;
  run->interpreter =
      std::make_unique<interp::Interpreter>(*run->reference, options);
  if (Error e = run->interpreter->selectFunction(function))
    return std::move(e);
  run->bindings.function = function.str();
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
    std::optional<uint32_t> index =
        program->findRuntimeArgOfArgument(*position);
    bool isFloat = index && program->getBundle().runtimeArgs[*index].floatType;
    // Float scalars (a norm's epsilon) feed compute only; the interpreter
    // and the runtime read the text alike (FloatArgument.h).
    int64_t value = 0;
    if (!isFloat && nv->value.getAsInteger(10, value))
      return about("arg", spec, "expected an integer");
    if (Error e = interpreter->setScalar(nv->name, nv->value))
      return about("arg", spec, toString(std::move(e)));
    bindings.scalars.push_back({nv->name.str(), nv->value.str()});
    if (index)
      if (Error e = launch->bindRuntimeArg(*index, nv->value))
        return about("arg", spec, toString(std::move(e)));
    if (isFloat)
      floatArgs.insert(*position);
    else
      argValues[*position] = value;
  }
  ArrayRef<interp::ArgumentInfo> arguments = interpreter->getArguments();
  for (const bundle::RuntimeArg &arg : program->getBundle().runtimeArgs) {
    if (!argValues.count(arg.argument) && !floatArgs.count(arg.argument) &&
        arg.argument < arguments.size()) {
      const std::string &name = arguments[arg.argument].name;
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
  auto inputs = parseInputs(assignments);
  if (!inputs)
    return inputs.takeError();
  return bindInputs(*inputs, seed);
}

Expected<std::vector<NamedInput>>
DifferentialRun::parseInputs(ArrayRef<std::string> assignments) const {
  std::vector<NamedInput> inputs;
  for (StringRef spec : assignments) {
    auto nv = parseAssignment(spec, "input");
    if (!nv)
      return nv.takeError();
    auto scratchpad = interp::parseScratchpadInputName(nv->name);
    if (!scratchpad)
      return about("input", spec, toString(scratchpad.takeError()));
    if (!nv->name.starts_with("@") && !*scratchpad)
      if (auto position = interpreter->resolveArgument(nv->name); !position)
        return about("input", spec, toString(position.takeError()));
    inputs.push_back({nv->name.str(), nv->value.str(), std::nullopt});
  }
  return inputs;
}

Error DifferentialRun::bindInputs(ArrayRef<NamedInput> inputs, uint64_t seed) {
  // The input of each tensor given one; an input for a tensor the bundle
  // does not have (an argument or address no view reads) has no effect.
  DenseMap<uint32_t, const NamedInput *> specs;
  for (const NamedInput &input : inputs) {
    StringRef name = input.name;
    std::optional<uint32_t> tensor;
    auto scratchpad = interp::parseScratchpadInputName(name);
    if (!scratchpad)
      return scratchpad.takeError();
    if (*scratchpad || name.starts_with("@")) {
      tensor = program->findTensor(name);
    } else {
      auto position = interpreter->resolveArgument(name);
      if (!position)
        return createStringError("input '" + name +
                                 "': " + toString(position.takeError()));
      tensor = program->findTensorOfArgument(*position);
    }
    if (tensor)
      specs[*tensor] = &input;
  }
  // Inputs are generated once and given to both executions, each tensor
  // from its own stream: the values `ktflow interp --seed` draws.
  const bundle::Bundle &b = program->getBundle();
  indexDefaults.clear();
  for (uint32_t t = 0; t < b.tensors.size(); ++t) {
    std::string name = bundle::getKernelName(b.tensors[t]);
    const NamedInput *input = specs.lookup(t);
    auto shape = launch->getShape(t);
    if (!shape)
      return shape.takeError();
    if (b.tensors[t].role == bundle::TensorRole::Output && !input) {
      // Read back whole for the check: refused here, before the simulator
      // backs it and runs (a 2^32-element output took minutes, one of
      // 2^34 ran out of memory; mutation campaign, issue 17).
      if (Error e = checkHostTensorSize(*shape))
        return createStringError("output '" + name +
                                 "': " + toString(std::move(e)));
      continue;
    }
    std::optional<host::InputSpec> indices;
    if (!input)
      indices = indexDefault(b.tensors[t]);
    if (Expected<bool> lazy = bindGeneratedInput(t, input, *shape); !lazy)
      return createStringError("input '" + name +
                               "': " + toString(lazy.takeError()));
    else if (*lazy)
      continue;
    machine::ElemType elem = b.tensors[t].elem;
    host::InputIdentity who = inputIdentity(b.tensors[t]);
    auto tensor =
        indices  ? makeTensor(*indices, indices->str(), elem, *shape, seed, who)
        : !input ? makeTensor("random", elem, *shape, seed, who)
        : input->data
            ? makeTensor(*input->data, input->text, elem, *shape, seed, who)
            : makeTensor(input->text, elem, *shape, seed, who);
    if (!tensor)
      return createStringError("input '" + name +
                               "': " + toString(tensor.takeError()));
    if (Error e = launch->setTensor(t, toBytes(*tensor, b.tensors[t].elem)))
      return e;
    host::InputSpec data = host::InputSpec::fromTensor(std::move(*tensor));
    if (Error e = interpreter->setInput(interpreterName(b.tensors[t]), data))
      return createStringError("input '" + name +
                               "': " + toString(std::move(e)));
    bindings.inputs.push_back({interpreterName(b.tensors[t]), data});
  }
  return Error::success();
}

std::optional<host::InputSpec>
DifferentialRun::indexDefault(const bundle::TensorArg &tensor) {
  ArrayRef<interp::ArgumentInfo> arguments = interpreter->getArguments();
  const IndexTensorUse *use = nullptr;
  host::InputSpec spec;
  if (tensor.argument < arguments.size() && arguments[tensor.argument].index) {
    use = &*arguments[tensor.argument].index;
    spec = interpreter->getInputSpec(tensor.argument);
  } else if (std::optional<int64_t> address = literalDeviceAddress(tensor)) {
    const std::map<int64_t, IndexTensorUse> &literals =
        interpreter->getLiteralIndexTensors();
    auto it = literals.find(*address);
    if (it == literals.end())
      return std::nullopt;
    use = &it->second;
    spec = interpreter->getLiteralInputSpec(it->first);
  } else {
    return std::nullopt;
  }
  IndexDefault chosen;
  chosen.name = bundle::getKernelName(tensor);
  chosen.spec = spec.str();
  if (use->indexedArgument) {
    const interp::ArgumentInfo &indexed = arguments[*use->indexedArgument];
    chosen.indexed =
        indexed.name.empty() ? std::to_string(indexed.position) : indexed.name;
  } else if (use->indexedAddress) {
    chosen.indexed = "@" + std::to_string(*use->indexedAddress);
  }
  chosen.dimension = use->dimension;
  chosen.scatter = use->scatter;
  indexDefaults.push_back(std::move(chosen));
  return spec;
}

bool DifferentialRun::generatesLazily(ArrayRef<int64_t> shape) {
  uint64_t elements = 1;
  for (int64_t d : shape)
    if (__builtin_mul_overflow(elements, static_cast<uint64_t>(d), &elements))
      return true;
  return elements > kLazyInputElements;
}

Expected<bool> DifferentialRun::bindGeneratedInput(uint32_t t,
                                                   const NamedInput *input,
                                                   ArrayRef<int64_t> shape) {
  const bundle::TensorArg &tensor = program->getBundle().tensors[t];
  if (!generatesLazily(shape) || tensor.argument == bundle::kNoArg ||
      (input && input->data))
    return false;
  // The interpreter reads an output back whole: keep refusing what a host
  // tensor cannot hold (a mutated stride of 2^32).
  if (Error e = checkHostTensorSize(shape))
    return std::move(e);
  host::InputSpec spec;
  if (input) {
    Expected<host::InputSpec> parsed = host::InputSpec::parse(input->text);
    if (!parsed)
      return parsed.takeError();
    if (parsed->kind == host::InputSpec::Kind::Data)
      return false;
    spec = std::move(*parsed);
  }
  std::optional<host::DType> dtype = toInterpDType(tensor.elem);
  if (!dtype)
    return createStringError("unsupported element type");
  if (Error e = interpreter->setInput(interpreterName(tensor), spec))
    return std::move(e);
  auto values = interpreter->getInitialValues(tensor.argument, *dtype);
  if (!values)
    return values.takeError();
  unsigned width = machine::elemBytes(tensor.elem);
  launch->setTensorContents(
      t, [values = std::move(*values), width](uint64_t offset, uint64_t count,
                                              uint8_t *out) {
        values(static_cast<int64_t>(offset / width),
               static_cast<int64_t>(count / width), out);
      });
  bindings.inputs.push_back({interpreterName(tensor), std::move(spec)});
  return true;
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

/// Index tensors the roofline reads whole, at most (an index of 2^24 i32
/// is far more than a page table).
constexpr uint64_t kMaxIndexTensorBytes = uint64_t(1) << 26;

IndexValues DifferentialRun::launchIndexValues() const {
  // The input tensors' bytes, read from the launch's memory once each (an
  // input keeps the contents it was bound with).
  auto cache = std::make_shared<
      std::map<uint32_t, std::optional<std::vector<uint8_t>>>>();
  const bundle::Bundle &b = program->getBundle();
  // Whether bundle tensor `tensor` is the one at `location`: an argument's,
  // or one of device memory at a literal address.
  auto isAt = [](const bundle::TensorArg &tensor, TensorLocation location) {
    if (!location.literal)
      return tensor.argument == location.position;
    return literalDeviceAddress(tensor) == location.position;
  };
  return [this, cache, &b, isAt](TensorLocation location,
                                 int64_t element) -> std::optional<int64_t> {
    for (uint32_t t = 0; t < b.tensors.size(); ++t) {
      const bundle::TensorArg &tensor = b.tensors[t];
      if (!isAt(tensor, location))
        continue;
      unsigned width = machine::elemBytes(tensor.elem);
      bool integer = tensor.elem == machine::ElemType::i8 ||
                     tensor.elem == machine::ElemType::i16 ||
                     tensor.elem == machine::ElemType::i32 ||
                     tensor.elem == machine::ElemType::i64;
      if (tensor.role != bundle::TensorRole::Input || !integer)
        return std::nullopt;
      auto [it, inserted] = cache->try_emplace(t);
      if (inserted) {
        Expected<uint64_t> size = launch->getByteSize(t);
        if (!size)
          consumeError(size.takeError());
        else if (*size <= kMaxIndexTensorBytes) {
          if (auto bytes = launch->readTensor(t))
            it->second = std::move(*bytes);
          else
            consumeError(bytes.takeError());
        }
      }
      const std::optional<std::vector<uint8_t>> &bytes = it->second;
      if (!bytes || element < 0 ||
          static_cast<uint64_t>(element + 1) * width > bytes->size())
        return std::nullopt;
      // Little-endian, sign-extended.
      uint64_t bits = 0;
      std::memcpy(&bits, bytes->data() + element * width, width);
      unsigned shift = 64 - 8 * width;
      return static_cast<int64_t>(bits << shift) >> shift;
    }
    return std::nullopt;
  };
}

device::RooflineBound
DifferentialRun::computeRoofline(const device::DeviceModel &device,
                                 device::NodeId deviceMemory,
                                 const DevicePatterns &devicePatterns) const {
  device::KernelDemand demand;
  if (mlir::func::FuncOp kernel = findKernel(*reference, bindings.function))
    demand = countKernelDemand(kernel, argValues, launchIndexValues(),
                               devicePatterns);
  else
    demand.addGap("the kernel (the module has no single kernel function)");
  device::Roofline roofline(device);
  return device::computeRooflineBound(device, roofline, deviceMemory, demand);
}

void ktflow::check::forEachKernelOp(
    mlir::ModuleOp module, function_ref<void(mlir::Operation *)> visit) {
  for (auto function : module.getOps<mlir::func::FuncOp>())
    function.getBody().walk([&](mlir::Operation *op) { visit(op); });
}

Error DifferentialRun::runReference(ArrayRef<uint32_t> checked,
                                    std::vector<host::Tensor> &expected) {
  if (failed(interpreter->run()))
    return createStringError("the reference interpreter failed");
  const bundle::Bundle &b = program->getBundle();
  for (uint32_t t : checked) {
    auto tensor = interpreter->getTensor(interpreterName(b.tensors[t]));
    if (!tensor) {
      // Run-time sizes that make an output empty (n = 0) leave the
      // reference nothing to store, so it never touches the tensor: it is
      // checked against an empty tensor of its launch shape.
      auto shape = launch->getShape(t);
      std::optional<host::DType> dtype = toInterpDType(b.tensors[t].elem);
      if (shape && dtype && host::productOf(*shape) == 0) {
        consumeError(tensor.takeError());
        tensor = host::Tensor::zeros(*dtype, *shape);
      } else {
        if (!shape)
          consumeError(shape.takeError());
        return createStringError("cannot read output '" +
                                 bundle::getKernelName(b.tensors[t]) +
                                 "': " + toString(tensor.takeError()));
      }
    }
    expected.push_back(std::move(*tensor));
  }
  return Error::success();
}

void DifferentialRun::setReroundedOps(ArrayRef<unsigned> numbers) {
  std::vector<mlir::Operation *> ops;
  forEachKernelOp(*reference, [&](mlir::Operation *op) { ops.push_back(op); });
  reroundedOps.clear();
  for (unsigned n : numbers)
    if (n < ops.size())
      reroundedOps.push_back(ops[n]);
}

Expected<std::vector<OutputCheck>> DifferentialRun::checkOutputs() {
  const bundle::Bundle &b = program->getBundle();
  std::vector<uint32_t> checked;
  std::vector<std::string> names;
  for (uint32_t t = 0; t < b.tensors.size(); ++t) {
    if (b.tensors[t].role == bundle::TensorRole::Input)
      continue;
    checked.push_back(t);
    names.push_back(interpreterName(b.tensors[t]));
  }
  std::optional<ReferenceCache> cache;
  if (!referenceCache.empty())
    cache.emplace(referenceCache, *reference, options, bindings, names);
  std::vector<host::Tensor> expected;
  if (std::optional<std::vector<host::Tensor>> hit =
          cache ? cache->lookup("reference") : std::nullopt;
      hit && hit->size() == names.size()) {
    expected = std::move(*hit);
    ++counts.cachedResults;
  } else {
    ++counts.interpreterRuns;
    // A run that warns (views of literal memory overlapping) is not cached:
    // each check of it warns again.
    bool diagnosed = false;
    {
      mlir::ScopedDiagnosticHandler seen(reference->getContext(),
                                         [&](mlir::Diagnostic &) {
                                           diagnosed = true;
                                           return mlir::failure();
                                         });
      if (Error e = runReference(checked, expected))
        return std::move(e);
    }
    if (diagnosed)
      cache.reset();
    if (cache)
      cache->store("reference", expected);
  }
  auto bounds =
      computeReorderBounds(*reference, options, bindings, names, expected,
                           reroundedOps, cache ? &*cache : nullptr, &counts);
  if (!bounds)
    return createStringError("reorder bounds: " + toString(bounds.takeError()));
  std::vector<OutputCheck> results;
  for (auto [i, t] : llvm::enumerate(checked)) {
    std::string name = bundle::getKernelName(b.tensors[t]);
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
    check.label = name;
    results.push_back(std::move(check));
  }
  return results;
}

//===- KernelRun.cpp - Compile, simulate and check one kernel -------------===//
//
// This file implements the steps of `ktflow run` between reading the kernel
// and reporting: compile, bind, simulate, bound and check.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Driver/KernelRun.h"

#include "ktflow/Compiler/Compile.h"
#include "ktflow/Compiler/CompileToBundle.h"
#include "ktflow/Support/CrashRecovery.h"
#include "ktflow/Support/ExitStatus.h"

using namespace llvm;
using namespace ktflow;

/// `error` as a StatusError with `status`.
static Error withStatus(Error error, int status) {
  return make_error<StatusError>(status, toString(std::move(error)));
}

Expected<KernelRun> KernelRun::simulate(mlir::ModuleOp module,
                                        ModuleLoader &loader,
                                        const KernelRunOptions &options) {
  KernelRun result;
  result.optimized = options.optimize;
  result.subject = options.subject;
  // The interpreter's copy is the kernel as written, before compiling.
  auto run = check::DifferentialRun::create(module, options.interpreter,
                                            options.function);
  if (!run)
    return run.takeError();
  result.run = std::move(*run);
  if (!options.devicePath.empty() &&
      failed(setTarget(module, options.devicePath, loader)))
    return reportedError();
  CompileOptions compileOptions;
  compileOptions.optimize = options.optimize;
  compileOptions.function = options.function;
  auto compiled = compileToBundle(module, compileOptions, options.subject);
  if (failed(compiled))
    return reportedError();
  {
    CrashPhase phase("emit", options.subject);
    if (Error e = result.run->load(compiled->bundle))
      return e;
    if (Error e = result.run->bindArguments(options.arguments))
      return e;
    auto inputs = result.run->parseInputs(options.inputs);
    if (!inputs)
      return inputs.takeError();
    llvm::append_range(*inputs, options.inputData);
    if (Error e = result.run->bindInputs(*inputs, options.seed))
      return e;
  }
  {
    CrashPhase phase("simulate", options.subject);
    auto stats = result.run->simulate(options.simulator);
    if (!stats)
      return withStatus(stats.takeError(), kSimulationErrorExitCode);
    result.stats = std::move(*stats);
  }
  result.bound =
      result.run->computeRoofline(compiled->device, compiled->deviceMemory);
  return result;
}

Error KernelRun::check() {
  CrashPhase phase("interpret", subject);
  auto outputs = run->checkOutputs();
  if (!outputs)
    return outputs.takeError();
  checks = std::move(*outputs);
  return Error::success();
}

bool KernelRun::passed() const {
  return checks && llvm::all_of(*checks, [](const check::OutputCheck &c) {
           return c.result.pass;
         });
}

Expected<std::vector<std::pair<std::string, host::Tensor>>>
KernelRun::readOutputs() const {
  const bundle::Bundle &b = run->getProgram().getBundle();
  std::vector<std::pair<std::string, host::Tensor>> outputs;
  for (uint32_t t = 0; t < b.tensors.size(); ++t) {
    if (b.tensors[t].role == bundle::TensorRole::Input)
      continue;
    auto bytes = run->getLaunch().readTensor(t);
    if (!bytes)
      return bytes.takeError();
    auto shape = run->getLaunch().getShape(t);
    if (!shape)
      return shape.takeError();
    outputs.push_back({bundle::getKernelName(b.tensors[t]),
                       check::fromBytes(*bytes, b.tensors[t].elem, *shape)});
  }
  return outputs;
}

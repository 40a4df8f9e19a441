//===- KernelRun.cpp - Compile, simulate and check one kernel -------------===//
//
// This file implements the steps of `ktflow run` between reading the kernel
// and reporting: compile, bind, simulate, bound and check.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Driver/KernelRun.h"

#include "ktflow/Compiler/Compile.h"
#include "ktflow/Compiler/CompileToBundle.h"
#include "ktflow/Compiler/Pipelines.h"
#include "ktflow/Dialect/KTDF/Transforms/DevicePatterns.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Support/CrashRecovery.h"
#include "ktflow/Support/ExitStatus.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"

#include <set>

using namespace llvm;
using namespace ktflow;

/// `error` as a StatusError with `status`.
static Error withStatus(Error error, int status) {
  return make_error<StatusError>(status, toString(std::move(error)));
}

/// The number findReroundedOps gave the op that `loc` comes from, if any.
static std::optional<int64_t> opNumber(mlir::Location loc,
                                       mlir::StringAttr tag) {
  std::optional<int64_t> number;
  loc->walk([&](mlir::Location inner) {
    if (auto fused = dyn_cast<mlir::FusedLoc>(inner))
      if (auto dict =
              dyn_cast_or_null<mlir::DictionaryAttr>(fused.getMetadata()))
        if (auto n = dict.getAs<mlir::IntegerAttr>(tag)) {
          number = n.getInt();
          return mlir::WalkResult::interrupt();
        }
    return mlir::WalkResult::advance();
  });
  return number;
}

/// The ops of `module` (numbered as check::forEachKernelOp visits them) that
/// the target device computes in a wider float type and rounds back
/// (`widen_to_f32` patterns): their results on the device are rounded twice.
/// Found by compiling a copy up to the pre_scheduling checkpoint, every op's
/// location tagged with its number (the ops the passes make from it, and
/// those the patterns make from these, keep it), and taking the ops whose
/// 16-bit float results now come from an op of a wider float type. A kernel
/// that does not compile widens nothing here; compiling reports why.
static std::vector<unsigned> findReroundedOps(mlir::ModuleOp module,
                                              const CompileOptions &options) {
  mlir::OwningOpRef<mlir::ModuleOp> copy = module.clone();
  mlir::MLIRContext *context = module.getContext();
  auto tag = mlir::StringAttr::get(context, "ktflow.check.op_number");
  std::vector<unsigned> narrowWidth;
  check::forEachKernelOp(*copy, [&](mlir::Operation *op) {
    unsigned width = 0;
    for (mlir::Type t : op->getResultTypes())
      if (auto f = dyn_cast<mlir::FloatType>(mlir::getElementTypeOrSelf(t)))
        width = std::max(width, f.getWidth());
    auto number = mlir::NamedAttribute(
        tag, mlir::IntegerAttr::get(mlir::IndexType::get(context),
                                    narrowWidth.size()));
    op->setLoc(mlir::FusedLoc::get(context, {op->getLoc()},
                                   mlir::DictionaryAttr::get(context, number)));
    narrowWidth.push_back(width);
  });
  mlir::PassManager pm(context);
  buildMappingPipeline(pm, options);
  mlir::ktdf::KTDFApplyDevicePatternsOptions checkpoint;
  checkpoint.checkpoint = "pre_scheduling";
  pm.addPass(mlir::ktdf::createKTDFApplyDevicePatterns(checkpoint));
  {
    mlir::ScopedDiagnosticHandler quiet(
        context, [](mlir::Diagnostic &) { return mlir::success(); });
    if (failed(pm.run(*copy)))
      return {};
  }
  std::set<unsigned> rerounded;
  copy->walk([&](mlir::Operation *op) {
    if (isa<mlir::arith::ExtFOp, mlir::arith::TruncFOp>(op))
      return;
    std::optional<int64_t> number = opNumber(op->getLoc(), tag);
    if (!number || *number >= static_cast<int64_t>(narrowWidth.size()) ||
        narrowWidth[*number] == 0)
      return;
    for (mlir::Type t : op->getResultTypes())
      if (auto f = dyn_cast<mlir::FloatType>(mlir::getElementTypeOrSelf(t)))
        if (f.getWidth() > narrowWidth[*number])
          rerounded.insert(*number);
  });
  return {rerounded.begin(), rerounded.end()};
}

/// KernelRun::simulate, or KernelRun::simulated where `simulated` is set.
static Expected<KernelRun>
runKernel(mlir::ModuleOp module, ModuleLoader &loader,
          const KernelRunOptions &options,
          std::unique_ptr<check::DifferentialRun> simulated,
          std::optional<sim::SimStats> stats) {
  KernelRun result;
  result.optimized = options.compile.optimize;
  result.subject = options.subject;
  if (simulated) {
    result.run = std::move(simulated);
  } else {
    // The interpreter's copy is the kernel as written, before compiling.
    auto run = check::DifferentialRun::create(module, options.interpreter,
                                              options.compile.function);
    if (!run)
      return run.takeError();
    result.run = std::move(*run);
  }
  result.run->setReferenceCache(options.referenceCache);
  if (!options.devicePath.empty() &&
      failed(setTarget(module, options.devicePath, loader)))
    return reportedError();
  result.compileOptions = options.compile;
  result.asWritten = module.clone();
  mlir::FailureOr<CompiledBundle> compiledHere = mlir::failure();
  if (!options.compiled) {
    compiledHere =
        compileToBundle(module, result.compileOptions, options.subject);
    if (failed(compiledHere))
      return reportedError();
  }
  const CompiledBundle *compiled =
      options.compiled ? options.compiled : &*compiledHere;
  if (stats) {
    result.stats = std::move(*stats);
  } else {
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
    CrashPhase phase("simulate", options.subject);
    auto simulatedStats = result.run->simulate(options.simulator);
    if (!simulatedStats)
      return withStatus(simulatedStats.takeError(), kSimulationErrorExitCode);
    result.stats = std::move(*simulatedStats);
  }
  // An op the description rewrites (sample_device widens f16 `exp`) runs
  // rewritten on every schedule: the bound counts it so.
  SmallVector<mlir::FrozenRewritePatternSet> patterns =
      mlir::ktdf::getAllDevicePatterns(compiled->device.getOp());
  DevicePatterns applyPatterns;
  if (!patterns.empty())
    applyPatterns = [patterns](mlir::ModuleOp probe) {
      return mlir::ktdf::applyAllDevicePatterns(probe, patterns);
    };
  result.bound = result.run->computeRoofline(
      compiled->device, compiled->deviceMemory, applyPatterns);
  return result;
}

Expected<KernelRun> KernelRun::simulate(mlir::ModuleOp module,
                                        ModuleLoader &loader,
                                        const KernelRunOptions &options) {
  return runKernel(module, loader, options, nullptr, std::nullopt);
}

Expected<KernelRun>
KernelRun::simulated(mlir::ModuleOp module, ModuleLoader &loader,
                     const KernelRunOptions &options,
                     std::unique_ptr<check::DifferentialRun> run,
                     sim::SimStats stats) {
  assert(options.compiled && run && "a simulation of a compiled bundle");
  return runKernel(module, loader, options, std::move(run), std::move(stats));
}

Error KernelRun::check() {
  if (asWritten) {
    run->setReroundedOps(findReroundedOps(*asWritten, compileOptions));
    asWritten = nullptr;
  }
  CrashPhase phase("interpret", subject);
  auto outputs = run->checkOutputs();
  if (!outputs)
    return outputs.takeError();
  checks = std::move(*outputs);
  return Error::success();
}

bool KernelRun::passed() const {
  auto allPass = [](const std::vector<check::OutputCheck> &outputs) {
    return llvm::all_of(
        outputs, [](const check::OutputCheck &c) { return c.result.pass; });
  };
  return (checks || expected) && (!checks || allPass(*checks)) &&
         (!expected || allPass(*expected));
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

//===- KernelRun.h - Compile, simulate and check one kernel -----*- C++ -*-===//
//
// This file declares what `ktflow run` and the Python package's
// `ktflow.run` do with a kernel: compile it for a device, bind a launch of
// its bundle and the reference interpreter to the same arguments and
// inputs (ktflow/Check/DifferentialRun.h), simulate it, bound it by the
// roofline and, when asked, compare its outputs with the interpreter's.
// The report of a run, as text or as JSON, is ktflow/Driver/Reports.h.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DRIVER_KERNELRUN_H
#define KTFLOW_DRIVER_KERNELRUN_H

#include "ktflow/Check/DifferentialRun.h"
#include "ktflow/Compiler/CompileToBundle.h"
#include "ktflow/Compiler/Pipelines.h"
#include "ktflow/Support/ModuleLoader.h"

namespace ktflow {

/// torch.testing.assert_close's default (rtol, atol) for an element type:
/// f16 (1e-3, 1e-5), bf16 (1.6e-2, 1e-5), f32 (1.3e-6, 1e-5), f64 (1e-7,
/// 1e-7); integers compare exactly.
std::pair<double, double> getDefaultTolerance(machine::ElemType elem);

struct KernelRunOptions {
  /// The device description; empty for the kernel's ktdf_arch.target.
  std::string devicePath;
  /// How to compile it; `compile.function` is also the function the
  /// interpreter runs.
  CompileOptions compile;
  /// `NAME=VALUE` runtime arguments.
  std::vector<std::string> arguments;
  /// `NAME=SPEC` tensor contents, then contents given as data (`random`
  /// for the inputs given neither way).
  std::vector<std::string> inputs;
  std::vector<check::NamedInput> inputData;
  uint64_t seed = 0;
  interp::InterpreterOptions interpreter;
  /// The directory of the check's device-independent results
  /// (ktflow/Check/ReferenceCache.h); empty for none.
  std::string referenceCache;
  sim::SimOptions simulator;
  /// The kernel's file, in crash reports.
  std::string subject;
  /// The kernel compiled with `compile` already (`run --tune`'s choice,
  /// TuneResult::compiled), run instead of compiling it again.
  const CompiledBundle *compiled = nullptr;
};

/// A simulated run of a compiled kernel, and its check once made.
struct KernelRun {
  std::unique_ptr<check::DifferentialRun> run;
  sim::SimStats stats;
  device::RooflineBound bound;
  bool optimized = true;
  /// The kernel's file, in crash reports.
  std::string subject;
  /// The outputs compared with the interpreter's, after check().
  std::optional<std::vector<check::OutputCheck>> checks;
  /// The outputs compared with files the user gave, after
  /// compareExpected(); each label is `NAME (FILE)`.
  std::optional<std::vector<check::OutputCheck>> expected;
  /// The kernel as written, with its device, and how it was compiled:
  /// check() compiles it partway to find the ops the device rounds twice,
  /// which only a check needs (cleared once it has).
  mlir::OwningOpRef<mlir::ModuleOp> asWritten;
  CompileOptions compileOptions;

  /// Compiles `module` in place (for `options.devicePath`, loaded through
  /// `loader`; unless `options.compiled` has it), binds and simulates it.
  /// Errors carry their exit status (ktflow/Support/ExitStatus.h): a kernel
  /// that does not compile (reported as diagnostics) or a bad binding is a user
  /// error, a failed simulation a simulation error.
  static llvm::Expected<KernelRun> simulate(mlir::ModuleOp module,
                                            ModuleLoader &loader,
                                            const KernelRunOptions &options);
  /// The same, but for `options.compiled` (which must be set) simulated
  /// already in `run` with `options` (`run --tune`'s choice,
  /// TuneResult::run and stats): `stats` taken instead of simulating again.
  static llvm::Expected<KernelRun>
  simulated(mlir::ModuleOp module, ModuleLoader &loader,
            const KernelRunOptions &options,
            std::unique_ptr<check::DifferentialRun> run, sim::SimStats stats);

  /// Runs the interpreter and compares every output with it (`checks`).
  llvm::Error check();
  /// Compares tensors with `.npy` files (`NAME=FILE.npy`, any element type
  /// of the same shape; `expected`): element i passes when |sim - want| <=
  /// atol + rtol * |want| + one unit in the last place of the tensor's
  /// element type at want. A negative tolerance takes the default for the
  /// tensor's element type (getDefaultTolerance).
  llvm::Error compareExpected(llvm::ArrayRef<std::string> files, double rtol,
                              double atol);
  /// Whether a comparison ran (check(), compareExpected()) and every output
  /// passed each.
  bool passed() const;

  /// Every tensor the kernel writes after the simulation, by the kernel's
  /// name for it (bundle::getKernelName), in bundle order.
  llvm::Expected<std::vector<std::pair<std::string, host::Tensor>>>
  readOutputs() const;
};

} // namespace ktflow

#endif // KTFLOW_DRIVER_KERNELRUN_H

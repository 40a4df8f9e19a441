//===- CompileToBundle.h - Compile a KTIR module to a bundle ----*- C++ -*-===//
//
// This file declares the compiler's whole job as one call, for the driver's
// `compile` and `run`: run the scheduler's pipeline down to DataflowIR,
// check the kernel against the module's device and encode the program
// bundle. It also declares how a bundle is written to a file, which
// `compile` and `emit` share.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_COMPILER_COMPILETOBUNDLE_H
#define KTFLOW_COMPILER_COMPILETOBUNDLE_H

#include "ktflow/Bundle/Bundle.h"
#include "ktflow/Compiler/Pipelines.h"
#include "ktflow/Device/DeviceModel.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

namespace ktflow {

/// A compiled kernel: its bundle, and the model of the device it was
/// compiled for (what a roofline of the run is computed on).
struct CompiledBundle {
  bundle::Bundle bundle;
  device::DeviceModel device;
  /// The memory of `device` KTIR's `global` space maps to: where the
  /// kernel's tensors live.
  device::NodeId deviceMemory = 0;
};

/// Compiles `module` (a KTIR kernel with a target, see setTarget) to
/// DataflowIR in place and emits its bundle. `subject` names the input in
/// crash reports. Diagnostics go to the module's context; fails after
/// reporting.
mlir::FailureOr<CompiledBundle> compileToBundle(mlir::ModuleOp module,
                                                const CompileOptions &options,
                                                llvm::StringRef subject = "");

/// compileToBundle in two steps, for `--tune` to tell candidates of equal
/// ScheduleIR apart before lowering them: compile() to
/// CompileStage::Schedule, then lowerSchedule (the lowering group, which
/// takes no option: buildLoweringPipeline) and emitCompiledBundle (the emitter,
/// on DataflowIR). Where both steps succeed the bundle is compileToBundle's;
/// where either fails, compileToBundle may have found a schedule that fits
/// (ktflow::compile's retries cover a failing lowering too) and reports
/// its own diagnostics.
mlir::LogicalResult lowerSchedule(mlir::ModuleOp module,
                                  llvm::StringRef subject = "");
mlir::FailureOr<CompiledBundle>
emitCompiledBundle(mlir::ModuleOp module, llvm::StringRef subject = "");

/// Encodes `bundle` and writes it to `path`; returns the number of bytes
/// written, or a "cannot write" error.
llvm::Expected<size_t> writeBundleFile(const bundle::Bundle &bundle,
                                       llvm::StringRef path);

} // namespace ktflow

#endif // KTFLOW_COMPILER_COMPILETOBUNDLE_H

//===- Compile.h - Compile a KTIR module for a device -----------*- C++ -*-===//
//
// This file declares what the driver needs to compile a KTIR kernel
// module: pointing it at a device description (keeping the kernel's own
// memory map, or deriving the usual one from the device), running the
// scheduler's pipeline up to ScheduleIR or DataflowIR, and finding the
// resulting dfir.kernel.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_COMPILER_COMPILE_H
#define KTFLOW_COMPILER_COMPILE_H

#include "ktflow/Compiler/Pipelines.h"
#include "ktflow/Dialect/DFIR/IR/DFIR.h"
#include "ktflow/Support/ModuleLoader.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"

namespace ktflow {

/// Makes `module` target the device described in `devicePath`. A kernel
/// that already declares a target keeps its memory map and now imports this
/// file; one that declares none gets `global` mapped to the device memory
/// and `ct_local` to the first scratchpad of a core. Fails after reporting.
mlir::LogicalResult setTarget(mlir::ModuleOp module, llvm::StringRef devicePath,
                              ModuleLoader &loader);
/// The same for a description already loaded from `devicePath`.
mlir::LogicalResult setTarget(mlir::ModuleOp module, mlir::ModuleOp description,
                              llvm::StringRef devicePath);

enum class CompileStage {
  /// Mapping and scheduling: scheduled ScheduleIR.
  Schedule,
  /// All three groups: DataflowIR.
  Dataflow,
};

/// Runs the scheduler's pipeline on `module` up to `stage`. Diagnostics go
/// to the module's context; fails after reporting.
mlir::LogicalResult compile(mlir::ModuleOp module,
                            const CompileOptions &options, CompileStage stage);

/// Whether `d` is ktdf-allocate-scratchpad's refusal of buffers that need
/// more scratchpad than the device has (ktdf::kScratchpadOverCapacity): the
/// error compile() answers by streaming rows, and `--tune` reports as a
/// candidate not offered.
bool isScratchpadOverCapacity(const mlir::Diagnostic &d);

/// The dfir.kernel a compiled module holds, or null (after reporting) when
/// it holds none or several.
mlir::dfir::KernelOp getCompiledKernel(mlir::ModuleOp module);

} // namespace ktflow

#endif // KTFLOW_COMPILER_COMPILE_H

//===- Target.h - The device a kernel module targets ------------*- C++ -*-===//
//
// This file declares the one place that answers "which device does this
// module target": the module's single `ktdf_arch.target` is found, the
// description file it names is imported (relative to the kernel file) or
// the device is looked up in the module, and its memory map is checked
// against the memories the device defines. Passes, the compiler driver, the
// simulator's loader and the commands all go through these functions, so a
// module that targets no device, or a bad one, gets the same diagnostics
// wherever it is first looked at.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DEVICE_TARGET_H
#define KTFLOW_DEVICE_TARGET_H

#include "ktflow/Device/DeviceModel.h"
#include "ktflow/Dialect/KTDFArch/IR/KTDFArch.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>

namespace ktflow::device {

/// Where the device of a target that names a description file may come from.
enum class TargetImport {
  /// Import the file (read with located errors of its own).
  Load,
  /// The device must already be in the module (as after
  /// --ktdf-import-target); a target still naming a file is an error.
  InModule,
};

struct TargetDevice {
  /// Owns the imported description; null for a device in the module.
  mlir::OwningOpRef<mlir::ModuleOp> imported;
  /// Null when the device came from a description file, not a target.
  mlir::ktdf_arch::TargetOp target;
  mlir::ktdf_arch::DeviceOp device;
  /// Device memory kinds for KTIR's `global` and `ct_local` spaces; empty
  /// when the map leaves a space out.
  std::string globalMemory;
  std::string ctLocalMemory;
};

/// The one `ktdf_arch.target` of `module`. Fails after reporting when there
/// is none or more than one.
mlir::FailureOr<mlir::ktdf_arch::TargetOp> findTarget(mlir::ModuleOp module);
/// The same, but a module without a target gives a null op, not an error.
mlir::FailureOr<mlir::ktdf_arch::TargetOp>
findOptionalTarget(mlir::ModuleOp module);

/// Resolves `target` to its device and checks the memory map against it.
/// Fails after reporting a located error.
mlir::FailureOr<TargetDevice> resolveTarget(mlir::ktdf_arch::TargetOp target,
                                            TargetImport import);

/// findTarget, then resolveTarget.
mlir::FailureOr<TargetDevice> resolveTarget(mlir::ModuleOp module,
                                            TargetImport import);

/// The model of the device `module` targets, which the module holds. Fails
/// after reporting.
mlir::FailureOr<DeviceModel> buildTargetModel(mlir::ModuleOp module);

/// The one `ktdf_arch.device` a description file defines, or the one named
/// `name` when given. Fails after reporting against the file.
mlir::FailureOr<mlir::ktdf_arch::DeviceOp>
findDevice(mlir::ModuleOp description, llvm::StringRef name = "");

/// The device a file describes: one of its devices (findDevice) or, for a
/// kernel module that defines none, the device its target imports (whose
/// name must be `name` when given). Fails after reporting.
mlir::FailureOr<TargetDevice> resolveDeviceOrTarget(mlir::ModuleOp module,
                                                    llvm::StringRef name = "");

} // namespace ktflow::device

#endif // KTFLOW_DEVICE_TARGET_H

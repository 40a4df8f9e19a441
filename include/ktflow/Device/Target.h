//===- Target.h - The device a kernel module targets ------------*- C++ -*-===//
//
// This file declares how a kernel's `ktdf_arch.target` declaration is turned
// into a device: found in the same module or loaded from the file it imports
// (relative to the kernel file), with its memory map checked against the
// memories the device defines.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DEVICE_TARGET_H
#define KTFLOW_DEVICE_TARGET_H

#include "ktflow/Dialect/KTDFArch/IR/KTDFArch.h"
#include "ktflow/Support/ModuleLoader.h"

#include <string>

namespace ktflow::device {

struct TargetDevice {
  /// Owns the imported description; null for a device in the kernel module.
  mlir::OwningOpRef<mlir::ModuleOp> imported;
  mlir::ktdf_arch::DeviceOp device;
  /// Device memory kinds for KTIR's `global` and `ct_local` spaces; empty
  /// when the map leaves a space out.
  std::string globalMemory;
  std::string ctLocalMemory;
};

/// Resolves `target`. Imported files are read through `loader`, so their
/// errors are located too. Fails after reporting an error.
mlir::FailureOr<TargetDevice> resolveTarget(mlir::ktdf_arch::TargetOp target,
                                            ModuleLoader &loader);

} // namespace ktflow::device

#endif // KTFLOW_DEVICE_TARGET_H

//===- Target.cpp - The device a kernel module targets --------------------===//
//
// This file resolves a kernel module's `ktdf_arch.target` to a device op,
// importing the description file when the declaration names one, and finds
// the device of a description file. Every diagnostic about a missing, doubled
// or mismatched target or device is worded here.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Device/Target.h"
#include "ktflow/Support/ModuleLoader.h"

#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::ktdf_arch;
using namespace ktflow::device;

FailureOr<TargetOp> ktflow::device::findOptionalTarget(ModuleOp module) {
  SmallVector<TargetOp> targets;
  module.walk([&](TargetOp op) { targets.push_back(op); });
  if (targets.size() > 1)
    return targets[1].emitError("the module declares more than one target");
  return targets.empty() ? TargetOp() : targets.front();
}

FailureOr<TargetOp> ktflow::device::findTarget(ModuleOp module) {
  FailureOr<TargetOp> target = findOptionalTarget(module);
  if (succeeded(target) && !*target)
    return module.emitError("the module declares no target device "
                            "(ktdf_arch.target); give the device with --arch");
  return target;
}

/// The description file `target` imports, loaded and searched for its
/// device into `result`.
static LogicalResult importDevice(TargetOp target, StringRef path,
                                  TargetDevice &result) {
  std::string file = ktflow::resolvePathNextTo(target.getLoc(), path);
  {
    // The loader reports problems inside the imported file itself; it must be
    // gone before anything is reported against the kernel, so that those
    // diagnostics reach whoever handles the kernel's (a pass's verifier).
    ktflow::ModuleLoader loader(*target.getContext());
    result.imported = loader.load(file);
  }
  if (!result.imported)
    return target.emitOpError()
           << "cannot import device description '" << file << "'";
  result.device = dyn_cast_if_present<DeviceOp>(SymbolTable::lookupSymbolIn(
      *result.imported, target.getDeviceAttr().getAttr()));
  if (!result.device)
    return target.emitOpError()
           << "'" << file << "' defines no ktdf_arch.device "
           << target.getDeviceAttr();
  return success();
}

FailureOr<TargetDevice> ktflow::device::resolveTarget(TargetOp target,
                                                      TargetImport import) {
  TargetDevice result;
  result.target = target;
  if (std::optional<StringRef> path = target.getPath()) {
    if (import == TargetImport::InModule)
      return target.emitOpError()
             << "the target device is still in '" << *path
             << "'; run --ktdf-import-target to bring it into the module";
    if (failed(importDevice(target, *path, result)))
      return failure();
  } else {
    result.device = SymbolTable::lookupNearestSymbolFrom<DeviceOp>(
        target, target.getDeviceAttr());
    // The same words as the op's verifier, which catches this first in any
    // module that was verified.
    if (!result.device)
      return target.emitOpError()
             << "names no ktdf_arch.device " << target.getDeviceAttr()
             << " in this module; add 'from \"<file>\"' to import one";
  }
  if (failed(target.verifyDevice(result.device)))
    return failure();
  result.globalMemory = target.getDeviceMemoryKind("global").value_or("").str();
  result.ctLocalMemory =
      target.getDeviceMemoryKind("ct_local").value_or("").str();
  return result;
}

FailureOr<TargetDevice> ktflow::device::resolveTarget(ModuleOp module,
                                                      TargetImport import) {
  FailureOr<TargetOp> target = findTarget(module);
  if (failed(target))
    return failure();
  return resolveTarget(*target, import);
}

FailureOr<DeviceModel> ktflow::device::buildTargetModel(ModuleOp module) {
  FailureOr<TargetDevice> target =
      resolveTarget(module, TargetImport::InModule);
  if (failed(target))
    return failure();
  return DeviceModel::build(target->device);
}

/// The devices of `module` named `name` (all when `name` is empty), and
/// whether it defines any at all.
static SmallVector<DeviceOp> collectDevices(ModuleOp module, StringRef name,
                                            bool &any) {
  SmallVector<DeviceOp> devices;
  any = false;
  module.walk([&](DeviceOp device) {
    any = true;
    if (name.empty() || device.getSymName() == name)
      devices.push_back(device);
  });
  return devices;
}

/// Where to report about a whole file: its `module`, or its first line when
/// the module is implicit (located at line 0, which no source line shows).
static Location fileLoc(ModuleOp module) {
  if (auto loc = dyn_cast<FileLineColLoc>(module.getLoc());
      loc && loc.getLine() == 0)
    return FileLineColLoc::get(loc.getFilename(), 1, 1);
  return module.getLoc();
}

static FailureOr<DeviceOp> pickDevice(ModuleOp description, StringRef name,
                                      ArrayRef<DeviceOp> devices) {
  if (devices.size() == 1)
    return devices.front();
  InFlightDiagnostic diag = emitError(fileLoc(description));
  if (devices.empty()) {
    diag << "no ktdf_arch.device"
         << (name.empty() ? "" : " named '" + name.str() + "'")
         << " in this file";
  } else {
    diag << devices.size() << " ktdf_arch.device ops in this file (";
    llvm::interleaveComma(devices, diag, [&](DeviceOp device) {
      diag << "@" << device.getSymName();
    });
    diag << "); choose one by name";
  }
  return failure();
}

FailureOr<DeviceOp> ktflow::device::findDevice(ModuleOp description,
                                               StringRef name) {
  bool any;
  SmallVector<DeviceOp> devices = collectDevices(description, name, any);
  return pickDevice(description, name, devices);
}

FailureOr<TargetDevice> ktflow::device::resolveDeviceOrTarget(ModuleOp module,
                                                              StringRef name) {
  bool any;
  SmallVector<DeviceOp> devices = collectDevices(module, name, any);
  if (!any) {
    FailureOr<TargetOp> target = findOptionalTarget(module);
    if (failed(target))
      return failure();
    if (!*target)
      return emitError(fileLoc(module))
             << "no ktdf_arch.device or ktdf_arch.target in this file";
    FailureOr<TargetDevice> resolved =
        resolveTarget(*target, TargetImport::Load);
    if (failed(resolved))
      return failure();
    if (!name.empty() && resolved->device.getSymName() != name) {
      (void)pickDevice(module, name, {});
      return failure();
    }
    return resolved;
  }
  FailureOr<DeviceOp> device = pickDevice(module, name, devices);
  if (failed(device))
    return failure();
  TargetDevice result;
  result.device = *device;
  return result;
}

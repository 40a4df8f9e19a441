//===- Target.cpp - The device a kernel module targets --------------------===//
//
// This file resolves a kernel's `ktdf_arch.target` declaration to a device
// op, importing the description file when the declaration names one.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Device/Target.h"

#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::ktdf_arch;

FailureOr<ktflow::device::TargetDevice>
ktflow::device::resolveTarget(TargetOp target, ModuleLoader &loader) {
  TargetDevice result;
  if (std::optional<StringRef> path = target.getPath()) {
    std::string file = resolvePathNextTo(target.getLoc(), *path);
    result.imported = loader.load(file);
    if (!result.imported)
      return target.emitOpError() << "cannot import device description '"
                                  << file << "'";
    result.device = dyn_cast_if_present<DeviceOp>(SymbolTable::lookupSymbolIn(
        *result.imported, target.getDeviceAttr().getAttr()));
    if (!result.device)
      return target.emitOpError()
             << "'" << file << "' defines no ktdf_arch.device "
             << target.getDeviceAttr();
  } else {
    result.device = SymbolTable::lookupNearestSymbolFrom<DeviceOp>(
        target, target.getDeviceAttr());
    if (!result.device)
      return target.emitOpError() << "names no ktdf_arch.device "
                                  << target.getDeviceAttr();
  }
  if (failed(target.verifyDevice(result.device)))
    return failure();
  result.globalMemory = target.getDeviceMemoryKind("global").value_or("").str();
  result.ctLocalMemory =
      target.getDeviceMemoryKind("ct_local").value_or("").str();
  return result;
}

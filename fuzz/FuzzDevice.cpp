//===- FuzzDevice.cpp - libFuzzer harness: device descriptions ------------===//
//
// Feeds each input, as a device description (or a kernel whose
// `ktdf_arch.target` names one), to what `ktflow arch-info` runs: the
// loader's parse and verify (MlirInput.h), resolveDeviceOrTarget, the
// device model's construction (its own checks of units, memories, routes
// and datapaths) and the summary, printed as text and as JSON. A hostile
// description must end in a diagnostic. A target that names a description
// file is resolved only against a device in the module: importing a file
// the input names would let the fuzzer read any file (/dev/stdin blocks).
// Seeds: the devices of examples/ and test/ (scripts/fuzz.sh collects
// them).
//
//===----------------------------------------------------------------------===//

#include "MlirInput.h"

#include "ktflow/Device/DeviceModel.h"
#include "ktflow/Device/DeviceSummary.h"
#include "ktflow/Device/Target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ktflow::fuzz::withLoadedModule(data, size, [](mlir::ModuleOp module) {
    using namespace ktflow::device;
    bool hasDevice = false;
    module.walk([&](mlir::ktdf_arch::DeviceOp) { hasDevice = true; });
    mlir::FailureOr<TargetDevice> target =
        hasDevice ? resolveDeviceOrTarget(module)
                  : resolveTarget(module, TargetImport::InModule);
    if (failed(target))
      return;
    mlir::FailureOr<DeviceModel> model = DeviceModel::build(target->device);
    if (failed(model))
      return;
    DeviceSummary summary(*model);
    printDeviceSummary(summary, llvm::nulls());
    printDeviceSummaryJson(summary, llvm::nulls());
  });
  return 0;
}

// Passes after --ktdf-import-target find the device in the module through
// the same resolver, with the same words for a module that targets nothing.
// RUN: ktflow-opt %s --ktdf-route-transfers -split-input-file -verify-diagnostics
// RUN: ktflow-opt %s --ktdf-apply-device-patterns=checkpoint=pre_scheduling -split-input-file -verify-diagnostics

// expected-error @+1 {{'ktdf_arch.target' op the target device is still in '../../../../../examples/devices/sample_device.mlir'; run --ktdf-import-target to bring it into the module}}
ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR">

// -----

// expected-error @+1 {{the module declares no target device (ktdf_arch.target); give the device with --arch}}
module {
  func.func @k() attributes {grid = [1]} {
    return
  }
}

// RUN: ktflow-opt %s --ktdf-import-target -split-input-file -verify-diagnostics

// expected-error @+1 {{the module declares no target device (ktdf_arch.target)}}
module {
  func.func @k() attributes {grid = [1]} {
    return
  }
}

// -----

// expected-error @+1 {{cannot import device description}}
ktdf_arch.target @sample_device from "no-such-device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR">

// -----

// expected-error @+1 {{defines no ktdf_arch.device @other}}
ktdf_arch.target @other from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR">

// -----

ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR">
// expected-error @+1 {{the module declares more than one target}}
ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR">

// -----

// The verifier cannot see an imported device; the import checks the map.
// expected-error @+1 {{memory_map names memory kind "HBM", which device @sample_device does not define}}
ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM">

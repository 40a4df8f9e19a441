// RUN: ktflow-opt %s --ktdf-import-target | FileCheck %s

// The device the target imports is copied into the module and the
// declaration no longer names a file.

// CHECK: ktdf_arch.device @sample_device
// CHECK: ktdf_arch.target @sample_device memory_map
// CHECK-NOT: from
ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
func.func @k() attributes {grid = [1]} {
  return
}

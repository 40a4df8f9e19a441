// RUN: ktflow-opt %s --verify-diagnostics --arch %examples/devices/sample_device.mlir

// A target the kernel declares keeps its memory map, now checked against the
// device --arch names.
module {
  // expected-error @below {{memory_map names memory kind "NOPE", which device @sample_device does not define}}
  ktdf_arch.target @sample_device from "unused.mlir" memory_map #ktdf_arch.map<"global" = "NOPE", "ct_local" = "L1">
}

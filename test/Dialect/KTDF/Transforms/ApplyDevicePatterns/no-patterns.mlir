// RUN: ktflow-opt %s --ktdf-import-target --ktdf-apply-device-patterns=checkpoint=post_lowering | FileCheck %s

// mesh_device has no patterns: the checkpoint changes nothing, and does not
// fold either (the constant stays where it is).

ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM">

// CHECK-LABEL: func.func @unchanged
// CHECK-NEXT: arith.constant 2.0
// CHECK-NEXT: arith.addf
// CHECK-NEXT: math.exp %{{.*}} : f16
func.func @unchanged(%x: f16) -> f16 {
  %c = arith.constant 2.0 : f16
  %a = arith.addf %x, %c : f16
  %e = math.exp %a : f16
  return %e : f16
}

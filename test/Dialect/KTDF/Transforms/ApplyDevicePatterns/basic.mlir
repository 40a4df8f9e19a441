// RUN: ktflow-opt %s --ktdf-import-target --ktdf-apply-device-patterns=checkpoint=pre_scheduling | FileCheck %s
// RUN: ktflow-opt %s --ktdf-import-target --ktdf-apply-device-patterns=checkpoint=pre_mapping | FileCheck %s --check-prefix=PREMAP

// Only the patterns of the requested checkpoint apply: at pre_scheduling
// the device widens f16 tanh (and leaves exp, a pre_mapping pattern, and
// f32 tanh alone); at pre_mapping it widens exp on a tensor.

ktdf_arch.target @checkpoint_device from "Inputs/checkpoint_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

// CHECK-LABEL: func.func @scalars
// CHECK-NEXT: %[[W:.*]] = arith.extf %arg0 : f16 to f32
// CHECK-NEXT: %[[T:.*]] = math.tanh %[[W]] : f32
// CHECK-NEXT: %[[N:.*]] = arith.truncf %[[T]] : f32 to f16
// CHECK-NEXT: %[[E:.*]] = math.exp %arg0 : f16
// CHECK-NEXT: %[[F:.*]] = math.tanh %arg1 : f32
// CHECK-NEXT: return %[[N]], %[[E]], %[[F]]
// PREMAP-LABEL: func.func @scalars
// PREMAP: math.tanh %arg0 : f16
func.func @scalars(%x: f16, %y: f32) -> (f16, f16, f32) {
  %t = math.tanh %x : f16
  %e = math.exp %x : f16
  %f = math.tanh %y : f32
  return %t, %e, %f : f16, f16, f32
}

// PREMAP-LABEL: func.func @tensors
// PREMAP: %[[W:.*]] = arith.extf %arg0 : tensor<4xf16> to tensor<4xf32>
// PREMAP: %[[E:.*]] = math.exp %[[W]] : tensor<4xf32>
// PREMAP: arith.truncf %[[E]] : tensor<4xf32> to tensor<4xf16>
func.func @tensors(%x: tensor<4xf16>) -> tensor<4xf16> {
  %e = math.exp %x : tensor<4xf16>
  return %e : tensor<4xf16>
}

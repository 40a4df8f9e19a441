// RUN: ktflow-opt %S/Inputs/bias_loop_bf16_mesh_device.mlir --ktdf-widen-invariant-columns | FileCheck %s
// RUN: sed s/bf16/f16/g %S/Inputs/bias_loop_bf16_mesh_device.mlir | ktflow-opt --ktdf-widen-invariant-columns | FileCheck %s --check-prefix=F16

// examples/kernels/bias_loop.mlir in bf16 on mesh_device (Inputs: the
// ScheduleIR ktdf-widen-invariant-columns receives from `ktflow compile`
// of `sed s/f16/bf16/g` of it with
// --mlir-print-ir-before=ktdf-widen-invariant-columns). The VPU has no bf16
// lanes: ktdf-legalize-unit-types computes the body in f32, extending s
// and b inside it, on every row. s and b are loaded once per grid point
// (a pipeline before the row loop, not per_instance); a unit that holds
// bf16 in f32 (getHeldType) extends them once there instead: a second
// pipeline after it feeds their chunks to the VPU, which extends them,
// and the drain stores them into f32 buffers it exports. The rows read
// the f32 chunks and the body uses them where it used the extensions.

// CHECK: %[[SB:.*]]:2 = ktdf.pipeline modulo(size: 1) -> memref<128xbf16, "SPM">, memref<128xbf16, "SPM"> {
// CHECK: %[[WIDE:.*]]:2 = ktdf.pipeline modulo(size: 1) -> memref<128xf32, "SPM">, memref<128xf32, "SPM"> {
// CHECK: ktdf.stage "feed"
// CHECK: ktdf.data_transfer %[[SB]]#0[%{{.*}}] to %{{.*}} : memref<128xbf16, "SPM"> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 16xbf16>
// CHECK: ktdf.data_transfer %[[SB]]#1[%{{.*}}] to %{{.*}} : memref<128xbf16, "SPM"> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 16xbf16>
// CHECK: ktdf.stage "compute"
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: ktdf.stage "drain"
// CHECK: scf.for
// CHECK: ktdf.data_transfer %[[WIDE]]#0[%{{.*}}] to %[[S:.*]] : memref<128xf32, "SPM"> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 16xf32>
// CHECK-NEXT: ktdf.data_transfer %[[WIDE]]#1[%{{.*}}] to %[[B:.*]] : memref<128xf32, "SPM"> to !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 16xf32>
// CHECK: ktdf.stage "compute"
// CHECK: %[[X:.*]] = ktdf.read_from_fifo %{{.*}} -> tensor<16xbf16>
// CHECK-NEXT: %[[SC:.*]] = ktdf.read_from_fifo %[[S]] {{.*}} -> tensor<16xf32>
// CHECK-NEXT: %[[BC:.*]] = ktdf.read_from_fifo %[[B]] {{.*}} -> tensor<16xf32>
// CHECK: linalg.generic {{.*}} ins(%[[X]], %[[SC]], %[[BC]] : tensor<16xbf16>, tensor<16xf32>, tensor<16xf32>)
// CHECK-NEXT: ^bb0(%[[IX:.*]]: bf16, %[[IS:.*]]: f32, %[[IB:.*]]: f32, %{{.*}}: bf16):
// CHECK-NEXT: %[[XW:.*]] = arith.extf %[[IX]] : bf16 to f32
// CHECK-NEXT: arith.mulf %[[XW]], %[[IS]] : f32
// CHECK-NOT: arith.extf %[[IS]]
// CHECK-NOT: arith.extf %[[IB]]
// CHECK: arith.addf %{{.*}}, %[[IB]] : f32
// CHECK: linalg.yield

// f16, which the VPU computes, keeps the former rule (a per_instance
// exporter, an extension generic of its own): nothing changes.
// F16: ktdf.pipeline modulo(size: 1) -> memref<128xf16, "SPM">, memref<128xf16, "SPM"> {
// F16-NOT: xf32, "SPM">
// F16-NOT: 16xf32>

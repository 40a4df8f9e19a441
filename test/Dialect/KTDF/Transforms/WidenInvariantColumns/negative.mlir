// RUN: sed 's/ktdf_arch.bandwidth = 128 : i64, \(ktdf_arch.features = {ktdf_arch.feature.queue = {depth = 16 : i64, ordered}}, ktdf_arch.latency = 1 : i64} %%L1LU to %%SFU_Block\)/ktdf_arch.bandwidth = 64 : i64, \1/' %S/Inputs/layernorm_sample_device.mlir | ktflow-opt --ktdf-widen-invariant-columns | FileCheck %s
// RUN: sed 's/size = 1048576 : i64}/size = 18432 : i64}/' %S/Inputs/layernorm_sample_device.mlir | ktflow-opt --ktdf-widen-invariant-columns | FileCheck %s
// RUN: sed 's/size = 1048576 : i64}/size = 19456 : i64}/' %S/Inputs/layernorm_sample_device.mlir | ktflow-opt --ktdf-widen-invariant-columns | FileCheck %s --check-prefix=FITS
// RUN: ktflow-opt %S/Inputs/layernorm_mesh_device.mlir --ktdf-widen-invariant-columns | FileCheck %s --check-prefix=HELD

// layernorm.mlir's input where widening does not pay or does not fit:
// - the feed FIFO at 64 B/cycle: the 128 bytes an f32 chunk adds take it
//   2 cycles, as many as the SFU's extension of the chunk;
// - an L1 of 18432 bytes for the core's two lanes: their 8704 bytes each
//   fit, with 1 KiB more each (W and B in f32) they do not. 19456 bytes
//   hold them.
// On mesh_device (Inputs: the same kernel's ScheduleIR there) the VPU holds
// W and B widened (ktdf-tile-streams' hoistColumns): the compute stage
// reads and extends each chunk once an execution, outside its row loop,
// and nothing is left to gain.

// CHECK-NOT: xf32, "L1">
// CHECK: ktdf.pipeline modulo(size: 4) {
// CHECK-COUNT-6: arith.extf
// CHECK-NOT: xf32, "L1">

// FITS: ktdf.pipeline per_instance modulo(size: 1) -> memref<128xf32, "L1">, memref<128xf32, "L1">

// HELD: ktdf.pipeline per_instance modulo(size: 1) -> memref<128xf16, "SPM">, memref<128xf16, "SPM">
// HELD-NOT: per_instance
// HELD-NOT: xf32, "SPM">
// HELD: scf.for
// HELD: ktdf.read_from_fifo {{.*}} 32xf16> -> tensor<32xf16>

// RUN: sed '205s/linalg.yield %55/linalg.yield %out/' %S/Inputs/layernorm_sample_device.mlir | ktflow-opt --ktdf-widen-invariant-columns | FileCheck %s --check-prefix=KEEPW
// RUN: sed -f %S/Inputs/read-as-init.sed %S/Inputs/layernorm_sample_device.mlir | ktflow-opt --ktdf-widen-invariant-columns | FileCheck %s --check-prefix=KEEPW
// RUN: sed '98s/L1LU/L1SU/;117s/L1LU/L1SU/g;200s/L1LU/L1SU/;224s/L1LU/L1SU/' %S/Inputs/layernorm_sample_device.mlir | ktflow-opt --ktdf-widen-invariant-columns | FileCheck %s --check-prefix=UNIT
// RUN: sed -e 's/%L1SU to %L1 : exec_unit, memory/%L1SU to %DDR : exec_unit, memory/' -e 's/share(%L1)/share(%L1, %DDR)/' %S/Inputs/layernorm_sample_device.mlir | ktflow-opt --ktdf-widen-invariant-columns | FileCheck %s --check-prefix=MEMORY

// layernorm.mlir's input (the shipped layernorm on sample_device, where W
// and B are both widened) with one thing changed by hand:
// - KEEPW, first run: one extension of W (export 0, %slot_1) yields its
//   init instead of the extf: dropping it would change the result, so W
//   stays f16; B is widened.
// - KEEPW, second run (Inputs/read-as-init.sed): W's reads are the init of
//   an f8 -> f16 extension, not its input: W stays f16 (the pass before
//   this guard cloned that generic onto the f16 chunk: a verifier failure).
// - UNIT, B's chunks (%slot_2) reach the SFU through another unit than
//   W's: the one feed stage moves W's chunks only.
// - MEMORY, the lane's store unit drains into DDR while its load unit
//   feeds from L1: the widened buffers would live where the rows' feed does
//   not read, so nothing is widened.

// KEEPW: %[[WIDE:.*]] = ktdf.pipeline per_instance modulo(size: 1) -> memref<128xf32, "L1"> {
// KEEPW-NOT: per_instance
// KEEPW: ktdf.data_transfer %4#0[%arg6] to %slot_1 : memref<128xf16, "L1">
// KEEPW: ktdf.data_transfer %[[WIDE]][%arg6] to %slot_2 : memref<128xf32, "L1">

// UNIT: %[[WIDE:.*]] = ktdf.pipeline per_instance modulo(size: 1) -> memref<128xf32, "L1"> {
// UNIT-NOT: per_instance
// UNIT: ktdf.data_transfer %[[WIDE]][%arg6] to %slot_1 : memref<128xf32, "L1">
// UNIT: ktdf.data_transfer %4#1[%arg6] to %slot_2 : memref<128xf16, "L1">

// MEMORY: ktdf.pipeline per_instance modulo(size: 1) -> memref<128xf16, "L1">, memref<128xf16, "L1">
// MEMORY-NOT: per_instance
// MEMORY-NOT: xf32, "L1">
// MEMORY-COUNT-6: arith.extf

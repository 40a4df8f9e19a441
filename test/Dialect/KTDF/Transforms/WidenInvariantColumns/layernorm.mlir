// RUN: ktflow-opt %S/Inputs/layernorm_sample_device.mlir --ktdf-widen-invariant-columns | FileCheck %s

// The shipped layernorm on sample_device (Inputs: the ScheduleIR
// ktdf-widen-invariant-columns receives from `ktflow compile
// examples/kernels/layernorm.mlir --arch sample_device
// --mlir-print-ir-before=ktdf-widen-invariant-columns`). W and B are loaded
// once per lane (a per_instance pipeline), but the SFU_RF cannot hold them
// widened beside a row, so the compute stage extends two chunks of each on
// every row: 2 cycles a chunk on the SFU (32 f32 lanes) against 1 cycle of
// the feed FIFO (128 B/cycle) for the 128 bytes an f32 chunk adds. A second
// per_instance pipeline widens them once: the feed sends the f16 chunks,
// the SFU extends each and the drain stores it into an f32 buffer it
// exports; the rows' feed reads the f32 chunks and the compute stage uses
// them as read.

// CHECK: %[[WB:.*]]:2 = ktdf.pipeline per_instance modulo(size: 1) -> memref<128xf16, "L1">, memref<128xf16, "L1"> {
// CHECK: %[[WIDE:.*]]:2 = ktdf.pipeline per_instance modulo(size: 1) -> memref<128xf32, "L1">, memref<128xf32, "L1"> {
// CHECK-NEXT: %[[WBUF:.*]] = ktdf.private export 0 : memref<128xf32, "L1">
// CHECK-NEXT: %[[WIN:.*]] = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
// CHECK-NEXT: %[[WOUT:.*]] = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf32>
// CHECK-NEXT: %[[BBUF:.*]] = ktdf.private export 1 : memref<128xf32, "L1">
// CHECK-NEXT: %[[BIN:.*]] = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf16>
// CHECK-NEXT: %[[BOUT:.*]] = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 64xf32>
// CHECK-NEXT: %[[FED:.*]] = ktdf.stage "feed" depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: ktdf.data_transfer %[[WB]]#0[%[[C]]] to %[[WIN]]
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: ktdf.data_transfer %[[WB]]#1[%[[C]]] to %[[BIN]]
// CHECK: %[[EXT:.*]] = ktdf.stage "compute" depends_in(%[[FED]]) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
// CHECK: scf.for
// CHECK-NEXT: %[[R:.*]] = ktdf.read_from_fifo %[[WIN]] : {{.*}} -> tensor<64xf16>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<64xf32>
// CHECK-NEXT: %[[G:.*]] = linalg.generic {{.*}} ins(%[[R]] : tensor<64xf16>) outs(%[[E]] : tensor<64xf32>) {
// CHECK: arith.extf
// CHECK: ktdf.write_to_fifo %[[G]] to %[[WOUT]]
// CHECK: ktdf.read_from_fifo %[[BIN]]
// CHECK: ktdf.write_to_fifo %{{.*}} to %[[BOUT]]
// CHECK: ktdf.stage "drain" depends_in(%[[EXT]]) depends_out(0) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: ktdf.data_transfer %[[WOUT]] to %[[WBUF]][%[[C]]]
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: ktdf.data_transfer %[[BOUT]] to %[[BBUF]][%[[C]]]

// The rows: the slots carry f32, the feed reads the widened exports and
// the compute stage extends only X.
// CHECK: ktdf.pipeline modulo(size: 4) {
// CHECK: %[[WS:.*]] = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf32>
// CHECK-NEXT: %[[BS:.*]] = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 64xf32>
// CHECK: ktdf.stage "feed"
// CHECK: ktdf.data_transfer %[[WIDE]]#0[%[[J:.*]]] to %[[WS]] : memref<128xf32, "L1"> to
// CHECK-NEXT: ktdf.data_transfer %[[WIDE]]#1[%[[J]]] to %[[BS]] : memref<128xf32, "L1"> to
// CHECK: ktdf.stage "compute"
// CHECK-COUNT-2: arith.extf
// CHECK-NOT: arith.extf
// CHECK: %[[W0:.*]] = ktdf.read_from_fifo %[[WS]] : {{.*}} -> tensor<64xf32>
// CHECK-NEXT: %[[B0:.*]] = ktdf.read_from_fifo %[[BS]] : {{.*}} -> tensor<64xf32>
// CHECK-NEXT: tensor.empty() : tensor<64xf16>
// CHECK-NEXT: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %[[W0]], %[[B0]] : tensor<64xf32>, tensor<f32>, tensor<64xf32>, tensor<64xf32>)
// CHECK-NOT: arith.extf
// CHECK: ktdf.stage "drain"

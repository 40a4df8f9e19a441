// RUN: ktflow emit %s --arch %examples/devices/sample_device.mlir -o %t.ktfb
// RUN: not ktflow sim %t.ktfb --input x=zeros 2>&1 | FileCheck %s

// Two ways to deadlock: the SFU receives two entries from a FIFO whose
// producer sends one, and the DMA units each wait for the other's token
// before sending their own. The report names every blocked unit, the op of
// this file it is stopped at and what it waits on; the run fails instead of
// hanging.

// CHECK: error: {{.*}}simulation failed: deadlock at cycle 6: no unit can make progress
// CHECK-DAG: core[0]/MNILU_Block/MNILU (instruction 0, sync_recv, at {{.*}}deadlock.mlir:23:5) waits for a token of sync 'b' from core[0]/MNISU_Block/MNISU
// CHECK-DAG: core[0]/MNISU_Block/MNISU (instruction 0, sync_recv, at {{.*}}deadlock.mlir:27:5) waits for a token of sync 'a' from core[0]/MNILU_Block/MNILU
// CHECK-DAG: core[0]/subcore[0]/SFU_Block/SFU (instruction 1, recv, at {{.*}}deadlock.mlir:37:10) waits to receive from FIFO 'to_sfu' (empty; its producer is core[0]/subcore[0]/L1LU)
// CHECK-NOT: L1LU (instruction

dfir.kernel @deadlock device "sample_device" {
  dfir.tensor input @x : tensor<64xf16> in "DDR"
  dfir.fifo @to_sfu from "core[0]/subcore[0]/L1LU" to "core[0]/subcore[0]/SFU_Block/SFU" entry 128
  dfir.sync @a from "core[0]/MNILU_Block/MNILU" to "core[0]/MNISU_Block/MNISU"
  dfir.sync @b from "core[0]/MNISU_Block/MNISU" to "core[0]/MNILU_Block/MNILU"

  dfir.unit "core[0]/MNILU_Block/MNILU" {
    dfir.sync_recv @b
    dfir.sync_send @a
  }
  dfir.unit "core[0]/MNISU_Block/MNISU" {
    dfir.sync_recv @a
    dfir.sync_send @b
  }
  dfir.unit "core[0]/subcore[0]/L1LU" {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    dfir.load @to_sfu from "core[0]/L1"[%c0] size %c128
  }
  dfir.unit "core[0]/subcore[0]/SFU_Block/SFU" {
    %v = dfir.recv @to_sfu : vector<64xf16>
    %w = dfir.recv @to_sfu : vector<64xf16>
  }
}

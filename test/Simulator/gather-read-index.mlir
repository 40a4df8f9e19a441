// RUN: python3 %S/Inputs/check_npy.py --write %t.idx.npy "<i4" 4 "(5, 0, 7, 2)[i]"
// RUN: ktflow emit %s --arch %examples/devices/sample_device.mlir -o %t.ktfb
// RUN: ktflow sim %t.ktfb --input table=seq:0:256 --input idx=%t.idx.npy --output y=%t.y.npy | FileCheck %s
// RUN: python3 %S/Inputs/check_npy.py %t.y.npy "(5, 0, 7, 2)[i // 32] * 32 + i % 32" 128
// RUN: ktflow inspect %t.ktfb | FileCheck %s --check-prefix=INSPECT
// RUN: python3 %S/Inputs/check_npy.py --write %t.bad.npy "<i4" 4 "(5, 0, 8, 2)[i]"
// RUN: not ktflow sim %t.ktfb --input table=seq:0:256 --input idx=%t.bad.npy 2>&1 | FileCheck %s --check-prefix=BAD

// An index-gated gather, as the scheduler lowers a gather of table rows:
// y[r, :] = table[idx[r], :] for r < 4, rows of 32 f16 (64 bytes). Per row
// the DMA load unit reads the row's index from DDR (dfir.read_index,
// bounds-checked against the table's 8 rows), computes the row's address
// and moves it into L1 with one DMA; then the store unit writes the 4 rows
// back.
//
// Hand-computed on sample_device (DDR -> MNILU 64 B/cycle, latency 100;
// MNILU -> L1 64 B/cycle, latency 2; the DMA units keep 4 transfers in
// flight, so a DMA's unit moves on once its bytes have left):
//   per row: read_index of 4 bytes: 4/64 + 100 = 100.0625 cycles (the unit
//     waits for the value); dma of 64 bytes: 1 cycle to leave, lands 102
//     later: 101.0625 cycles per row
//   4 rows: the last DMA leaves at 404.25 and lands at 506.25
//   sync token: 1 cycle after the last landing -> 507.25
//   store: 256 bytes L1 -> MNISU -> DDR in 4 chunks of 1 cycle, landing
//     2 + 100 later: 507.25 + 4 + 102 = 613.25 cycles
// The load unit is busy throughout (the reads, the DMAs' bytes leaving,
// then halt waiting for the last landing): 506.25 cycles, 272 bytes (16 of
// indices, 256 of rows).
// CHECK: cycles: 614
// CHECK: core[0]/MNILU_Block/MNILU 506 0 507 {{[0-9.]+}} 272

// INSPECT: read_index s{{[0-9]+}} = i32 DDR[s{{[0-9]+}}] below s{{[0-9]+}}

// An index past the table's rows stops the run, naming the unit, the
// instruction, the address and the value.
// BAD: error: {{.*}}: simulation failed: core[0]/MNILU_Block/MNILU (instruction {{[0-9]+}}, read_index, cycle 202, at {{.*}}gather-read-index.mlir:57:12): index 8 read from DDR[{{[0-9]+}}] is outside [0, 8) of the tensor it addresses

dfir.kernel @gather device "sample_device" {
  dfir.tensor input @table : tensor<8x32xf16> in "DDR"
  dfir.tensor input @idx : tensor<4xi32> in "DDR"
  dfir.tensor output @y : tensor<4x32xf16> in "DDR"
  dfir.buffer @rows in "core[0]/L1" size 256
  dfir.sync @gathered from "core[0]/MNILU_Block/MNILU" to "core[0]/MNISU_Block/MNISU"

  dfir.unit "core[0]/MNILU_Block/MNILU" {
    %table = dfir.address @table
    %idx = dfir.address @idx
    %rows = dfir.address @rows
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    scf.for %r = %c0 to %c4 step %c1 {
      %r4 = arith.muli %r, %c4 : index
      %at = arith.addi %idx, %r4 : index
      %i = dfir.read_index "DDR"[%at] : i32 below %c8
      %i64 = arith.muli %i, %c64 : index
      %src = arith.addi %table, %i64 : index
      %r64 = arith.muli %r, %c64 : index
      %dst = arith.addi %rows, %r64 : index
      dfir.dma %c64 bytes from "DDR"[%src] to "core[0]/L1"[%dst]
    }
    dfir.sync_send @gathered
  }
  dfir.unit "core[0]/MNISU_Block/MNISU" {
    %y = dfir.address @y
    %rows = dfir.address @rows
    %c256 = arith.constant 256 : index
    dfir.sync_recv @gathered
    dfir.dma %c256 bytes from "core[0]/L1"[%rows] to "DDR"[%y]
  }
}

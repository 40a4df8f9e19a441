// RUN: ktflow emit %s --arch %S/Inputs/outstanding_device.mlir -o %t.ktfb
// RUN: ktflow sim %t.ktfb --input x=seq:0:2048 --output y=%t.y.npy --trace %t.json | FileCheck %s
// RUN: python3 %S/Inputs/check_npy.py %t.y.npy "1024 + 512 * (i // 512) + i % 512 if i % 512 < 192 else 0" 1024
// RUN: FileCheck %s --check-prefix=TRACE < %t.json
// RUN: ktflow inspect %t.ktfb | FileCheck %s --check-prefix=INSPECT
// RUN: sed -e 's#core/SLOW#core/FAST#' %s > %t.fast.mlir
// RUN: ktflow emit %t.fast.mlir --arch %S/Inputs/outstanding_device.mlir -o %t.fast.ktfb
// RUN: ktflow sim %t.fast.ktfb --input x=seq:0:2048 --output y=%t.yf.npy | FileCheck %s --check-prefix=FAST
// RUN: python3 %S/Inputs/check_npy.py %t.yf.npy "1024 + 512 * (i // 512) + i % 512 if i % 512 < 192 else 0" 1024

// dfir.fill: a masked load as the DMA lowering emits it. The 2 x 512 f16
// buffer first holds stale data (x[0:1024]); a strided fill zeroes columns
// 192-511 of both rows (640 bytes x 2 rows, 1024 bytes apart), then a DMA
// loads the valid 192 columns of both rows from x[1024:2048]; the buffer
// is stored to y. y = the loaded columns, 0 where the fill wrote.
//
// Hand-computed (outstanding_device: unit <-> L1 64 B/cycle, latency 2;
// DDR <-> unit 64 B/cycle, latency 100; 128-byte chunks), on SLOW, which
// waits for each transfer's last byte:
//   dma  2048 B DDR -> L1: 32 + 100 + 2                      = 134
//   fill 1280 B unit -> L1: 10 chunks of 2 cycles + 2         +  22 -> 156
//   dma  2 x 384 B DDR -> L1: 6 chunks of 2 cycles + 102      + 114 -> 270
//   dma  2048 B L1 -> DDR: 32 + 2 + 100                       + 134 -> 404
// CHECK: cycles: 404
// CHECK: core/SLOW 404 0 404 {{.*}} 6144 {{[0-9]+}}

// The fill is a transfer of its own in the trace.
// TRACE: "name":"fill","cat":"busy","ph":"X","pid":0,"tid":{{[0-9]+}},"ts":0.134,"dur":0.022,"args":{"bytes":1280}

// INSPECT: fill s{{[0-9]+}} bytes x s{{[0-9]+}} rows to core/L1[s{{[0-9]+}}] stride s{{[0-9]+}}

// On FAST (4 transfers in flight) each transfer still waits for those in
// flight whose bytes it overwrites or reads: the fill for the first load
// (lands at 134), issuing 134-154 and landing at 156. The masked load writes
// bytes 0-383 of each row, the fill 384-1023: no byte in common (their boxes
// overlap, their rows do not), so it issues at once, 154-166, and lands at
// 268; the store waits for it, issuing 268-300 and landing at 402.
// Busy 32 + 20 + 12 + 32 + 102 (halt) = 198; stalled 102 + 102 = 204.
// FAST: cycles: 402
// FAST: core/FAST 198 204 402

dfir.kernel @fill device "outstanding_device" {
  dfir.tensor input @x : tensor<2048xf16> in "DDR"
  dfir.tensor output @y : tensor<1024xf16> in "DDR"
  dfir.buffer @buf in "core/L1" size 2048

  dfir.unit "core/SLOW" {
    %x = dfir.address @x
    %y = dfir.address @y
    %buf = dfir.address @buf
    %c2 = arith.constant 2 : index
    %c384 = arith.constant 384 : index
    %c640 = arith.constant 640 : index
    %c1024 = arith.constant 1024 : index
    %c2048 = arith.constant 2048 : index
    dfir.dma %c2048 bytes from "DDR"[%x] to "core/L1"[%buf]
    %masked = arith.addi %buf, %c384 : index
    dfir.fill %c640 bytes to "core/L1"[%masked] rows %c2 stride %c1024
    %valid = arith.addi %x, %c2048 : index
    dfir.dma %c384 bytes from "DDR"[%valid] to "core/L1"[%buf] rows %c2 strides %c1024, %c1024
    dfir.dma %c2048 bytes from "core/L1"[%buf] to "DDR"[%y]
  }
}

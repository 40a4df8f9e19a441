// RUN: ktflow emit %s --arch %S/Inputs/outstanding_device.mlir -o %t.ktfb
// RUN: ktflow sim %t.ktfb --input x=seq:0:768 --output y=%t.y.npy --trace %t.json | FileCheck %s
// RUN: python3 %S/Inputs/check_npy.py %t.y.npy "512 + 64 * (i // 128) + i % 128 if i % 128 < 64 else 192 + 64 * (i // 128) + i % 128" 512
// RUN: FileCheck %s --check-prefix=TRACE < %t.json
// RUN: sed -e 's/max_outstanding = 4/max_outstanding = 1/' %S/Inputs/outstanding_device.mlir > %t.one.mlir
// RUN: ktflow emit %s --arch %t.one.mlir -o %t.one.ktfb
// RUN: ktflow sim %t.one.ktfb --input x=seq:0:768 --output y=%t.y1.npy | FileCheck %s --check-prefix=ONE
// RUN: python3 %S/Inputs/check_npy.py %t.y1.npy "512 + 64 * (i // 128) + i % 128 if i % 128 < 64 else 192 + 64 * (i // 128) + i % 128" 512

// Strided DMAs in flight wait for each other only when their rows share
// bytes, not when their bounding boxes do. FAST (4 transfers in flight)
// fills a 4 x 256-byte L1 buffer by halves, the way a transposed or
// column-blocked load does, from contiguous 128-byte rows of x:
//   A: x bytes [0, 512)     -> bytes [0, 128) of each buffer row
//   B: x bytes [512, 1024)  -> bytes [128, 256) of each row
//   C: x bytes [1024, 1536) -> bytes [0, 128) of each row again
// then stores the buffer to y. A and B interleave (their boxes overlap,
// their rows do not); C overwrites A's rows and must land after A, so y
// holds C's and B's halves: y[r, e] = x[512 + 64 r + e] for e < 64,
// x[256 + 64 r + e - 64] otherwise (A's values would show a wrong order).
//
// Hand-computed (outstanding_device: 64 B/cycle on both sides of the
// engine, latency DDR -> FAST 100 and FAST <-> L1 2; 128-byte rows are one
// chunk of 2 cycles each):
//   A issues 0-8 (4 rows), lands 8 + 102 = 110.
//   B shares no byte with A: issues 8-16 at once, lands 118.
//   C shares A's bytes: waits for A (110), not for B, issues 110-118 and
//     lands 220.
//   the store reads the whole buffer: B has landed, C not; it waits until
//     220, issues 1024 B in 16 cycles (220-236) and lands 338, when FAST,
//     halted, finishes. Busy 8 + 8 + 8 + 16 + (338 - 236) = 142; stalled
//     (110 - 16) + (220 - 118) = 196.
// With bounding boxes B would wait for A and C for B: 448, as with one
// transfer in flight below.
// CHECK: cycles: 338
// CHECK: core/FAST 142 196 338 {{.*}} 2560

// B issues at cycle 8, right after A (trace times are in microseconds at
// 1 GHz).
// TRACE: "name":"dma","cat":"busy","ph":"X","pid":0,"tid":{{[0-9]+}},"ts":0.008,"dur":0.008

// One transfer at a time: A 0-8 lands 110, B 110-118 lands 220, C 220-228
// lands 330, the store 330-346 lands 448.
// ONE: cycles: 448
// ONE: core/FAST 448 0 448

dfir.kernel @strided device "outstanding_device" {
  dfir.tensor input @x : tensor<768xf16> in "DDR"
  dfir.tensor output @y : tensor<512xf16> in "DDR"
  dfir.buffer @buf in "core/L1" size 1024

  dfir.unit "core/FAST" {
    %x = dfir.address @x
    %y = dfir.address @y
    %buf = dfir.address @buf
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
    %c1024 = arith.constant 1024 : index
    dfir.dma %c128 bytes from "DDR"[%x] to "core/L1"[%buf] rows %c4 strides %c128, %c256
    %xb = arith.addi %x, %c512 : index
    %right = arith.addi %buf, %c128 : index
    dfir.dma %c128 bytes from "DDR"[%xb] to "core/L1"[%right] rows %c4 strides %c128, %c256
    %xc = arith.addi %x, %c1024 : index
    dfir.dma %c128 bytes from "DDR"[%xc] to "core/L1"[%buf] rows %c4 strides %c128, %c256
    dfir.dma %c1024 bytes from "core/L1"[%buf] to "DDR"[%y]
  }
}

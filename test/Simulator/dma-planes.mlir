// RUN: ktflow emit %s --arch %S/Inputs/outstanding_device.mlir -o %t.ktfb
// RUN: ktflow inspect %t.ktfb | FileCheck %s --check-prefix=CODE
// RUN: ktflow sim %t.ktfb --input x=seq:0:128 --output y=%t.y.npy | FileCheck %s
// RUN: python3 %S/Inputs/check_npy.py %t.y.npy "(i % 8) * 16 + i // 8" 128
// RUN: ktflow sim %t.ktfb --input x=seq:0:128 --races | FileCheck %s

// A transposed block in one DMA of planes of rows: x is 8 keys of 16 f16
// dimensions (key k's at byte 32k); the buffer holds its transpose, 16
// rows of 8 keys (dimension d's row at byte 16d). FAST moves it as 8
// planes (the keys: 32 bytes apart in x, 2 in the buffer) of 16 rows of
// one element (2 bytes apart in x, 16 in the buffer), then stores the
// buffer to y: y[i] = x[(i mod 8) * 16 + i div 8].
// CODE: dma s{{[0-9]+}} bytes x s{{[0-9]+}} rows from DDR[s{{[0-9]+}}] to core/L1[s{{[0-9]+}}] strides s{{[0-9]+}}, s{{[0-9]+}} x s{{[0-9]+}} planes strides s{{[0-9]+}}, s{{[0-9]+}}

// Hand-computed (outstanding_device: 64 B/cycle, latency DDR -> FAST 100,
// FAST <-> L1 2): the block is one transfer, 256 bytes in 4 cycles, landed
// at 4 + 102 = 106 (as 8 DMAs of a column, 4 in flight, the fifth would
// wait for the first to land: 0.5 + 102 each, two rounds). The store reads
// bytes the block writes: it waits until 106, moves 256 bytes in 4 cycles
// and lands at 110 + 102 = 212.
// CHECK: cycles: 212

dfir.kernel @planes device "outstanding_device" {
  dfir.tensor input @x : tensor<128xf16> in "DDR"
  dfir.tensor output @y : tensor<128xf16> in "DDR"
  dfir.buffer @buf in "core/L1" size 256

  dfir.unit "core/FAST" {
    %x = dfir.address @x
    %y = dfir.address @y
    %buf = dfir.address @buf
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c256 = arith.constant 256 : index
    dfir.dma %c2 bytes from "DDR"[%x] to "core/L1"[%buf] rows %c16 strides %c2, %c16 planes %c8 strides %c32, %c2
    dfir.dma %c256 bytes from "core/L1"[%buf] to "DDR"[%y]
  }
}

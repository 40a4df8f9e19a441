// RUN: ktflow emit %s --arch %examples/devices/sample_device.mlir -o %t.ktfb
// RUN: ktflow inspect %t.ktfb | FileCheck %s --check-prefix=INSPECT
// RUN: ktflow sim %t.ktfb --input x=seq:-3:4 --output y=%t.y.npy | FileCheck %s
// RUN: python3 %S/Inputs/check_npy.py %t.y.npy "100 + sum(-3 + (i * 128 + j) % 7 for j in range(128))" 16

// Row sums of a 16x128 f32 matrix plus 100 (x[r][c] = -3 + (128 r + c)
// mod 7: every partial sum is exact), each row in two chunks of 64: the
// first chunk's reduce starts from a splat of 100, the second from the
// first's result, so no one-element map folds a chunk's sum in. The
// instruction carries the initial accumulator (printed `from`), and the
// reduce costs what one without it does: ceil(64 / 32) = 2 cycles of the
// SFU's 32 f32 lanes, 4 a row, 64 busy cycles in all (the 16 sends of 4
// bytes add 1/32 each).

// INSPECT: reduce.add [[A:v[0-9]+]] = {{v[0-9]+}} from {{v[0-9]+}} : vector<1xf32>
// INSPECT: reduce.add {{v[0-9]+}} = {{v[0-9]+}} from [[A]] : vector<1xf32>

// CHECK: core[0]/subcore[0]/SFU_Block/SFU 65

dfir.kernel @row_sum device "sample_device" {
  dfir.tensor input @x : tensor<16x128xf32> in "DDR"
  dfir.tensor output @y : tensor<16xf32> in "DDR"
  dfir.buffer @in in "core[0]/L1" size 8192
  dfir.buffer @out in "core[0]/L1" size 64
  dfir.fifo @to_sfu from "core[0]/subcore[0]/L1LU" to "core[0]/subcore[0]/SFU_Block/SFU" entry 256
  dfir.fifo @from_sfu from "core[0]/subcore[0]/SFU_Block/SFU" to "core[0]/subcore[0]/L1SU" entry 128
  dfir.sync @loaded from "core[0]/MNILU_Block/MNILU" to "core[0]/subcore[0]/L1LU"
  dfir.sync @stored from "core[0]/subcore[0]/L1SU" to "core[0]/MNISU_Block/MNISU"

  dfir.unit "core[0]/MNILU_Block/MNILU" {
    %x = dfir.address @x
    %in = dfir.address @in
    %n = arith.constant 8192 : index
    dfir.dma %n bytes from "DDR"[%x] to "core[0]/L1"[%in]
    dfir.sync_send @loaded
  }
  dfir.unit "core[0]/subcore[0]/L1LU" {
    %in = dfir.address @in
    %n = arith.constant 8192 : index
    dfir.sync_recv @loaded
    dfir.load @to_sfu from "core[0]/L1"[%in] size %n
  }
  dfir.unit "core[0]/subcore[0]/SFU_Block/SFU" {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    scf.for %r = %c0 to %c16 step %c1 {
      %start = dfir.splat 100.0 : vector<1xf32>
      %v0 = dfir.recv @to_sfu : vector<64xf32>
      %a = dfir.reduce add %v0 from %start : vector<64xf32> -> vector<1xf32>
      %v1 = dfir.recv @to_sfu : vector<64xf32>
      %b = dfir.reduce add %v1 from %a : vector<64xf32> -> vector<1xf32>
      dfir.send @from_sfu, %b : vector<1xf32>
    }
  }
  dfir.unit "core[0]/subcore[0]/L1SU" {
    %out = dfir.address @out
    %n = arith.constant 64 : index
    dfir.store @from_sfu to "core[0]/L1"[%out] size %n
    dfir.sync_send @stored
  }
  dfir.unit "core[0]/MNISU_Block/MNISU" {
    %out = dfir.address @out
    %y = dfir.address @y
    %n = arith.constant 64 : index
    dfir.sync_recv @stored
    dfir.dma %n bytes from "core[0]/L1"[%out] to "DDR"[%y]
  }
}
